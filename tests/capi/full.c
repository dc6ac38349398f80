/* full.c — whole-spectrum real plans (desc.full_spectrum) from C: the forward gives the
 * whole spectrum of real data and the inverse the real part of a whole spectrum's
 * inverse, on host memory and on device buffers, in single and double precision, for
 * even, odd and prime lengths, axes that keep or leave out the last axis, and batches;
 * the sizes the plan reports, plan leases, the description vkfftgo_plan_tuned returns,
 * and bad input. Checked against direct sums in double. */
#include <complex.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"

static const double pi = 3.14159265358979323846;

typedef struct full_case {
	int rank;
	int64_t shape[3];
	int naxes;
	int32_t axes[3];
	int64_t batch;
} full_case;

/* in-place DFT along axis of batch arrays of shape (row-major), unnormalised */
static void dft_axis(double complex *x, const int64_t *shape, int rank, int64_t batch, int axis, int inverse)
{
	size_t n = (size_t)shape[axis], stride = 1, outer = (size_t)batch, line;
	double complex *tmp = malloc(n * sizeof *tmp);
	for (int i = rank - 1; i > axis; i--)
		stride *= (size_t)shape[i];
	for (int i = 0; i < axis; i++)
		outer *= (size_t)shape[i];
	for (line = 0; line < outer * stride; line++) {
		double complex *base = x + (line / stride) * stride * n + line % stride;
		for (size_t k = 0; k < n; k++) {
			double complex acc = 0;
			for (size_t j = 0; j < n; j++)
				acc += base[j * stride] * cexp((inverse ? 2 : -2) * pi * I * (double)((j * k) % n) / (double)n);
			tmp[k] = acc;
		}
		for (size_t k = 0; k < n; k++)
			base[k * stride] = tmp[k];
	}
	free(tmp);
}

static void dft_axes(double complex *x, const full_case *c, int inverse)
{
	for (int a = 0; a < c->rank; a++) {
		int selected = c->naxes == 0;
		for (int i = 0; i < c->naxes; i++)
			selected |= c->axes[i] == a || c->axes[i] + c->rank == a;
		if (selected)
			dft_axis(x, c->shape, c->rank, c->batch, a, inverse);
	}
}

static vkfftgo_plan_desc desc_of(const full_case *c, int precision)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	desc.kind = VKFFTGO_R2C;
	desc.full_spectrum = 1;
	desc.precision = precision;
	desc.rank = c->rank;
	for (int i = 0; i < c->rank; i++)
		desc.shape[i] = c->shape[i];
	desc.naxes = c->naxes;
	for (int i = 0; i < c->naxes; i++)
		desc.axes[i] = c->axes[i];
	desc.batch = c->batch;
	return desc;
}

/* host values as the plan's precision: float or double, real or interleaved complex */
static void *to_prec(const double *v, size_t n, int dbl)
{
	void *out = malloc(n * (dbl ? 8 : 4));
	for (size_t i = 0; i < n; i++) {
		if (dbl)
			((double *)out)[i] = v[i];
		else
			((float *)out)[i] = (float)v[i];
	}
	return out;
}

static double at(const void *p, size_t i, int dbl) { return dbl ? ((const double *)p)[i] : ((const float *)p)[i]; }

/* max |got - want| over n complex values, relative to the largest |want| */
static double rel_err_c(const void *got, const double complex *want, size_t n, int dbl)
{
	double m = 0, scale = 1e-300;
	for (size_t i = 0; i < n; i++) {
		double complex g = at(got, 2 * i, dbl) + I * at(got, 2 * i + 1, dbl);
		m = fmax(m, cabs(g - want[i]));
		scale = fmax(scale, cabs(want[i]));
	}
	return m / scale;
}

static double rel_err_r(const void *got, const double complex *want, double factor, size_t n, int dbl)
{
	double m = 0, scale = 1e-300;
	for (size_t i = 0; i < n; i++) {
		m = fmax(m, fabs(at(got, i, dbl) - creal(want[i]) * factor));
		scale = fmax(scale, fabs(creal(want[i]) * factor));
	}
	return m / scale;
}

static size_t points(const full_case *c)
{
	size_t n = (size_t)c->batch;
	for (int i = 0; i < c->rank; i++)
		n *= (size_t)c->shape[i];
	return n;
}

static double transformed(const full_case *c)
{
	double n = 1;
	for (int a = 0; a < c->rank; a++) {
		int selected = c->naxes == 0;
		for (int i = 0; i < c->naxes; i++)
			selected |= c->axes[i] == a || c->axes[i] + c->rank == a;
		if (selected)
			n *= (double)c->shape[a];
	}
	return n;
}

static void run_case(vkfftgo_device *d, const full_case *c, int dbl)
{
	vkfftgo_plan_desc desc = desc_of(c, dbl ? VKFFTGO_DOUBLE : VKFFTGO_SINGLE);
	vkfftgo_plan *p;
	vkfftgo_buffer *br, *bc;
	size_t n = points(c), rb = n * (dbl ? 8 : 4), cb = 2 * rb, out_b, in_b;
	double tol = dbl ? 1e-11 : 2e-5;
	double *re = malloc(n * sizeof *re), *spec = malloc(2 * n * sizeof *spec);
	double complex *want = malloc(n * sizeof *want), *winv = malloc(n * sizeof *winv);
	for (size_t i = 0; i < n; i++) {
		re[i] = test_value(i);
		spec[2 * i] = test_value(i + n);
		spec[2 * i + 1] = test_value(i + 3 * n);
		want[i] = re[i];
		winv[i] = spec[2 * i] + I * spec[2 * i + 1];
	}
	dft_axes(want, c, 0);
	dft_axes(winv, c, 1); /* unnormalised: the plan divides by the transformed points */
	void *x = to_prec(re, n, dbl), *s = to_prec(spec, 2 * n, dbl), *s_keep = to_prec(spec, 2 * n, dbl);
	void *got_c = malloc(cb), *got_r = malloc(rb);

	CHECK(vkfftgo_plan_create(d, &desc, &p));
	CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &out_b, &in_b));
	if (out_b != cb || in_b != rb) {
		fprintf(stderr, "forward sizes %zu <- %zu, want %zu <- %zu\n", out_b, in_b, cb, rb);
		exit(1);
	}
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, got_c, cb, x, rb));
	double e1 = rel_err_c(got_c, want, n, dbl);
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, got_r, rb, s, cb));
	double e2 = rel_err_r(got_r, winv, 1 / transformed(c), n, dbl);
	if (memcmp(s, s_keep, cb) != 0) { fprintf(stderr, "the inverse modified its input\n"); exit(1); }
	/* the same on device buffers */
	CHECK(vkfftgo_buffer_create(d, rb, &br));
	CHECK(vkfftgo_buffer_create(d, cb, &bc));
	CHECK(vkfftgo_buffer_upload(br, x, rb));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bc, br));
	CHECK(vkfftgo_buffer_download(bc, got_c, cb));
	double e3 = rel_err_c(got_c, want, n, dbl);
	CHECK(vkfftgo_buffer_upload(bc, s, cb));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, br, bc));
	CHECK(vkfftgo_buffer_download(br, got_r, rb));
	double e4 = rel_err_r(got_r, winv, 1 / transformed(c), n, dbl);
	EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, bc, bc), VKFFTGO_ERROR_WRONG_SIZE, "");
	CHECK(vkfftgo_buffer_destroy(br));
	CHECK(vkfftgo_buffer_destroy(bc));
	CHECK(vkfftgo_plan_destroy(p));
	if (!(e1 <= tol && e2 <= tol && e3 <= tol && e4 <= tol)) {
		fprintf(stderr, "rank %d shape %lld %lld %lld naxes %d batch %lld %s: errors %.2e %.2e %.2e %.2e > %.0e\n",
			c->rank, (long long)c->shape[0], (long long)c->shape[1], (long long)c->shape[2], c->naxes,
			(long long)c->batch, dbl ? "double" : "float", e1, e2, e3, e4, tol);
		exit(1);
	}
	free(re), free(spec), free(want), free(winv), free(x), free(s), free(s_keep), free(got_c), free(got_r);
}

/* leases of one whole-spectrum descriptor come from the cache; the description says so */
static void leases_and_description(vkfftgo_device *d)
{
	full_case c = {3, {6, 5, 7}, 0, {0}, 1};
	vkfftgo_plan_desc desc = desc_of(&c, VKFFTGO_SINGLE), back = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan_cache_stats before = VKFFTGO_PLAN_CACHE_STATS_INIT, after = VKFFTGO_PLAN_CACHE_STATS_INIT;
	vkfftgo_plan *p;
	CHECK(vkfftgo_plan_cache_get_stats(d, &before));
	for (int i = 0; i < 5; i++) {
		CHECK(vkfftgo_plan_acquire(d, &desc, &p));
		if (i == 0) {
			CHECK(vkfftgo_plan_tuned(p, &back, NULL, NULL, NULL));
			if (back.full_spectrum != 1 || back.kind != VKFFTGO_R2C) {
				fprintf(stderr, "vkfftgo_plan_tuned: full_spectrum %d kind %d\n", back.full_spectrum, back.kind);
				exit(1);
			}
		}
		CHECK(vkfftgo_plan_release(p));
	}
	CHECK(vkfftgo_plan_cache_get_stats(d, &after));
	if (after.misses - before.misses != 1 || after.hits - before.hits != 4) {
		fprintf(stderr, "5 leases: %lld misses, %lld hits; want 1 and 4\n", (long long)(after.misses - before.misses),
			(long long)(after.hits - before.hits));
		exit(1);
	}
	printf("   5 leases of one whole-spectrum descriptor: 1 build, 4 cache hits; the description has full_spectrum\n");
}

static void bad_input(vkfftgo_device *d)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	desc.rank = 1;
	desc.shape[0] = 8;
	desc.full_spectrum = 1; /* on a C2C plan */
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "full_spectrum|VKFFTGO_R2C");
	desc.kind = VKFFTGO_R2C;
	desc.full_spectrum = 2;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "full_spectrum is 2");
	desc.full_spectrum = 1;
	desc.real_inplace = 1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "FullSpectrum|RealInPlace");
	desc.real_inplace = 0;
	desc.storage = VKFFTGO_STORAGE_HALF;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_UNSUPPORTED, "FullSpectrum|StorageHalf");
	desc.storage = VKFFTGO_STORAGE_DEFAULT;
	desc.reserved0 = 1;
	EXPECT_FAIL(vkfftgo_plan_create(d, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "reserved0");
	printf("   refused: full_spectrum on C2C, a value of 2, with real_inplace, with fp16 storage, reserved0 set\n");
}

int main(void)
{
	static const full_case cases[] = {
		{1, {16}, 0, {0}, 1},          {1, {15}, 0, {0}, 3},        {1, {13}, 0, {0}, 1},
		{2, {6, 9}, 0, {0}, 2},        {2, {7, 8}, 1, {0}, 1},      {3, {7, 5, 8}, 0, {0}, 1},
		{3, {5, 4, 9}, 2, {0, 2}, 2}, {3, {5, 6, 7}, 1, {1}, 1},   {3, {3, 11, 4}, 2, {0, 1}, 1},
	};
	vkfftgo_device *d;
	int dbl_ok = 0;
	CHECK(vkfftgo_device_open(0, &d));
	CHECK(vkfftgo_device_supports_double(d, &dbl_ok));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run_case(d, &cases[i], 0);
		if (dbl_ok)
			run_case(d, &cases[i], 1);
	}
	printf("   %zu shapes (even, odd, prime; last axis in and out of the axes; batches), float%s: host and buffers match direct sums\n",
	       sizeof cases / sizeof cases[0], dbl_ok ? " and double" : "");
	leases_and_description(d);
	bad_input(d);
	CHECK(vkfftgo_device_close(d));
	printf("full-spectrum plans: ok\n");
	return 0;
}
