/* fuse.c — the C API's convolutions and spectrometer against direct float64 sums,
 * accumulation and reset, device buffers, and bad arguments. */
#define _DEFAULT_SOURCE /* M_PI */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"

/* circular 2-D convolution (or correlation) of real data, float64 */
static void ref_conv(const float *x, const float *k, double *y, int ny, int nx, int correlate)
{
	int iy, ix, jy, jx;
	for (iy = 0; iy < ny; iy++)
		for (ix = 0; ix < nx; ix++) {
			double s = 0;
			for (jy = 0; jy < ny; jy++)
				for (jx = 0; jx < nx; jx++) {
					int dy = correlate ? (jy + iy) % ny : (iy - jy + ny) % ny;
					int dx = correlate ? (jx + ix) % nx : (ix - jx + nx) % nx;
					s += (double)x[jy * nx + jx] * k[dy * nx + dx];
				}
			y[iy * nx + ix] = s;
		}
}

static double rel_err_f(const float *got, const double *want, size_t n)
{
	double num = 0, den = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		num += (got[i] - want[i]) * (got[i] - want[i]);
		den += want[i] * want[i];
	}
	return sqrt(num / den);
}

static void test_convolution(vkfftgo_device *dev)
{
	enum { NY = 12, NX = 16, N = NY * NX };
	float x[N], k[N], y[N];
	double want[N];
	size_t in_bytes = 0, out_bytes = 0, i;
	int mode;
	vkfftgo_buffer *b;
	for (i = 0; i < N; i++) {
		x[i] = (float)test_value(i);
		k[i] = (float)test_value(i + 1000);
	}
	for (mode = VKFFTGO_CONVOLVE; mode <= VKFFTGO_CORRELATE; mode++) {
		vkfftgo_convolution_desc d = VKFFTGO_CONVOLUTION_DESC_INIT;
		vkfftgo_convolution *c;
		d.mode = mode;
		d.kind = VKFFTGO_R2C;
		d.rank = 2;
		d.shape[0] = NY;
		d.shape[1] = NX;
		CHECK(vkfftgo_convolution_create(dev, &d, k, sizeof k, &c));
		CHECK(vkfftgo_convolution_bytes(c, &in_bytes, &out_bytes));
		if (in_bytes != sizeof x || out_bytes != sizeof y) {
			fprintf(stderr, "convolution bytes %zu %zu\n", in_bytes, out_bytes);
			exit(1);
		}
		CHECK(vkfftgo_convolution_apply(c, y, sizeof y, x, sizeof x));
		ref_conv(x, k, want, NY, NX, mode == VKFFTGO_CORRELATE);
		if (rel_err_f(y, want, N) > 1e-5) {
			fprintf(stderr, "convolution mode %d: relative error %g\n", mode, rel_err_f(y, want, N));
			exit(1);
		}
		/* device buffers, in place */
		CHECK(vkfftgo_buffer_create(dev, sizeof x, &b));
		CHECK(vkfftgo_buffer_upload(b, x, sizeof x));
		CHECK(vkfftgo_convolution_apply_buffer(c, b, b));
		memset(y, 0, sizeof y);
		CHECK(vkfftgo_buffer_download(b, y, sizeof y));
		if (rel_err_f(y, want, N) > 1e-5) {
			fprintf(stderr, "convolution on buffers: relative error %g\n", rel_err_f(y, want, N));
			exit(1);
		}
		EXPECT_FAIL(vkfftgo_convolution_apply(c, y, sizeof y - 4, x, sizeof x), VKFFTGO_ERROR_WRONG_SIZE,
			    "out|bytes");
		CHECK(vkfftgo_buffer_destroy(b));
		CHECK(vkfftgo_convolution_destroy(c));
		EXPECT_FAIL(vkfftgo_convolution_apply(c, y, sizeof y, x, sizeof x), VKFFTGO_ERROR_INVALID_HANDLE,
			    "convolution handle");
	}
	{ /* the kernel must have the data's shape (or kernel_shape) */
		vkfftgo_convolution_desc d = VKFFTGO_CONVOLUTION_DESC_INIT;
		vkfftgo_convolution *c = NULL;
		d.kind = VKFFTGO_R2C;
		d.rank = 2;
		d.shape[0] = NY;
		d.shape[1] = NX;
		EXPECT_FAIL(vkfftgo_convolution_create(dev, &d, k, sizeof k - 4, &c), VKFFTGO_ERROR_WRONG_SIZE,
			    "kernel");
		d.kernel_shape[0] = 3; /* kernel_shape 3 x 0 */
		EXPECT_FAIL(vkfftgo_convolution_create(dev, &d, k, 12, &c), VKFFTGO_ERROR_INVALID_SHAPE, "kernel shape");
		d.size = 4;
		EXPECT_FAIL(vkfftgo_convolution_create(dev, &d, k, sizeof k, &c), VKFFTGO_ERROR_INVALID_ARGUMENT,
			    "VKFFTGO_CONVOLUTION_DESC_INIT");
		if (c != NULL) {
			fprintf(stderr, "a failed create set the handle\n");
			exit(1);
		}
	}
	printf("   convolution and correlation (R2C 12x16): host and device buffers match float64 sums\n");
}

/* linear ("same") convolution of real data: out[i] = sum_j x[j] k[i - j + (K-1)/2], the
 * padding and cropping done by companion kernels on every backend */
static void test_linear_convolution(vkfftgo_device *dev)
{
	enum { N = 64, K = 5 };
	float x[N], k[K], y[N];
	double want[N];
	int i, j;
	vkfftgo_convolution_desc d = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_convolution *c;
	for (i = 0; i < N; i++)
		x[i] = (float)test_value((size_t)i + 500);
	for (i = 0; i < K; i++)
		k[i] = (float)test_value((size_t)i + 1500);
	for (i = 0; i < N; i++) {
		double s = 0;
		for (j = 0; j < N; j++) {
			int t = i - j + (K - 1) / 2;
			if (t >= 0 && t < K)
				s += (double)x[j] * k[t];
		}
		want[i] = s;
	}
	d.kind = VKFFTGO_R2C;
	d.rank = 1;
	d.shape[0] = N;
	d.kernel_shape[0] = K;
	CHECK(vkfftgo_convolution_create(dev, &d, k, sizeof k, &c));
	CHECK(vkfftgo_convolution_apply(c, y, sizeof y, x, sizeof x));
	if (rel_err_f(y, want, N) > 1e-5) {
		fprintf(stderr, "linear convolution: relative error %g\n", rel_err_f(y, want, N));
		exit(1);
	}
	CHECK(vkfftgo_convolution_destroy(c));
	printf("   linear convolution (R2C 64, kernel 5): matches float64 sums\n");

	/* the data extended by its edge values and periodically, as ITK's boundary
	 * conditions do; an even kernel reaches K/2 - 1 after and K/2 before */
	for (int bc = VKFFTGO_BOUNDARY_REPLICATE; bc <= VKFFTGO_BOUNDARY_PERIODIC; bc++) {
		int kk = bc == VKFFTGO_BOUNDARY_REPLICATE ? K : K - 1;
		for (i = 0; i < N; i++) {
			double s = 0;
			for (j = 0; j < kk; j++) {
				int t = i - j + (kk - 1) / 2;
				t = bc == VKFFTGO_BOUNDARY_REPLICATE ? (t < 0 ? 0 : t >= N ? N - 1 : t) : ((t % N) + N) % N;
				s += (double)x[t] * k[j];
			}
			want[i] = s;
		}
		d.kernel_shape[0] = kk;
		d.boundary = bc;
		CHECK(vkfftgo_convolution_create(dev, &d, k, (size_t)kk * sizeof k[0], &c));
		CHECK(vkfftgo_convolution_apply(c, y, sizeof y, x, sizeof x));
		if (rel_err_f(y, want, N) > 1e-5) {
			fprintf(stderr, "linear convolution, boundary %d: relative error %g\n", bc, rel_err_f(y, want, N));
			exit(1);
		}
		CHECK(vkfftgo_convolution_destroy(c));
	}
	d.kernel_shape[0] = 0; /* a circular convolution has no boundary */
	EXPECT_FAIL(vkfftgo_convolution_create(dev, &d, x, sizeof x, &c), VKFFTGO_ERROR_INVALID_ARGUMENT, "Boundary");
	d.boundary = 7;
	d.kernel_shape[0] = K;
	EXPECT_FAIL(vkfftgo_convolution_create(dev, &d, k, sizeof k, &c), VKFFTGO_ERROR_INVALID_ARGUMENT, "Boundary 7");
	printf("   linear convolution with replicated and periodic boundaries (kernels 5 and 4): match float64 sums\n");
}

/* want[k] = calls * sum over the batch of |DFT(scale * window * samples)[k]|^2, float64
 * (window NULL: none); the roots from a table of n, so that large n stay quick */
static void ref_power(const int8_t *s, int n, int batch, const float *win, double scale, int calls, double *want)
{
	double *c = malloc(sizeof(double) * (size_t)n), *sn = malloc(sizeof(double) * (size_t)n);
	int b, t, k;
	if (!c || !sn) {
		fprintf(stderr, "ref_power: out of memory\n");
		exit(1);
	}
	for (t = 0; t < n; t++) {
		c[t] = cos(-2 * M_PI * t / n);
		sn[t] = sin(-2 * M_PI * t / n);
	}
	for (k = 0; k < n; k++) {
		double p = 0;
		for (b = 0; b < batch; b++) {
			double re = 0, im = 0;
			for (t = 0; t < n; t++) {
				size_t e = (size_t)k * (size_t)t % (size_t)n, at = 2 * ((size_t)b * (size_t)n + (size_t)t);
				double w = scale * (win ? win[t] : 1), xr = s[at] * w, xi = s[at + 1] * w;
				re += xr * c[e] - xi * sn[e];
				im += xr * sn[e] + xi * c[e];
			}
			p += re * re + im * im;
		}
		want[k] = calls * p;
	}
	free(c);
	free(sn);
}

/* Accumulates the samples s once from the host and once from buf, then reads n bins and
 * compares them with want (two calls' worth) */
static void check_bins(vkfftgo_spectrometer *sp, const int8_t *s, size_t bytes, vkfftgo_buffer *buf, float *psd,
		       const double *want, size_t n, const char *what)
{
	CHECK(vkfftgo_spectrometer_accumulate(sp, s, bytes));
	CHECK(vkfftgo_spectrometer_accumulate_buffer(sp, buf));
	CHECK(vkfftgo_spectrometer_read(sp, psd, n));
	if (rel_err_f(psd, want, n) > 1e-5) {
		fprintf(stderr, "%s: relative error %g\n", what, rel_err_f(psd, want, n));
		exit(1);
	}
}

/* A spectrometer of d with FUSION_DIRECT, which runs the library's own kernels on every
 * backend (the devices the tests run on, PoCL, llvmpipe and NVIDIA's, have the shared
 * memory and the float atomics these sizes take); *fusion is the path it took. */
static vkfftgo_spectrometer *create_direct(vkfftgo_device *dev, vkfftgo_spectrometer_desc *d, const char *what,
					   int *fusion)
{
	vkfftgo_spectrometer *sp;
	d->fusion = VKFFTGO_FUSION_DIRECT;
	CHECK(vkfftgo_spectrometer_create(dev, d, &sp));
	CHECK(vkfftgo_spectrometer_fusion(sp, fusion));
	if (*fusion != VKFFTGO_FUSION_DIRECT) {
		fprintf(stderr, "%s on %s: fusion %d\n", what, vkfftgo_backend_name(), *fusion);
		exit(1);
	}
	return sp;
}

/* The group sum (three transforms per work-group, in registers) gives the same bins; a
 * descriptor of the first version (no group fields) is taken with them automatic; bad
 * group fields are refused. */
static void test_spectrometer_group(vkfftgo_device *dev, const vkfftgo_spectrometer_desc *base, const int8_t *s,
				    size_t bytes, vkfftgo_buffer *buf, const double *want)
{
	enum { NFFT = 256 };
	float psd[NFFT];
	int sum = -1, transforms = -1, fusion = -1;
	vkfftgo_spectrometer_desc d = *base;
	vkfftgo_spectrometer *sp;
	d.fusion = VKFFTGO_FUSION_ATOMIC;
	d.group_sum = VKFFTGO_GROUP_SUM_REGISTERS;
	d.group_transforms = 3;
	CHECK(vkfftgo_spectrometer_create(dev, &d, &sp));
	CHECK(vkfftgo_spectrometer_fusion(sp, &fusion));
	CHECK(vkfftgo_spectrometer_group(sp, &sum, &transforms));
	if (fusion == VKFFTGO_FUSION_ATOMIC && (sum != VKFFTGO_GROUP_SUM_REGISTERS || transforms != 3)) {
		fprintf(stderr, "spectrometer group: sum %d x%d, want registers x3\n", sum, transforms);
		exit(1);
	}
	if (fusion != VKFFTGO_FUSION_ATOMIC && (sum != VKFFTGO_GROUP_SUM_OFF || transforms != 1)) {
		fprintf(stderr, "spectrometer group without the atomic path: sum %d x%d, want off x1\n", sum, transforms);
		exit(1);
	}
	check_bins(sp, s, bytes, buf, psd, want, NFFT, "spectrometer group");
	EXPECT_FAIL(vkfftgo_spectrometer_group(sp, NULL, &transforms), VKFFTGO_ERROR_NULL_POINTER, "sum or transforms");
	CHECK(vkfftgo_spectrometer_destroy(sp));
	d = *base;
	d.size = (uint32_t)offsetof(vkfftgo_spectrometer_desc, group_sum);
	CHECK(vkfftgo_spectrometer_create(dev, &d, &sp));
	CHECK(vkfftgo_spectrometer_destroy(sp));
	d.size = (uint32_t)offsetof(vkfftgo_spectrometer_desc, chunk);
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is");
	d = *base;
	d.group_sum = 42;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->group_sum is 42");
	d.group_sum = VKFFTGO_GROUP_SUM_OFF;
	d.group_transforms = 4;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "GroupSumOff");
	printf("   spectrometer group sum (registers x3) matches; a first-version descriptor is taken\n");
}

/* The direct kernel (no VkFFT plan) gives the same bins from host and device samples. */
static void test_spectrometer_direct(vkfftgo_device *dev, const vkfftgo_spectrometer_desc *base, const int8_t *s,
				     size_t bytes, vkfftgo_buffer *buf, const double *want)
{
	enum { NFFT = 256 };
	float psd[NFFT];
	int fusion;
	vkfftgo_spectrometer_desc d = *base;
	vkfftgo_spectrometer *sp = create_direct(dev, &d, "spectrometer direct", &fusion);
	check_bins(sp, s, bytes, buf, psd, want, NFFT, "spectrometer direct");
	CHECK(vkfftgo_spectrometer_destroy(sp));
	d.fusion = VKFFTGO_FUSION_DIRECT + 1;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "fusion");
	printf("   spectrometer direct kernel (fusion %d) matches\n", fusion);
}

/* Beyond 4096 points FUSION_DIRECT runs the split kernels (columns, then rows, chunk by
 * chunk), whose bins the read puts back in frequency order. */
static void test_spectrometer_split(vkfftgo_device *dev)
{
	enum { NFFT = 8192, BATCH = 2 };
	static int8_t s[2 * NFFT * BATCH];
	static float psd[NFFT];
	static double want[NFFT];
	int fusion;
	size_t i;
	vkfftgo_spectrometer_desc d = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	vkfftgo_buffer *buf;
	for (i = 0; i < sizeof s; i++)
		s[i] = (int8_t)(test_value(i + 77) * 127);
	ref_power(s, NFFT, BATCH, NULL, 1, 2, want);
	d.input = VKFFTGO_COMPLEX_INT8;
	d.n = NFFT;
	d.batch = BATCH;
	d.chunk = 1;
	sp = create_direct(dev, &d, "spectrometer split", &fusion);
	CHECK(vkfftgo_buffer_create(dev, sizeof s, &buf));
	CHECK(vkfftgo_buffer_upload(buf, s, sizeof s));
	check_bins(sp, s, sizeof s, buf, psd, want, NFFT, "spectrometer split");
	CHECK(vkfftgo_buffer_destroy(buf));
	CHECK(vkfftgo_spectrometer_destroy(sp));
	printf("   spectrometer of %d points, FUSION_DIRECT (fusion %d): host and device samples match a float64 DFT\n",
	       NFFT, fusion);
}

static void test_spectrometer(vkfftgo_device *dev)
{
	enum { NFFT = 256, BATCH = 4 };
	static int8_t s[2 * NFFT * BATCH];
	float psd[NFFT], win[NFFT];
	double want[NFFT];
	int64_t bins = 0;
	size_t sample_bytes = 0, i;
	int fusion = -1, k;
	vkfftgo_spectrometer_desc d = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	vkfftgo_buffer *buf;
	for (i = 0; i < sizeof s; i++)
		s[i] = (int8_t)(test_value(i) * 127);
	for (i = 0; i < NFFT; i++)
		win[i] = (float)(0.5 - 0.5 * cos(2 * M_PI * (double)i / NFFT));
	d.input = VKFFTGO_COMPLEX_INT8;
	d.n = NFFT;
	d.batch = BATCH;
	d.window = win;
	d.scale = 0.5f;
	CHECK(vkfftgo_spectrometer_create(dev, &d, &sp));
	CHECK(vkfftgo_spectrometer_size(sp, &bins, &sample_bytes));
	CHECK(vkfftgo_spectrometer_fusion(sp, &fusion));
	if (bins != NFFT || sample_bytes != sizeof s || fusion < VKFFTGO_FUSION_COMPANION) {
		fprintf(stderr, "spectrometer size %lld %zu fusion %d\n", (long long)bins, sample_bytes, fusion);
		exit(1);
	}
	ref_power(s, NFFT, BATCH, win, 0.5, 2, want); /* two calls: host and device samples */
	CHECK(vkfftgo_buffer_create(dev, sizeof s, &buf));
	CHECK(vkfftgo_buffer_upload(buf, s, sizeof s));
	check_bins(sp, s, sizeof s, buf, psd, want, NFFT, "spectrometer");
	CHECK(vkfftgo_spectrometer_reset(sp));
	CHECK(vkfftgo_spectrometer_read(sp, psd, NFFT));
	for (k = 0; k < NFFT; k++)
		if (psd[k] != 0) {
			fprintf(stderr, "bin %d is %g after reset\n", k, psd[k]);
			exit(1);
		}
	test_spectrometer_group(dev, &d, s, sizeof s, buf, want);
	test_spectrometer_direct(dev, &d, s, sizeof s, buf, want);
	test_spectrometer_split(dev);
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate(sp, s, sizeof s - 1), VKFFTGO_ERROR_WRONG_SIZE, "samples|bytes");
	EXPECT_FAIL(vkfftgo_spectrometer_read(sp, psd, NFFT - 1), VKFFTGO_ERROR_WRONG_SIZE, "bins");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate(sp, NULL, sizeof s), VKFFTGO_ERROR_NULL_POINTER, "samples");
	CHECK(vkfftgo_buffer_destroy(buf));
	CHECK(vkfftgo_spectrometer_destroy(sp));
	CHECK(vkfftgo_spectrometer_destroy(NULL));
	EXPECT_FAIL(vkfftgo_spectrometer_reset(sp), VKFFTGO_ERROR_INVALID_HANDLE, "spectrometer handle");
	d.window = NULL;
	d.n = 1;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_UNSUPPORTED, "N = 1");
	d.n = 256;
	d.input = 42;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT,
		    "desc->input is 42|VKFFTGO_COMPLEX_INT8 (1)|VKFFTGO_REAL_INT16 (6)");
	d.input = 0;
	EXPECT_FAIL(vkfftgo_spectrometer_create(dev, &d, &sp), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->input is 0");
	printf("   spectrometer (complex int8, window, scale): two calls match a float64 DFT, reset zeroes\n");
}

/* The per-call functions' checks, made in C (capi/hotpath_fuse.c) with the messages the
 * Go API gives, and the paths a check lets through: out != in on device buffers (out
 * gets a copy of in, which stays unchanged), samples in pinned memory of the device's. */
static void test_fuse_checks(vkfftgo_device *dev)
{
	enum { NY = 8, NX = 8, N = NY * NX, NFFT = 64, BATCH = 2 };
	float x[N], k[N], y[N], back[N], psd[NFFT], psd2[NFFT];
	double want[N];
	static int8_t s[2 * NFFT * BATCH];
	vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_convolution *c;
	vkfftgo_spectrometer *sp;
	vkfftgo_buffer *bin, *bout, *small, *other_buf, *sbuf;
	vkfftgo_host_buffer *hb;
	vkfftgo_device *other;
	void *pinned;
	size_t i;
	for (i = 0; i < N; i++) {
		x[i] = (float)test_value(i + 77);
		k[i] = (float)test_value(i + 777);
	}
	for (i = 0; i < sizeof s; i++)
		s[i] = (int8_t)(test_value(i + 7) * 100);
	cd.kind = VKFFTGO_R2C;
	cd.rank = 2;
	cd.shape[0] = NY;
	cd.shape[1] = NX;
	CHECK(vkfftgo_convolution_create(dev, &cd, k, sizeof k, &c));
	sd.n = NFFT;
	sd.batch = BATCH;
	CHECK(vkfftgo_spectrometer_create(dev, &sd, &sp));
	CHECK(vkfftgo_device_open(0, &other));
	CHECK(vkfftgo_buffer_create(dev, sizeof x, &bin));
	CHECK(vkfftgo_buffer_create(dev, sizeof x, &bout));
	CHECK(vkfftgo_buffer_create(dev, sizeof x - 4, &small));
	CHECK(vkfftgo_buffer_create(other, sizeof x, &other_buf));
	CHECK(vkfftgo_buffer_create(dev, sizeof s, &sbuf));

	/* out != in: the result in out, in as it was */
	ref_conv(x, k, want, NY, NX, 0);
	CHECK(vkfftgo_buffer_upload(bin, x, sizeof x));
	CHECK(vkfftgo_convolution_apply_buffer(c, bout, bin));
	CHECK(vkfftgo_buffer_download(bout, y, sizeof y));
	CHECK(vkfftgo_buffer_download(bin, back, sizeof back));
	if (rel_err_f(y, want, N) > 1e-5 || memcmp(back, x, sizeof x) != 0) {
		fprintf(stderr, "convolution of buffers out of place: relative error %g, in %s\n", rel_err_f(y, want, N),
			memcmp(back, x, sizeof x) ? "changed" : "unchanged");
		exit(1);
	}
	/* convolution checks */
	EXPECT_FAIL(vkfftgo_convolution_apply(NULL, y, sizeof y, x, sizeof x), VKFFTGO_ERROR_NULL_POINTER,
		    "vkfftgo_convolution_apply: convolution handle is NULL");
	EXPECT_FAIL(vkfftgo_convolution_apply(c, NULL, sizeof y, x, sizeof x), VKFFTGO_ERROR_NULL_POINTER, "out or in is NULL");
	EXPECT_FAIL(vkfftgo_convolution_apply(c, y, sizeof y, x, sizeof x + 4), VKFFTGO_ERROR_WRONG_SIZE,
		    "in has 260 bytes and out 256; the convolution needs in 256 and out 256");
	EXPECT_FAIL(vkfftgo_convolution_apply((vkfftgo_convolution *)sp, y, sizeof y, x, sizeof x),
		    VKFFTGO_ERROR_INVALID_HANDLE, "is not a live convolution handle");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer(c, NULL, bin), VKFFTGO_ERROR_NULL_POINTER,
		    "vkfftgo_convolution_apply_buffer: out is NULL");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer(c, bout, NULL), VKFFTGO_ERROR_NULL_POINTER, "in is NULL");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer(c, bout, small), VKFFTGO_ERROR_WRONG_SIZE,
		    "in has 252 bytes and out 256");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer(c, other_buf, bin), VKFFTGO_ERROR_WRONG_DEVICE,
		    "a buffer belongs to another device than the convolution");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer(c, bout, (vkfftgo_buffer *)c), VKFFTGO_ERROR_INVALID_HANDLE,
		    "in|is not a live buffer handle");
	EXPECT_FAIL(vkfftgo_convolution_apply_buffer((vkfftgo_convolution *)bin, bout, bin), VKFFTGO_ERROR_INVALID_HANDLE,
		    "is not a live convolution handle");

	/* spectrometer checks */
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate(NULL, s, sizeof s), VKFFTGO_ERROR_NULL_POINTER,
		    "vkfftgo_spectrometer_accumulate: spectrometer handle is NULL");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate((vkfftgo_spectrometer *)c, s, sizeof s), VKFFTGO_ERROR_INVALID_HANDLE,
		    "is not a live spectrometer handle");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate_buffer(sp, NULL), VKFFTGO_ERROR_NULL_POINTER, "samples is NULL");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate_buffer(sp, small), VKFFTGO_ERROR_WRONG_SIZE,
		    "samples has 252 bytes; the spectrometer takes 256");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate_buffer(sp, other_buf), VKFFTGO_ERROR_WRONG_DEVICE,
		    "the buffer belongs to another device than the spectrometer");
	EXPECT_FAIL(vkfftgo_spectrometer_accumulate_buffer(sp, (vkfftgo_buffer *)sp), VKFFTGO_ERROR_INVALID_HANDLE,
		    "samples|is not a live buffer handle");
	EXPECT_FAIL(vkfftgo_spectrometer_read(sp, NULL, NFFT), VKFFTGO_ERROR_NULL_POINTER, "psd is NULL");
	EXPECT_FAIL(vkfftgo_spectrometer_read(sp, psd, NFFT + 1), VKFFTGO_ERROR_WRONG_SIZE,
		    "count is 65; the spectrometer has 64 bins");
	EXPECT_FAIL(vkfftgo_spectrometer_reset((vkfftgo_spectrometer *)other), VKFFTGO_ERROR_INVALID_HANDLE,
		    "vkfftgo_spectrometer_reset|is not a live spectrometer handle");

	/* the same samples from pageable memory, from the device's pinned memory and from a
	 * device buffer give the same bins */
	CHECK(vkfftgo_spectrometer_accumulate(sp, s, sizeof s));
	CHECK(vkfftgo_spectrometer_read(sp, psd, NFFT));
	CHECK(vkfftgo_spectrometer_reset(sp));
	CHECK(vkfftgo_host_buffer_create(dev, sizeof s, &hb, &pinned));
	memcpy(pinned, s, sizeof s);
	CHECK(vkfftgo_spectrometer_accumulate(sp, pinned, sizeof s));
	CHECK(vkfftgo_spectrometer_read(sp, psd2, NFFT));
	if (memcmp(psd, psd2, sizeof psd) != 0) {
		fprintf(stderr, "spectrometer: pinned samples give other bins than pageable ones\n");
		exit(1);
	}
	CHECK(vkfftgo_spectrometer_reset(sp));
	CHECK(vkfftgo_buffer_upload(sbuf, s, sizeof s));
	CHECK(vkfftgo_spectrometer_accumulate_buffer(sp, sbuf));
	CHECK(vkfftgo_spectrometer_read(sp, psd2, NFFT));
	if (memcmp(psd, psd2, sizeof psd) != 0) {
		fprintf(stderr, "spectrometer: device samples give other bins than host ones\n");
		exit(1);
	}
	CHECK(vkfftgo_host_buffer_destroy(hb));
	CHECK(vkfftgo_buffer_destroy(sbuf));
	CHECK(vkfftgo_buffer_destroy(other_buf));
	CHECK(vkfftgo_buffer_destroy(small));
	CHECK(vkfftgo_buffer_destroy(bout));
	CHECK(vkfftgo_buffer_destroy(bin));
	CHECK(vkfftgo_device_close(other));
	CHECK(vkfftgo_spectrometer_destroy(sp));
	CHECK(vkfftgo_convolution_destroy(c));
	printf("   per-call checks and messages (C); out-of-place buffers; pinned, pageable and device samples agree\n");
}

/* A multi-pass spectrum (VkFFT leaves the bins in its own order, which the read puts
 * right) with fftshift: bins of tones and of noise against a float64 DFT of those bins. */
static void test_spectrometer_order(vkfftgo_device *dev)
{
	enum { NFFT = 16384, NCHECK = 12 };
	static const int64_t tones[3] = {3, 5000, NFFT - 77};
	static const int64_t check_bins[NCHECK] = {0, 1, 3, 4, 5000, 5001, 8191, 8192, 12000, NFFT - 77, NFFT - 1, 777};
	static int8_t s[2 * NFFT];
	static float psd[NFFT];
	vkfftgo_spectrometer_desc d = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	double peak = 0;
	int64_t t, j, best = 0;
	for (t = 0; t < NFFT; t++) {
		double re = 0, im = 0;
		for (j = 0; j < 3; j++) {
			double a = 2 * M_PI * (double)(tones[j] * t % NFFT) / NFFT;
			re += (30 + 10 * j) * cos(a);
			im += (30 + 10 * j) * sin(a);
		}
		s[2 * t] = (int8_t)lrint(re);
		s[2 * t + 1] = (int8_t)lrint(im);
	}
	d.n = NFFT;
	d.fftshift = 1;
	CHECK(vkfftgo_spectrometer_create(dev, &d, &sp));
	CHECK(vkfftgo_spectrometer_accumulate(sp, s, sizeof s));
	CHECK(vkfftgo_spectrometer_read(sp, psd, NFFT));
	for (t = 0; t < NFFT; t++)
		if (psd[t] > psd[best])
			best = t;
	for (j = 0; j < NCHECK; j++) { /* bin k is read at (k + n/2) mod n */
		int64_t kb = check_bins[j];
		double re = 0, im = 0, p, got = psd[(kb + NFFT / 2) % NFFT];
		for (t = 0; t < NFFT; t++) {
			double a = -2 * M_PI * (double)(kb * t % NFFT) / NFFT;
			re += s[2 * t] * cos(a) - s[2 * t + 1] * sin(a);
			im += s[2 * t] * sin(a) + s[2 * t + 1] * cos(a);
		}
		p = re * re + im * im;
		peak = p > peak ? p : peak;
		if (fabs(got - p) > 1e-5 * 50.0 * 50.0 * NFFT * NFFT) {
			fprintf(stderr, "spectrometer order: bin %lld reads %g, want %g\n", (long long)kb, got, p);
			exit(1);
		}
	}
	if (best != (tones[2] + NFFT / 2) % NFFT) {
		fprintf(stderr, "spectrometer order: the strongest bin reads at %lld, want %lld\n", (long long)best,
			(long long)((tones[2] + NFFT / 2) % NFFT));
		exit(1);
	}
	CHECK(vkfftgo_spectrometer_destroy(sp));
	printf("   spectrometer of %d points (multi-pass, bins reordered on read) with fftshift: tones and noise in their bins\n",
	       NFFT);
}

/* Every sample format's enum value makes a spectrometer: the values run from 1 up to the
 * first one refused, which must be past the last this header names. */
static void test_spectrometer_formats(vkfftgo_device *dev)
{
	vkfftgo_spectrometer_desc d = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	vkfftgo_status st;
	char words[64];
	int64_t bins = 0;
	size_t sample_bytes = 0;
	d.n = 64;
	d.fusion = VKFFTGO_FUSION_COMPANION;
	for (d.input = VKFFTGO_COMPLEX_INT8;; d.input++) {
		st = vkfftgo_spectrometer_create(dev, &d, &sp);
		if (st != VKFFTGO_SUCCESS)
			break;
		CHECK(vkfftgo_spectrometer_size(sp, &bins, &sample_bytes));
		if ((bins != d.n && bins != d.n / 2 + 1) || sample_bytes < (size_t)d.n || sample_bytes % (size_t)d.n) {
			fprintf(stderr, "format %d: %lld bins, %zu sample bytes\n", (int)d.input, (long long)bins, sample_bytes);
			exit(1);
		}
		CHECK(vkfftgo_spectrometer_destroy(sp));
	}
	snprintf(words, sizeof words, "desc->input is %d", (int)d.input);
	EXPECT_FAIL(st, VKFFTGO_ERROR_INVALID_ARGUMENT, words);
	if (d.input <= VKFFTGO_REAL_INT16) {
		fprintf(stderr, "format %d refused: %s\n", (int)d.input, vkfftgo_last_error());
		exit(1);
	}
	printf("   spectrometer formats 1..%d: each makes a spectrometer\n", (int)d.input - 1);
}

int main(void)
{
	vkfftgo_device *dev;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_spectrometer *sp;
	CHECK(vkfftgo_device_open(0, &dev));
	test_convolution(dev);
	test_linear_convolution(dev);
	test_spectrometer(dev);
	test_fuse_checks(dev);
	test_spectrometer_order(dev);
	test_spectrometer_formats(dev);
	/* closing the device closes what was made on it; its handles go invalid */
	sd.n = 64;
	CHECK(vkfftgo_spectrometer_create(dev, &sd, &sp));
	CHECK(vkfftgo_device_close(dev));
	EXPECT_FAIL(vkfftgo_spectrometer_reset(sp), VKFFTGO_ERROR_INVALID_HANDLE, "spectrometer handle");
	printf("fuse: ok\n");
	return 0;
}
