/* semantics.c — FFTW's semantics through libvkfftgo_fftw3, checked against a direct DFT
 * in double precision. Built against FFTW's own fftw3.h and linked with -lvkfftgo_fftw3
 * (not -lfftw3), once per precision (-DSINGLE for fftwf_). tests/fftw3/run.sh runs it
 * with VKFFTGO_FFTW_MIN_SIZE=0 (every problem the GPU takes goes to the GPU) and
 * VKFFTGO_FFTW_LOG=1, and checks the log says which engine took what.
 *
 *   semantics [gpu-only]   gpu-only: run with VKFFTGO_FFTW_REAL=off (no real FFTW) */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#ifdef SINGLE
#define F(name) fftwf_##name
typedef float real;
typedef fftwf_complex cpx;
typedef fftwf_plan plan_t;
typedef fftwf_iodim64 iodim64;
#define TOL 3e-5
#define PREC "single"
#else
#define F(name) fftw_##name
typedef double real;
typedef fftw_complex cpx;
typedef fftw_plan plan_t;
typedef fftw_iodim64 iodim64;
#define TOL 1e-11
#define PREC "double"
#endif

static int failures, checks;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		checks++;                                                  \
		if (!(cond)) {                                             \
			failures++;                                        \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                      \
			fprintf(stderr, "\n");                             \
		}                                                          \
	} while (0)

static uint64_t rng = 88172645463325252ull;
static double rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}

/* ---- reference: dense row-major DFT in double, separable ---- */
static void ref_dft(int rank, const int *n, int sign, const double complex *in, double complex *out)
{
	size_t total = 1;
	for (int i = 0; i < rank; i++)
		total *= (size_t)n[i];
	memcpy(out, in, total * sizeof *out);
	double complex *line = malloc(sizeof *line * 4096), *res = malloc(sizeof *res * 4096);
	size_t inner = 1;
	for (int ax = rank - 1; ax >= 0; ax--) {
		size_t len = (size_t)n[ax], outer = total / (len * inner);
		for (size_t o = 0; o < outer; o++)
			for (size_t in_ = 0; in_ < inner; in_++) {
				double complex *base = out + o * len * inner + in_;
				for (size_t k = 0; k < len; k++)
					line[k] = base[k * inner];
				for (size_t k = 0; k < len; k++) {
					double complex s = 0;
					for (size_t j = 0; j < len; j++)
						s += line[j] * cexp(sign * 2 * M_PI * I * (double)((j * k) % len) / (double)len);
					res[k] = s;
				}
				for (size_t k = 0; k < len; k++)
					base[k * inner] = res[k];
			}
		inner *= len;
	}
	free(line);
	free(res);
}

static double rel_err(const double complex *want, const double complex *got, size_t n)
{
	double num = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		num += pow(cabs(want[i] - got[i]), 2);
		den += pow(cabs(want[i]), 2);
	}
	return sqrt(num / (den > 0 ? den : 1));
}

static size_t prod(int rank, const int *n)
{
	size_t t = 1;
	for (int i = 0; i < rank; i++)
		t *= (size_t)n[i];
	return t;
}

/* ---- c2c, basic interface, out-of-place and in-place, both signs ---- */
static void test_c2c(int rank, const int *n, int inplace, int sign)
{
	size_t N = prod(rank, n);
	cpx *a = F(alloc_complex)(N), *b = inplace ? a : F(alloc_complex)(N);
	double complex *x = malloc(sizeof *x * N), *want = malloc(sizeof *want * N), *got = malloc(sizeof *got * N);
	plan_t p = F(plan_dft)(rank, n, a, b, sign, FFTW_MEASURE); /* MEASURE: may overwrite, so fill after */
	CHECK(p, "plan_dft rank %d returned NULL", rank);
	if (!p)
		return;
	for (size_t i = 0; i < N; i++) {
		x[i] = rnd() + I * rnd();
		a[i] = (real)creal(x[i]) + I * (real)cimag(x[i]);
	}
	F(execute)(p);
	ref_dft(rank, n, sign, x, want);
	for (size_t i = 0; i < N; i++)
		got[i] = b[i];
	double e = rel_err(want, got, N);
	CHECK(e < TOL, "c2c rank %d n0 %d %s sign %d: relative error %.3g", rank, n[0], inplace ? "in-place" : "out-of-place",
	      sign, e);
	F(destroy_plan)(p);
	F(free)(a);
	if (!inplace)
		F(free)(b);
	free(x), free(want), free(got);
}

/* ---- r2c then c2r (unnormalised: c2r(r2c(x)) = N x), out-of-place and in-place ---- */
static void test_real(int rank, const int *n, int inplace, unsigned c2r_flags)
{
	size_t N = prod(rank, n), last = (size_t)n[rank - 1], half = last / 2 + 1, rows = N / last;
	size_t H = rows * half, padded = 2 * half;
	real *r = inplace ? (real *)F(alloc_complex)(H) : F(alloc_real)(N);
	cpx *c = inplace ? (cpx *)r : F(alloc_complex)(H);
	real *back = inplace ? r : F(alloc_real)(N);
	plan_t fwd = F(plan_dft_r2c)(rank, n, r, c, FFTW_ESTIMATE);
	plan_t inv = F(plan_dft_c2r)(rank, n, c, back, FFTW_ESTIMATE | c2r_flags);
	CHECK(fwd && inv, "r2c/c2r rank %d returned NULL", rank);
	if (!fwd || !inv)
		return;
	double complex *x = malloc(sizeof *x * N), *full = malloc(sizeof *full * N), *got = malloc(sizeof *got * H),
		       *want = malloc(sizeof *want * H);
	size_t rstride = inplace ? padded : last; /* FFTW pads an in-place real row to 2(n/2+1) */
	for (size_t row = 0; row < rows; row++)
		for (size_t k = 0; k < last; k++) {
			x[row * last + k] = rnd();
			r[row * rstride + k] = (real)creal(x[row * last + k]);
		}
	F(execute)(fwd);
	ref_dft(rank, n, -1, x, full);
	for (size_t row = 0; row < rows; row++)
		for (size_t k = 0; k < half; k++) {
			want[row * half + k] = full[row * last + k];
			got[row * half + k] = c[row * half + k];
		}
	double e = rel_err(want, got, H);
	CHECK(e < TOL, "r2c rank %d last %zu %s: relative error %.3g", rank, last, inplace ? "in-place" : "out-of-place", e);
	cpx *saved = F(alloc_complex)(H);
	memcpy(saved, c, sizeof(cpx) * H);
	F(execute)(inv);
	if (c2r_flags & FFTW_PRESERVE_INPUT)
		CHECK(!memcmp(saved, c, sizeof(cpx) * H), "c2r with FFTW_PRESERVE_INPUT changed its input");
	double num = 0, den = 0;
	for (size_t row = 0; row < rows; row++)
		for (size_t k = 0; k < last; k++) {
			double w = (double)N * creal(x[row * last + k]), g = back[row * rstride + k];
			num += (w - g) * (w - g);
			den += w * w;
		}
	e = sqrt(num / den);
	CHECK(e < TOL, "c2r rank %d last %zu %s: relative error %.3g (unnormalised: N x expected)", rank, last,
	      inplace ? "in-place" : "out-of-place", e);
	F(destroy_plan)(fwd);
	F(destroy_plan)(inv);
	F(free)(saved);
	F(free)(r);
	if (!inplace) {
		F(free)(c);
		F(free)(back);
	}
	free(x), free(full), free(got), free(want);
}

/* ---- advanced interface: howmany > 1, strides and gaps on both sides ---- */
static void test_many(void)
{
	int n[1] = { 12 }, howmany = 5, istride = 2, idist = 30, ostride = 1, odist = 13;
	cpx *a = F(alloc_complex)((size_t)idist * howmany), *b = F(alloc_complex)((size_t)odist * howmany);
	plan_t p = F(plan_many_dft)(1, n, howmany, a, NULL, istride, idist, b, NULL, ostride, odist, FFTW_FORWARD,
				   FFTW_ESTIMATE);
	CHECK(p, "plan_many_dft returned NULL");
	if (!p)
		return;
	for (int i = 0; i < odist * howmany; i++)
		b[i] = 1234; /* the gaps of the output must stay untouched */
	double complex x[12], want[12];
	double worst = 0;
	for (int h = 0; h < howmany; h++)
		for (int k = 0; k < 12; k++)
			a[h * idist + k * istride] = (real)(h + 1) * (real)cos(k) + I * (real)sin(h * k);
	F(execute)(p);
	for (int h = 0; h < howmany; h++) {
		double complex got[12];
		for (int k = 0; k < 12; k++) {
			x[k] = a[h * idist + k * istride];
			got[k] = b[h * odist + k];
		}
		ref_dft(1, n, -1, x, want);
		double e = rel_err(want, got, 12);
		worst = e > worst ? e : worst;
		CHECK(b[h * odist + 12] == 1234, "plan_many_dft wrote into the gap after transform %d", h);
	}
	CHECK(worst < TOL, "plan_many_dft howmany 5 strided: relative error %.3g", worst);
	F(destroy_plan)(p);
	F(free)(a), F(free)(b);
}

/* ---- guru64: transposed output and two loop axes ---- */
static void test_guru(void)
{
	/* 8x6 transform, output transposed (column-major), 3x2 loop axes in odd orders */
	const int n0 = 8, n1 = 6, h0 = 3, h1 = 2, N = n0 * n1;
	iodim64 dims[2] = { { n0, n1, 1 }, { n1, 1, n0 } };
	iodim64 hd[2] = { { h0, N, N * h1 }, { h1, N * h0, N } };
	cpx *a = F(alloc_complex)((size_t)N * h0 * h1), *b = F(alloc_complex)((size_t)N * h0 * h1);
	plan_t p = F(plan_guru64_dft)(2, dims, 2, hd, a, b, FFTW_BACKWARD, FFTW_ESTIMATE);
	CHECK(p, "plan_guru64_dft returned NULL");
	if (!p)
		return;
	for (int i = 0; i < N * h0 * h1; i++)
		a[i] = (real)rnd() + I * (real)rnd();
	F(execute)(p);
	int n[2] = { n0, n1 };
	double worst = 0;
	for (int i = 0; i < h0; i++)
		for (int j = 0; j < h1; j++) {
			double complex x[48], want[48], got[48];
			const cpx *in = a + i * N + j * N * h0;
			const cpx *out = b + i * N * h1 + j * N;
			for (int r = 0; r < n0; r++)
				for (int c = 0; c < n1; c++) {
					x[r * n1 + c] = in[r * n1 + c];
					got[r * n1 + c] = out[r + c * n0];
				}
			ref_dft(2, n, +1, x, want);
			double e = rel_err(want, got, 48);
			worst = e > worst ? e : worst;
		}
	CHECK(worst < TOL, "guru64 transposed, 2 loop axes: relative error %.3g", worst);
	F(destroy_plan)(p);
	F(free)(a), F(free)(b);
}

/* ---- new-array execute: same layout, other arrays ---- */
static void test_new_array(void)
{
	int n[2] = { 10, 12 };
	size_t N = 120;
	cpx *a = F(alloc_complex)(N), *b = F(alloc_complex)(N), *c = F(alloc_complex)(N), *d = F(alloc_complex)(N);
	plan_t p = F(plan_dft)(2, n, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
	CHECK(p, "plan_dft 10x12 returned NULL");
	if (!p)
		return;
	double complex x[120], want[120], got[120];
	for (size_t i = 0; i < N; i++) {
		x[i] = rnd() + I * rnd();
		c[i] = (real)creal(x[i]) + I * (real)cimag(x[i]);
		a[i] = 0;
	}
	F(execute_dft)(p, c, d);
	ref_dft(2, n, -1, x, want);
	for (size_t i = 0; i < N; i++)
		got[i] = d[i];
	double e = rel_err(want, got, N);
	CHECK(e < TOL, "execute_dft on new arrays: relative error %.3g", e);
	F(destroy_plan)(p);
	F(free)(a), F(free)(b), F(free)(c), F(free)(d);
}

/* ---- threads sharing one plan through the new-array functions (FFTW allows it) ---- */
struct job {
	plan_t p;
	int strided;
	double err;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	const int len = 64, howmany = 4, stride = j->strided ? 3 : 1;
	size_t cap = (size_t)len * howmany * stride;
	cpx *a = F(alloc_complex)(cap), *b = F(alloc_complex)(cap);
	int n[1] = { len };
	for (int it = 0; it < 40; it++) {
		double complex x[64], want[64], got[64];
		for (size_t i = 0; i < cap; i++)
			a[i] = (real)rnd() + I * (real)rnd();
		F(execute_dft)(j->p, a, b);
		for (int h = 0; h < howmany; h++) {
			for (int k = 0; k < len; k++) {
				x[k] = a[(size_t)(h * len + k) * stride];
				got[k] = b[(size_t)(h * len + k) * stride];
			}
			ref_dft(1, n, -1, x, want);
			double e = rel_err(want, got, 64);
			j->err = e > j->err ? e : j->err;
		}
	}
	F(free)(a), F(free)(b);
	return NULL;
}

static void test_threads(void)
{
	for (int strided = 0; strided <= 1; strided++) {
		int n[1] = { 64 }, s = strided ? 3 : 1;
		cpx *a = F(alloc_complex)(64 * 4 * 3), *b = F(alloc_complex)(64 * 4 * 3);
		plan_t p = F(plan_many_dft)(1, n, 4, a, NULL, s, 64 * s, b, NULL, s, 64 * s, FFTW_FORWARD, FFTW_ESTIMATE);
		CHECK(p, "plan_many_dft for threads returned NULL");
		if (!p)
			continue;
		pthread_t t[4];
		struct job jobs[4];
		for (int i = 0; i < 4; i++) {
			jobs[i] = (struct job){ p, strided, 0 };
			pthread_create(&t[i], NULL, worker, &jobs[i]);
		}
		double worst = 0;
		for (int i = 0; i < 4; i++) {
			pthread_join(t[i], NULL);
			worst = jobs[i].err > worst ? jobs[i].err : worst;
		}
		CHECK(worst < TOL, "4 threads on one %s plan: relative error %.3g", strided ? "strided" : "dense", worst);
		F(destroy_plan)(p);
		F(free)(a), F(free)(b);
	}
}

/* ---- r2r and split arrays: the real FFTW's ---- */
static void test_fallback_kinds(int have_fftw)
{
	real in[16], out[16];
	for (int i = 0; i < 16; i++)
		in[i] = (real)rnd();
	plan_t p = F(plan_r2r_1d)(16, in, out, FFTW_REDFT10, FFTW_ESTIMATE);
	if (!have_fftw) {
		CHECK(!p, "r2r without a real FFTW must return NULL (neither engine can)");
		if (p)
			F(destroy_plan)(p);
		return;
	}
	CHECK(p, "plan_r2r_1d REDFT10 returned NULL");
	if (p) {
		F(execute)(p);
		double worst = 0;
		for (int k = 0; k < 16; k++) { /* DCT-II: Y_k = 2 sum x_j cos(pi (j+1/2) k / n) */
			double s = 0;
			for (int j = 0; j < 16; j++)
				s += 2 * in[j] * cos(M_PI * (j + 0.5) * k / 16);
			worst = fmax(worst, fabs(s - out[k]));
		}
		CHECK(worst < 1e3 * TOL, "REDFT10 through FFTW: error %.3g", worst);
		F(destroy_plan)(p);
	}
	real ri[8], ii[8], ro[8], io[8];
	for (int i = 0; i < 8; i++)
		ri[i] = (real)rnd(), ii[i] = (real)rnd();
	iodim64 d = { 8, 1, 1 };
	p = F(plan_guru64_split_dft)(1, &d, 0, NULL, ri, ii, ro, io, FFTW_ESTIMATE);
	CHECK(p, "plan_guru64_split_dft returned NULL");
	if (p) {
		F(execute)(p);
		double complex x[8], want[8], got[8];
		for (int i = 0; i < 8; i++)
			x[i] = ri[i] + I * ii[i], got[i] = ro[i] + I * io[i];
		int n = 8;
		ref_dft(1, &n, -1, x, want);
		CHECK(rel_err(want, got, 8) < TOL, "split DFT through FFTW wrong");
		F(destroy_plan)(p);
	}
}

/* ---- planner contract: FFTW's NULLs, flags, wisdom, threads, memory, printing ---- */
static void test_contract(int have_fftw)
{
	cpx a[64], b[64];
	int bad[2] = { 4, 0 }, neg = -1;
	CHECK(!F(plan_dft)(2, bad, a, b, FFTW_FORWARD, FFTW_ESTIMATE), "a zero dimension must give NULL");
	CHECK(!F(plan_dft)(-1, bad, a, b, FFTW_FORWARD, FFTW_ESTIMATE), "rank -1 must give NULL");
	CHECK(!F(plan_many_dft)(1, &neg, 1, a, NULL, 1, 1, b, NULL, 1, 1, FFTW_FORWARD, FFTW_ESTIMATE),
	      "a negative n must give NULL");
	int n64 = 64;
	CHECK(!F(plan_many_dft)(1, &n64, -2, a, NULL, 1, 64, b, NULL, 1, 64, FFTW_FORWARD, FFTW_ESTIMATE),
	      "howmany < 0 must give NULL");

	/* ITK's pattern: FFTW_MEASURE | FFTW_WISDOM_ONLY first. GPU plans need no wisdom. */
	int n3[3] = { 16, 16, 16 };
	cpx *big = F(alloc_complex)(4096);
	plan_t p = F(plan_dft)(3, n3, big, big, FFTW_FORWARD, FFTW_MEASURE | FFTW_WISDOM_ONLY);
	CHECK(p, "a GPU plan with FFTW_WISDOM_ONLY returned NULL");
	if (p) {
		char *s = F(sprint_plan)(p);
		CHECK(s && strstr(s, "vkfftgo-gpu"), "sprint_plan of a GPU plan: %s", s ? s : "NULL");
		free(s);
		double add = 0, mul = 0, fma = 0;
		F(flops)(p, &add, &mul, &fma);
		CHECK(add + mul + fma > 0, "flops of a GPU plan are 0");
		CHECK(F(estimate_cost)(p) > 0, "estimate_cost of a GPU plan is 0");
		F(destroy_plan)(p);
	}
	F(free)(big);

	void *m = F(malloc)(42);
	CHECK(m && F(alignment_of)((real *)m) == 0, "fftw_malloc memory is not SIMD-aligned");
	F(free)(m);
	F(free)(NULL);
	CHECK(F(alignment_of)((real *)((char *)a + 8)) == 8 % 16, "alignment_of");

	CHECK(F(init_threads)() == 1, "init_threads");
	F(plan_with_nthreads)(3);
	CHECK(F(planner_nthreads)() == 3, "planner_nthreads after plan_with_nthreads(3): %d", F(planner_nthreads)());
	F(plan_with_nthreads)(1);
	F(make_planner_thread_safe)();
	F(set_timelimit)(FFTW_NO_TIMELIMIT);

	char *w = F(export_wisdom_to_string)();
	CHECK(w != NULL, "export_wisdom_to_string returned NULL");
	if (w) {
		CHECK(F(import_wisdom_from_string)(w) == 1, "importing our own wisdom failed: %s", w);
		free(w); /* FFTW: the string is malloc'ed */
	}
	CHECK(F(import_wisdom_from_string)("(not wisdom at all") == 0, "garbage wisdom was accepted");
	CHECK(F(export_wisdom_to_filename)("/nonexistent-dir/x/wisdom") == 0, "exporting to an impossible path succeeded");
	CHECK(F(import_wisdom_from_filename)("/nonexistent-dir/x/wisdom") == 0, "importing a missing file succeeded");
	char path[] = "/tmp/vkfftgo-fftw3-wisdom-XXXXXX";
	int fd = mkstemp(path);
	if (fd >= 0) {
		CHECK(F(export_wisdom_to_filename)(path) == 1, "export_wisdom_to_filename failed");
		CHECK(F(import_wisdom_from_filename)(path) == 1, "import_wisdom_from_filename of our export failed");
		remove(path);
	}
	(void)have_fftw;
	F(forget_wisdom)();
}

/* ---- fftw_malloc memory of 1 MiB and more: page-locked for the GPU on first use ---- */
static void test_pinned(void)
{
	int n[3] = { 64, 64, 64 };
	size_t N = 64 * 64 * 64;
	cpx *a = F(alloc_complex)(N), *b = F(alloc_complex)(N);
	double complex *x = malloc(sizeof *x * N), *want = malloc(sizeof *want * N), *got = malloc(sizeof *got * N);
	plan_t p = F(plan_dft)(3, n, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
	CHECK(p, "plan_dft 64^3 returned NULL");
	if (p) {
		for (int round = 0; round < 2; round++) { /* the second runs on page-locked memory */
			for (size_t i = 0; i < N; i++) {
				x[i] = rnd() + I * rnd();
				a[i] = (real)creal(x[i]) + I * (real)cimag(x[i]);
			}
			F(execute)(p);
			ref_dft(3, n, -1, x, want);
			for (size_t i = 0; i < N; i++)
				got[i] = b[i];
			double e = rel_err(want, got, N);
			CHECK(e < TOL, "64^3 on fftw_malloc memory, round %d: relative error %.3g", round, e);
		}
		F(destroy_plan)(p);
	}
	F(free)(a), F(free)(b); /* unregisters */
	free(x), free(want), free(got);
}

/* ---- plan cache: ITK creates and destroys the same plan per Update() ---- */
static void test_plan_churn(void)
{
	int n[3] = { 16, 8, 12 };
	real *r = F(alloc_real)(16 * 8 * 12);
	cpx *c = F(alloc_complex)(16 * 8 * 7);
	for (int it = 0; it < 5; it++) {
		plan_t p = F(plan_dft_r2c)(3, n, r, c, FFTW_ESTIMATE);
		CHECK(p, "r2c churn: NULL at round %d", it);
		if (!p)
			break;
		F(execute)(p);
		F(destroy_plan)(p);
	}
	F(free)(r), F(free)(c);
}

int main(int argc, char **argv)
{
	int have_fftw = !(argc > 1 && !strcmp(argv[1], "gpu-only"));
	int n1[1] = { 17 }, n2[2] = { 12, 15 }, n3[3] = { 8, 6, 10 };
	for (int sign = -1; sign <= 1; sign += 2) {
		test_c2c(1, n1, 0, sign);
		test_c2c(2, n2, 1, sign);
		test_c2c(3, n3, 0, sign);
	}
	int r1[1] = { 30 }, r2[2] = { 16, 10 }, r3[3] = { 6, 5, 9 };
	test_real(1, r1, 0, 0);
	test_real(2, r2, 1, 0);
	test_real(3, r3, 0, FFTW_PRESERVE_INPUT);
	test_real(3, r3, 1, 0);
	test_many();
	test_guru();
	test_new_array();
	test_threads();
	test_plan_churn();
	test_pinned();
	test_fallback_kinds(have_fftw);
	test_contract(have_fftw);
	F(cleanup)();
	printf("semantics (%s%s): %d checks, %d failed\n", PREC, have_fftw ? "" : ", no real FFTW", checks, failures);
	return failures != 0;
}
