/* parity.c — the C API's parity functions, each with good and bad arguments:
 * the run-time version check; a device on a context the test made itself (OpenCL: with
 * the OpenCL API, link -lOpenCL; CUDA: through the driver API, opened with dlopen), its
 * references retained and released; the kernel cache's settings and statistics; plan
 * leases from the device's plan cache; streams, pinned host buffers and asynchronous
 * transforms; pipelines.
 *   cc parity.c $(pkg-config --cflags --libs vkfftgo) [-lOpenCL] -ldl -lm */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <complex.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#if VKFFTGO_BACKEND == 3
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#elif VKFFTGO_BACKEND == 1
#include <dlfcn.h>
#endif

#define FAIL(...)                                                                            \
	do {                                                                                 \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                              \
		fprintf(stderr, __VA_ARGS__);                                                \
		fputc('\n', stderr);                                                         \
		exit(1);                                                                     \
	} while (0)

/* A forward transform of a 1-D n-point batch on d, compared with a naive DFT. */
static void check_forward(vkfftgo_device *d, vkfftgo_plan *given, int64_t n, const char *what)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p = given;
	float complex *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
	double err = 0, scale = 0;
	desc.rank = 1;
	desc.shape[0] = n;
	if (!p)
		CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (int64_t i = 0; i < n; i++)
		x[i] = (float)test_value((size_t)i) + I * (float)test_value((size_t)(i + n));
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, (size_t)n * sizeof *y, x, (size_t)n * sizeof *x));
	for (int64_t k = 0; k < n; k++) {
		double complex s = 0;
		for (int64_t j = 0; j < n; j++)
			s += x[j] * cexp(-2 * I * M_PI * (double)(j * k % n) / (double)n);
		err = fmax(err, cabs(s - y[k]));
		scale = fmax(scale, cabs(s));
	}
	if (err > 1e-5 * scale)
		FAIL("%s: forward transform off by %g (of %g)", what, err, scale);
	if (!given)
		CHECK(vkfftgo_plan_destroy(p));
	free(x);
	free(y);
}

static void test_version(void)
{
	CHECK(VKFFTGO_CHECK_VERSION());
	if (vkfftgo_version() != VKFFTGO_VERSION) {
		fprintf(stderr, "vkfftgo_version() %d, header %d\n", vkfftgo_version(), VKFFTGO_VERSION);
		exit(1);
	}
	/* an older minor/patch is served; a newer one or another major is not */
	if (VKFFTGO_VERSION_MINOR > 0)
		CHECK(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR - 1, 99));
	CHECK(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR, 0));
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR + 1, 0),
		    VKFFTGO_ERROR_VERSION, "compiled against vkfftgo.h|" VKFFTGO_VERSION_STRING);
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR, VKFFTGO_VERSION_PATCH + 1),
		    VKFFTGO_ERROR_VERSION, "needs major version");
	EXPECT_FAIL(vkfftgo_check_version(VKFFTGO_VERSION_MAJOR + 1, 0, 0), VKFFTGO_ERROR_VERSION,
		    "needs major version");
	EXPECT_FAIL(vkfftgo_check_version(-1, 0, 0), VKFFTGO_ERROR_INVALID_ARGUMENT, "is not a version");
	EXPECT_FAIL(vkfftgo_check_version(0, 100, 0), VKFFTGO_ERROR_INVALID_ARGUMENT, "is not a version");
	printf("version: %s, VKFFTGO_CHECK_VERSION() passes, newer/other major refused\n", vkfftgo_version_string());
}

#if VKFFTGO_BACKEND == 3
static cl_uint cl_refs(cl_context c)
{
	cl_uint n = 0;
	clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
	return n;
}

static cl_uint queue_refs(cl_command_queue q)
{
	cl_uint n = 0;
	clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
	return n;
}

/* PoCL drops the references its finished commands hold in its worker threads, shortly
 * after the commands complete: wait up to 5 s for the counts to settle. */
static int settle(cl_context c, cl_uint crefs, cl_command_queue q, cl_uint qrefs)
{
	for (int i = 0; i < 500; i++) {
		if (cl_refs(c) == crefs && (!q || queue_refs(q) == qrefs))
			return 1;
		usleep(10000);
	}
	return 0;
}

static void make_cl(cl_context *c, cl_device_id *dev, cl_command_queue *q)
{
	cl_platform_id plats[8];
	cl_uint np = 0, nd = 0;
	cl_int err;
	if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0)
		FAIL("no OpenCL platform");
	for (cl_uint i = 0; i < np; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, dev, &nd) == CL_SUCCESS && nd)
			break;
	if (!nd)
		FAIL("no OpenCL device");
	*c = clCreateContext(NULL, 1, dev, NULL, NULL, &err);
	if (!*c)
		FAIL("clCreateContext: %d", err);
	*q = clCreateCommandQueue(*c, *dev, 0, &err);
	if (!*q)
		FAIL("clCreateCommandQueue: %d", err);
}

/* A device on the test's own context and queue: work runs on the queue, the context and
 * queue are retained while open and released (not destroyed) at close. */
static void test_open_context(void)
{
	cl_context c, c2;
	cl_device_id dev, dev2;
	cl_command_queue q, q2;
	struct _cl_command_queue *got;
	vkfftgo_device *d;
	cl_uint crefs, qrefs;
	make_cl(&c, &dev, &q);
	make_cl(&c2, &dev2, &q2);
	crefs = cl_refs(c);
	qrefs = queue_refs(q);
	CHECK(vkfftgo_device_open_cl(c, dev, q, &d));
	if (cl_refs(c) <= crefs || queue_refs(q) != qrefs + 1)
		FAIL("the device did not retain the context (%u -> %u) and queue (%u -> %u)", crefs, cl_refs(c), qrefs,
		     queue_refs(q));
	CHECK(vkfftgo_device_cl_queue(d, &got));
	if (got != q)
		FAIL("the device's queue is not the one given");
	check_forward(d, NULL, 48, "open_cl");
	CHECK(vkfftgo_device_close(d));
	if (!settle(c, crefs, q, qrefs))
		FAIL("close did not release exactly what the device retained (context %u, was %u; queue %u, was %u)",
		     cl_refs(c), crefs, queue_refs(q), qrefs);
	if (clFinish(q) != CL_SUCCESS)
		FAIL("the test's queue is unusable after close");
	/* first device, own queue */
	CHECK(vkfftgo_device_open_cl(c, NULL, NULL, &d));
	CHECK(vkfftgo_device_cl_queue(d, &got));
	if (!got || got == q)
		FAIL("no queue of the device's own");
	check_forward(d, NULL, 30, "open_cl own queue");
	CHECK(vkfftgo_device_close(d));
	if (!settle(c, crefs, NULL, 0))
		FAIL("context references %u after close, was %u", cl_refs(c), crefs);
	/* bad arguments */
	EXPECT_FAIL(vkfftgo_device_open_cl(NULL, dev, q, &d), VKFFTGO_ERROR_NULL_POINTER, "context is NULL");
	EXPECT_FAIL(vkfftgo_device_open_cl(c, dev, q, NULL), VKFFTGO_ERROR_NULL_POINTER, "device output pointer");
	EXPECT_FAIL(vkfftgo_device_open_cl(c, dev, q2, &d), VKFFTGO_ERROR_INVALID_ARGUMENT, "another context");
	if (d != NULL)
		FAIL("a failed open left *device set");
	if (!settle(c, crefs, q2, qrefs))
		FAIL("a refused open kept a reference");
	EXPECT_FAIL(vkfftgo_device_open_cu((struct CUctx_st *)c, NULL, &d), VKFFTGO_ERROR_UNSUPPORTED, "-tags cuda");
	clReleaseCommandQueue(q2);
	clReleaseContext(c2);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	printf("open_cl: the test's context and queue used, retained while open, released at close; bad arguments refused\n");
}
#elif VKFFTGO_BACKEND == 1
/* the driver API, opened here as a C++ host with its own CUDA would have it linked */
typedef int (*cu_init_t)(unsigned);
typedef int (*cu_device_get_t)(int *, int);
typedef int (*cu_ctx_create_t)(void **, unsigned, int);
typedef int (*cu_ptr_t)(void *);
typedef int (*cu_pptr_t)(void **);
typedef int (*cu_stream_create_t)(void **, unsigned);

static void test_open_context(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	void *ctx = NULL, *prev = NULL, *stream = NULL, *cur = NULL;
	struct CUstream_st *got;
	vkfftgo_device *d;
	int dev;
	if (!lib)
		FAIL("dlopen libcuda.so.1: %s", dlerror());
	cu_init_t cu_init = (cu_init_t)dlsym(lib, "cuInit");
	cu_device_get_t cu_device_get = (cu_device_get_t)dlsym(lib, "cuDeviceGet");
	cu_ctx_create_t cu_ctx_create = (cu_ctx_create_t)dlsym(lib, "cuCtxCreate_v2");
	cu_ptr_t cu_ctx_destroy = (cu_ptr_t)dlsym(lib, "cuCtxDestroy_v2");
	cu_ptr_t cu_ctx_push = (cu_ptr_t)dlsym(lib, "cuCtxPushCurrent_v2");
	cu_pptr_t cu_ctx_pop = (cu_pptr_t)dlsym(lib, "cuCtxPopCurrent_v2");
	cu_pptr_t cu_ctx_get = (cu_pptr_t)dlsym(lib, "cuCtxGetCurrent");
	cu_stream_create_t cu_stream_create = (cu_stream_create_t)dlsym(lib, "cuStreamCreate");
	cu_ptr_t cu_stream_sync = (cu_ptr_t)dlsym(lib, "cuStreamSynchronize");
	cu_ptr_t cu_stream_destroy = (cu_ptr_t)dlsym(lib, "cuStreamDestroy_v2");
	if (!cu_init || !cu_device_get || !cu_ctx_create || !cu_ctx_destroy || !cu_ctx_push || !cu_ctx_pop ||
	    !cu_ctx_get || !cu_stream_create || !cu_stream_sync || !cu_stream_destroy)
		FAIL("libcuda.so.1 lacks a driver entry point");
	if (cu_init(0) || cu_device_get(&dev, 0) || cu_ctx_create(&ctx, 0, dev))
		FAIL("creating a CUDA context failed");
	if (cu_stream_create(&stream, 1 /* CU_STREAM_NON_BLOCKING */))
		FAIL("cuStreamCreate failed");
	cu_ctx_pop(&prev); /* the host's thread has no current context now */
	CHECK(vkfftgo_device_open_cu((struct CUctx_st *)ctx, (struct CUstream_st *)stream, &d));
	cu_ctx_get(&cur);
	if (cur != NULL)
		FAIL("vkfftgo_device_open_cu left a context current");
	CHECK(vkfftgo_device_cu_stream(d, &got));
	if ((void *)got != stream)
		FAIL("the device's stream is not the one given");
	check_forward(d, NULL, 1024, "open_cu");
	CHECK(vkfftgo_device_close(d));
	if (cu_ctx_push(ctx) || cu_stream_sync(stream))
		FAIL("the test's context or stream is unusable after close");
	cu_ctx_pop(&prev);
	/* NULL stream: the device's own */
	CHECK(vkfftgo_device_open_cu((struct CUctx_st *)ctx, NULL, &d));
	CHECK(vkfftgo_device_cu_stream(d, &got));
	if (!got || (void *)got == stream)
		FAIL("no stream of the device's own");
	check_forward(d, NULL, 4096, "open_cu own stream");
	CHECK(vkfftgo_device_close(d));
	EXPECT_FAIL(vkfftgo_device_open_cu(NULL, NULL, &d), VKFFTGO_ERROR_NULL_POINTER, "context is NULL");
	EXPECT_FAIL(vkfftgo_device_open_cu((struct CUctx_st *)ctx, NULL, NULL), VKFFTGO_ERROR_NULL_POINTER,
		    "device output pointer");
	EXPECT_FAIL(vkfftgo_device_open_cl((struct _cl_context *)ctx, NULL, NULL, &d), VKFFTGO_ERROR_UNSUPPORTED,
		    "-tags opencl");
	cu_ctx_push(ctx);
	cu_stream_destroy(stream);
	cu_ctx_pop(&prev);
	cu_ctx_destroy(ctx);
	printf("open_cu: the test's context and stream used, left intact at close, no context left current; bad arguments refused\n");
}
#else
/* Vulkan: both context calls exist and say that this library cannot serve them */
static void test_open_context(void)
{
	static int not_a_context;
	vkfftgo_device *d;
	EXPECT_FAIL(vkfftgo_device_open_cu((struct CUctx_st *)(void *)&not_a_context, NULL, &d), VKFFTGO_ERROR_UNSUPPORTED,
		    "-tags cuda");
	EXPECT_FAIL(vkfftgo_device_open_cl((struct _cl_context *)(void *)&not_a_context, NULL, NULL, &d),
		    VKFFTGO_ERROR_UNSUPPORTED, "-tags opencl");
	EXPECT_FAIL(vkfftgo_device_open_cu(NULL, NULL, &d), VKFFTGO_ERROR_NULL_POINTER, "context is NULL");
	printf("open context: vkfftgo_device_open_cu/_cl refused in the %s library\n", vkfftgo_backend_name());
}
#endif

static vkfftgo_device *dev;

static void test_kernel_cache(void)
{
	char tmpl[] = "/tmp/vkfftgo-parity-XXXXXX", got[4096];
	char *dir = mkdtemp(tmpl);
	int enabled = -1;
	int64_t removed = -1;
	vkfftgo_kernel_cache_stats st = VKFFTGO_KERNEL_CACHE_STATS_INIT, bad = VKFFTGO_KERNEL_CACHE_STATS_INIT;
	int64_t stored, kernels;
	if (!dir)
		FAIL("mkdtemp");
	CHECK(vkfftgo_kernel_cache_set_dir(dir));
	CHECK(vkfftgo_kernel_cache_get_dir(got, sizeof got, &enabled));
	if (strcmp(got, dir) != 0 || enabled != 1)
		FAIL("kernel cache dir %s (enabled %d), want %s", got, enabled, dir);
	CHECK(vkfftgo_kernel_cache_set_max_bytes(64 << 20));
	CHECK(vkfftgo_kernel_cache_get_stats(&st));
	if (st.max_bytes != 64 << 20 || st.entries != 0)
		FAIL("max_bytes %lld entries %lld", (long long)st.max_bytes, (long long)st.entries);
	stored = st.stored;
	kernels = st.kernels_compiled + st.kernels_loaded;
	/* contains: not before the plan was built once, yes after; a plan of another shape no */
	vkfftgo_plan_desc d44 = VKFFTGO_PLAN_DESC_INIT, d46 = VKFFTGO_PLAN_DESC_INIT, bad_desc = VKFFTGO_PLAN_DESC_INIT;
	int cached = -1;
	d44.rank = d46.rank = 1;
	d44.shape[0] = 44;
	d46.shape[0] = 46;
	CHECK(vkfftgo_kernel_cache_contains(dev, &d44, &cached));
	if (cached != 0)
		FAIL("kernel_cache_contains: %d for a plan never built", cached);
	check_forward(dev, NULL, 44, "kernel cache"); /* compiles, stores its kernels */
	CHECK(vkfftgo_kernel_cache_contains(dev, &d44, &cached));
	if (cached != 1)
		FAIL("kernel_cache_contains: %d for the plan just built", cached);
	CHECK(vkfftgo_kernel_cache_contains(dev, &d46, &cached));
	if (cached != 0)
		FAIL("kernel_cache_contains: %d for a shape never built", cached);
	EXPECT_FAIL(vkfftgo_kernel_cache_contains(dev, &d44, NULL), VKFFTGO_ERROR_NULL_POINTER, "cached");
	EXPECT_FAIL(vkfftgo_kernel_cache_contains(dev, NULL, &cached), VKFFTGO_ERROR_NULL_POINTER, "desc");
	EXPECT_FAIL(vkfftgo_kernel_cache_contains(NULL, &d44, &cached), VKFFTGO_ERROR_NULL_POINTER, "device");
	bad_desc.rank = 1;
	bad_desc.shape[0] = -4;
	EXPECT_FAIL(vkfftgo_kernel_cache_contains(dev, &bad_desc, &cached), VKFFTGO_ERROR_INVALID_SHAPE, "");
	CHECK(vkfftgo_kernel_cache_get_stats(&st));
	if (st.stored != stored + 1 || st.entries != 1 || st.bytes <= 0)
		FAIL("after a plan: stored %lld (was %lld), entries %lld, bytes %lld", (long long)st.stored,
		     (long long)stored, (long long)st.entries, (long long)st.bytes);
	/* its kernels one by one, compiled or found by their source (Vulkan's compile inside
	 * VkFFT, uncounted); OpenCL's never in children */
	if ((strcmp(vkfftgo_backend_name(), "vulkan") != 0 && st.kernels_compiled + st.kernels_loaded <= kernels) ||
	    st.kernels_parallel > st.kernels_compiled || st.kernels_forked != 0)
		FAIL("kernel counters after a plan: compiled %lld + loaded %lld (was %lld), parallel %lld, forked %lld",
		     (long long)st.kernels_compiled, (long long)st.kernels_loaded, (long long)kernels,
		     (long long)st.kernels_parallel, (long long)st.kernels_forked);
	{ /* a struct of the header before the kernel counters: filled up to max_bytes, no further */
		vkfftgo_kernel_cache_stats old = VKFFTGO_KERNEL_CACHE_STATS_INIT;
		old.size = (uint32_t)offsetof(vkfftgo_kernel_cache_stats, kernels_compiled);
		old.kernels_compiled = -7;
		CHECK(vkfftgo_kernel_cache_get_stats(&old));
		if (old.stored != st.stored || old.max_bytes != st.max_bytes || old.kernels_compiled != -7)
			FAIL("an older struct: stored %lld (want %lld), max_bytes %lld, kernels_compiled %lld (want -7)",
			     (long long)old.stored, (long long)st.stored, (long long)old.max_bytes,
			     (long long)old.kernels_compiled);
	}
	check_forward(dev, NULL, 44, "kernel cache hit");
	CHECK(vkfftgo_kernel_cache_get_stats(&st));
	if (st.hits < 1)
		FAIL("the second plan did not load the saved kernels (hits %lld)", (long long)st.hits);
	CHECK(vkfftgo_kernel_cache_clear(&removed));
	CHECK(vkfftgo_kernel_cache_get_stats(&st));
	if (removed != 1 || st.entries != 0)
		FAIL("clear removed %lld, %lld entries left", (long long)removed, (long long)st.entries);
	CHECK(vkfftgo_kernel_cache_clear(NULL));
	/* bad arguments */
	EXPECT_FAIL(vkfftgo_kernel_cache_get_dir(got, 3, NULL), VKFFTGO_ERROR_WRONG_SIZE, "capacity is 3|needs");
	EXPECT_FAIL(vkfftgo_kernel_cache_get_dir(NULL, 0, NULL), VKFFTGO_ERROR_NULL_POINTER, "dir and enabled");
	EXPECT_FAIL(vkfftgo_kernel_cache_set_max_bytes(-1), VKFFTGO_ERROR_INVALID_ARGUMENT, "negative");
	EXPECT_FAIL(vkfftgo_kernel_cache_get_stats(NULL), VKFFTGO_ERROR_NULL_POINTER, "stats");
	bad.size = 8;
	EXPECT_FAIL(vkfftgo_kernel_cache_get_stats(&bad), VKFFTGO_ERROR_INVALID_ARGUMENT, "VKFFTGO_KERNEL_CACHE_STATS_INIT");
	/* off, then back to the default */
	CHECK(vkfftgo_kernel_cache_set_dir("off"));
	CHECK(vkfftgo_kernel_cache_get_dir(NULL, 0, &enabled));
	if (enabled != 0)
		FAIL("\"off\" left the cache enabled");
	CHECK(vkfftgo_kernel_cache_contains(dev, &d44, &cached));
	if (cached != 0)
		FAIL("kernel_cache_contains: %d with the disk cache off", cached);
	CHECK(vkfftgo_kernel_cache_set_dir(NULL));
	CHECK(vkfftgo_kernel_cache_set_max_bytes(0));
	CHECK(vkfftgo_kernel_cache_get_dir(got, sizeof got, &enabled));
	if (strcmp(got, dir) == 0)
		FAIL("set_dir(NULL) did not go back to the default");
	rmdir(dir);
	printf("kernel cache: directory, cap, stats (stored, hit), contains (before, after, other shape, off), clear, off and default; bad arguments refused\n");
}

static void test_plan_cache(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT, bad_desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan_cache_stats st = VKFFTGO_PLAN_CACHE_STATS_INIT, bad = VKFFTGO_PLAN_CACHE_STATS_INIT;
	vkfftgo_plan *a, *b, *c, *created;
	desc.rank = 1;
	desc.shape[0] = 40;
	CHECK(vkfftgo_plan_cache_clear(dev));
	CHECK(vkfftgo_plan_cache_set_limits(dev, 4, 0));
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	int64_t hits = st.hits, misses = st.misses;
	CHECK(vkfftgo_plan_acquire(dev, &desc, &a));
	check_forward(dev, a, 40, "leased plan");
	CHECK(vkfftgo_plan_acquire(dev, &desc, &b)); /* a is leased: another plan */
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	if (st.misses != misses + 2 || st.leased != 2 || st.plans != 2 || st.max_plans != 4)
		FAIL("two leases: misses %lld leased %lld plans %lld", (long long)(st.misses - misses),
		     (long long)st.leased, (long long)st.plans);
	CHECK(vkfftgo_plan_release(a));
	{
		float complex tmp[40] = { 0 };
		EXPECT_FAIL(vkfftgo_execute(a, VKFFTGO_FORWARD, tmp, sizeof tmp, tmp, sizeof tmp),
			    VKFFTGO_ERROR_INVALID_HANDLE, "");
	}
	EXPECT_FAIL(vkfftgo_plan_release(a), VKFFTGO_ERROR_INVALID_HANDLE, "not a live plan handle");
	CHECK(vkfftgo_plan_acquire(dev, &desc, &c)); /* the idle one */
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	if (st.hits != hits + 1 || st.plans != 2)
		FAIL("a lease after a release was not a hit (hits %lld, plans %lld)", (long long)(st.hits - hits),
		     (long long)st.plans);
	check_forward(dev, c, 40, "re-leased plan");
	CHECK(vkfftgo_plan_destroy(c)); /* destroy releases a leased plan too */
	CHECK(vkfftgo_plan_release(b));
	CHECK(vkfftgo_plan_release(NULL));
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	if (st.leased != 0 || st.plans != 2 || st.bytes <= 0)
		FAIL("after releases: leased %lld plans %lld bytes %lld", (long long)st.leased, (long long)st.plans,
		     (long long)st.bytes);
	CHECK(vkfftgo_plan_cache_set_limits(dev, 1, 0));
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	if (st.plans != 1 || st.evictions < 1)
		FAIL("limit 1: plans %lld evictions %lld", (long long)st.plans, (long long)st.evictions);
	CHECK(vkfftgo_plan_cache_clear(dev));
	CHECK(vkfftgo_plan_cache_get_stats(dev, &st));
	if (st.plans != 0)
		FAIL("clear left %lld plans", (long long)st.plans);
	/* bad arguments */
	CHECK(vkfftgo_plan_create(dev, &desc, &created));
	EXPECT_FAIL(vkfftgo_plan_release(created), VKFFTGO_ERROR_INVALID_ARGUMENT, "vkfftgo_plan_destroy");
	CHECK(vkfftgo_plan_destroy(created));
	EXPECT_FAIL(vkfftgo_plan_acquire(dev, NULL, &a), VKFFTGO_ERROR_NULL_POINTER, "desc");
	EXPECT_FAIL(vkfftgo_plan_acquire(dev, &desc, NULL), VKFFTGO_ERROR_NULL_POINTER, "plan output pointer");
	EXPECT_FAIL(vkfftgo_plan_acquire(NULL, &desc, &a), VKFFTGO_ERROR_NULL_POINTER, "device handle");
	EXPECT_FAIL(vkfftgo_plan_acquire(dev, &bad_desc, &a), VKFFTGO_ERROR_INVALID_SHAPE, "rank");
	bad_desc.rank = 1;
	bad_desc.shape[0] = 0;
	EXPECT_FAIL(vkfftgo_plan_acquire(dev, &bad_desc, &a), VKFFTGO_ERROR_INVALID_SHAPE, "");
	EXPECT_FAIL(vkfftgo_plan_cache_set_limits(dev, 1, -1), VKFFTGO_ERROR_INVALID_ARGUMENT, "negative");
	EXPECT_FAIL(vkfftgo_plan_cache_get_stats(dev, NULL), VKFFTGO_ERROR_NULL_POINTER, "stats");
	bad.size = 4;
	EXPECT_FAIL(vkfftgo_plan_cache_get_stats(dev, &bad), VKFFTGO_ERROR_INVALID_ARGUMENT, "VKFFTGO_PLAN_CACHE_STATS_INIT");
	EXPECT_FAIL(vkfftgo_plan_cache_clear(NULL), VKFFTGO_ERROR_NULL_POINTER, "device handle");
	CHECK(vkfftgo_plan_cache_set_limits(dev, 16, 0));
	/* a plan still leased when its device closes is freed with it (ASan checks) */
	CHECK(vkfftgo_plan_acquire(dev, &desc, &a));
	printf("plan cache: acquire (miss, hit, concurrent leases), release, destroy of a lease, limits, clear, stats; bad arguments refused\n");
}

static void test_streams(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p, *q;
	vkfftgo_stream *s1, *s2, *dead;
	vkfftgo_host_buffer *in, *mid, *back, *small, *spare;
	float complex *x, *y, *z, *want;
	size_t bytes, got_bytes;
	void *ptr;
	const int n = 64, batch = 3;
	desc.rank = 1;
	desc.shape[0] = n;
	desc.batch = batch;
	CHECK(vkfftgo_plan_create(dev, &desc, &p));
	CHECK(vkfftgo_plan_create(dev, &desc, &q));
	bytes = (size_t)(n * batch) * sizeof(float complex);
	CHECK(vkfftgo_stream_create(dev, &s1));
	CHECK(vkfftgo_stream_create(dev, &s2));
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &in, &ptr));
	x = ptr;
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &mid, NULL));
	CHECK(vkfftgo_host_buffer_ptr(mid, &ptr, &got_bytes));
	y = ptr;
	if (got_bytes != bytes || !y)
		FAIL("host buffer size %zu, want %zu", got_bytes, bytes);
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &back, &ptr));
	z = ptr;
	want = malloc(bytes);
	for (int i = 0; i < n * batch; i++)
		x[i] = (float)test_value((size_t)i) + I * (float)test_value((size_t)(i + 7));
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, want, bytes, x, bytes)); /* the synchronous answer */
	/* forward on s1, then its inverse on s2 with the other plan after s1's wait */
	CHECK(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, mid, in));
	CHECK(vkfftgo_stream_wait(s1));
	for (int i = 0; i < n * batch; i++)
		if (cabsf(y[i] - want[i]) > 1e-4f * (float)n)
			FAIL("async forward element %d is off", i);
	CHECK(vkfftgo_execute_async(q, s2, VKFFTGO_INVERSE, back, mid));
	CHECK(vkfftgo_stream_wait(s2));
	for (int i = 0; i < n * batch; i++)
		if (cabsf(z[i] - x[i]) > 1e-5f)
			FAIL("async round trip element %d is off", i);
	/* in place, and two streams in flight at once */
	CHECK(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, back, back));
	CHECK(vkfftgo_execute_async(q, s2, VKFFTGO_FORWARD, mid, in));
	CHECK(vkfftgo_stream_wait(s2));
	CHECK(vkfftgo_stream_wait(s1));
	for (int i = 0; i < n * batch; i++)
		if (cabsf(z[i] - want[i]) > 1e-4f * (float)n || cabsf(y[i] - want[i]) > 1e-4f * (float)n)
			FAIL("concurrent streams: element %d is off", i);
	/* bad arguments */
	CHECK(vkfftgo_host_buffer_create(dev, bytes / 2, &small, NULL));
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, small, in), VKFFTGO_ERROR_WRONG_SIZE, "dst");
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, 0, mid, in), VKFFTGO_ERROR_INVALID_ARGUMENT, "direction");
	EXPECT_FAIL(vkfftgo_execute_async(p, NULL, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_NULL_POINTER, "stream");
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, NULL, in), VKFFTGO_ERROR_NULL_POINTER, "out");
	EXPECT_FAIL(vkfftgo_execute_async(NULL, s1, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_NULL_POINTER, "plan");
	EXPECT_FAIL(vkfftgo_execute_async(p, (vkfftgo_stream *)in, VKFFTGO_FORWARD, mid, in),
		    VKFFTGO_ERROR_INVALID_HANDLE, "stream");
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, (vkfftgo_host_buffer *)s2, in),
		    VKFFTGO_ERROR_INVALID_HANDLE, "out");
	CHECK(vkfftgo_stream_create(dev, &dead));
	CHECK(vkfftgo_stream_destroy(dead));
	EXPECT_FAIL(vkfftgo_stream_wait(dead), VKFFTGO_ERROR_INVALID_HANDLE, "stream");
	EXPECT_FAIL(vkfftgo_stream_destroy(dead), VKFFTGO_ERROR_INVALID_HANDLE, "stream");
	EXPECT_FAIL(vkfftgo_execute_async(p, dead, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_INVALID_HANDLE, "stream");
	EXPECT_FAIL(vkfftgo_stream_create(dev, NULL), VKFFTGO_ERROR_NULL_POINTER, "stream output pointer");
	EXPECT_FAIL(vkfftgo_stream_create(NULL, &dead), VKFFTGO_ERROR_NULL_POINTER, "device handle");
	EXPECT_FAIL(vkfftgo_host_buffer_create(dev, 0, &spare, NULL), VKFFTGO_ERROR_INVALID_ARGUMENT, "positive");
	EXPECT_FAIL(vkfftgo_host_buffer_create(dev, 8, NULL, NULL), VKFFTGO_ERROR_NULL_POINTER, "output pointer");
	EXPECT_FAIL(vkfftgo_host_buffer_ptr(mid, NULL, NULL), VKFFTGO_ERROR_NULL_POINTER, "ptr and bytes");
	EXPECT_FAIL(vkfftgo_host_buffer_ptr((vkfftgo_host_buffer *)s1, &ptr, NULL), VKFFTGO_ERROR_INVALID_HANDLE,
		    "host buffer");
	/* vkfft's checks of an asynchronous call, made in C (capi/hotpath_async.c) with
	 * vkfft's messages */
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, small, in), VKFFTGO_ERROR_WRONG_SIZE,
		    "vkfftgo_execute_async: vkfft: forward async: wrong length: dst has");
	EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_INVERSE, mid, small), VKFFTGO_ERROR_WRONG_SIZE,
		    "vkfftgo_execute_async: vkfft: inverse async: wrong length: src has");
	{
		vkfftgo_plan_desc sd = VKFFTGO_PLAN_DESC_INIT, rd = VKFFTGO_PLAN_DESC_INIT;
		vkfftgo_device *d2;
		vkfftgo_stream *s_other;
		vkfftgo_host_buffer *h_other;
		vkfftgo_plan *strided, *real_inplace;
		CHECK(vkfftgo_device_open(0, &d2));
		CHECK(vkfftgo_stream_create(d2, &s_other));
		CHECK(vkfftgo_host_buffer_create(d2, bytes, &h_other, NULL));
		EXPECT_FAIL(vkfftgo_execute_async(p, s_other, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_WRONG_DEVICE,
			    "forward async: buffer of another device: the stream belongs to another device");
		EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, h_other, in), VKFFTGO_ERROR_WRONG_DEVICE,
			    "vkfftgo_execute_async: vkfft: forward async: buffer of another device");
		EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_INVERSE, mid, h_other), VKFFTGO_ERROR_WRONG_DEVICE,
			    "vkfftgo_execute_async: vkfft: inverse async: buffer of another device");
		sd.rank = 2; /* rows of 40 in rows of 48 */
		sd.shape[0] = 3;
		sd.shape[1] = 40;
		sd.naxes = 1;
		sd.axes[0] = 1;
		sd.in_strides[0] = sd.out_strides[0] = 48;
		sd.in_strides[1] = sd.out_strides[1] = 1;
		CHECK(vkfftgo_plan_create(dev, &sd, &strided));
		EXPECT_FAIL(vkfftgo_execute_async(strided, s1, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_UNSUPPORTED,
			    "vkfftgo_execute_async: vkfft: forward async: unsupported: a plan with InStrides/OutStrides");
		rd.kind = VKFFTGO_R2C;
		rd.rank = 1;
		rd.shape[0] = 62;
		rd.real_inplace = 1;
		CHECK(vkfftgo_plan_create(dev, &rd, &real_inplace));
		EXPECT_FAIL(vkfftgo_execute_async(real_inplace, s1, VKFFTGO_INVERSE, in, in), VKFFTGO_ERROR_UNSUPPORTED,
			    "inverse async: unsupported: a RealInPlace plan|asynchronous calls take the plan's element types");
		CHECK(vkfftgo_plan_destroy(strided));
		CHECK(vkfftgo_plan_destroy(real_inplace));
		EXPECT_FAIL(vkfftgo_execute_async(strided, s1, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_INVALID_HANDLE,
			    "vkfftgo_execute_async|not a live plan handle");
		CHECK(vkfftgo_device_close(d2)); /* frees s_other and h_other */
		EXPECT_FAIL(vkfftgo_execute_async(p, s_other, VKFFTGO_FORWARD, mid, in), VKFFTGO_ERROR_INVALID_HANDLE,
			    "stream");
		EXPECT_FAIL(vkfftgo_execute_async(p, s1, VKFFTGO_FORWARD, mid, h_other), VKFFTGO_ERROR_INVALID_HANDLE,
			    "in");
	}
	CHECK(vkfftgo_stream_destroy(NULL));
	CHECK(vkfftgo_host_buffer_destroy(NULL));
	CHECK(vkfftgo_host_buffer_destroy(small));
	EXPECT_FAIL(vkfftgo_host_buffer_destroy(small), VKFFTGO_ERROR_INVALID_HANDLE, "host buffer");
	CHECK(vkfftgo_stream_destroy(s2));
	CHECK(vkfftgo_host_buffer_destroy(mid));
	CHECK(vkfftgo_plan_destroy(q));
	CHECK(vkfftgo_plan_destroy(p));
	/* s1, in and back are left for vkfftgo_device_close to free (ASan checks) */
	free(want);
	printf("streams: async forward/inverse on pinned host buffers, in place, two streams at once; bad arguments refused\n");
}

static void test_pipeline(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT, r2c = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_pipeline *pl, *pl2, *bad;
	vkfftgo_plan *p;
	vkfftgo_host_buffer *hb;
	const int n = 32, batch = 8;
	size_t bytes = (size_t)(n * batch) * sizeof(float complex), got;
	float complex *x = malloc(bytes), *y = malloc(bytes), *want = malloc(bytes), *pinned;
	void *ptr;
	desc.rank = 1;
	desc.shape[0] = n;
	desc.batch = batch;
	CHECK(vkfftgo_pipeline_create(dev, &desc, 4, &pl));
	CHECK(vkfftgo_pipeline_bytes(pl, &got));
	if (got != bytes)
		FAIL("pipeline bytes %zu, want %zu", got, bytes);
	for (int i = 0; i < n * batch; i++)
		x[i] = (float)test_value((size_t)(3 * i)) + I * (float)test_value((size_t)(i + 1));
	CHECK(vkfftgo_plan_create(dev, &desc, &p));
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, want, bytes, x, bytes));
	CHECK(vkfftgo_pipeline_execute(pl, VKFFTGO_FORWARD, y, bytes, x, bytes)); /* pageable */
	for (int i = 0; i < n * batch; i++)
		if (cabsf(y[i] - want[i]) > 1e-4f * (float)n)
			FAIL("pipeline forward element %d is off", i);
	CHECK(vkfftgo_host_buffer_create(dev, bytes, &hb, &ptr)); /* pinned, in place */
	pinned = ptr;
	memcpy(pinned, want, bytes);
	CHECK(vkfftgo_pipeline_execute(pl, VKFFTGO_INVERSE, pinned, bytes, pinned, bytes));
	for (int i = 0; i < n * batch; i++)
		if (cabsf(pinned[i] - x[i]) > 1e-5f)
			FAIL("pipeline inverse (pinned, in place) element %d is off", i);
	/* bad arguments */
	EXPECT_FAIL(vkfftgo_pipeline_create(dev, &desc, 3, &bad), VKFFTGO_ERROR_INVALID_BATCH, "3 chunks");
	r2c.kind = VKFFTGO_R2C;
	r2c.rank = 1;
	r2c.shape[0] = n;
	r2c.batch = batch;
	EXPECT_FAIL(vkfftgo_pipeline_create(dev, &r2c, 2, &bad), VKFFTGO_ERROR_UNSUPPORTED, "VKFFTGO_C2C");
	EXPECT_FAIL(vkfftgo_pipeline_create(dev, NULL, 2, &bad), VKFFTGO_ERROR_NULL_POINTER, "desc");
	EXPECT_FAIL(vkfftgo_pipeline_create(dev, &desc, 2, NULL), VKFFTGO_ERROR_NULL_POINTER, "pipeline output pointer");
	EXPECT_FAIL(vkfftgo_pipeline_execute(pl, VKFFTGO_FORWARD, y, bytes - 8, x, bytes), VKFFTGO_ERROR_WRONG_SIZE,
		    "the pipeline takes");
	EXPECT_FAIL(vkfftgo_pipeline_execute(pl, 2, y, bytes, x, bytes), VKFFTGO_ERROR_INVALID_ARGUMENT, "direction");
	EXPECT_FAIL(vkfftgo_pipeline_execute(pl, VKFFTGO_FORWARD, NULL, bytes, x, bytes), VKFFTGO_ERROR_NULL_POINTER, "out");
	EXPECT_FAIL(vkfftgo_pipeline_execute((vkfftgo_pipeline *)hb, VKFFTGO_FORWARD, y, bytes, x, bytes),
		    VKFFTGO_ERROR_INVALID_HANDLE, "pipeline");
	EXPECT_FAIL(vkfftgo_pipeline_bytes(pl, NULL), VKFFTGO_ERROR_NULL_POINTER, "bytes");
	CHECK(vkfftgo_pipeline_create(dev, &desc, 2, &pl2));
	CHECK(vkfftgo_pipeline_destroy(pl2));
	EXPECT_FAIL(vkfftgo_pipeline_execute(pl2, VKFFTGO_FORWARD, y, bytes, x, bytes), VKFFTGO_ERROR_INVALID_HANDLE,
		    "pipeline");
	EXPECT_FAIL(vkfftgo_pipeline_destroy(pl2), VKFFTGO_ERROR_INVALID_HANDLE, "pipeline");
	CHECK(vkfftgo_pipeline_destroy(NULL));
	CHECK(vkfftgo_plan_destroy(p));
	/* pl and hb are left for vkfftgo_device_close (ASan checks) */
	free(x);
	free(y);
	free(want);
	printf("pipeline: chunked round trips, pageable and pinned in place, match the plan; bad arguments refused\n");
}

int main(void)
{
	test_version();
	test_open_context();
	CHECK(vkfftgo_device_open(0, &dev));
	test_kernel_cache();
	test_plan_cache();
	test_streams();
	test_pipeline();
	CHECK(vkfftgo_device_close(dev));
	printf("parity: all passed\n");
	return 0;
}
