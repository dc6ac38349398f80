/* slab.c — one transform distributed across a pool from C: a slab plan gives what one
 * device's plan of the same shape gives (relative L2 error 1e-6 single, 1e-12 double; C2C
 * and R2C, 2-D and 3-D, odd rows, a batch, the transposed layout), reports FFTW-MPI's
 * block split, dies with its destroy or its pool's close, and refuses bad descriptors
 * and arguments with a status and a message naming the problem. PoCL lists its CPU
 * driver as often as POCL_DEVICES names it: the test asks for two devices before the
 * library first starts OpenCL.
 *   cc slab.c $(pkg-config --cflags --libs vkfftgo) -lm */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>

#include "check.h"

static vkfftgo_device *dev;
static vkfftgo_pool *pool;
static int npool;

/* relative L2 error of got against want, n numbers of the precision */
static double rel_err(const void *got, const void *want, size_t n, int dbl)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		double g = dbl ? ((const double *)got)[i] : ((const float *)got)[i];
		double w = dbl ? ((const double *)want)[i] : ((const float *)want)[i];
		num += (g - w) * (g - w);
		den += w * w;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* swaps the first two axes of [batch][n0][m1][r] complex elements of esize bytes */
static void transpose(unsigned char *out, const unsigned char *x, int64_t batch, int64_t n0, int64_t m1, int64_t r,
		      size_t esize)
{
	for (int64_t b = 0; b < batch; b++)
		for (int64_t i = 0; i < n0; i++)
			for (int64_t j = 0; j < m1; j++)
				memcpy(out + (size_t)(((b * m1 + j) * n0 + i) * r) * esize,
				       x + (size_t)(((b * n0 + i) * m1 + j) * r) * esize, (size_t)r * esize);
}

static vkfftgo_plan_desc plan_desc_of(const vkfftgo_slab_desc *s)
{
	vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
	d.kind = s->kind;
	d.precision = s->precision;
	d.norm = s->norm;
	d.rank = s->rank;
	for (int i = 0; i < s->rank; i++)
		d.shape[i] = s->shape[i];
	d.batch = s->batch;
	return d;
}

static void check_case(const char *what, vkfftgo_slab_desc s, int64_t first_rows)
{
	vkfftgo_plan_desc d = plan_desc_of(&s);
	vkfftgo_plan *one;
	vkfftgo_slab_plan *sp;
	int dbl = s.precision == VKFFTGO_DOUBLE;
	double tol = dbl ? 1e-12 : 1e-6;
	size_t real_size = dbl ? sizeof(double) : sizeof(float), csize = 2 * real_size;
	CHECK(vkfftgo_plan_create(dev, &d, &one));
	CHECK(vkfftgo_slab_plan_create(pool, &s, &sp));

	int64_t start[8], rows[8], total = 0;
	CHECK(vkfftgo_slab_plan_slabs(sp, 0, start, rows, npool));
	for (int k = 0; k < npool; k++) {
		if (start[k] != total) {
			fprintf(stderr, "%s: slab %d starts at %lld, want %lld\n", what, k, (long long)start[k], (long long)total);
			exit(1);
		}
		total += rows[k];
	}
	if (total != s.shape[0] || (npool == 2 && rows[0] != first_rows)) {
		fprintf(stderr, "%s: slabs of %lld rows, the first %lld; want %lld and %lld\n", what, (long long)total,
			(long long)rows[0], (long long)s.shape[0], (long long)first_rows);
		exit(1);
	}

	size_t ob, ib, sob, sib;
	CHECK(vkfftgo_plan_io_bytes(one, VKFFTGO_FORWARD, &ob, &ib));
	CHECK(vkfftgo_slab_plan_io_bytes(sp, VKFFTGO_FORWARD, &sob, &sib));
	if (ob != sob || ib != sib) {
		fprintf(stderr, "%s: slab plan sizes %zu/%zu, one device's %zu/%zu\n", what, sob, sib, ob, ib);
		exit(1);
	}
	unsigned char *in = malloc(ib), *want = malloc(ob), *got = malloc(ob), *wantT = malloc(ob), *back = malloc(ib);
	for (size_t i = 0; i < ib / real_size; i++) {
		if (dbl)
			((double *)in)[i] = test_value(i + 5);
		else
			((float *)in)[i] = (float)test_value(i + 5);
	}
	CHECK(vkfftgo_execute(one, VKFFTGO_FORWARD, want, ob, in, ib));
	CHECK(vkfftgo_slab_execute(sp, VKFFTGO_FORWARD, got, ob, in, ib));
	int64_t batch = s.batch ? s.batch : 1, n0 = s.shape[0];
	int64_t m1 = s.shape[1], r = s.rank == 3 ? s.shape[2] : 1;
	if (s.kind == VKFFTGO_R2C) {
		if (s.rank == 2)
			m1 = s.shape[1] / 2 + 1;
		else
			r = s.shape[2] / 2 + 1;
	}
	const unsigned char *ref = want;
	if (s.transposed_out) {
		transpose(wantT, want, batch, n0, m1, r, csize);
		ref = wantT;
	}
	double e = rel_err(got, ref, ob / real_size, dbl);
	if (!(e <= tol)) {
		fprintf(stderr, "%s: forward differs from one device's plan: relative error %g\n", what, e);
		exit(1);
	}
	/* the inverse of the forward's output (transposed when the plan takes it so) */
	const unsigned char *inv_in = s.transposed_in ? (s.transposed_out ? got : wantT) : want;
	if (s.transposed_in && !s.transposed_out)
		transpose(wantT, want, batch, n0, m1, r, csize);
	CHECK(vkfftgo_slab_execute(sp, VKFFTGO_INVERSE, back, ib, inv_in, ob));
	e = rel_err(back, in, ib / real_size, dbl);
	if (!(e <= tol)) {
		fprintf(stderr, "%s: inverse of the forward is off by %g relative\n", what, e);
		exit(1);
	}
	free(in);
	free(want);
	free(got);
	free(wantT);
	free(back);
	CHECK(vkfftgo_slab_plan_destroy(sp));
	CHECK(vkfftgo_plan_destroy(one));
	printf("   %s: one device's results, both directions (relative error %.1e)\n", what, e);
}

static void check_results(void)
{
	vkfftgo_slab_desc s = VKFFTGO_SLAB_DESC_INIT;
	int dbl = 0;
	s.rank = 2;
	s.shape[0] = 16;
	s.shape[1] = 12;
	check_case("C2C single 16x12", s, 8);
	s.chunks = 3; /* pipelined: each device's stages in up to 3 chunks */
	check_case("C2C single 16x12, stages in chunks", s, 8);
	s.chunks = 0;
	s.shape[0] = 9;
	s.shape[1] = 7;
	s.transposed_out = s.transposed_in = 1;
	check_case("C2C single 9x7, transposed out and in", s, 5);
	s.transposed_out = s.transposed_in = 0;
	s.kind = VKFFTGO_R2C;
	check_case("R2C single 9x7", s, 5);
	s.rank = 3;
	s.shape[0] = 12;
	s.shape[1] = 10;
	s.shape[2] = 8;
	s.transposed_in = 1;
	check_case("R2C single 12x10x8, transposed in", s, 6);
	s.chunks = 4;
	check_case("R2C single 12x10x8, transposed in, stages in chunks", s, 6);
	s.chunks = 0;
	CHECK(vkfftgo_device_supports_double(dev, &dbl));
	if (dbl) {
		s.transposed_in = 0;
		s.precision = VKFFTGO_DOUBLE;
		s.kind = VKFFTGO_C2C;
		s.batch = 2;
		s.norm = VKFFTGO_NORM_ORTHO;
		check_case("C2C double 12x10x8 x 2, ortho", s, 6);
		s.kind = VKFFTGO_R2C;
		s.rank = 2;
		s.shape[0] = 9;
		s.shape[1] = 14;
		s.batch = 1;
		s.norm = VKFFTGO_NORM_BACKWARD;
		s.transposed_out = 1;
		check_case("R2C double 9x14, transposed out", s, 5);
	}
}

static void check_bad_arguments(void)
{
	vkfftgo_slab_plan *sp = NULL;
	vkfftgo_slab_desc s = VKFFTGO_SLAB_DESC_INIT;
	s.rank = 1;
	s.shape[0] = 16;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_SHAPE, "rank is 1|2-D and 3-D");
	s.rank = 4;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_SHAPE, "rank is 4");
	s.rank = 2;
	s.shape[1] = 0;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_SHAPE, "shape[1] is 0");
	s.shape[1] = 8;
	s.kind = VKFFTGO_R2R;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->kind");
	s.kind = VKFFTGO_C2C;
	s.transposed_out = 2;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "transposed_out is 2");
	s.transposed_out = 0;
	s.chunks = -1;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "chunks is -1");
	s.chunks = 0;
	s.size = 8;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is 8");
	s.size = (uint32_t)sizeof s;
	if (npool == 2) {
		s.shape[0] = 1;
		EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_SHAPE,
			    "first axis has 1 rows for 2 devices");
		s.shape[0] = 8;
		s.kind = VKFFTGO_R2C;
		s.shape[1] = 1;
		EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, &sp), VKFFTGO_ERROR_INVALID_SHAPE, "spectrum's second axis");
	}
	s.kind = VKFFTGO_C2C; /* the plan below: complex 8 x 8, whatever the checks above set */
	s.shape[0] = s.shape[1] = 8;
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, NULL, &sp), VKFFTGO_ERROR_NULL_POINTER, "desc");
	EXPECT_FAIL(vkfftgo_slab_plan_create(NULL, &s, &sp), VKFFTGO_ERROR_NULL_POINTER, "pool handle");
	EXPECT_FAIL(vkfftgo_slab_plan_create((vkfftgo_pool *)dev, &s, &sp), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not an open pool handle");
	EXPECT_FAIL(vkfftgo_slab_plan_create(pool, &s, NULL), VKFFTGO_ERROR_NULL_POINTER, "output pointer");
	if (sp) {
		fprintf(stderr, "a failed vkfftgo_slab_plan_create left a handle\n");
		exit(1);
	}

	CHECK(vkfftgo_slab_plan_create(pool, &s, &sp));
	size_t b = 8 * 8 * 2 * sizeof(float);
	float *x = calloc(1, b);
	int64_t st[8], rows[8];
	EXPECT_FAIL(vkfftgo_slab_execute(sp, VKFFTGO_FORWARD, x, 3, x, b), VKFFTGO_ERROR_WRONG_SIZE, "out has 3 bytes");
	EXPECT_FAIL(vkfftgo_slab_execute(sp, 0, x, b, x, b), VKFFTGO_ERROR_INVALID_ARGUMENT, "direction is 0");
	EXPECT_FAIL(vkfftgo_slab_execute(sp, VKFFTGO_FORWARD, NULL, b, x, b), VKFFTGO_ERROR_NULL_POINTER, "out");
	EXPECT_FAIL(vkfftgo_slab_plan_slabs(sp, 0, st, rows, npool + 1), VKFFTGO_ERROR_INVALID_ARGUMENT, "count");
	EXPECT_FAIL(vkfftgo_slab_plan_slabs(sp, 2, st, rows, npool), VKFFTGO_ERROR_INVALID_ARGUMENT, "transposed is 2");
	EXPECT_FAIL(vkfftgo_slab_plan_slabs(sp, 0, NULL, rows, npool), VKFFTGO_ERROR_NULL_POINTER, "start or rows");
	/* a slab plan is neither a plan nor a pool plan */
	EXPECT_FAIL(vkfftgo_execute((vkfftgo_plan *)sp, VKFFTGO_FORWARD, x, b, x, b), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not a live plan handle");
	EXPECT_FAIL(vkfftgo_pool_execute((vkfftgo_pool_plan *)sp, VKFFTGO_FORWARD, x, b, x, b),
		    VKFFTGO_ERROR_INVALID_HANDLE, "not a live pool plan handle");
	CHECK(vkfftgo_slab_execute(sp, VKFFTGO_FORWARD, x, b, x, b)); /* in place */
	CHECK(vkfftgo_slab_plan_destroy(sp));
	EXPECT_FAIL(vkfftgo_slab_execute(sp, VKFFTGO_FORWARD, x, b, x, b), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not a live slab plan handle");
	EXPECT_FAIL(vkfftgo_slab_plan_destroy(sp), VKFFTGO_ERROR_INVALID_HANDLE, "not a live slab plan handle");
	CHECK(vkfftgo_slab_plan_destroy(NULL));
	free(x);
	printf("   bad arguments: statuses and messages; dead and foreign handles refused\n");
}

/* Closing a pool destroys its slab plans: their handles die, and nothing leaks. */
static void check_pool_close(void)
{
	vkfftgo_pool *p;
	vkfftgo_slab_plan *sp;
	vkfftgo_slab_desc s = VKFFTGO_SLAB_DESC_INIT;
	int64_t st[8], rows[8];
	int n;
	s.rank = 2;
	s.shape[0] = 8;
	s.shape[1] = 4;
	CHECK(vkfftgo_pool_open(NULL, 0, &p));
	CHECK(vkfftgo_pool_size(p, &n));
	CHECK(vkfftgo_slab_plan_create(p, &s, &sp));
	CHECK(vkfftgo_slab_plan_slabs(sp, 1, st, rows, n));
	CHECK(vkfftgo_pool_close(p));
	EXPECT_FAIL(vkfftgo_slab_plan_slabs(sp, 0, st, rows, n), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not a live slab plan handle");
	EXPECT_FAIL(vkfftgo_slab_plan_destroy(sp), VKFFTGO_ERROR_INVALID_HANDLE, "not a live slab plan handle");
	printf("   pool_close destroys its slab plans (%d devices)\n", n);
}

int main(void)
{
	int count = 0, idx[2] = {0, 1};
	char name[256];
	setenv("POCL_DEVICES", "pthread pthread", 0);
	CHECK(vkfftgo_device_count(&count));
	CHECK(vkfftgo_device_open(0, &dev));
	CHECK(vkfftgo_device_name(dev, name, sizeof name));
	if (vkfftgo_backend() == 3 && strncmp(name, "pthread", 7) == 0 && count < 2) {
		fprintf(stderr, "PoCL lists %d device(s) with POCL_DEVICES=%s\n", count, getenv("POCL_DEVICES"));
		exit(1);
	}
	npool = count >= 2 ? 2 : 1;
	CHECK(vkfftgo_pool_open(idx, npool, &pool));
	printf("   slab plans on a pool of %d device(s) like %s\n", npool, name);
	check_results();
	check_bad_arguments();
	check_pool_close();
	CHECK(vkfftgo_pool_close(pool));
	CHECK(vkfftgo_device_close(dev));
	printf("slab: all passed\n");
	return 0;
}
