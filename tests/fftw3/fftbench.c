/* fftbench.c — FFTW's own timing of a real 3-D transform pair, as an FFTW program sees
 * it (built with FFTW's fftw3.h and -lfftw3f_threads -lfftw3f; tests/gpu/steps/fftw.sh
 * runs it as built and with libvkfftgo_fftw3 preloaded, same binary).
 *
 *   fftbench N REPS THREADS [estimate|measure]
 *
 * single precision r2c + c2r of an N^3 cube with fftwf_plan_with_nthreads(THREADS):
 *   "kept plan":   one plan each, REPS executes (median)
 *   "ITK pattern": plan, execute, destroy per call, as ITK's filters do per Update() */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fftw3.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: fftbench N REPS THREADS [estimate|measure]\n");
		return 2;
	}
	int n = atoi(argv[1]), reps = atoi(argv[2]), threads = atoi(argv[3]);
	unsigned flags = argc > 4 && !strcmp(argv[4], "measure") ? FFTW_MEASURE : FFTW_ESTIMATE;
	if (n < 2 || reps < 1 || threads < 1)
		return 2;
	size_t N = (size_t)n * n * n, H = (size_t)n * n * (n / 2 + 1);
	fftwf_init_threads();
	fftwf_plan_with_nthreads(threads);
	float *r = fftwf_alloc_real(N), *back = fftwf_alloc_real(N);
	fftwf_complex *c = fftwf_alloc_complex(H);
	double *tf = malloc(sizeof(double) * (size_t)reps), *tb = malloc(sizeof(double) * (size_t)reps);

	double t0 = now();
	fftwf_plan f = fftwf_plan_dft_r2c_3d(n, n, n, r, c, flags);
	fftwf_plan b = fftwf_plan_dft_c2r_3d(n, n, n, c, back, flags);
	double tplan = now() - t0;
	if (!f || !b)
		return 3;
	for (size_t i = 0; i < N; i++)
		r[i] = (float)sin(0.001 * (double)(i % 100003));
	fftwf_execute(f); /* warm-up */
	fftwf_execute(b);
	for (int i = 0; i < reps; i++) {
		double a = now();
		fftwf_execute(f);
		double m = now();
		fftwf_execute(b);
		tf[i] = (m - a) * 1e3;
		tb[i] = (now() - m) * 1e3;
	}
	double err = 0;
	for (size_t i = 0; i < N; i += 997)
		err = fmax(err, fabs(back[i] / (double)N - r[i]));
	printf("RESULT fftbench %d^3 f32 %s threads %d kept plan: r2c %.2f ms, c2r %.2f ms, pair %.2f ms (planning %.0f ms; "
	       "round-trip max error %.1e)\n",
	       n, flags == FFTW_MEASURE ? "measure" : "estimate", threads, median(tf, reps), median(tb, reps),
	       median(tf, reps) + median(tb, reps), tplan * 1e3, err);
	fftwf_destroy_plan(f);
	fftwf_destroy_plan(b);

	if (flags == FFTW_ESTIMATE) {
		for (int i = 0; i < reps; i++) {
			double a = now();
			fftwf_plan p = fftwf_plan_dft_r2c_3d(n, n, n, r, c, flags);
			fftwf_execute(p);
			fftwf_destroy_plan(p);
			double m = now();
			p = fftwf_plan_dft_c2r_3d(n, n, n, c, back, flags);
			fftwf_execute(p);
			fftwf_destroy_plan(p);
			tf[i] = (m - a) * 1e3;
			tb[i] = (now() - m) * 1e3;
		}
		printf("RESULT fftbench %d^3 f32 estimate threads %d ITK pattern (plan+execute+destroy): r2c %.2f ms, c2r %.2f ms, "
		       "pair %.2f ms\n",
		       n, threads, median(tf, reps), median(tb, reps), median(tf, reps) + median(tb, reps));
	}
	fftwf_free(r), fftwf_free(back), fftwf_free(c);
	free(tf), free(tb);
	fftwf_cleanup_threads();
	return 0;
}
