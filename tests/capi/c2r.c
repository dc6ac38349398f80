/* c2r.c — the C API's complex-to-real inverse on half spectra that are not Hermitian
 * gives FFTW's c2r (numpy's irfftn): the leading axes' inverse is complex, then each line
 * along the last axis counts bins 0 and n/2 with their real parts only. Host memory,
 * device buffers (out of place) and the in-place padded layout, against that definition
 * summed directly in double. */
#include <complex.h>
#include <math.h>
#include <stddef.h>

#include "check.h"

static const double pi = 3.14159265358979323846;

/* FFTW's unnormalised c2r of a rows x (n/2+1) half spectrum, by its definition, for a
 * batch of such arrays one after another */
static void c2r_ref(const double complex *x, double *out, int rows, int n, int batch)
{
	int h = n / 2 + 1;
	double complex *col = malloc(sizeof *col * (size_t)(rows * h));
	for (int b = 0; b < batch; b++) {
		const double complex *xb = x + b * rows * h;
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < h; c++) {
				double complex acc = 0;
				for (int j = 0; j < rows; j++)
					acc += xb[j * h + c] * cexp(2 * pi * I * (double)((j * r) % rows) / rows);
				col[r * h + c] = acc;
			}
		for (int r = 0; r < rows; r++)
			for (int j = 0; j < n; j++) {
				double v = creal(col[r * h]);
				if (n % 2 == 0)
					v += (j % 2 ? -1 : 1) * creal(col[r * h + n / 2]);
				for (int k = 1; 2 * k < n; k++)
					v += 2 * creal(col[r * h + k] * cexp(2 * pi * I * (double)((j * k) % n) / n));
				out[(b * rows + r) * n + j] = v;
			}
	}
	free(col);
}

static vkfftgo_plan *real_plan(vkfftgo_device *d, int rows, int n, int batch, int inplace)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	desc.kind = VKFFTGO_R2C;
	desc.precision = VKFFTGO_DOUBLE;
	desc.norm = VKFFTGO_NORM_FORWARD; /* FFTW's unnormalised inverse */
	desc.rank = 2; desc.shape[0] = rows; desc.shape[1] = n; desc.batch = batch;
	desc.real_inplace = inplace;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	return p;
}

/* the 4x8 cases users compared with fftw_plan_dft_c2r_2d */
static void user_cases(vkfftgo_device *d)
{
	static const struct { int at; double complex v; double rows[4]; } cases[] = {
		{0, 1 + 1 * I, {1, 1, 1, 1}}, {5, 1, {1, 0, -1, 0}}};
	vkfftgo_plan *p = real_plan(d, 4, 8, 1, 0);
	for (int c = 0; c < 2; c++) {
		double complex x[20] = {0};
		double y[32];
		x[cases[c].at] = cases[c].v;
		CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, y, sizeof y, x, sizeof x));
		for (int i = 0; i < 32; i++)
			if (fabs(y[i] - cases[c].rows[i / 8]) > 1e-12) {
				fprintf(stderr, "4x8 case %d: element %d is %g, FFTW gives %g\n", c, i, y[i], cases[c].rows[i / 8]);
				exit(1);
			}
		printf("   4x8 with only X[%d][0] = %g%+gi: rows %g %g %g %g, as FFTW\n", cases[c].at / 5, creal(cases[c].v),
		       cimag(cases[c].v), y[0], y[8], y[16], y[24]);
	}
	CHECK(vkfftgo_plan_destroy(p));
}

/* random spectra: host and buffer out of place, odd last axis and a batch */
static void random_out_of_place(vkfftgo_device *d)
{
	enum { R = 5, N = 7, H = N / 2 + 1, B = 2 };
	double complex x[B * R * H], keep[B * R * H];
	double y[B * R * N], want[B * R * N], err = 0;
	vkfftgo_plan *p = real_plan(d, R, N, B, 0);
	vkfftgo_buffer *bc, *br;
	for (size_t i = 0; i < B * R * H; i++)
		x[i] = test_value(i) + I * test_value(i + 500);
	memcpy(keep, x, sizeof x);
	c2r_ref(x, want, R, N, B);
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, y, sizeof y, x, sizeof x));
	for (size_t i = 0; i < B * R * N; i++)
		err = fmax(err, fabs(y[i] - want[i]));
	if (err > 1e-12 || memcmp(x, keep, sizeof x)) { fprintf(stderr, "host c2r: error %g (or input changed)\n", err); exit(1); }
	CHECK(vkfftgo_buffer_create(d, sizeof x, &bc));
	CHECK(vkfftgo_buffer_create(d, sizeof y, &br));
	CHECK(vkfftgo_buffer_upload(bc, x, sizeof x));
	CHECK(vkfftgo_execute_buffer(p, VKFFTGO_INVERSE, br, bc));
	memset(y, 0, sizeof y);
	CHECK(vkfftgo_buffer_download(br, y, sizeof y));
	for (size_t i = 0; i < B * R * N; i++)
		err = fmax(err, fabs(y[i] - want[i]));
	if (err > 1e-12) { fprintf(stderr, "buffer c2r: error %g\n", err); exit(1); }
	CHECK(vkfftgo_buffer_destroy(bc));
	CHECK(vkfftgo_buffer_destroy(br));
	CHECK(vkfftgo_plan_destroy(p));
	printf("   %dx%d batch %d, random non-Hermitian: host and buffer inverse match FFTW's c2r (max error %.1g)\n", R, N, B, err);
}

/* random spectra in the padded in-place layout, even last axis */
static void random_in_place(vkfftgo_device *d)
{
	enum { R = 6, N = 8, H = N / 2 + 1, W = 2 * H };
	double complex x[R * H];
	double data[R * W], want[R * N], err = 0;
	vkfftgo_plan *p = real_plan(d, R, N, 1, 1);
	for (size_t i = 0; i < R * H; i++)
		x[i] = test_value(i + 77) + I * test_value(i + 999);
	c2r_ref(x, want, R, N, 1);
	memcpy(data, x, sizeof data);
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, data, sizeof data, data, sizeof data));
	for (int r = 0; r < R; r++)
		for (int j = 0; j < N; j++)
			err = fmax(err, fabs(data[r * W + j] - want[r * N + j]));
	if (err > 1e-12) { fprintf(stderr, "in-place c2r: error %g\n", err); exit(1); }
	CHECK(vkfftgo_plan_destroy(p));
	printf("   %dx%d in place (rows of %d reals), random non-Hermitian: matches FFTW's c2r (max error %.1g)\n", R, N, W, err);
}

int main(void)
{
	vkfftgo_device *d;
	CHECK(vkfftgo_device_open(0, &d));
	user_cases(d);
	random_out_of_place(d);
	random_in_place(d);
	CHECK(vkfftgo_device_close(d));
	printf("c2r: all passed\n");
	return 0;
}
