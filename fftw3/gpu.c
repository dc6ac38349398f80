/* gpu.c — the GPU engine: FFTW problems as libvkfftgo plans, through the public C API
 * only (include/vkfftgo.h).
 *
 *  - One device per process, opened on the first plan that goes to the GPU
 *    (VKFFTGO_FFTW_DEVICE picks the ordinal, default 0).
 *  - libvkfftgo plans are cached by layout (kind, precision, scaling, shape, batch) and
 *    shared by every FFTW plan of that layout: a program that creates and destroys an
 *    FFTW plan per call (ITK's filters do, per Update()) compiles and allocates once.
 *    Idle plans are kept up to VKFFTGO_FFTW_PLAN_CACHE plans (default 8) and
 *    VKFFTGO_FFTW_PLAN_CACHE_BYTES bytes (default 2 GiB), least recently used first out.
 *    For the engine choice it says where a plan would come from — this cache,
 *    libvkfftgo's disk kernel cache (vkfftgo_kernel_cache_contains), or a compile — and
 *    after a build where it came from (the kernel cache's miss count) and how long it took.
 *  - FFTW never scales: a forward-sign plan is a libvkfftgo plan with numpy's "backward"
 *    norm run forward, a backward-sign (or c2r) plan one with the "forward" norm run
 *    inverse — both unscaled, with no extra pass.
 *  - Arrays in the dense row-major layout go straight to vkfftgo_execute (which stages
 *    pageable host memory through pinned buffers; fftw_malloc blocks are page-locked on
 *    first use, mem.c); any other FFTW layout is copied to and from dense staging arrays
 *    kept with the cached plan (layout.c).
 *
 * Everything but vfw_gpu_execute runs under the planner's lock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <vkfftgo.h>

#include "abi.h"
#include "vfw.h"

static vkfftgo_device *dev;
static int dev_state; /* 0 not tried, 1 open, -1 failed */
static int dev_double;
static char dev_err[300], dev_name[128] = "no device";

static __thread char last_err[400];

/* Set by an exit handler registered once the device is open, so it runs before the
 * GPU runtime's own exit handlers (registered earlier run later): idle plans are freed
 * while the device still works, and plans destroyed later — programs destroy theirs in
 * static destructors (ITK calls fftw_cleanup there) — let the process exit free them. */
static int exiting;

static void at_exit(void)
{
	if (vfw_forked()) { /* the device and its plans are the parent's */
		exiting = 1;
		return;
	}
	/* another thread may still be planning: never wait for it here */
	if (vfw_planner_trylock()) {
		vfw_gpu_trim();
		vfw_planner_unlock();
	}
	exiting = 1;
}

const char *vfw_gpu_last_error(void)
{
	return last_err;
}

const char *vfw_gpu_device_name(void)
{
	return dev_name;
}

int vfw_gpu_ready(int prec, char *why, size_t cap)
{
	if (dev_state == 0) {
		const char *o = getenv("VKFFTGO_FFTW_DEVICE");
		int ordinal = o && *o ? atoi(o) : 0;
		vkfftgo_status st = vkfftgo_device_open(ordinal, &dev);
		if (st != VKFFTGO_SUCCESS) {
			dev_state = -1;
			snprintf(dev_err, sizeof dev_err, "no GPU: device %d: %s (%s)", ordinal, vkfftgo_last_error(),
				 vkfftgo_status_string(st));
		} else {
			dev_state = 1;
			vkfftgo_device_name(dev, dev_name, sizeof dev_name);
			vkfftgo_device_supports_double(dev, &dev_double);
			atexit(at_exit);
			vfw_log("device %d: %s (%s backend)", ordinal, dev_name, vkfftgo_backend_name());
		}
	}
	if (dev_state < 0) {
		snprintf(why, cap, "%s", dev_err);
		return 0;
	}
	if (prec == VFW_DOUBLE && !dev_double) {
		snprintf(why, cap, "%s has no double precision", dev_name);
		return 0;
	}
	return 1;
}

/* ---- problem -> libvkfftgo layout ---- */

typedef struct vfw_layout {
	int vkind, prec, norm, dir, rank;
	int64_t shape[VKFFTGO_MAX_RANK], batch, elements;
	vfw_side in, out;
} vfw_layout;

static int mul_ok(int64_t *acc, int64_t x)
{
	return !__builtin_mul_overflow(*acc, x, acc);
}

static int layout_of(const vfw_problem *pb, vfw_layout *L, char *why, size_t cap)
{
	memset(L, 0, sizeof *L);
	switch (pb->kind) {
	case VFW_C2C: case VFW_R2C: case VFW_C2R:
		break;
	case VFW_R2R:
		snprintf(why, cap, "r2r kinds are not on the GPU");
		return 0;
	default:
		snprintf(why, cap, "split arrays are not on the GPU");
		return 0;
	}
	if (pb->hrank == VFW_RNK_MINFTY) {
		snprintf(why, cap, "howmany rank -infinity (a no-op problem)");
		return 0;
	}
	if (pb->rank == 0) {
		snprintf(why, cap, "rank 0 (a copy, not a transform)");
		return 0;
	}
	const size_t r = pb->prec == VFW_SINGLE ? sizeof(float) : sizeof(double);
	const int halved_last = pb->kind != VFW_C2C;
	if (halved_last && pb->dims[pb->rank - 1].n == 1) {
		snprintf(why, cap, "the halved last axis has size 1");
		return 0;
	}
	/* the transform axes of size > 1 (size-1 axes change nothing), and the loop axes */
	const vfw_dim *t[VFW_MAXD], *h[VFW_MAXD];
	int nt = 0, nh = 0;
	for (int i = 0; i < pb->rank; i++) {
		if (pb->dims[i].n == 1 && !(halved_last && i == pb->rank - 1))
			continue;
		if (nt == VKFFTGO_MAX_RANK) {
			snprintf(why, cap, "more than %d axes of size > 1 (the GPU takes 1 to %d)", VKFFTGO_MAX_RANK,
				 VKFFTGO_MAX_RANK);
			return 0;
		}
		t[nt++] = &pb->dims[i];
	}
	if (nt == 0) {
		snprintf(why, cap, "every axis has size 1 (a copy)");
		return 0;
	}
	for (int i = 0; i < pb->hrank; i++) {
		if (pb->hdims[i].n == 0) {
			snprintf(why, cap, "howmany is 0 (nothing to do)");
			return 0;
		}
		if (pb->hdims[i].n == 1)
			continue;
		if (nh + nt == VFW_MAXD) {
			snprintf(why, cap, "more than %d axes", VFW_MAXD);
			return 0;
		}
		/* batch axes ordered by input stride, largest first: the dense batch order
		 * is then the memory order of the usual layouts */
		int j = nh++;
		while (j > 0 && h[j - 1]->is < pb->hdims[i].is) {
			h[j] = h[j - 1];
			j--;
		}
		h[j] = &pb->hdims[i];
	}

	L->prec = pb->prec;
	L->vkind = pb->kind == VFW_C2C ? VKFFTGO_C2C : VKFFTGO_R2C;
	L->dir = pb->sign < 0 ? VKFFTGO_FORWARD : VKFFTGO_INVERSE;
	L->norm = pb->sign < 0 ? VKFFTGO_NORM_BACKWARD : VKFFTGO_NORM_FORWARD; /* unscaled either way */
	L->rank = nt;
	L->in.es = pb->kind == VFW_R2C ? r : 2 * r;
	L->out.es = pb->kind == VFW_C2R ? r : 2 * r;
	L->in.nd = L->out.nd = nh + nt;
	L->batch = 1;
	L->elements = 1;
	int ok = 1;
	for (int i = 0; i < nh; i++) {
		L->in.n[i] = L->out.n[i] = h[i]->n;
		ok &= mul_ok(&L->batch, h[i]->n);
		ok &= !__builtin_mul_overflow(h[i]->is, (ptrdiff_t)L->in.es, &L->in.stride[i]);
		ok &= !__builtin_mul_overflow(h[i]->os, (ptrdiff_t)L->out.es, &L->out.stride[i]);
	}
	for (int i = 0; i < nt; i++) {
		int last = i == nt - 1;
		ptrdiff_t n = t[i]->n, half = n / 2 + 1;
		L->shape[i] = n;
		L->in.n[nh + i] = last && pb->kind == VFW_C2R ? half : n;
		L->out.n[nh + i] = last && pb->kind == VFW_R2C ? half : n;
		ok &= mul_ok(&L->elements, n);
		ok &= !__builtin_mul_overflow(t[i]->is, (ptrdiff_t)L->in.es, &L->in.stride[nh + i]);
		ok &= !__builtin_mul_overflow(t[i]->os, (ptrdiff_t)L->out.es, &L->out.stride[nh + i]);
	}
	ok &= mul_ok(&L->elements, L->batch);
	int64_t bytes = L->elements;
	ok &= mul_ok(&bytes, 2 * (int64_t)r);
	if (!ok) {
		snprintf(why, cap, "sizes or strides overflow 64 bits");
		return 0;
	}
	vfw_side_finish(&L->in);
	vfw_side_finish(&L->out);
	return 1;
}

/* Whether n's prime factors are all VkFFT radices (2, 3, 5, 7, 11, 13); others take
 * Rader's or Bluestein's algorithm, several times the work. */
static int smooth(int64_t n)
{
	static const int radix[] = { 2, 3, 5, 7, 11, 13 };
	for (int i = 0; i < 6; i++)
		while (n % radix[i] == 0)
			n /= radix[i];
	return n == 1;
}

int vfw_gpu_takes(const vfw_problem *pb, vfw_gpu_shape *shape, char *why, size_t cap)
{
	vfw_layout L;
	if (!layout_of(pb, &L, why, cap))
		return 0;
	memset(shape, 0, sizeof *shape);
	shape->elements = L.elements;
	shape->points = L.elements / (L.batch > 0 ? L.batch : 1);
	shape->in_bytes = L.in.bytes;
	shape->out_bytes = L.out.bytes;
	shape->direct = L.in.direct && L.out.direct;
	shape->smooth = 1;
	for (int i = 0; i < L.rank; i++)
		shape->smooth &= smooth(L.shape[i]);
	shape->real = L.vkind == VKFFTGO_R2C;
	return 1;
}

/* ---- the plan cache ---- */

typedef struct vfw_entry {
	struct vfw_entry *next;
	int vkind, prec, norm, rank;
	int64_t shape[VKFFTGO_MAX_RANK], batch;
	vkfftgo_plan *plan;
	size_t complex_bytes, real_bytes;
	int refs;
	uint64_t last_use;
	/* dense staging arrays for FFTW layouts that are not dense, shared by the FFTW
	 * plans of this layout (their transforms run one at a time on the plan anyway);
	 * from vfw_malloc, so page-locked on first use */
	pthread_mutex_t mu;
	void *stage_in, *stage_out;
} vfw_entry;

static vfw_entry *entries;
static uint64_t use_clock;

static int64_t env_int(const char *name, int64_t dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	long long x = strtoll(v, &end, 10);
	return *end || x < 0 ? dflt : x;
}

static int same_key(const vfw_entry *e, const vfw_layout *L)
{
	if (e->vkind != L->vkind || e->prec != L->prec || e->norm != L->norm || e->rank != L->rank ||
	    e->batch != L->batch)
		return 0;
	for (int i = 0; i < L->rank; i++)
		if (e->shape[i] != L->shape[i])
			return 0;
	return 1;
}

static void entry_free(vfw_entry *e)
{
	vkfftgo_plan_destroy(e->plan);
	vfw_free(e->stage_in);
	vfw_free(e->stage_out);
	pthread_mutex_destroy(&e->mu);
	free(e);
}

/* Frees idle plans, least recently used first, until at most keep_count idle plans of
 * at most keep_bytes remain. */
static void evict(int64_t keep_count, int64_t keep_bytes)
{
	while (!exiting) {
		int64_t count = 0, bytes = 0;
		vfw_entry **oldest = NULL;
		for (vfw_entry **pp = &entries; *pp; pp = &(*pp)->next) {
			vfw_entry *e = *pp;
			if (e->refs)
				continue;
			count++;
			bytes += (int64_t)(e->complex_bytes + e->real_bytes);
			if (!oldest || e->last_use < (*oldest)->last_use)
				oldest = pp;
		}
		if (!oldest || (count <= keep_count && bytes <= keep_bytes))
			return;
		vfw_entry *e = *oldest;
		*oldest = e->next;
		entry_free(e);
	}
}

void vfw_gpu_trim(void)
{
	if (vfw_forked()) /* the plans are the parent's: a forked child releases nothing */
		return;
	evict(0, 0);
}

static vfw_entry *find(const vfw_layout *L)
{
	for (vfw_entry *e = entries; e; e = e->next)
		if (same_key(e, L))
			return e;
	return NULL;
}

static void desc_of(const vfw_layout *L, vkfftgo_plan_desc *d)
{
	vkfftgo_plan_desc init = VKFFTGO_PLAN_DESC_INIT;
	*d = init;
	d->kind = L->vkind;
	d->precision = L->prec == VFW_SINGLE ? VKFFTGO_SINGLE : VKFFTGO_DOUBLE;
	d->norm = L->norm;
	d->rank = L->rank;
	for (int i = 0; i < L->rank; i++)
		d->shape[i] = L->shape[i];
	d->batch = L->batch;
}

/* vkfftgo_kernel_cache_contains, looked up at run time: a libvkfftgo without it still
 * works (every plan not in the plan cache then counts as a compile). */
typedef vkfftgo_status (*contains_fn)(vkfftgo_device *, const vkfftgo_plan_desc *, int *);

static contains_fn contains_lookup(void)
{
	static int tried;
	static contains_fn fn;
	if (!tried) {
		tried = 1;
		void *h = dlopen("libvkfftgo.so.0", RTLD_NOW | RTLD_NOLOAD);
		if (h) {
			*(void **)&fn = dlsym(h, "vkfftgo_kernel_cache_contains");
			dlclose(h);
		}
	}
	return fn;
}

static int source_of(const vfw_layout *L)
{
	if (find(L))
		return VFW_GPU_LEASED;
	contains_fn fn = contains_lookup();
	if (!fn)
		return VFW_GPU_UNKNOWN;
	vkfftgo_plan_desc d;
	desc_of(L, &d);
	int on = 0;
	if (fn(dev, &d, &on) != VKFFTGO_SUCCESS)
		return VFW_GPU_UNKNOWN;
	return on ? VFW_GPU_DISK : VFW_GPU_COMPILE;
}

int vfw_gpu_source(const vfw_problem *pb)
{
	vfw_layout L;
	char why[8];
	if (dev_state != 1 || !layout_of(pb, &L, why, sizeof why))
		return VFW_GPU_UNKNOWN;
	return source_of(&L);
}

/* Leases the cached plan of the layout, or builds one; *source says which and
 * *build_s how long a build took (0 for a lease). */
static vfw_entry *lease(const vfw_layout *L, int *source, double *build_s)
{
	*build_s = 0;
	vfw_entry *e = find(L);
	if (e) {
		e->refs++;
		e->last_use = ++use_clock;
		*source = VFW_GPU_LEASED;
		return e;
	}
	vkfftgo_plan_desc d;
	desc_of(L, &d);
	vkfftgo_kernel_cache_stats ks0 = VKFFTGO_KERNEL_CACHE_STATS_INIT, ks1 = VKFFTGO_KERNEL_CACHE_STATS_INIT;
	int disk = 0; /* with the disk cache off, every build compiles and none is counted */
	int have_stats = vkfftgo_kernel_cache_get_dir(NULL, 0, &disk) == VKFFTGO_SUCCESS &&
			 vkfftgo_kernel_cache_get_stats(&ks0) == VKFFTGO_SUCCESS;
	double t0 = vfw_now();
	vkfftgo_plan *plan = NULL;
	vkfftgo_status st = vkfftgo_plan_create(dev, &d, &plan);
	if (st == VKFFTGO_ERROR_OUT_OF_MEMORY) { /* idle cached plans may hold the memory */
		vfw_gpu_trim();
		st = vkfftgo_plan_create(dev, &d, &plan);
	}
	if (st != VKFFTGO_SUCCESS) {
		snprintf(last_err, sizeof last_err, "%s (%s)", vkfftgo_last_error(), vkfftgo_status_string(st));
		return NULL;
	}
	*build_s = vfw_now() - t0;
	/* a miss counted meanwhile: this build compiled (another thread's build in this
	 * process could be counted too; then the next build corrects what is learned) */
	if (!have_stats || vkfftgo_kernel_cache_get_stats(&ks1) != VKFFTGO_SUCCESS)
		*source = VFW_GPU_UNKNOWN;
	else
		*source = !disk || ks1.misses > ks0.misses ? VFW_GPU_COMPILE : VFW_GPU_DISK;
	e = (vfw_entry *)calloc(1, sizeof *e);
	if (!e) {
		vkfftgo_plan_destroy(plan);
		snprintf(last_err, sizeof last_err, "out of host memory");
		return NULL;
	}
	e->vkind = L->vkind, e->prec = L->prec, e->norm = L->norm, e->rank = L->rank, e->batch = L->batch;
	memcpy(e->shape, L->shape, sizeof e->shape);
	e->plan = plan;
	pthread_mutex_init(&e->mu, NULL);
	vkfftgo_plan_bytes(plan, &e->complex_bytes, &e->real_bytes);
	e->refs = 1;
	e->last_use = ++use_clock;
	e->next = entries;
	entries = e;
	return e;
}

static void release(vfw_entry *e)
{
	e->refs--;
	e->last_use = ++use_clock;
	evict(env_int("VKFFTGO_FFTW_PLAN_CACHE", 8), env_int("VKFFTGO_FFTW_PLAN_CACHE_BYTES", (int64_t)2 << 30));
}

/* ---- FFTW plans on the GPU ---- */

struct vfw_gpu {
	vfw_entry *e;
	vfw_layout L;
	size_t in_bytes, out_bytes; /* what vkfftgo_execute takes */
};

struct vfw_gpu *vfw_gpu_plan(const vfw_problem *pb, int *source, double *build_s, char *why, size_t cap)
{
	struct vfw_gpu *g = (struct vfw_gpu *)calloc(1, sizeof *g);
	if (!g) {
		snprintf(why, cap, "out of host memory");
		return NULL;
	}
	if (!layout_of(pb, &g->L, why, cap)) {
		free(g);
		return NULL;
	}
	g->e = lease(&g->L, source, build_s);
	if (!g->e) {
		snprintf(why, cap, "%s", last_err);
		free(g);
		return NULL;
	}
	size_t cb = g->e->complex_bytes, rb = g->e->real_bytes;
	g->in_bytes = pb->kind == VFW_R2C ? rb : cb;
	g->out_bytes = pb->kind == VFW_C2R ? rb : cb;
	if (g->in_bytes != g->L.in.bytes || g->out_bytes != g->L.out.bytes) {
		snprintf(why, cap, "libvkfftgo's plan has %zu/%zu bytes, the layout %zu/%zu", g->in_bytes, g->out_bytes,
			 g->L.in.bytes, g->L.out.bytes);
		release(g->e);
		free(g);
		return NULL;
	}
	snprintf(why, cap, "%s%s%s", g->L.in.direct && g->L.out.direct ? "dense arrays transferred directly" : "copied",
		 g->L.in.direct ? "" : " from the strided input", g->L.out.direct ? "" : " to the strided output");
	return g;
}

void vfw_gpu_destroy(struct vfw_gpu *g)
{
	if (!vfw_forked()) /* in a forked child the cached plan is the parent's: left alone */
		release(g->e);
	free(g);
}

int vfw_gpu_execute(struct vfw_gpu *g, void *in, void *out)
{
	const vfw_layout *L = &g->L;
	vfw_entry *e = g->e;
	int in_direct = L->in.direct, out_direct = L->out.direct;
	/* Dense in and out that overlap (an in-place r2c/c2r whose sides happen to be
	 * dense, or any other aliasing) are safe for libvkfftgo only as an in-place C2C. */
	if (in_direct && out_direct && vfw_sides_overlap(in, &L->in, out, &L->out) &&
	    !(L->vkind == VKFFTGO_C2C && in == out))
		in_direct = 0;
	int staged = !in_direct || !out_direct;
	if (staged) {
		pthread_mutex_lock(&e->mu); /* FFTW lets threads share a plan: one staging at a time */
		if ((!in_direct && !e->stage_in && !(e->stage_in = vfw_malloc(L->in.bytes))) ||
		    (!out_direct && (in_direct || L->vkind != VKFFTGO_C2C) && !e->stage_out &&
		     !(e->stage_out = vfw_malloc(L->out.bytes)))) {
			pthread_mutex_unlock(&e->mu);
			snprintf(last_err, sizeof last_err, "out of host memory for the staging arrays");
			return -1;
		}
	}
	const void *src = in;
	void *dst = out;
	if (!in_direct) {
		vfw_gather(e->stage_in, in, &L->in);
		src = e->stage_in;
	}
	if (!out_direct)
		dst = !in_direct && L->vkind == VKFFTGO_C2C ? e->stage_in : e->stage_out;
	/* fftw_malloc memory (and the staging arrays) is page-locked on first use */
	vfw_mem_pin(dev, src);
	if (dst != src)
		vfw_mem_pin(dev, dst);
	vkfftgo_status st = vkfftgo_execute(e->plan, L->dir, dst, g->out_bytes, src, g->in_bytes);
	if (st == VKFFTGO_SUCCESS && !out_direct)
		vfw_scatter(out, dst, &L->out);
	if (staged)
		pthread_mutex_unlock(&e->mu);
	if (st != VKFFTGO_SUCCESS) {
		snprintf(last_err, sizeof last_err, "%s (%s)", vkfftgo_last_error(), vkfftgo_status_string(st));
		return -1;
	}
	return 0;
}

double vfw_gpu_time_c2c(int prec, int rank, const int *n, int reps, int *source, double *build_s)
{
	vfw_layout L;
	memset(&L, 0, sizeof L);
	L.vkind = VKFFTGO_C2C, L.prec = prec, L.norm = VKFFTGO_NORM_BACKWARD, L.rank = rank, L.batch = 1;
	size_t total = 1;
	for (int i = 0; i < rank; i++) {
		L.shape[i] = n[i];
		total *= (size_t)n[i];
	}
	int src;
	double bs;
	vfw_entry *e = lease(&L, source ? source : &src, build_s ? build_s : &bs);
	if (!e)
		return -1;
	size_t bytes = total * (prec == VFW_SINGLE ? 8 : 16);
	void *a = malloc(bytes), *b = malloc(bytes);
	double best = -1;
	if (a && b) {
		for (size_t i = 0; i < 2 * total; i++) {
			double v = (double)((i * 7) % 13) / 13.0;
			if (prec == VFW_SINGLE)
				((float *)a)[i] = (float)v;
			else
				((double *)a)[i] = v;
		}
		if (vkfftgo_execute(e->plan, VKFFTGO_FORWARD, b, bytes, a, bytes) == VKFFTGO_SUCCESS) {
			for (int r = 0; r < reps; r++) {
				double t0 = vfw_now();
				if (vkfftgo_execute(e->plan, VKFFTGO_FORWARD, b, bytes, a, bytes) != VKFFTGO_SUCCESS)
					break;
				double t = vfw_now() - t0;
				if (best < 0 || t < best)
					best = t;
			}
		}
	}
	free(a);
	free(b);
	release(e);
	return best;
}

double vfw_gpu_time_transfer(size_t bytes, int reps)
{
	vkfftgo_buffer *buf = NULL;
	char *host = (char *)malloc(bytes);
	double best = -1;
	if (host && vkfftgo_buffer_create(dev, bytes, &buf) == VKFFTGO_SUCCESS) {
		memset(host, 1, bytes);
		for (int r = 0; r <= reps; r++) { /* the first is a warm-up */
			double t0 = vfw_now();
			if (vkfftgo_buffer_upload(buf, host, bytes) != VKFFTGO_SUCCESS ||
			    vkfftgo_buffer_download(buf, host, bytes) != VKFFTGO_SUCCESS) {
				best = -1;
				break;
			}
			double t = vfw_now() - t0;
			if (r > 0 && (best < 0 || t < best))
				best = t;
		}
	}
	vkfftgo_buffer_destroy(buf);
	free(host);
	return best;
}
