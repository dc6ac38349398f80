/* c_consumer.c — a C99 program that knows vkfftgo only through
 *   cc c_consumer.c $(pkg-config --cflags --libs vkfftgo)
 * C2C 3-D and R2C 3-D round trips in single and double precision on host memory, the
 * same on device buffers and through the backend's native handles, and error checks. */
#include <complex.h>
#include <math.h>

#include "check.h"

static double max_err_f(const float *a, const float *b, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs((double)a[i] - b[i]) > m)
			m = fabs((double)a[i] - b[i]);
	return m;
}

static double max_err_d(const double *a, const double *b, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(a[i] - b[i]) > m)
			m = fabs(a[i] - b[i]);
	return m;
}

/* A round trip: forward then inverse of in (n floats or doubles) comes back as in. */
static void round_trip(vkfftgo_device *d, int kind, int precision, int64_t nz, int64_t ny, int64_t nx)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p = NULL;
	size_t cbytes, rbytes;
	size_t npoints = (size_t)(nz * ny * nx);
	int dbl = precision == VKFFTGO_DOUBLE;
	size_t scalar = dbl ? sizeof(double) : sizeof(float);
	desc.kind = kind;
	desc.precision = precision;
	desc.rank = 3;
	desc.shape[0] = nz;
	desc.shape[1] = ny;
	desc.shape[2] = nx;
	desc.batch = 1;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	CHECK(vkfftgo_plan_bytes(p, &cbytes, &rbytes));
	size_t in_bytes = kind == VKFFTGO_R2C ? rbytes : cbytes;
	size_t want_c = kind == VKFFTGO_R2C ? (size_t)(nz * ny * (nx / 2 + 1)) * 2 * scalar
					    : npoints * 2 * scalar;
	if (cbytes != want_c || (kind == VKFFTGO_R2C && rbytes != npoints * scalar)) {
		fprintf(stderr, "plan_bytes: got %zu/%zu\n", cbytes, rbytes);
		exit(1);
	}
	size_t n = in_bytes / scalar;
	void *in = malloc(in_bytes), *spec = malloc(cbytes), *back = malloc(in_bytes);
	for (size_t i = 0; i < n; i++) {
		if (dbl)
			((double *)in)[i] = test_value(i);
		else
			((float *)in)[i] = (float)test_value(i);
	}
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, spec, cbytes, in, in_bytes));
	/* spot check: bin 0 is the sum of the data */
	double sum = 0;
	for (size_t i = 0; i < (kind == VKFFTGO_R2C ? n : n / 2); i++)
		sum += kind == VKFFTGO_R2C ? (dbl ? ((double *)in)[i] : ((float *)in)[i])
					   : (dbl ? ((double *)in)[2 * i] : ((float *)in)[2 * i]);
	double dc = dbl ? ((double *)spec)[0] : ((float *)spec)[0];
	if (fabs(dc - sum) > 1e-3 * (1 + fabs(sum))) {
		fprintf(stderr, "DC bin %g, want %g\n", dc, sum);
		exit(1);
	}
	CHECK(vkfftgo_inverse(p, back, spec));
	double err = dbl ? max_err_d((double *)in, (double *)back, n) : max_err_f((float *)in, (float *)back, n);
	double tol = dbl ? 1e-12 : 1e-5;
	printf("  %s %s %lldx%lldx%lld host round trip: max error %.3g\n",
	       kind == VKFFTGO_R2C ? "R2C" : "C2C", dbl ? "double" : "single", (long long)nz,
	       (long long)ny, (long long)nx, err);
	if (!(err < tol)) {
		fprintf(stderr, "round-trip error %g > %g\n", err, tol);
		exit(1);
	}

	/* the same through device buffers */
	vkfftgo_buffer *bin = NULL, *bspec = NULL;
	CHECK(vkfftgo_buffer_create(d, in_bytes, &bin));
	CHECK(vkfftgo_buffer_create(d, cbytes, &bspec));
	CHECK(vkfftgo_buffer_upload(bin, in, in_bytes));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bspec, bin));
	memset(back, 0, in_bytes);
	if (kind == VKFFTGO_C2C) {
		CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, bspec, bspec)); /* in place */
		CHECK(vkfftgo_buffer_download(bspec, back, cbytes));
	} else {
		CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, bin, bspec));
		CHECK(vkfftgo_buffer_download(bin, back, in_bytes));
	}
	err = dbl ? max_err_d((double *)in, (double *)back, n) : max_err_f((float *)in, (float *)back, n);
	if (!(err < tol)) {
		fprintf(stderr, "device-buffer round-trip error %g\n", err);
		exit(1);
	}
#if VKFFTGO_BACKEND == 3
	/* and through raw cl_mem handles */
	{
		struct _cl_mem *min = NULL, *mspec = NULL;
		struct _cl_command_queue *q = NULL;
		CHECK(vkfftgo_buffer_cl_mem(bin, &min));
		CHECK(vkfftgo_buffer_cl_mem(bspec, &mspec));
		CHECK(vkfftgo_device_cl_queue(d, &q));
		if (!min || !mspec || !q) {
			fprintf(stderr, "null native handle\n");
			exit(1);
		}
		CHECK(vkfftgo_buffer_upload(bin, in, in_bytes));
		CHECK(vkfftgo_execute_cl(p, VKFFTGO_FORWARD, mspec, min));
		CHECK(vkfftgo_execute_cl(p, VKFFTGO_INVERSE, kind == VKFFTGO_C2C ? mspec : min, mspec));
		memset(back, 0, in_bytes);
		CHECK(vkfftgo_buffer_download(kind == VKFFTGO_C2C ? bspec : bin, back, in_bytes));
		err = dbl ? max_err_d((double *)in, (double *)back, n) : max_err_f((float *)in, (float *)back, n);
		if (!(err < tol)) {
			fprintf(stderr, "cl_mem round-trip error %g\n", err);
			exit(1);
		}
		EXPECT_FAIL(vkfftgo_execute_cl(p, VKFFTGO_FORWARD, NULL, min), VKFFTGO_ERROR_NULL_POINTER, "out is NULL");
	}
#elif VKFFTGO_BACKEND == 0
	/* and through raw VkBuffer handles (tests/capi/vk_interop.c uses buffers of its own) */
	{
		struct VkBuffer_T *vin = NULL, *vspec = NULL;
		struct VkQueue_T *q = NULL;
		CHECK(vkfftgo_buffer_vk_buffer(bin, &vin));
		CHECK(vkfftgo_buffer_vk_buffer(bspec, &vspec));
		CHECK(vkfftgo_device_vk_queue(d, &q));
		if (!vin || !vspec || !q) {
			fprintf(stderr, "null native handle\n");
			exit(1);
		}
		CHECK(vkfftgo_buffer_upload(bin, in, in_bytes));
		CHECK(vkfftgo_execute_vk(p, VKFFTGO_FORWARD, vspec, vin));
		CHECK(vkfftgo_execute_vk(p, VKFFTGO_INVERSE, kind == VKFFTGO_C2C ? vspec : vin, vspec));
		memset(back, 0, in_bytes);
		CHECK(vkfftgo_buffer_download(kind == VKFFTGO_C2C ? bspec : bin, back, in_bytes));
		err = dbl ? max_err_d((double *)in, (double *)back, n) : max_err_f((float *)in, (float *)back, n);
		if (!(err < tol)) {
			fprintf(stderr, "VkBuffer round-trip error %g\n", err);
			exit(1);
		}
		EXPECT_FAIL(vkfftgo_execute_vk(p, VKFFTGO_FORWARD, NULL, vin), VKFFTGO_ERROR_NULL_POINTER, "out is NULL");
	}
#endif
	/* checked sizes */
	EXPECT_FAIL(vkfftgo_execute(p, VKFFTGO_FORWARD, spec, cbytes - 1, in, in_bytes),
		    VKFFTGO_ERROR_WRONG_SIZE, "vkfftgo_execute|forward|the plan needs");
	{
		vkfftgo_buffer *small = NULL;
		CHECK(vkfftgo_buffer_create(d, 16, &small));
		EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, small, bin), VKFFTGO_ERROR_WRONG_SIZE,
			    "out has 16 bytes|the plan needs");
		CHECK(vkfftgo_buffer_destroy(small));
	}
	CHECK(vkfftgo_buffer_destroy(bin));
	CHECK(vkfftgo_buffer_destroy(bspec));
	CHECK(vkfftgo_plan_destroy(p));
	free(in);
	free(spec);
	free(back);
}

int main(void)
{
	vkfftgo_device *d = NULL;
	int count = 0, fp64 = 0;
	char name[256];
	printf("vkfftgo %s (header %s), backend %s (%d), VkFFT %d\n", vkfftgo_version_string(),
	       VKFFTGO_VERSION_STRING, vkfftgo_backend_name(), vkfftgo_backend(), vkfftgo_vkfft_version());
	if (vkfftgo_backend() != VKFFTGO_BACKEND || vkfftgo_version() != VKFFTGO_VERSION) {
		fprintf(stderr, "library/header mismatch\n");
		return 1;
	}
	CHECK(vkfftgo_device_count(&count));
	if (count < 1) {
		fprintf(stderr, "no devices\n");
		return 1;
	}
	CHECK(vkfftgo_device_open(0, &d));
	CHECK(vkfftgo_device_name(d, name, sizeof name));
	CHECK(vkfftgo_device_supports_double(d, &fp64));
	printf("device 0: %s (fp64 %s)\n", name, fp64 ? "yes" : "no");

	round_trip(d, VKFFTGO_C2C, VKFFTGO_SINGLE, 8, 16, 32);
	round_trip(d, VKFFTGO_R2C, VKFFTGO_SINGLE, 8, 12, 30);
	if (fp64) {
		round_trip(d, VKFFTGO_C2C, VKFFTGO_DOUBLE, 4, 8, 16);
		round_trip(d, VKFFTGO_R2C, VKFFTGO_DOUBLE, 4, 6, 10);
	}

	/* errors say what is wrong */
	{
		vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
		vkfftgo_plan *p = NULL;
		desc.rank = 2;
		desc.shape[0] = 4;
		desc.shape[1] = 0;
		EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE,
			    "vkfftgo_plan_create|dimension 1");
		if (p != NULL)
			return 1;
	}
	vkfftgo_mem_stats ms = VKFFTGO_MEM_STATS_INIT;
	CHECK(vkfftgo_device_mem_stats(d, &ms));
	if (ms.live_allocations != 0 || ms.live_bytes != 0) {
		fprintf(stderr, "device memory leaked: %lld live\n", (long long)ms.live_allocations);
		return 1;
	}

	/* the allocation cache: a destroyed plan's memory serves the next plan of its size */
	{
		vkfftgo_alloc_cache_stats cs = VKFFTGO_ALLOC_CACHE_STATS_INIT, cs2 = VKFFTGO_ALLOC_CACHE_STATS_INIT;
		vkfftgo_mem_stats m1 = VKFFTGO_MEM_STATS_INIT, m2 = VKFFTGO_MEM_STATS_INIT;
		vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
		vkfftgo_plan *p = NULL;
		int i;
		desc.rank = 1;
		desc.shape[0] = 4096;
		desc.batch = 4;
		CHECK(vkfftgo_device_set_staging_threshold(d, 0));
		CHECK(vkfftgo_alloc_cache_get_stats(d, &cs));
		CHECK(vkfftgo_device_mem_stats(d, &m1));
		for (i = 0; i < 3; i++) {
			CHECK(vkfftgo_plan_create(d, &desc, &p));
			CHECK(vkfftgo_plan_destroy(p));
		}
		CHECK(vkfftgo_alloc_cache_get_stats(d, &cs2));
		CHECK(vkfftgo_device_mem_stats(d, &m2));
		if (cs2.hits - cs.hits != 2 || m2.allocations - m1.allocations != 1 || cs2.bytes_held <= 0) {
			fprintf(stderr, "allocation cache: %lld hits, %lld device allocations, %lld held\n",
				(long long)(cs2.hits - cs.hits), (long long)(m2.allocations - m1.allocations),
				(long long)cs2.bytes_held);
			return 1;
		}
		CHECK(vkfftgo_alloc_cache_trim(d));
		CHECK(vkfftgo_alloc_cache_get_stats(d, &cs2));
		if (cs2.bytes_held != 0)
			return 1;
		EXPECT_FAIL(vkfftgo_alloc_cache_set_limit(d, -1), VKFFTGO_ERROR_INVALID_ARGUMENT, "negative");
		CHECK(vkfftgo_alloc_cache_set_limit(d, 0));
	}
	CHECK(vkfftgo_device_close(d));
	printf("c_consumer: OK\n");
	return 0;
}
