/* c2r.c — libvkfftgo_fftw3's complex-to-real transforms against the real FFTW, on half
 * spectra that are not Hermitian. FFTW's c2r is defined for any input (the leading
 * axes' inverse is complex, then each last-axis line ignores the imaginary parts of its
 * bins 0 and n/2), FFTW's own verifier only feeds it Hermitian data, and real programs
 * do not (vips' phasecor, ImageMagick's -ift). Linked with -lvkfftgo_fftw3 (FFTW's
 * names are ours); the real FFTW is dlopen'ed and called through its guru64 interface,
 * whose planning calls none of the API functions this library interposes. Built once
 * per precision (-DSINGLE for fftwf_); tests/fftw3/run.sh runs it with
 * VKFFTGO_FFTW_MIN_SIZE=0 (every c2r on the GPU) and checks the log says so.
 *
 *   c2r   prints one line per case; exits 1 on any failure */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#ifdef SINGLE
#define F(name) fftwf_##name
#define REAL_LIB "libfftw3f.so.3"
#define SYM(name) "fftwf_" name
typedef float real;
typedef fftwf_complex cpx;
typedef fftwf_plan plan_t;
typedef fftwf_iodim64 iodim64;
#define TOL 2e-5
#define PREC "single"
#else
#define F(name) fftw_##name
#define REAL_LIB "libfftw3.so.3"
#define SYM(name) "fftw_" name
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

/* the real FFTW, reached through its handle only */
static struct {
	plan_t (*c2r)(int, const iodim64 *, int, const iodim64 *, cpx *, real *, unsigned);
	plan_t (*r2c)(int, const iodim64 *, int, const iodim64 *, real *, cpx *, unsigned);
	void (*execute)(const plan_t);
	void (*destroy)(plan_t);
} fftw;

static int load_fftw(void)
{
	void *h = dlopen(REAL_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "c2r: %s is needed as the reference (libfftw3-dev): %s\n", REAL_LIB, dlerror());
		return 0;
	}
	*(void **)&fftw.c2r = dlsym(h, SYM("plan_guru64_dft_c2r"));
	*(void **)&fftw.r2c = dlsym(h, SYM("plan_guru64_dft_r2c"));
	*(void **)&fftw.execute = dlsym(h, SYM("execute"));
	*(void **)&fftw.destroy = dlsym(h, SYM("destroy_plan"));
	return fftw.c2r && fftw.r2c && fftw.execute && fftw.destroy;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}

/* A c2r problem: rank axes n, howmany transforms, real rows padded to 2(n/2+1) in place
 * (FFTW's layout) or dense out of place. */
typedef struct problem {
	int rank, n[3], howmany, inplace;
	size_t rows, last, half, rstride, cdist, rdist;
} problem;

static problem describe(int rank, const int *n, int howmany, int inplace)
{
	problem p = {.rank = rank, .howmany = howmany, .inplace = inplace, .rows = 1};
	for (int i = 0; i < rank; i++) {
		p.n[i] = n[i];
		if (i < rank - 1)
			p.rows *= (size_t)n[i];
	}
	p.last = (size_t)n[rank - 1];
	p.half = p.last / 2 + 1;
	p.rstride = inplace ? 2 * p.half : p.last;
	p.cdist = p.rows * p.half;
	p.rdist = p.rows * p.rstride;
	return p;
}

/* the real FFTW's c2r of a copy of x (cdist*howmany values) into out */
static void fftw_c2r(const problem *p, const cpx *x, real *out)
{
	iodim64 dims[3], hd = {p->howmany, (ptrdiff_t)p->cdist, (ptrdiff_t)p->rdist};
	ptrdiff_t cs = 1, rs = 1;
	for (int i = p->rank - 1; i >= 0; i--) {
		dims[i] = (iodim64){p->n[i], cs, rs};
		cs *= i == p->rank - 1 ? (ptrdiff_t)p->half : p->n[i];
		rs *= i == p->rank - 1 ? (ptrdiff_t)p->rstride : p->n[i];
	}
	size_t cb = sizeof(cpx) * p->cdist * p->howmany, rb = sizeof(real) * p->rdist * p->howmany;
	cpx *in = F(alloc_complex)(p->cdist * p->howmany);
	real *o = p->inplace ? (real *)in : F(alloc_real)(p->rdist * p->howmany);
	plan_t pl = fftw.c2r(p->rank, dims, 1, &hd, in, o, FFTW_ESTIMATE);
	CHECK(pl, "the real FFTW planned no c2r");
	memcpy(in, x, cb);
	fftw.execute(pl);
	memcpy(out, o, rb);
	fftw.destroy(pl);
	if (!p->inplace)
		F(free)(o);
	F(free)(in);
}

/* ours, through fftw_plan_many_dft_c2r (one transform of rank 2: fftw_plan_dft_c2r_2d) */
static void our_c2r(const problem *p, const cpx *x, real *out)
{
	int onembed[3];
	size_t cb = sizeof(cpx) * p->cdist * p->howmany, rb = sizeof(real) * p->rdist * p->howmany;
	cpx *in = F(alloc_complex)(p->cdist * p->howmany);
	real *o = p->inplace ? (real *)in : F(alloc_real)(p->rdist * p->howmany);
	plan_t pl;
	memcpy(onembed, p->n, sizeof onembed);
	onembed[p->rank - 1] = (int)p->rstride;
	if (p->rank == 2 && p->howmany == 1 && !p->inplace)
		pl = F(plan_dft_c2r_2d)(p->n[0], p->n[1], in, o, FFTW_ESTIMATE);
	else
		pl = F(plan_many_dft_c2r)(p->rank, p->n, p->howmany, in, NULL, 1, (int)p->cdist, o, onembed, 1,
					  (int)p->rdist, FFTW_ESTIMATE);
	CHECK(pl, "plan_many_dft_c2r rank %d returned NULL", p->rank);
	if (!pl)
		return;
	memcpy(in, x, cb);
	F(execute)(pl);
	memcpy(out, o, rb);
	F(destroy_plan)(pl);
	if (!p->inplace)
		F(free)(o);
	F(free)(in);
}

/* max |got - want| over the real values (padding skipped), relative to max |want| */
static double compare(const problem *p, const real *want, const real *got)
{
	double num = 0, den = 0;
	for (size_t r = 0; r < p->rows * (size_t)p->howmany; r++)
		for (size_t k = 0; k < p->last; k++) {
			double w = want[r * p->rstride + k], g = got[r * p->rstride + k];
			num = fmax(num, fabs(w - g));
			den = fmax(den, fabs(w));
		}
	return num / (den > 0 ? den : 1);
}

static void run_case(int rank, const int *n, int howmany, int inplace)
{
	problem p = describe(rank, n, howmany, inplace);
	size_t nc = p.cdist * (size_t)howmany, nr = p.rdist * (size_t)howmany;
	cpx *x = malloc(sizeof *x * nc);
	real *want = calloc(nr, sizeof *want), *got = calloc(nr, sizeof *got);
	for (size_t i = 0; i < nc; i++) /* no symmetry at all */
		x[i] = (real)rnd() + I * (real)rnd();
	fftw_c2r(&p, x, want);
	our_c2r(&p, x, got);
	double e = compare(&p, want, got);
	char shape[64];
	int k = 0;
	for (int i = 0; i < rank; i++)
		k += snprintf(shape + k, sizeof shape - (size_t)k, "%s%d", i ? "x" : "", n[i]);
	CHECK(e < TOL, "c2r %s howmany %d %s: relative error %.3g against FFTW", shape, howmany,
	      inplace ? "in-place" : "out-of-place", e);
	printf("   %s c2r %s howmany %d %s, random non-Hermitian input: max error %.2g of FFTW's\n", PREC, shape, howmany,
	       inplace ? "in-place" : "out-of-place", e);
	free(x), free(want), free(got);
}

/* The two 4x8 fftw_plan_dft_c2r_2d cases users reported: FFTW gives all ones for X[0][0]
 * = 1+1i, and rows 1, 0, -1, 0 for X[1][0] = 1. */
static void user_cases(void)
{
	static const struct {
		int at;
		double re, im, rows[4];
	} cases[] = {{0, 1, 1, {1, 1, 1, 1}}, {5, 1, 0, {1, 0, -1, 0}}};
	problem p = describe(2, (int[]){4, 8}, 1, 0);
	for (int c = 0; c < 2; c++) {
		cpx x[20] = {0};
		real want[32], got[32];
		x[cases[c].at] = (real)cases[c].re + I * (real)cases[c].im;
		fftw_c2r(&p, x, want);
		our_c2r(&p, x, got);
		for (int r = 0; r < 4; r++)
			for (int j = 0; j < 8; j++) {
				CHECK(fabs(want[r * 8 + j] - cases[c].rows[r]) < 1e-6, "FFTW itself: row %d = %g", r,
				      (double)want[r * 8 + j]);
				CHECK(fabs(got[r * 8 + j] - cases[c].rows[r]) < 1e-6, "4x8 case %d: row %d column %d is %g, FFTW's %g",
				      c, r, j, (double)got[r * 8 + j], cases[c].rows[r]);
			}
		printf("   %s 4x8 c2r_2d with only X[%d][0] = %g%+gi: rows %g %g %g %g as FFTW's (got %g %g %g %g)\n", PREC,
		       cases[c].at / 5, cases[c].re, cases[c].im, cases[c].rows[0], cases[c].rows[1], cases[c].rows[2],
		       cases[c].rows[3], (double)got[0], (double)got[8], (double)got[16], (double)got[24]);
	}
}

/* vips' phasecor: the normalised cross-power spectrum of two images, inverted with c2r.
 * Its DC here is 0.707+0.707i (not Hermitian), as in the report where the GPU's answer
 * was exactly twice FFTW's. The peak must sit at the shift, with FFTW's values. */
static void phasecor(void)
{
	enum { H = 48, W = 64, DY = 5, DX = 11 };
	problem p = describe(2, (int[]){H, W}, 1, 0);
	real *a = F(alloc_real)(H * W), *b = F(alloc_real)(H * W), *want = F(alloc_real)(H * W), *got = F(alloc_real)(H * W);
	cpx *fa = F(alloc_complex)(p.cdist), *fb = F(alloc_complex)(p.cdist), *cross = F(alloc_complex)(p.cdist);
	iodim64 dims[2] = {{H, W, p.half}, {W, 1, 1}};
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			a[y * W + x] = (real)rnd();
	for (int y = 0; y < H; y++) /* b is a moved by (DY, DX) */
		for (int x = 0; x < W; x++)
			b[((y + DY) % H) * W + (x + DX) % W] = a[y * W + x];
	plan_t fwd = fftw.r2c(2, dims, 0, NULL, a, fa, FFTW_ESTIMATE);
	CHECK(fwd, "the real FFTW planned no r2c");
	fftw.execute(fwd);
	fftw.destroy(fwd);
	fwd = fftw.r2c(2, dims, 0, NULL, b, fb, FFTW_ESTIMATE);
	fftw.execute(fwd);
	fftw.destroy(fwd);
	for (size_t i = 0; i < p.cdist; i++) {
		double complex v = (double complex)fb[i] * conj((double complex)fa[i]);
		double m = cabs(v);
		cross[i] = m > 0 ? (cpx)(v / m) : 0;
	}
	cross[0] = (real)0.70710678118654752 + I * (real)0.70710678118654752;
	fftw_c2r(&p, cross, want);
	our_c2r(&p, cross, got);
	double e = compare(&p, want, got);
	int peak = 0;
	for (int i = 1; i < H * W; i++)
		if (got[i] > got[peak])
			peak = i;
	CHECK(e < TOL, "phasecor %dx%d: relative error %.3g against FFTW", H, W, e);
	CHECK(peak == DY * W + DX, "phasecor peak at (%d, %d), not at the shift (%d, %d)", peak / W, peak % W, DY, DX);
	printf("   %s phasecor %dx%d, cross-phase DC 0.707+0.707i: peak %g at (%d, %d) (FFTW's %g), max error %.2g of FFTW's\n",
	       PREC, H, W, (double)got[peak], peak / W, peak % W, (double)want[peak], e);
	F(free)(a), F(free)(b), F(free)(want), F(free)(got), F(free)(fa), F(free)(fb), F(free)(cross);
}

int main(void)
{
	if (!load_fftw())
		return 1;
	user_cases();
	phasecor();
	static const struct {
		int rank, n[3], howmany, inplace;
	} cases[] = {
		{1, {16}, 3, 0},       {1, {15}, 2, 1},       {1, {16}, 1, 0},        {2, {4, 8}, 1, 0},
		{2, {5, 7}, 2, 0},     {2, {6, 9}, 1, 1},     {2, {6, 8}, 2, 1},      {3, {4, 6, 10}, 1, 0},
		{3, {3, 5, 9}, 2, 1},  {3, {4, 4, 7}, 3, 0},  {3, {4, 6, 8}, 1, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(cases[i].rank, cases[i].n, cases[i].howmany, cases[i].inplace);
	F(cleanup)();
	printf("c2r (%s): %d checks, %d failures\n", PREC, checks, failures);
	return failures ? 1 : 0;
}
