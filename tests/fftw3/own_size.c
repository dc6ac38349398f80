/* own_size.c — a problem far past the crossover's largest measured cube (128^3): the
 * cost rule times FFTW at the problem's own size instead of extrapolating the cubes'
 * rate, once per shape. Plans a 256^3 r2c with FFTW_ESTIMATE three times (ITK's
 * create/execute/destroy) and checks one result against the real FFTW's; run.sh reads
 * the log.
 *   cc own_size.c -lfftw3f -lm   (run with libvkfftgo_fftw3 preloaded) */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 256 };

int main(void)
{
	size_t nr = (size_t)N * N * N, nc = (size_t)N * N * (N / 2 + 1);
	float *in = fftwf_malloc(sizeof *in * nr);
	fftwf_complex *out = fftwf_malloc(sizeof *out * nc);
	if (!in || !out)
		return 1;
	for (size_t i = 0; i < nr; i++)
		in[i] = (float)((i * 7919) % 1009) / 1009.0f - 0.5f;
	double sum = 0;
	for (size_t i = 0; i < nr; i++)
		sum += in[i];
	for (int k = 0; k < 3; k++) {
		fftwf_plan p = fftwf_plan_dft_r2c_3d(N, N, N, in, out, FFTW_ESTIMATE);
		if (!p) {
			fprintf(stderr, "own_size: no plan\n");
			return 1;
		}
		fftwf_execute(p);
		fftwf_destroy_plan(p);
		/* bin 0 is the sum of the input, whichever engine ran */
		if (fabs(out[0][0] - sum) > 1e-3 * (fabs(sum) + nr * 1e-3) || fabs(out[0][1]) > 1e-2) {
			fprintf(stderr, "own_size: bin 0 is %g%+gi, want %g\n", out[0][0], out[0][1], sum);
			return 1;
		}
	}
	fftwf_free(in);
	fftwf_free(out);
	puts("own_size: 3 plans of 256^3 r2c, bin 0 right");
	return 0;
}
