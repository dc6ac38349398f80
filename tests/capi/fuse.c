/* fuse.c — the C API's convolutions and spectrometer against direct float64 sums,
 * accumulation and reset, device buffers, and bad arguments. */
#include <math.h>
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
}

static void test_spectrometer(vkfftgo_device *dev)
{
	enum { NFFT = 256, BATCH = 4 };
	static int8_t s[2 * NFFT * BATCH];
	float psd[NFFT], win[NFFT];
	double want[NFFT];
	int64_t bins = 0;
	size_t sample_bytes = 0, i;
	int fusion = -1, b, t, k;
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
	/* float64 DFT of scale*window*samples, power summed over the batch */
	for (k = 0; k < NFFT; k++) {
		double p = 0;
		for (b = 0; b < BATCH; b++) {
			double re = 0, im = 0;
			for (t = 0; t < NFFT; t++) {
				double a = -2 * M_PI * (double)k * t / NFFT, w = 0.5 * win[t];
				double xr = s[2 * (b * NFFT + t)] * w, xi = s[2 * (b * NFFT + t) + 1] * w;
				re += xr * cos(a) - xi * sin(a);
				im += xr * sin(a) + xi * cos(a);
			}
			p += re * re + im * im;
		}
		want[k] = 2 * p; /* two calls: host and device samples */
	}
	CHECK(vkfftgo_spectrometer_accumulate(sp, s, sizeof s));
	CHECK(vkfftgo_buffer_create(dev, sizeof s, &buf));
	CHECK(vkfftgo_buffer_upload(buf, s, sizeof s));
	CHECK(vkfftgo_spectrometer_accumulate_buffer(sp, buf));
	CHECK(vkfftgo_spectrometer_read(sp, psd, NFFT));
	if (rel_err_f(psd, want, NFFT) > 1e-5) {
		fprintf(stderr, "spectrometer: relative error %g\n", rel_err_f(psd, want, NFFT));
		exit(1);
	}
	CHECK(vkfftgo_spectrometer_reset(sp));
	CHECK(vkfftgo_spectrometer_read(sp, psd, NFFT));
	for (k = 0; k < NFFT; k++)
		if (psd[k] != 0) {
			fprintf(stderr, "bin %d is %g after reset\n", k, psd[k]);
			exit(1);
		}
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
	test_spectrometer_formats(dev);
	/* closing the device closes what was made on it; its handles go invalid */
	sd.n = 64;
	CHECK(vkfftgo_spectrometer_create(dev, &sd, &sp));
	CHECK(vkfftgo_device_close(dev));
	EXPECT_FAIL(vkfftgo_spectrometer_reset(sp), VKFFTGO_ERROR_INVALID_HANDLE, "spectrometer handle");
	printf("fuse: ok\n");
	return 0;
}
