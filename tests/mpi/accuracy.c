/* accuracy.c — distributed transforms (C2C and R2C, 2-D and 3-D, single and double,
 * uneven slabs, in and out of place, plain and transposed) against a single-process
 * transform of the whole array made on rank 0 with libvkfftgo's own C API, and their
 * inverses against the input. Every rank checks its own slab; rank 0 prints. */
#include <math.h>

#include "mpicheck.h"

struct tcase {
	int rank;
	int64_t shape[3];
	int kind, precision, norm;
	unsigned flags;
	int inplace;
};

/* Pairs of one shape share their device plans (only the exchanges differ), so their
 * kernels compile once. */
static const struct tcase cases[] = {
	{ 2, { 13, 10, 0 }, VKFFTGO_C2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 0, 0 },
	{ 2, { 13, 10, 0 }, VKFFTGO_C2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 3, 1 },
	{ 2, { 11, 9, 0 }, VKFFTGO_R2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 0, 0 },
	{ 2, { 11, 9, 0 }, VKFFTGO_R2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 3, 1 },
	{ 3, { 7, 6, 5 }, VKFFTGO_C2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 0, 1 },
	{ 3, { 7, 6, 5 }, VKFFTGO_C2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 3, 0 },
	{ 3, { 5, 7, 3 }, VKFFTGO_C2C, VKFFTGO_DOUBLE, VKFFTGO_NORM_ORTHO, 3, 0 },
	{ 3, { 9, 5, 6 }, VKFFTGO_R2C, VKFFTGO_SINGLE, VKFFTGO_NORM_BACKWARD, 0, 0 },
	{ 3, { 6, 7, 5 }, VKFFTGO_R2C, VKFFTGO_DOUBLE, VKFFTGO_NORM_FORWARD, 3, 1 },
};

/* The array's complex side as n0 x m1 x rest (see mpi/vfm.h), and its real rows. */
struct geom {
	int64_t n0, n1, m1, rest, c, total;
	int r2c, dbl;
};

static struct geom geometry(const struct tcase *t)
{
	struct geom g;
	int64_t last = t->shape[t->rank - 1];
	g.r2c = t->kind == VKFFTGO_R2C;
	g.dbl = t->precision == VKFFTGO_DOUBLE;
	g.c = g.r2c ? last / 2 + 1 : last; /* complex values of a last-axis line */
	g.n0 = t->shape[0];
	g.n1 = t->shape[1];
	g.m1 = t->rank == 2 ? g.c : t->shape[1];
	g.rest = t->rank == 2 ? 1 : g.c;
	g.total = g.n0 * g.m1 * g.rest;
	return g;
}

static double get(const void *buf, int dbl, int64_t i) { return dbl ? ((const double *)buf)[i] : ((const float *)buf)[i]; }
static void put(void *buf, int dbl, int64_t i, double v)
{
	if (dbl)
		((double *)buf)[i] = v;
	else
		((float *)buf)[i] = (float)v;
}

/* The input's global value at real/complex element e (row-major over the shape). */
static double input(const struct geom *g, int64_t e, int comp) { return g->r2c && comp ? 0 : test_value(e, comp); }

/* Fills this rank's slab: complex l0 x n1 [x n2], or the padded real rows of R2C. */
static void fill(const struct tcase *t, const struct geom *g, int64_t l0, int64_t s0, void *buf)
{
	int64_t last = t->shape[t->rank - 1], lines = l0 * (t->rank == 3 ? t->shape[1] : 1);
	int64_t line0 = s0 * (t->rank == 3 ? t->shape[1] : 1);
	for (int64_t l = 0; l < lines; l++)
		for (int64_t k = 0; k < last; k++) {
			int64_t e = (line0 + l) * last + k;
			if (g->r2c) {
				put(buf, g->dbl, l * 2 * g->c + k, input(g, e, 0));
			} else {
				put(buf, g->dbl, 2 * (l * last + k), input(g, e, 0));
				put(buf, g->dbl, 2 * (l * last + k) + 1, input(g, e, 1));
			}
		}
	if (g->r2c) /* the padding must be ignored */
		for (int64_t l = 0; l < lines; l++)
			for (int64_t k = last; k < 2 * g->c; k++)
				put(buf, g->dbl, l * 2 * g->c + k, 1e3);
}

/* The whole spectrum on rank 0 by libvkfftgo, sent to every rank as doubles. */
static double *reference(const struct tcase *t, const struct geom *g, vkfftgo_device *dev)
{
	double *ref = malloc(sizeof(double) * 2 * (size_t)g->total);
	REQUIRE(ref, "out of memory");
	if (test_rank() == 0) {
		vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
		d.rank = t->rank;
		d.kind = t->kind;
		d.precision = t->precision;
		d.norm = t->norm;
		for (int i = 0; i < t->rank; i++)
			d.shape[i] = t->shape[i];
		vkfftgo_plan *p;
		CHECK(vkfftgo_plan_create(dev, &d, &p));
		size_t ob, ib;
		CHECK(vkfftgo_plan_io_bytes(p, VKFFTGO_FORWARD, &ob, &ib));
		char *in = malloc(ib), *out = malloc(ob);
		REQUIRE(in && out, "out of memory");
		int64_t nin = 1;
		for (int i = 0; i < t->rank; i++)
			nin *= t->shape[i];
		for (int64_t e = 0; e < nin; e++) {
			if (g->r2c) {
				put(in, g->dbl, e, input(g, e, 0));
			} else {
				put(in, g->dbl, 2 * e, input(g, e, 0));
				put(in, g->dbl, 2 * e + 1, input(g, e, 1));
			}
		}
		CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, out, ob, in, ib));
		for (int64_t i = 0; i < 2 * g->total; i++)
			ref[i] = get(out, g->dbl, i);
		free(in);
		free(out);
		CHECK(vkfftgo_plan_destroy(p));
	}
	MPI_Bcast(ref, (int)(2 * g->total), MPI_DOUBLE, 0, MPI_COMM_WORLD);
	return ref;
}

/* max |a - b| over this rank's spectrum, and max |b| */
static void compare_spectrum(const struct geom *g, const void *out, const double *ref, int transposed,
			     int64_t l0, int64_t s0, int64_t l1, int64_t s1, double *err, double *mag)
{
	int64_t rows = transposed ? l1 : l0, cols = transposed ? g->n0 : g->m1;
	for (int64_t a = 0; a < rows; a++)
		for (int64_t b = 0; b < cols; b++)
			for (int64_t k = 0; k < g->rest; k++) {
				int64_t i = transposed ? b : s0 + a, j = transposed ? s1 + a : b;
				int64_t o = (a * cols + b) * g->rest + k, r = (i * g->m1 + j) * g->rest + k;
				for (int c = 0; c < 2; c++) {
					double d = fabs(get(out, g->dbl, 2 * o + c) - ref[2 * r + c]);
					*err = d > *err ? d : *err;
					*mag = fabs(ref[2 * r + c]) > *mag ? fabs(ref[2 * r + c]) : *mag;
				}
			}
}

/* max |back - input| over this rank's slab (the R2C padding left out) */
static double compare_input(const struct tcase *t, const struct geom *g, const void *back, const void *orig,
			    int64_t l0)
{
	int64_t last = t->shape[t->rank - 1], lines = l0 * (t->rank == 3 ? t->shape[1] : 1);
	double err = 0;
	for (int64_t l = 0; l < lines; l++)
		for (int64_t k = 0; k < last; k++)
			for (int c = 0; c < (g->r2c ? 1 : 2); c++) {
				int64_t i = g->r2c ? l * 2 * g->c + k : 2 * (l * last + k) + c;
				double d = fabs(get(back, g->dbl, i) - get(orig, g->dbl, i));
				err = d > err ? d : err;
			}
	return err;
}

static void run_case(const struct tcase *t, vkfftgo_device *dev, int nranks)
{
	struct geom g = geometry(t);
	vkfftgo_mpi_desc d = VKFFTGO_MPI_DESC_INIT;
	d.rank = t->rank;
	d.kind = t->kind;
	d.precision = t->precision;
	d.norm = t->norm;
	d.flags = t->flags;
	for (int i = 0; i < t->rank; i++)
		d.shape[i] = t->shape[i];
	vkfftgo_mpi_plan *p;
	CHECK(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p));

	/* the plan's slabs are FFTW-MPI's, given the spectrum's dimensions */
	ptrdiff_t l0, s0, l1, s1, q0, r0, q1, r1, n[3] = { t->shape[0], t->shape[1], t->shape[2] };
	n[t->rank - 1] = g.c;
	CHECK(vkfftgo_mpi_plan_local(p, &l0, &s0, &l1, &s1));
	ptrdiff_t alloc = vkfftgo_mpi_local_size_transposed(t->rank, n, MPI_COMM_WORLD, &q0, &r0, &q1, &r1);
	REQUIRE(q0 == l0 && r0 == s0 && q1 == l1 && r1 == s1, "local_size %td+%td/%td+%td, plan %td+%td/%td+%td",
		r0, q0, r1, q1, s0, l0, s1, l1);
	size_t bytes, elem = g.dbl ? 16 : 8;
	CHECK(vkfftgo_mpi_plan_alloc_bytes(p, &bytes));
	REQUIRE(bytes == (size_t)alloc * elem || (bytes == 0 && alloc == 1), "alloc %zu bytes, local_size %td", bytes, alloc);
	int64_t block = (t->shape[0] + nranks - 1) / nranks;
	REQUIRE(s0 == (block * test_rank() < t->shape[0] ? block * test_rank() : t->shape[0]), "start %td", s0);

	size_t cap = bytes ? bytes : 1;
	char *orig = malloc(cap), *in = malloc(cap), *out = malloc(cap), *back = malloc(cap);
	REQUIRE(orig && in && out && back, "out of memory");
	fill(t, &g, l0, s0, orig);
	memcpy(in, orig, cap);
	double *ref = reference(t, &g, dev);

	char *fwd_out = t->inplace ? in : out;
	CHECK(vkfftgo_mpi_execute(p, VKFFTGO_FORWARD, fwd_out, in));
	if (!t->inplace)
		REQUIRE(memcmp(in, orig, cap) == 0, "the forward changed its input");
	double err = 0, mag = 0, e[2], m[2];
	compare_spectrum(&g, fwd_out, ref, t->flags & VKFFTGO_MPI_TRANSPOSED_OUT, l0, s0, l1, s1, &err, &mag);
	char *inv_out = t->inplace ? fwd_out : back;
	CHECK(vkfftgo_mpi_execute(p, VKFFTGO_INVERSE, inv_out, fwd_out));
	double err_inv = compare_input(t, &g, inv_out, orig, l0);
	double mine[2] = { err, err_inv };
	MPI_Allreduce(mine, e, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&mag, m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	double tol = g.dbl ? 1e-12 : 1e-5, fwd = e[0] / m[0], inv = e[1] / 0.5;
	if (test_rank() == 0)
		printf("   %d-D %lldx%lldx%lld %s %s norm %d%s%s on %d ranks: forward %.2e, inverse %.2e (tol %.0e)\n",
		       t->rank, (long long)t->shape[0], (long long)t->shape[1], (long long)(t->rank == 3 ? t->shape[2] : 1),
		       g.r2c ? "R2C" : "C2C", g.dbl ? "double" : "single", t->norm,
		       t->flags ? " transposed" : "", t->inplace ? " in place" : "", nranks, fwd, inv, tol);
	REQUIRE(fwd <= tol && inv <= tol, "forward error %.3e, inverse %.3e over %.0e", fwd, inv, tol);
	free(ref);
	free(orig);
	free(in);
	free(out);
	free(back);
	CHECK(vkfftgo_mpi_plan_destroy(p));
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int nranks;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	vkfftgo_device *dev;
	CHECK(vkfftgo_device_open(0, &dev));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i], dev, nranks);
	CHECK(vkfftgo_device_close(dev));
	if (test_rank() == 0)
		printf("   accuracy: %zu cases passed on %d ranks\n", sizeof cases / sizeof cases[0], nranks);
	MPI_Finalize();
	return 0;
}
