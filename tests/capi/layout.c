/* layout.c — the 0.2 descriptor fields from C: axes, rank 4, real-to-real kinds,
 * storage modes, in-place R2C, strides, an old-size descriptor, and bad input. Checks
 * against direct sums in double. */
#include <complex.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"

static const double pi = 3.14159265358979323846;

/* the first version's descriptor ended where shape3 starts */
#define DESC_V1_SIZE ((uint32_t)offsetof(vkfftgo_plan_desc, shape3))

static double maxabs_c(const double complex *a, const double complex *b, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		m = fmax(m, cabs(a[i] - b[i]));
	return m;
}

/* DFT of n points with stride s, unnormalised, forward */
static void dft(const double complex *x, double complex *y, size_t n, size_t s)
{
	for (size_t k = 0; k < n; k++) {
		double complex acc = 0;
		for (size_t j = 0; j < n; j++)
			acc += x[j * s] * cexp(-2 * pi * I * (double)((j * k) % n) / (double)n);
		y[k * s] = acc;
	}
}

/* An old caller: a descriptor of the first version's size still makes a working plan. */
static void old_descriptor(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	double complex x[8], y[8], want[8];
	desc.size = DESC_V1_SIZE;
	desc.precision = VKFFTGO_DOUBLE;
	desc.rank = 1;
	desc.shape[0] = 8;
	desc.shape3 = 99;                /* past the old size: must be ignored */
	desc.naxes = 1; desc.axes[0] = 5; /* likewise */
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (int i = 0; i < 8; i++)
		x[i] = test_value((size_t)i) + I * test_value((size_t)i + 8);
	dft(x, want, 8, 1);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, sizeof y, x, sizeof x));
	if (maxabs_c(y, want, 8) > 1e-12) { fprintf(stderr, "old descriptor: wrong result\n"); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));
	desc.size = DESC_V1_SIZE - 8;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size|VKFFTGO_PLAN_DESC_INIT");
	printf("   old-size descriptor (%u bytes, now %zu): plan works, new fields ignored\n", DESC_V1_SIZE,
	       sizeof(vkfftgo_plan_desc));
}

/* Axes {0} of a 4x6 array transform its columns; rank 4 with two axes; double. */
static void axes_and_rank4(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	double complex x[2 * 3 * 4 * 5], y[2 * 3 * 4 * 5], want[2 * 3 * 4 * 5], tmp[2 * 3 * 4 * 5];
	desc.precision = VKFFTGO_DOUBLE;
	desc.rank = 2; desc.shape[0] = 4; desc.shape[1] = 6;
	desc.naxes = 1; desc.axes[0] = 0;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (size_t i = 0; i < 24; i++)
		x[i] = test_value(i) + I * test_value(i + 100);
	for (size_t c = 0; c < 6; c++)
		dft(x + c, want + c, 4, 6);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, 24 * sizeof *y, x, 24 * sizeof *x));
	if (maxabs_c(y, want, 24) > 1e-12) { fprintf(stderr, "axes {0}: wrong result\n"); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));

	/* rank 4: shape (2,3,4,5), axes {-1, 1}: along the last and the second axis */
	desc.rank = 4; desc.shape[0] = 2; desc.shape[1] = 3; desc.shape[2] = 4; desc.shape3 = 5;
	desc.naxes = 2; desc.axes[0] = -1; desc.axes[1] = 1;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	size_t n = 120;
	for (size_t i = 0; i < n; i++)
		x[i] = test_value(i) + I * test_value(i + 300);
	for (size_t r = 0; r < n / 5; r++)
		dft(x + 5 * r, tmp + 5 * r, 5, 1);
	for (size_t a = 0; a < 2; a++)
		for (size_t c = 0; c < 4; c++)
			for (size_t e = 0; e < 5; e++)
				dft(tmp + a * 60 + c * 5 + e, want + a * 60 + c * 5 + e, 3, 20);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, n * sizeof *y, x, n * sizeof *x));
	if (maxabs_c(y, want, n) > 1e-11) { fprintf(stderr, "rank 4: wrong result %g\n", maxabs_c(y, want, n)); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));
	printf("   axes {0} of 4x6 and rank 4 (2,3,4,5) with axes {-1,1}: match direct DFTs\n");
}

/* DCT-II (scipy's, unnormalised) of every row; the inverse gives the rows back. */
static void dct(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	enum { R = 3, N = 10 };
	double x[R * N], y[R * N], back[R * N];
	desc.kind = VKFFTGO_R2R;
	desc.r2r_kind = VKFFTGO_DCT2;
	desc.precision = VKFFTGO_DOUBLE;
	desc.rank = 1; desc.shape[0] = N; desc.batch = R;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	size_t cb, rb, ob, ib;
	CHECK(vkfftgo_plan_bytes(p, &cb, &rb));
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &ob, &ib));
	if (cb != 0 || rb != sizeof x || ob != sizeof x || ib != sizeof x) { fprintf(stderr, "R2R sizes\n"); exit(1); }
	for (size_t i = 0; i < R * N; i++)
		x[i] = test_value(i);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, sizeof y, x, sizeof x));
	double err = 0;
	for (int r = 0; r < R; r++)
		for (int k = 0; k < N; k++) {
			double acc = 0;
			for (int j = 0; j < N; j++)
				acc += 2 * x[r * N + j] * cos(pi * k * (2 * j + 1) / (2.0 * N));
			err = fmax(err, fabs(acc - y[r * N + k]));
		}
	if (err > 1e-12) { fprintf(stderr, "DCT-II: error %g\n", err); exit(1); }
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, back, sizeof back, y, sizeof y));
	for (size_t i = 0; i < R * N; i++)
		err = fmax(err, fabs(back[i] - x[i]));
	if (err > 1e-12) { fprintf(stderr, "DCT-II inverse: error %g\n", err); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));
	printf("   DCT-II of 3 rows of 10 matches the defining sum; the inverse undoes it\n");
}

/* Storage modes: float data with double arithmetic; fp16 where the device has it. */
static void storage(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	float complex x[64], y[64];
	double complex xd[64], want[64], got[64];
	desc.rank = 1; desc.shape[0] = 64;
	desc.storage = VKFFTGO_STORAGE_FLOAT_COMPUTE_DOUBLE;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (int i = 0; i < 64; i++) {
		x[i] = (float)test_value((size_t)i) + I * (float)test_value((size_t)i + 64);
		xd[i] = x[i];
	}
	dft(xd, want, 64, 1);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, y, sizeof y, x, sizeof x));
	for (int i = 0; i < 64; i++)
		got[i] = y[i];
	if (maxabs_c(got, want, 64) > 1e-5) { fprintf(stderr, "float-compute-double: wrong result\n"); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));

	desc.storage = VKFFTGO_STORAGE_HALF;
	vkfftgo_status st = vkfftgo_plan_create(d, &desc, &p);
	if (st == VKFFTGO_ERROR_UNSUPPORTED) {
		printf("   float data, double arithmetic: ok; fp16 storage refused here: %s\n", vkfftgo_last_error());
		return;
	}
	CHECK(st);
	size_t ob, ib;
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &ob, &ib));
	if (ob != 64 * 4 || ib != 64 * 4) { fprintf(stderr, "fp16 sizes %zu %zu\n", ob, ib); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));
	desc.precision = VKFFTGO_DOUBLE;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "single-precision");
	printf("   float data, double arithmetic: ok; fp16 storage: 2 bytes a value\n");
}

/* In-place R2C in FFTW's padded layout, host and device buffer. */
static void inplace_r2c(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	vkfftgo_buffer *b;
	enum { N = 7, W = 2 * (N / 2 + 1), R = 2 };
	double data[R * W], orig[R * W];
	desc.kind = VKFFTGO_R2C;
	desc.precision = VKFFTGO_DOUBLE;
	desc.real_inplace = 1;
	desc.rank = 1; desc.shape[0] = N; desc.batch = R;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (int r = 0; r < R; r++)
		for (int i = 0; i < W; i++)
			orig[r * W + i] = i < N ? test_value((size_t)(r * N + i)) : 0;
	memcpy(data, orig, sizeof data);
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, data, sizeof data, data, sizeof data));
	double err = 0;
	for (int r = 0; r < R; r++)
		for (int k = 0; k <= N / 2; k++) {
			double complex acc = 0;
			for (int j = 0; j < N; j++)
				acc += orig[r * W + j] * cexp(-2 * pi * I * j * k / N);
			err = fmax(err, cabs(acc - (data[r * W + 2 * k] + I * data[r * W + 2 * k + 1])));
		}
	if (err > 1e-12) { fprintf(stderr, "in-place R2C: error %g\n", err); exit(1); }
	CHECK(vkfftgo_buffer_create(d, sizeof data, &b));
	CHECK(vkfftgo_buffer_upload(b, data, sizeof data));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, b, b));
	CHECK(vkfftgo_buffer_download(b, data, sizeof data));
	for (int r = 0; r < R; r++)
		for (int i = 0; i < N; i++)
			err = fmax(err, fabs(data[r * W + i] - orig[r * W + i]));
	if (err > 1e-12) { fprintf(stderr, "in-place C2R: error %g\n", err); exit(1); }
	double other[R * W];
	EXPECT_FAIL(vkfftgo_execute(p, VKFFTGO_FORWARD, other, sizeof other, data, sizeof data),
		    VKFFTGO_ERROR_INVALID_ARGUMENT, "out must equal in");
	CHECK(vkfftgo_buffer_destroy(b));
	CHECK(vkfftgo_plan_destroy(p));
	printf("   in-place R2C, n=7 padded to 8: host forward and buffer inverse\n");
}

/* Padded rows on device buffers: 3 rows of 5 in rows of 8; the gaps stay untouched. */
static void strided_buffers(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	vkfftgo_buffer *bi, *bo;
	enum { NY = 3, NX = 5, S = 8, SPAN = (NY - 1) * S + NX };
	double complex in[SPAN], out[SPAN], want[NX];
	desc.precision = VKFFTGO_DOUBLE;
	desc.rank = 2; desc.shape[0] = NY; desc.shape[1] = NX;
	desc.naxes = 1; desc.axes[0] = 1;
	desc.in_strides[0] = S; desc.in_strides[1] = 1;
	desc.out_strides[0] = S; desc.out_strides[1] = 1;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	size_t ob, ib;
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &ob, &ib));
	if (ob != SPAN * sizeof *out || ib != SPAN * sizeof *in) { fprintf(stderr, "strided sizes %zu\n", ob); exit(1); }
	for (int i = 0; i < SPAN; i++) {
		in[i] = test_value((size_t)i) + I * test_value((size_t)i + 50);
		out[i] = 777;
	}
	CHECK(vkfftgo_buffer_create(d, sizeof in, &bi));
	CHECK(vkfftgo_buffer_create(d, sizeof out, &bo));
	CHECK(vkfftgo_buffer_upload(bi, in, sizeof in));
	CHECK(vkfftgo_buffer_upload(bo, out, sizeof out));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bo, bi));
	CHECK(vkfftgo_buffer_download(bo, out, sizeof out));
	double err = 0;
	for (int r = 0; r < NY; r++) {
		dft(in + r * S, want, NX, 1);
		err = fmax(err, maxabs_c(out + r * S, want, NX));
		for (int g = NX; g < S && r * S + g < SPAN; g++)
			if (out[r * S + g] != 777) { fprintf(stderr, "strided: gap written\n"); exit(1); }
	}
	if (err > 1e-12) { fprintf(stderr, "strided: error %g\n", err); exit(1); }
	/* host memory is contiguous: strided plans run on device memory only */
	EXPECT_FAIL(vkfftgo_execute(p, VKFFTGO_FORWARD, out, sizeof out, in, sizeof in), VKFFTGO_ERROR_UNSUPPORTED,
		    "device buffers");
	EXPECT_FAIL(vkfftgo_forward(p, out, in), VKFFTGO_ERROR_UNSUPPORTED, "device buffers");
	/* buffers hold at least what the strides reach */
	vkfftgo_buffer *small;
	CHECK(vkfftgo_buffer_create(d, sizeof in - sizeof *in, &small));
	EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bo, small), VKFFTGO_ERROR_WRONG_SIZE, "at least");
	CHECK(vkfftgo_buffer_destroy(small));
	/* in place with equal strides */
	CHECK(vkfftgo_buffer_upload(bi, in, sizeof in));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bi, bi));
	CHECK(vkfftgo_buffer_download(bi, out, sizeof out));
	for (int r = 0; r < NY; r++) {
		dft(in + r * S, want, NX, 1);
		err = fmax(err, maxabs_c(out + r * S, want, NX));
	}
	if (err > 1e-12) { fprintf(stderr, "strided in place: error %g\n", err); exit(1); }
	CHECK(vkfftgo_buffer_destroy(bi));
	CHECK(vkfftgo_buffer_destroy(bo));
	CHECK(vkfftgo_plan_destroy(p));
	/* in place needs equal strides: contiguous output, padded input */
	desc.out_strides[0] = NX;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_INVERSE, &ob, &ib));
	if (ob != NY * NX * sizeof *out || ib != SPAN * sizeof *in) { fprintf(stderr, "strided sizes %zu %zu\n", ob, ib); exit(1); }
	CHECK(vkfftgo_buffer_create(d, sizeof in, &bi));
	EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bi, bi), VKFFTGO_ERROR_INVALID_ARGUMENT,
		    "in_strides equal to out_strides");
	CHECK(vkfftgo_buffer_destroy(bi));
	CHECK(vkfftgo_plan_destroy(p));
	printf("   rows of 5 in rows of 8 on device buffers: match, gaps untouched, in place; short buffers and host memory refused\n");
}

static void bad_input(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	desc.rank = 2; desc.shape[0] = 4; desc.shape[1] = 4;
	desc.naxes = 1; desc.axes[0] = 2;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "axis 2 is out of range");
	desc.naxes = 2; desc.axes[0] = 1; desc.axes[1] = -1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "repeated");
	desc.naxes = 0;
	desc.in_strides[0] = 2; desc.in_strides[1] = 1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "overlap");
	desc.in_strides[0] = 0; desc.in_strides[1] = 0;
	desc.r2r_kind = VKFFTGO_DCT2; /* on a complex plan */
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "r2r_kind|VKFFTGO_R2R");
	desc.r2r_kind = 0;
	desc.rank = 5;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE, "rank is 5|1 to 4");
	desc.rank = 2;
	desc.kind = VKFFTGO_R2R; desc.r2r_kind = 9;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "r2r_kind is 9");
	desc.r2r_kind = VKFFTGO_DCT1; desc.shape[1] = 1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE, "DCT-I needs at least 2");
	desc.kind = VKFFTGO_R2C; desc.r2r_kind = 0; desc.shape[1] = 4;
	desc.naxes = 1; desc.axes[0] = 0;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "last axis");
	desc.naxes = 0; desc.kind = VKFFTGO_C2C; desc.real_inplace = 1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "real_inplace");
	printf("   bad axes, overlapping strides, R2R on complex, rank 5, DCT-I of 1 point: refused by name\n");
}

int main(void)
{
	vkfftgo_device *d;
	CHECK(vkfftgo_device_open(0, &d));
	old_descriptor(d);
	axes_and_rank4(d);
	dct(d);
	storage(d);
	inplace_r2c(d);
	strided_buffers(d);
	bad_input(d);
	CHECK(vkfftgo_device_close(d));
	printf("layout: all passed\n");
	return 0;
}
