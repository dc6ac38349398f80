/* failure.c — a failure on one rank reaches every rank as an error naming that rank, and
 * no rank waits: a descriptor bad on one rank only, descriptors that differ, a NULL
 * device, a bad buffer on one rank, overlapping buffers, and a device that fails under a
 * live plan (rank 1 closes its device). Run under `timeout`: a hang fails the test. */
#include "mpicheck.h"

/* Every rank must see status want and a message containing each of words ('|'-separated). */
static void expect(vkfftgo_status got, vkfftgo_status want, const char *words, const char *what)
{
	const char *msg = vkfftgo_mpi_last_error();
	REQUIRE(got == want, "%s: %s, want %s (%s)", what, vkfftgo_status_string(got), vkfftgo_status_string(want), msg);
	for (const char *w = words; *w;) {
		size_t n = strcspn(w, "|");
		char buf[128];
		snprintf(buf, sizeof buf, "%.*s", (int)n, w);
		REQUIRE(strstr(msg, buf), "%s: message \"%s\" lacks \"%s\"", what, msg, buf);
		w += n + (w[n] == '|');
	}
	int me = test_rank();
	if (me == 0)
		printf("   %s: every rank got %s: %s\n", what, vkfftgo_status_string(got), msg);
}

static vkfftgo_mpi_desc good_desc(void)
{
	vkfftgo_mpi_desc d = VKFFTGO_MPI_DESC_INIT;
	d.rank = 3;
	d.shape[0] = 7;
	d.shape[1] = 6;
	d.shape[2] = 5;
	return d;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int me = test_rank(), size;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	REQUIRE(size >= 2, "needs at least 2 ranks");
	vkfftgo_device *dev;
	CHECK(vkfftgo_device_open(0, &dev));
	vkfftgo_mpi_plan *p = (vkfftgo_mpi_plan *)&p; /* must become NULL on failure */
	vkfftgo_mpi_desc d;

	d = good_desc();
	if (me == 1)
		d.rank = 5;
	expect(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p), VKFFTGO_ERROR_INVALID_SHAPE,
	       "vkfftgo_mpi_plan_create|rank 1 of|desc.rank is 5", "a bad rank on rank 1 only");
	REQUIRE(p == NULL, "no plan on failure");

	d = good_desc();
	if (me == size - 1)
		d.shape[1] = 8;
	char want[160];
	snprintf(want, sizeof want, "descriptors differ|rank %d has 3-D 7x8x5 C2C|rank 0 3-D 7x6x5", size - 1);
	expect(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, want,
	       "a differing shape on the last rank");

	d = good_desc();
	if (me == 1)
		d.flags = VKFFTGO_MPI_TRANSPOSED_OUT;
	expect(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p), VKFFTGO_ERROR_INVALID_ARGUMENT,
	       "descriptors differ|rank 1 has|flags 0x1", "differing flags on rank 1");

	d = good_desc();
	expect(vkfftgo_mpi_plan_create(me == 1 ? NULL : dev, &d, MPI_COMM_WORLD, &p), VKFFTGO_ERROR_NULL_POINTER,
	       "rank 1 of|device is NULL", "a NULL device on rank 1");

	/* a device that fails at plan creation: rank 0's (it builds first) and the last rank's */
	vkfftgo_device *stale;
	CHECK(vkfftgo_device_open(0, &stale));
	CHECK(vkfftgo_device_close(stale));
	for (int bad = 0; bad < size; bad += size - 1) {
		d = good_desc();
		snprintf(want, sizeof want, "rank %d of|vkfftgo_plan_create (the slab's trailing axes)", bad);
		char what[64];
		snprintf(what, sizeof what, "a closed device on rank %d", bad);
		vkfftgo_status got = vkfftgo_mpi_plan_create(me == bad ? stale : dev, &d, MPI_COMM_WORLD, &p);
		REQUIRE(got == VKFFTGO_ERROR_INVALID_HANDLE || got == VKFFTGO_ERROR_CLOSED, "%s: %s (%s)", what,
			vkfftgo_status_string(got), vkfftgo_mpi_last_error());
		expect(got, got, want, what);
		REQUIRE(p == NULL, "no plan on failure");
	}

	d = good_desc();
	d.kind = VKFFTGO_R2C;
	d.precision = 7;
	expect(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p), VKFFTGO_ERROR_INVALID_ARGUMENT,
	       "rank 0 of|other rank|desc.precision is 7", "a bad precision everywhere");

	ptrdiff_t n[3] = { 4, 0, 3 }, l0, s0;
	REQUIRE(vkfftgo_mpi_local_size(3, n, MPI_COMM_WORLD, &l0, &s0) == -1, "local_size of a zero dimension");
	REQUIRE(strstr(vkfftgo_mpi_last_error(), "n[1] = 0"), "%s", vkfftgo_mpi_last_error());
	REQUIRE(vkfftgo_mpi_local_size(4, n, MPI_COMM_WORLD, &l0, &s0) == -1, "local_size of rank 4");

	/* a good plan: bad buffers on one rank fail everywhere, and the plan still works */
	d = good_desc();
	CHECK(vkfftgo_mpi_plan_create(dev, &d, MPI_COMM_WORLD, &p));
	size_t bytes;
	CHECK(vkfftgo_mpi_plan_alloc_bytes(p, &bytes));
	char *buf = calloc(1, bytes + 64), *other = calloc(1, bytes + 64);
	REQUIRE(buf && other, "out of memory");
	ptrdiff_t local_n0;
	CHECK(vkfftgo_mpi_plan_local(p, &local_n0, NULL, NULL, NULL));
	REQUIRE(me != 1 || local_n0 > 0, "rank 1 holds rows");
	expect(vkfftgo_mpi_execute(p, VKFFTGO_FORWARD, me == 1 ? NULL : buf, buf), VKFFTGO_ERROR_NULL_POINTER,
	       "vkfftgo_mpi_execute|rank 1 of|out is NULL", "a NULL out on rank 1");
	expect(vkfftgo_mpi_execute(p, VKFFTGO_FORWARD, me == 0 ? buf + 8 : other, buf), VKFFTGO_ERROR_INVALID_ARGUMENT,
	       "rank 0 of|overlap", "overlapping in and out on rank 0");
	expect(vkfftgo_mpi_execute(p, 0, buf, buf), VKFFTGO_ERROR_INVALID_ARGUMENT, "rank 0 of|direction 0",
	       "direction 0");
	CHECK(vkfftgo_mpi_execute(p, VKFFTGO_FORWARD, other, buf));

	/* the device under rank 1's plan fails: every rank stops before the exchange */
	if (me == 1)
		CHECK(vkfftgo_device_close(dev));
	vkfftgo_status st = vkfftgo_mpi_execute(p, VKFFTGO_FORWARD, other, buf);
	REQUIRE(st == VKFFTGO_ERROR_INVALID_HANDLE || st == VKFFTGO_ERROR_CLOSED, "device failure: %s (%s)",
		vkfftgo_status_string(st), vkfftgo_mpi_last_error());
	expect(st, st, "vkfftgo_mpi_execute|rank 1 of|the slab's trailing axes", "rank 1's device closed under its plan");
	CHECK(vkfftgo_mpi_plan_destroy(p));
	free(buf);
	free(other);
	if (me != 1)
		CHECK(vkfftgo_device_close(dev));
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0)
		printf("   failure: every check passed on %d ranks\n", size);
	MPI_Finalize();
	return 0;
}
