/* oop.c — true out-of-place transforms on the C per-call path:
 *  1. out of place (out != in) equals in place, forward and inverse, on device buffers
 *     and on native memory (cl_mem, CUdeviceptr, VkBuffer), and leaves in unchanged;
 *  2. it runs the plan's out-of-place kernels, not a copy of in into out and a transform
 *     there: the kernels are compiled (or loaded) exactly once, at the plan's first
 *     out-of-place call (kernel cache misses + hits), and on OpenCL this program counts
 *     the library's clEnqueueCopyBuffer calls (it defines the function, which the
 *     library's reference binds to, and forwards it): none for C2C out of place, one per
 *     call for a plan that has no out-of-place kernels (R2R, the control);
 *  3. after that first call, out-of-place calls never enter the library's Go runtime
 *     and make no device allocation (memory and allocation-cache stats flat); a plan
 *     leased again from the plan cache has its out-of-place kernels from the start;
 *  4. two threads making a plan's first out-of-place calls at once, and a plan destroyed
 *     while its first out-of-place call builds the kernels: right answers or
 *     VKFFTGO_ERROR_INVALID_HANDLE, never a crash, the kernels built once.
 *   cc -pthread oop.c $(pkg-config --cflags --libs vkfftgo) -ldl -lm */
#define _GNU_SOURCE /* RTLD_NEXT, mkdtemp, sigaltstack */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static vkfftgo_device *dev;

#define FAIL(...) fail_now(__VA_ARGS__)
static void fail_now(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail_now(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "oop: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* ---- counting the library's device-to-device copies (OpenCL) ---- */
#if VKFFTGO_BACKEND == 3
static int copies;
typedef int32_t (*copy_buffer_fn)(void *, void *, void *, size_t, size_t, size_t, uint32_t, const void *,
				  void *);
/* clEnqueueCopyBuffer, as cl.h declares it (cl_int, cl_command_queue, cl_mem, ...) */
int32_t clEnqueueCopyBuffer(void *queue, void *src, void *dst, size_t src_offset, size_t dst_offset, size_t size,
			    uint32_t nwait, const void *wait, void *event);
int32_t clEnqueueCopyBuffer(void *queue, void *src, void *dst, size_t src_offset, size_t dst_offset, size_t size,
			    uint32_t nwait, const void *wait, void *event)
{
	static copy_buffer_fn next;
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "clEnqueueCopyBuffer");
	if (!next)
		FAIL("clEnqueueCopyBuffer not found after this program (%s)", dlerror());
	__atomic_fetch_add(&copies, 1, __ATOMIC_RELAXED);
	return next(queue, src, dst, src_offset, dst_offset, size, nwait, wait, event);
}
static int copies_now(void) { return __atomic_load_n(&copies, __ATOMIC_RELAXED); }
#define COUNTS_COPIES 1
#else
static int copies_now(void) { return 0; }
#define COUNTS_COPIES 0
#endif

/* ---- native memory of the backend ---- */
#if VKFFTGO_BACKEND == 3
typedef struct _cl_mem *native;
static native native_of(vkfftgo_buffer *b)
{
	native m = NULL;
	CHECK(vkfftgo_buffer_cl_mem(b, &m));
	return m;
}
#define EXECUTE_NATIVE vkfftgo_execute_cl
#elif VKFFTGO_BACKEND == 1
typedef uint64_t native;
static native native_of(vkfftgo_buffer *b)
{
	native m = 0;
	CHECK(vkfftgo_buffer_cu_ptr(b, &m));
	return m;
}
#define EXECUTE_NATIVE vkfftgo_execute_cu
#else
typedef struct VkBuffer_T *native;
static native native_of(vkfftgo_buffer *b)
{
	native m = NULL;
	CHECK(vkfftgo_buffer_vk_buffer(b, &m));
	return m;
}
#define EXECUTE_NATIVE vkfftgo_execute_vk
#endif

/* The Go runtime gives a C thread an alternate signal stack the first time the thread
 * calls into Go (handles.c): a fresh thread that has none has never entered Go. */
static int has_signal_stack(void)
{
	stack_t st;
	sigaltstack(NULL, &st);
	return !(st.ss_flags & SS_DISABLE);
}

static int64_t kernels_built(void)
{
	vkfftgo_kernel_cache_stats ks = VKFFTGO_KERNEL_CACHE_STATS_INIT;
	CHECK(vkfftgo_kernel_cache_get_stats(&ks));
	return ks.misses + ks.hits; /* plans compiled, plus plans loaded from the disk */
}

static vkfftgo_plan *make_plan(int kind, int rank, const int64_t *shape, int64_t batch)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p = NULL;
	desc.kind = kind;
	desc.rank = rank;
	for (int i = 0; i < rank; i++)
		desc.shape[i] = shape[i];
	desc.batch = batch;
	desc.tune = VKFFTGO_TUNE_OFF;
	if (kind == VKFFTGO_R2R)
		desc.r2r_kind = VKFFTGO_DCT2;
	CHECK(vkfftgo_plan_create(dev, &desc, &p));
	return p;
}

/* the largest difference between two arrays of float (dbl 0) or double values */
static double max_diff(const void *a, const void *b, size_t bytes, int dbl)
{
	double m = 0, d;
	for (size_t i = 0; i < bytes / (dbl ? 8 : 4); i++) {
		d = dbl ? fabs(((const double *)a)[i] - ((const double *)b)[i])
			: fabs((double)((const float *)a)[i] - ((const float *)b)[i]);
		if (!(d <= m))
			m = d; /* NaN too */
	}
	return m;
}

static double max_abs(const void *a, size_t bytes, int dbl)
{
	double m = 0, v;
	for (size_t i = 0; i < bytes / (dbl ? 8 : 4); i++) {
		v = dbl ? fabs(((const double *)a)[i]) : fabs((double)((const float *)a)[i]);
		if (v > m)
			m = v;
	}
	return m;
}

/* A plan with two device buffers and host data for them. */
struct fix {
	vkfftgo_plan *p;
	vkfftgo_buffer *a, *b;
	size_t bytes;
	int dbl;
	void *x, *ref[2], *got, *src; /* ref: in place, [0] forward, [1] inverse */
};

static void fix_make(struct fix *f, vkfftgo_plan *p, int dbl, size_t seed)
{
	size_t in_bytes;
	memset(f, 0, sizeof *f);
	f->p = p;
	f->dbl = dbl;
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &f->bytes, &in_bytes));
	f->x = malloc(f->bytes);
	f->ref[0] = malloc(f->bytes);
	f->ref[1] = malloc(f->bytes);
	f->got = malloc(f->bytes);
	f->src = malloc(f->bytes);
	for (size_t i = 0; i < f->bytes / (dbl ? 8 : 4); i++) {
		if (dbl)
			((double *)f->x)[i] = test_value(i + seed);
		else
			((float *)f->x)[i] = (float)test_value(i + seed);
	}
	CHECK(vkfftgo_buffer_create(dev, f->bytes, &f->a));
	CHECK(vkfftgo_buffer_create(dev, f->bytes, &f->b));
	/* the in-place references, before any out-of-place call */
	for (int k = 0; k < 2; k++) {
		CHECK(vkfftgo_buffer_upload(f->a, f->x, f->bytes));
		CHECK(vkfftgo_execute_buffer(p, k ? VKFFTGO_INVERSE : VKFFTGO_FORWARD, f->a, f->a));
		CHECK(vkfftgo_buffer_download(f->a, f->ref[k], f->bytes));
	}
}

static void fix_free(struct fix *f)
{
	CHECK(vkfftgo_buffer_destroy(f->a)); /* NULL: nothing */
	CHECK(vkfftgo_buffer_destroy(f->b));
	free(f->x);
	free(f->ref[0]);
	free(f->ref[1]);
	free(f->got);
	free(f->src);
}

/* whether got is ref, to rounding (the two runs use different kernels) */
static int close_to(const struct fix *f, const void *got, const void *ref)
{
	double scale = max_abs(ref, f->bytes, f->dbl);
	return max_diff(got, ref, f->bytes, f->dbl) <= (f->dbl ? 1e-12 : 1e-5) * (scale > 1 ? scale : 1);
}

/* a -> b out of place in direction k (0 forward, 1 inverse), through buffers or native
 * memory; b holds stale data first. Checks b against the in-place result and a against
 * the input. */
static void oop_check(struct fix *f, int k, int use_native, const char *what)
{
	int dir = k ? VKFFTGO_INVERSE : VKFFTGO_FORWARD;
	const char *how = use_native ? "native memory" : "buffers";
	CHECK(vkfftgo_buffer_upload(f->a, f->x, f->bytes));
	CHECK(vkfftgo_buffer_upload(f->b, f->ref[!k], f->bytes));
	if (use_native)
		CHECK(EXECUTE_NATIVE(f->p, dir, native_of(f->b), native_of(f->a)));
	else
		CHECK(vkfftgo_execute_buffer(f->p, dir, f->b, f->a));
	CHECK(vkfftgo_buffer_download(f->b, f->got, f->bytes));
	CHECK(vkfftgo_buffer_download(f->a, f->src, f->bytes));
	if (!close_to(f, f->got, f->ref[k]))
		FAIL("%s %s out of place (%s) differs from in place by %g", what, k ? "inverse" : "forward", how,
		     max_diff(f->got, f->ref[k], f->bytes, f->dbl));
	if (memcmp(f->src, f->x, f->bytes) != 0)
		FAIL("%s %s out of place (%s) changed its input", what, k ? "inverse" : "forward", how);
}

/* ---- 1, 2: results, kernels built once, no copies ---- */
static void results_and_no_copy(void)
{
	const int64_t shape3[3] = {8, 16, 32}, shape1[1] = {256};
	struct fix f;
	int64_t before;
	int c0;

	f.p = make_plan(VKFFTGO_C2C, 3, shape3, 2);
	fix_make(&f, f.p, 0, 1);
	before = kernels_built();
	c0 = copies_now();
	oop_check(&f, 0, 0, "C2C 8x16x32 x2");
	if (kernels_built() != before + 1)
		FAIL("the first out-of-place call built %lld kernel sets, want 1 (the out-of-place kernels)",
		     (long long)(kernels_built() - before));
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < 2; k++)
			for (int nat = 0; nat < 2; nat++)
				oop_check(&f, k, nat, "C2C 8x16x32 x2");
	if (kernels_built() != before + 1)
		FAIL("later out-of-place calls built kernels again (%lld sets in all)",
		     (long long)(kernels_built() - before));
	if (copies_now() != c0)
		FAIL("C2C out of place made %d device copies in 13 calls: the copy path is still taken",
		     copies_now() - c0);
	fix_free(&f);
	CHECK(vkfftgo_plan_destroy(f.p));

	/* double precision and another normalisation, where the device has it */
	{
		int dbl = 0;
		CHECK(vkfftgo_device_supports_double(dev, &dbl));
		if (dbl) {
			vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
			vkfftgo_plan *p;
			desc.rank = 2;
			desc.shape[0] = 12;
			desc.shape[1] = 20;
			desc.precision = VKFFTGO_DOUBLE;
			desc.norm = VKFFTGO_NORM_ORTHO;
			desc.tune = VKFFTGO_TUNE_OFF;
			CHECK(vkfftgo_plan_create(dev, &desc, &p));
			fix_make(&f, p, 1, 3);
			c0 = copies_now();
			for (int k = 0; k < 2; k++)
				for (int nat = 0; nat < 2; nat++)
					oop_check(&f, k, nat, "double C2C 12x20 ortho");
			if (copies_now() != c0)
				FAIL("double C2C out of place made %d device copies", copies_now() - c0);
			fix_free(&f);
			CHECK(vkfftgo_plan_destroy(p));
		}
	}

	/* the control: R2R has no out-of-place kernels, so out of place copies in first */
	f.p = make_plan(VKFFTGO_R2R, 1, shape1, 1);
	fix_make(&f, f.p, 0, 2);
	c0 = copies_now();
	before = kernels_built();
	for (int k = 0; k < 2; k++)
		for (int nat = 0; nat < 2; nat++)
			oop_check(&f, k, nat, "R2R DCT-II 256");
	if (COUNTS_COPIES && copies_now() != c0 + 4)
		FAIL("R2R out of place: %d copies counted in 4 calls, want 4 (the count does not see the library's copies)",
		     copies_now() - c0);
	if (kernels_built() != before)
		FAIL("R2R out of place built kernels");
	fix_free(&f);
	CHECK(vkfftgo_plan_destroy(f.p));
	printf("  C2C out of place (buffers, native%s) equals in place, input untouched, kernels built once%s\n",
	       VKFFTGO_BACKEND == 3 ? " cl_mem" : VKFFTGO_BACKEND == 1 ? " CUdeviceptr" : " VkBuffer",
	       COUNTS_COPIES ? ", no device copy (R2R, the control, copies once a call)" : "");
}

/* ---- 3: later calls stay in C and allocate nothing ---- */
struct hot {
	struct fix *f;
	native na, nb;
	int rounds;
	const char *entered; /* the first call after which the thread had entered Go */
	vkfftgo_status bad;
};

#define HOT(call)                                                                                  \
	do {                                                                                       \
		vkfftgo_status st_ = (call);                                                       \
		if (st_ != VKFFTGO_SUCCESS && !h->bad)                                              \
			h->bad = st_;                                                              \
		if (!h->entered && has_signal_stack())                                             \
			h->entered = #call;                                                        \
	} while (0)

static void *hot_thread(void *arg)
{
	struct hot *h = (struct hot *)arg;
	if (has_signal_stack()) {
		h->entered = "(the thread had a signal stack before any call)";
		return NULL;
	}
	for (int i = 0; i < h->rounds; i++) {
		HOT(vkfftgo_execute_buffer(h->f->p, VKFFTGO_FORWARD, h->f->b, h->f->a));
		HOT(vkfftgo_execute_buffer(h->f->p, VKFFTGO_INVERSE, h->f->a, h->f->b));
		HOT(EXECUTE_NATIVE(h->f->p, VKFFTGO_FORWARD, h->nb, h->na));
		HOT(EXECUTE_NATIVE(h->f->p, VKFFTGO_INVERSE, h->na, h->nb));
	}
	HOT(vkfftgo_device_sync(dev));
	return NULL;
}

static void run_hot(struct fix *f, int rounds, const char *what)
{
	struct hot h;
	pthread_t t;
	memset(&h, 0, sizeof h);
	h.f = f;
	h.na = native_of(f->a);
	h.nb = native_of(f->b);
	h.rounds = rounds;
	pthread_create(&t, NULL, hot_thread, &h);
	pthread_join(t, NULL);
	if (h.bad)
		FAIL("%s: a call returned %s: %s", what, vkfftgo_status_string(h.bad), vkfftgo_last_error());
	if (h.entered)
		FAIL("%s: the thread entered the Go runtime in %s", what, h.entered);
}

static void stays_in_c(void)
{
	const int64_t shape[2] = {16, 24};
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_mem_stats m0 = VKFFTGO_MEM_STATS_INIT, m1 = VKFFTGO_MEM_STATS_INIT;
	vkfftgo_alloc_cache_stats a0 = VKFFTGO_ALLOC_CACHE_STATS_INIT, a1 = VKFFTGO_ALLOC_CACHE_STATS_INIT;
	struct fix f;
	int64_t before;
	int c0;

	f.p = make_plan(VKFFTGO_C2C, 2, shape, 3);
	fix_make(&f, f.p, 0, 5);
	oop_check(&f, 0, 0, "C2C 16x24 x3"); /* the first: builds the kernels through Go */
	CHECK(vkfftgo_device_sync(dev));
	CHECK(vkfftgo_device_mem_stats(dev, &m0));
	CHECK(vkfftgo_alloc_cache_get_stats(dev, &a0));
	c0 = copies_now();
	run_hot(&f, 100, "400 out-of-place calls after the first");
	CHECK(vkfftgo_device_mem_stats(dev, &m1));
	CHECK(vkfftgo_alloc_cache_get_stats(dev, &a1));
	if (m1.allocations != m0.allocations || m1.frees != m0.frees || m1.live_bytes != m0.live_bytes ||
	    a1.hits != a0.hits || a1.misses != a0.misses)
		FAIL("400 out-of-place calls allocated device memory: allocations %lld -> %lld, frees %lld -> %lld, "
		     "live %lld -> %lld bytes, cache hits %lld -> %lld, misses %lld -> %lld",
		     (long long)m0.allocations, (long long)m1.allocations, (long long)m0.frees, (long long)m1.frees,
		     (long long)m0.live_bytes, (long long)m1.live_bytes, (long long)a0.hits, (long long)a1.hits,
		     (long long)a0.misses, (long long)a1.misses);
	if (copies_now() != c0)
		FAIL("400 out-of-place calls made %d device copies", copies_now() - c0);
	/* 100 forward+inverse round trips: x again */
	CHECK(vkfftgo_buffer_download(f.a, f.got, f.bytes));
	if (max_diff(f.got, f.x, f.bytes, 0) > 1e-4)
		FAIL("100 out-of-place round trips drifted by %g", max_diff(f.got, f.x, f.bytes, 0));
	fix_free(&f);
	CHECK(vkfftgo_plan_destroy(f.p));

	/* a leased plan given back and leased again is the same vkfft plan: its out-of-place
	 * kernels exist, so even its first out-of-place call stays in C */
	desc.rank = 1;
	desc.shape[0] = 128;
	desc.batch = 2;
	desc.tune = VKFFTGO_TUNE_OFF;
	CHECK(vkfftgo_plan_acquire(dev, &desc, &f.p));
	fix_make(&f, f.p, 0, 9);
	oop_check(&f, 1, 1, "leased C2C 128 x2");
	fix_free(&f);
	CHECK(vkfftgo_plan_release(f.p));
	before = kernels_built();
	CHECK(vkfftgo_plan_acquire(dev, &desc, &f.p));
	fix_make(&f, f.p, 0, 9);
	run_hot(&f, 2, "a plan leased again, from its first out-of-place call");
	oop_check(&f, 0, 1, "leased again C2C 128 x2");
	if (kernels_built() != before)
		FAIL("the plan leased again built kernels");
	fix_free(&f);
	CHECK(vkfftgo_plan_release(f.p));
	printf("  after the first out-of-place call: 400 calls in a fresh thread never enter Go, device allocations "
	       "flat (%lld); a plan leased again stays in C from its first call\n",
	       (long long)m1.allocations);
}

/* ---- 4: first calls from two threads; destroy during the build ---- */
struct runner {
	struct fix *f;
	int use_native, started, ok, dead;
	vkfftgo_status bad;
	char msg[256];
	int check; /* compare each result (no destroy under way) */
};

static void *run_oop(void *arg)
{
	struct runner *r = (struct runner *)arg;
	struct fix *f = r->f;
	native na = 0, nb = 0;
	if (r->use_native) {
		na = native_of(f->a);
		nb = native_of(f->b);
	}
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < (r->check ? 8 : 1000000); i++) {
		vkfftgo_status st = r->use_native ? EXECUTE_NATIVE(f->p, VKFFTGO_FORWARD, nb, na)
						  : vkfftgo_execute_buffer(f->p, VKFFTGO_FORWARD, f->b, f->a);
		if (st == VKFFTGO_ERROR_INVALID_HANDLE) {
			r->dead = 1;
			return NULL;
		}
		if (st != VKFFTGO_SUCCESS) {
			snprintf(r->msg, sizeof r->msg, "%s", vkfftgo_last_error());
			r->bad = st;
			return NULL;
		}
		r->ok++;
	}
	return NULL;
}

static void concurrent_first_calls(void)
{
	const int64_t shape[1] = {96};
	struct fix f;
	struct runner r[2];
	pthread_t t[2];
	int64_t before;

	/* two threads, one through buffers, one through native memory, start at once */
	f.p = make_plan(VKFFTGO_C2C, 1, shape, 5);
	fix_make(&f, f.p, 0, 11);
	CHECK(vkfftgo_buffer_upload(f.a, f.x, f.bytes));
	before = kernels_built();
	for (int i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof r[i]);
		r[i].f = &f;
		r[i].use_native = i;
		r[i].check = 1;
		pthread_create(&t[i], NULL, run_oop, &r[i]);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		if (r[i].bad || r[i].dead)
			FAIL("concurrent first out-of-place calls: %s (%s)", vkfftgo_status_string(r[i].bad), r[i].msg);
	}
	if (kernels_built() != before + 1)
		FAIL("two threads' first out-of-place calls built %lld kernel sets, want 1",
		     (long long)(kernels_built() - before));
	CHECK(vkfftgo_buffer_download(f.b, f.got, f.bytes));
	CHECK(vkfftgo_buffer_download(f.a, f.src, f.bytes));
	if (!close_to(&f, f.got, f.ref[0]) || memcmp(f.src, f.x, f.bytes) != 0)
		FAIL("concurrent first out-of-place calls: wrong result or input changed");
	fix_free(&f);
	CHECK(vkfftgo_plan_destroy(f.p));

	/* a plan destroyed, and a device closed, while the plan's first out-of-place call
	 * builds the kernels (shapes of their own, so they are compiled, which takes long
	 * enough for the destroy to come during the build): the destroy waits for the call,
	 * later calls find the handle dead */
	for (int close_device = 0; close_device < 2; close_device++) {
		const int64_t shape2[2] = {10, 14 + 4 * close_device};
		vkfftgo_device *keep = dev, *d2;
		CHECK(vkfftgo_device_open(0, &d2));
		dev = d2; /* make_plan and fix_make work on dev */
		f.p = make_plan(VKFFTGO_C2C, 2, shape2, 1);
		fix_make(&f, f.p, 0, 13);
		dev = keep;
		memset(&r[0], 0, sizeof r[0]);
		r[0].f = &f;
		pthread_create(&t[0], NULL, run_oop, &r[0]);
		while (!__atomic_load_n(&r[0].started, __ATOMIC_ACQUIRE))
			;
		usleep(20000);
		if (close_device)
			CHECK(vkfftgo_device_close(d2));
		else
			CHECK(vkfftgo_plan_destroy(f.p));
		pthread_join(t[0], NULL);
		if (r[0].bad)
			FAIL("a call under %s returned %s: %s", close_device ? "vkfftgo_device_close" : "vkfftgo_plan_destroy",
			     vkfftgo_status_string(r[0].bad), r[0].msg);
		if (!r[0].dead)
			FAIL("the calls never saw the plan's handle die (%s)", close_device ? "device closed" : "destroyed");
		if (close_device) { /* the buffers went with the device */
			EXPECT_FAIL(vkfftgo_buffer_destroy(f.a), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_buffer_destroy");
			f.a = f.b = NULL;
		}
		fix_free(&f);
		if (!close_device)
			CHECK(vkfftgo_device_close(d2));
	}
	printf("  first out-of-place calls from two threads at once (built once); a plan destroyed and a device "
	       "closed during a first one: right answers or INVALID_HANDLE\n");
}

int main(void)
{
	char dir[4096];
	int enabled = 0;
	CHECK(vkfftgo_device_open(0, &dev));
	CHECK(vkfftgo_kernel_cache_get_dir(dir, sizeof dir, &enabled));
	if (!enabled) /* the kernel-cache counts show when kernels are built */
		FAIL("the kernel cache is off (VKFFTGO_CACHE_DIR=%s): run with it on", dir);
	results_and_no_copy();
	stays_in_c();
	concurrent_first_calls();
	CHECK(vkfftgo_device_close(dev));
	printf("oop: all passed\n");
	return 0;
}
