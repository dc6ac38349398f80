/* preload.c — an ordinary FFTW program: built against FFTW's fftw3.h and linked with
 * FFTW's own libraries (-lfftw3f -lfftw3). tests/fftw3/run.sh runs it as built and with
 * LD_PRELOAD=libvkfftgo_fftw3.so, and compares the outputs.
 *
 *   preload OUT [N]       single r2c + c2r of an N^3 cube (default 48), a double c2c
 *                         N x N, and an 8x8 c2c (small: stays on the CPU); raw outputs
 *                         into OUT
 *   preload compare A B   relative L2 difference of two OUT files, per section; exit 1
 *                         above single / double precision tolerance */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

static double rel(const double *a, const double *b, size_t n)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		num += (a[i] - b[i]) * (a[i] - b[i]);
		den += a[i] * a[i];
	}
	return sqrt(num / (den > 0 ? den : 1));
}

static int compare(const char *pa, const char *pb)
{
	FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
	if (!fa || !fb) {
		fprintf(stderr, "compare: cannot open %s or %s\n", pa, pb);
		return 2;
	}
	const char *names[4] = { "r2c f32", "c2r f32", "c2c f64", "c2c f32 8x8" };
	const double tol[4] = { 1e-5, 1e-5, 1e-12, 1e-5 };
	int bad = 0;
	for (int s = 0; s < 4; s++) {
		size_t n, m;
		if (fread(&n, sizeof n, 1, fa) != 1 || fread(&m, sizeof m, 1, fb) != 1 || n != m) {
			fprintf(stderr, "compare: section %s has different sizes\n", names[s]);
			return 2;
		}
		double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
		if (fread(a, sizeof *a, n, fa) != n || fread(b, sizeof *b, n, fb) != n) {
			fprintf(stderr, "compare: short section %s\n", names[s]);
			return 2;
		}
		double e = rel(a, b, n);
		printf("   %-12s %8zu values, relative L2 difference %.2e (tolerance %.0e)\n", names[s], n, e, tol[s]);
		bad |= !(e <= tol[s]);
		free(a), free(b);
	}
	return bad;
}

static void put(FILE *f, size_t n, const double *v)
{
	fwrite(&n, sizeof n, 1, f);
	fwrite(v, sizeof *v, n, f);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "compare"))
		return compare(argv[2], argv[3]);
	if (argc < 2) {
		fprintf(stderr, "usage: preload OUT [N] | preload compare A B\n");
		return 2;
	}
	int n = argc > 2 ? atoi(argv[2]) : 48;
	size_t N = (size_t)n * n * n, H = (size_t)n * n * (n / 2 + 1);
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 2;
	double *v = malloc(sizeof *v * 2 * (N > H ? N : H) + 64);

	/* single precision r2c and c2r of a cube, as ITK's filters plan them */
	fftwf_init_threads();
	fftwf_plan_with_nthreads(2);
	float *r = fftwf_alloc_real(N), *back = fftwf_alloc_real(N);
	fftwf_complex *c = fftwf_alloc_complex(H);
	fftwf_plan f = fftwf_plan_dft_r2c_3d(n, n, n, r, c, FFTW_ESTIMATE);
	fftwf_plan b = fftwf_plan_dft_c2r_3d(n, n, n, c, back, FFTW_ESTIMATE);
	if (!f || !b)
		return 3;
	for (size_t i = 0; i < N; i++)
		r[i] = (float)(sin(0.001 * (double)(i * i % 7919)) + 0.25 * cos(0.37 * (double)i));
	fftwf_execute(f);
	for (size_t i = 0; i < H; i++)
		v[2 * i] = c[i][0], v[2 * i + 1] = c[i][1];
	put(out, 2 * H, v);
	fftwf_execute(b);
	for (size_t i = 0; i < N; i++)
		v[i] = back[i];
	put(out, N, v);
	fftwf_destroy_plan(f);
	fftwf_destroy_plan(b);

	/* double precision c2c, in place */
	size_t M = (size_t)n * n * 4;
	fftw_complex *z = fftw_alloc_complex(M);
	int dims[2] = { 2 * n, 2 * n };
	fftw_plan p = fftw_plan_dft(2, dims, z, z, FFTW_BACKWARD, FFTW_ESTIMATE);
	if (!p)
		return 3;
	for (size_t i = 0; i < M; i++)
		z[i][0] = cos(0.01 * (double)i), z[i][1] = sin(0.02 * (double)(i % 97));
	fftw_execute(p);
	for (size_t i = 0; i < M; i++)
		v[2 * i] = z[i][0], v[2 * i + 1] = z[i][1];
	put(out, 2 * M, v);
	fftw_destroy_plan(p);

	/* a small problem: FFTW's on the CPU either way */
	fftwf_complex s[64], t[64];
	fftwf_plan q = fftwf_plan_dft_2d(8, 8, s, t, FFTW_FORWARD, FFTW_MEASURE);
	for (int i = 0; i < 64; i++)
		s[i][0] = (float)i, s[i][1] = (float)(i % 5);
	fftwf_execute(q);
	for (int i = 0; i < 64; i++)
		v[2 * i] = t[i][0], v[2 * i + 1] = t[i][1];
	put(out, 128, v);
	fftwf_destroy_plan(q);

	fftwf_free(r), fftwf_free(back), fftwf_free(c), fftw_free(z);
	fftwf_cleanup_threads();
	fftw_cleanup();
	free(v);
	return fclose(out) != 0;
}
