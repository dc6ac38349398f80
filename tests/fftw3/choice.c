/* choice.c — the engine choice of libvkfftgo_fftw3 for each planner flag and calling
 * pattern, made deterministic by injecting the costs it compares (VKFFTGO_FFTW_COSTS,
 * set between plans): what is real is the decision rule, FFTW's wisdom (asked with
 * FFTW_WISDOM_ONLY), where a GPU plan would come from (this library's plan cache,
 * libvkfftgo's disk kernel cache, a compile) and the caller's pattern learned from the
 * plans it destroyed. The engine of a plan is read back with fftwf_sprint_plan (GPU
 * plans print "(vkfftgo-gpu ..."). No wall-clock time decides anything here. Linked
 * with -lvkfftgo_fftw3; tests/fftw3/run.sh runs each scenario in its own process (the
 * pattern is a process's) and checks the log lines too.
 *
 *   choice kept      a caller that keeps its plans: ESTIMATE and MEASURE stay on FFTW
 *   choice churn     a create/execute/destroy caller: MEASURE moves to the GPU, but not a
 *                    problem FFTW's wisdom has; ESTIMATE stays on FFTW
 *   choice flags     PATIENT, EXHAUSTIVE and WISDOM_ONLY, with and without wisdom, and
 *                    wisdom forgotten between plans
 *   choice cold      a compile against kernels from the disk cache and the plan cache
 *   choice threads   2 FFTW threads where their speed cannot change the choice: not measured
 *   choice measured  no cost injected: this machine's figures measured; each plan computes
 *                    the transform (checked against a direct DFT of one bin), wherever it went
 * Exits 1 on any failure, printing what it checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

static int failures, checks;

/* costs where FFTW executes faster (2 ms against 6 ms) but plans slower (FFTW_MEASURE
 * 0.5 s without wisdom against 0.3 s for a GPU plan not in the plan cache) */
static const char base_costs[] = "cpu_exec=2ms gpu_exec=6ms measure=0.5s patient=5s exhaustive=60s "
				 "gpu_cold=0.3s gpu_warm=0.3s gpu_cached=0";

static void costs(const char *extra)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s %s", base_costs, extra ? extra : "");
	setenv("VKFFTGO_FFTW_COSTS", buf, 1);
}

static int on_gpu(fftwf_plan p)
{
	char *s = fftwf_sprint_plan(p);
	int gpu = s && !strncmp(s, "(vkfftgo-gpu", 12);
	free(s);
	return gpu;
}

/* An r2c plan of an n0 x 32 x 32 cube with flags, executed `executes` times, then
 * checked to be on the GPU (want_gpu) or FFTW, and destroyed unless keep. */
static fftwf_plan plan(int n0, unsigned flags, int executes, int want_gpu, const char *what, int keep)
{
	size_t n = (size_t)n0 * 32 * 32;
	float *in = fftwf_alloc_real(n);
	fftwf_complex *out = fftwf_alloc_complex((size_t)n0 * 32 * 17);
	fftwf_plan p = fftwf_plan_dft_r2c_3d(n0, 32, 32, in, out, flags);
	checks++;
	if (!p) {
		failures++;
		fprintf(stderr, "FAIL %s: no plan\n", what);
	} else {
		for (size_t i = 0; i < n; i++)
			in[i] = (float)(i % 7);
		for (int e = 0; e < executes; e++)
			fftwf_execute(p);
		int gpu = on_gpu(p);
		printf("   %-70s -> %s%s\n", what, gpu ? "gpu" : "fftw", gpu == want_gpu ? "" : "   WRONG");
		if (gpu != want_gpu) {
			failures++;
			fprintf(stderr, "FAIL %s: on %s, want %s\n", what, gpu ? "the GPU" : "FFTW", want_gpu ? "the GPU" : "FFTW");
		}
		if (!keep) {
			fftwf_destroy_plan(p);
			p = NULL;
		}
	}
	fftwf_free(in);
	fftwf_free(out);
	return p;
}

static void kept(void)
{
	costs(NULL);
	/* 100 executes expected: FFTW 0 + 100 x 2 ms against the GPU's 0.3 s + 100 x 6 ms */
	plan(32, FFTW_ESTIMATE, 10, 0, "kept, ESTIMATE, first plan", 0);
	plan(32, FFTW_ESTIMATE, 10, 0, "kept, ESTIMATE, planned again (10 executes each)", 0);
	/* 0.5 s + 0.2 s against 0.9 s */
	plan(40, FFTW_MEASURE, 10, 0, "kept, MEASURE, first plan", 0);
	plan(48, FFTW_MEASURE, 10, 0, "kept, MEASURE, another problem (the process keeps its plans)", 0);
}

static void churn(void)
{
	costs(NULL);
	/* the process destroys its plans after one execute */
	plan(32, FFTW_ESTIMATE, 1, 0, "churn, ESTIMATE, first plan", 0);
	plan(32, FFTW_ESTIMATE, 1, 0, "churn, ESTIMATE, again: 2 ms against 0.3 s + 6 ms", 0);
	/* a problem never seen, from a create/execute/destroy caller: 0.5 s + 2 ms against 0.3 s + 6 ms */
	plan(40, FFTW_MEASURE, 1, 1, "churn, MEASURE, a new problem of this caller", 0);
	plan(40, FFTW_MEASURE, 1, 1, "churn, MEASURE, again (from the plan cache)", 0);
	/* one FFTW measured (costs forced for it): its wisdom has it now, planning costs 0 */
	costs("measure=0");
	plan(48, FFTW_MEASURE, 1, 0, "churn, MEASURE, planning made free (VKFFTGO_FFTW_COSTS)", 0);
	costs(NULL);
	plan(48, FFTW_MEASURE, 1, 0, "churn, MEASURE, a problem FFTW's wisdom has", 0);
}

static void flags(void)
{
	costs(NULL);
	/* PATIENT: 5 s + 100 x 2 ms against 0.9 s; EXHAUSTIVE likewise */
	plan(32, FFTW_PATIENT, 3, 1, "PATIENT, no wisdom", 0);
	plan(40, FFTW_EXHAUSTIVE, 3, 1, "EXHAUSTIVE, no wisdom", 0);
	/* WISDOM_ONLY without wisdom: FFTW cannot plan it */
	plan(48, FFTW_MEASURE | FFTW_WISDOM_ONLY, 3, 1, "MEASURE|WISDOM_ONLY, no wisdom", 0);
	/* MEASURE wisdom for 56x32x32 (FFTW plans it, planning forced free); then it serves
	 * WISDOM_ONLY and MEASURE (0 + 100 x 2 ms) but not PATIENT */
	costs("measure=0");
	plan(56, FFTW_MEASURE, 3, 0, "MEASURE, planning made free (VKFFTGO_FFTW_COSTS)", 0);
	costs(NULL);
	plan(56, FFTW_MEASURE | FFTW_WISDOM_ONLY, 3, 0, "MEASURE|WISDOM_ONLY, wisdom has it", 0);
	plan(56, FFTW_MEASURE, 3, 0, "MEASURE, wisdom has it", 0);
	plan(56, FFTW_PATIENT, 3, 1, "PATIENT, only MEASURE wisdom", 0);
	/* wisdom forgotten between a create/execute/destroy caller's plans: FFTW plans
	 * again (0.5 s + 2 ms against 0.3 s + 6 ms); imported: free again (2 ms against the
	 * plan cache's 0 + 6 ms) */
	costs("measure=0");
	plan(64, FFTW_MEASURE, 1, 0, "MEASURE, planning made free (VKFFTGO_FFTW_COSTS)", 0);
	costs(NULL);
	char *w = fftwf_export_wisdom_to_string();
	fftwf_forget_wisdom();
	plan(64, FFTW_MEASURE, 1, 1, "MEASURE, create/execute/destroy, wisdom forgotten", 0);
	int ok = w && fftwf_import_wisdom_from_string(w);
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "FAIL: the exported wisdom could not be imported\n");
	}
	free(w);
	plan(64, FFTW_MEASURE, 1, 0, "MEASURE, create/execute/destroy, wisdom imported", 0);
	/* ESTIMATE needs no wisdom */
	plan(72, FFTW_ESTIMATE, 3, 0, "ESTIMATE", 0);
}

static void cold(void)
{
	/* the GPU executes faster here (1 ms against 2 ms) but a compile costs 1 s: 0.2 s
	 * against 1.1 s; from the disk kernel cache 10 ms: 0.11 s */
	const char *gpu_faster = "cpu_exec=2ms gpu_exec=1ms gpu_cold=1s gpu_warm=10ms gpu_cached=0";
	setenv("VKFFTGO_FFTW_COSTS", gpu_faster, 1);
	plan(32, FFTW_ESTIMATE, 3, 0, "a compile: FFTW", 0);
	/* build it once (compiles, saves its kernels), then empty the plan cache */
	setenv("VKFFTGO_FFTW_COSTS", "cpu_exec=2ms gpu_exec=1ms gpu_cold=0 gpu_warm=0 gpu_cached=0", 1);
	plan(32, FFTW_ESTIMATE, 3, 1, "compiling made free (VKFFTGO_FFTW_COSTS)", 0);
	fftwf_cleanup();
	setenv("VKFFTGO_FFTW_COSTS", gpu_faster, 1);
	plan(32, FFTW_ESTIMATE, 3, 1, "kernels in the disk cache: the GPU", 0);
	plan(32, FFTW_ESTIMATE, 3, 1, "in the plan cache: the GPU", 0);
}

static void threads(void)
{
	/* the GPU hopeless (1 s per execute): FFTW with 1 or 2 threads, either way */
	setenv("VKFFTGO_FFTW_COSTS", "gpu_exec=1s gpu_cold=1s gpu_warm=1s gpu_cached=1s", 1);
	fftwf_init_threads();
	fftwf_plan_with_nthreads(1);
	plan(32, FFTW_ESTIMATE, 3, 0, "1 thread (FFTW measured)", 0);
	fftwf_plan_with_nthreads(2);
	plan(40, FFTW_ESTIMATE, 3, 0, "2 threads (not measured: the choice cannot change)", 0);
	fftwf_cleanup_threads();
}

/* The first bins of an r2c of x[i] = i % 7 against a direct DFT, with the measured costs
 * (the engine is whatever they favour; run.sh checks the log agrees with them). */
static void measured(void)
{
	unsetenv("VKFFTGO_FFTW_COSTS");
	for (int k = 0; k < 2; k++) {
		unsigned flags = k ? FFTW_MEASURE : FFTW_ESTIMATE;
		size_t n = 32 * 32 * 32;
		float *in = fftwf_alloc_real(n);
		fftwf_complex *out = fftwf_alloc_complex(32 * 32 * 17);
		fftwf_plan p = fftwf_plan_dft_r2c_3d(32, 32, 32, in, out, flags);
		checks++;
		if (!p) {
			failures++;
			fprintf(stderr, "FAIL measured: no plan\n");
			continue;
		}
		for (size_t i = 0; i < n; i++)
			in[i] = (float)(i % 7);
		fftwf_execute(p);
		/* bin (0,0,1): sum over i of x[i] e^{-2 pi i j2 / 32}, j2 the last index */
		double re = 0, im = 0;
		for (size_t i = 0; i < n; i++) {
			double a = -2 * 3.14159265358979323846 * (double)(i % 32) / 32;
			re += (double)(i % 7) * __builtin_cos(a);
			im += (double)(i % 7) * __builtin_sin(a);
		}
		double dr = out[1][0] - re, di = out[1][1] - im;
		int ok = dr * dr + di * di <= 1e-6 * (re * re + im * im + 1);
		printf("   %-70s -> %s, bin 1 %s\n", k ? "MEASURE, measured costs" : "ESTIMATE, measured costs",
		       on_gpu(p) ? "gpu" : "fftw", ok ? "right" : "WRONG");
		if (!ok) {
			failures++;
			fprintf(stderr, "FAIL measured: bin 1 is %g%+gi, want %g%+gi\n", out[1][0], out[1][1], re, im);
		}
		fftwf_destroy_plan(p);
		fftwf_free(in);
		fftwf_free(out);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} modes[] = { { "kept", kept }, { "churn", churn }, { "flags", flags }, { "cold", cold }, { "threads", threads },
			{ "measured", measured } };
	for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++) {
		if (!strcmp(argv[1], modes[i].name)) {
			modes[i].run();
			printf("   %s: %d checks, %d failures\n", argv[1], checks, failures);
			return failures != 0;
		}
	}
	fprintf(stderr, "usage: choice kept|churn|flags|cold|threads|measured\n");
	return 2;
}
