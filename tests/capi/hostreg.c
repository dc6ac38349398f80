/* hostreg.c — registered host memory: the caller's own memory (malloc, mmap) registered
 * with vkfftgo_host_register is transformed correctly with staging on and off, R2C and
 * C2C, and the registration calls reject bad arguments with messages.
 *   cc hostreg.c $(pkg-config --cflags --libs vkfftgo) -lm */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <sys/mman.h>

#include "check.h"

static vkfftgo_device *dev;

static void fill(float *x, size_t n, size_t seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)test_value(i + seed);
}

static void expect_close(const float *got, const float *want, size_t n, float tol, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (fabsf(got[i] - want[i]) > tol) {
			fprintf(stderr, "%s: element %zu is %g, want %g\n", what, i, got[i], want[i]);
			exit(1);
		}
}

/* A forward+inverse round trip of a plan between two areas of one registered block,
 * compared with the same through ordinary memory. staging: the device's threshold. */
static void round_trip(int kind, int64_t n0, int64_t n1, int64_t staging, char *block, size_t block_bytes)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p;
	size_t cb, rb, in_bytes;
	desc.kind = kind;
	desc.rank = 2;
	desc.shape[0] = n0;
	desc.shape[1] = n1;
	desc.batch = 2;
	CHECK(vkfftgo_plan_create(dev, &desc, &p));
	CHECK(vkfftgo_plan_bytes(p, &cb, &rb));
	in_bytes = kind == VKFFTGO_R2C ? rb : cb;
	if (in_bytes + cb + in_bytes > block_bytes) {
		fprintf(stderr, "block too small\n");
		exit(1);
	}
	/* in, spectrum and result side by side in the registered block, at odd offsets */
	float *in = (float *)(block + 64), *spec = (float *)(block + 64 + in_bytes),
	      *back = (float *)(block + 64 + in_bytes + cb);
	float *plain_spec = (float *)malloc(cb);
	fill(in, in_bytes / 4, (size_t)n1);
	CHECK(vkfftgo_device_set_staging_threshold(dev, staging));
	CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, spec, cb, in, in_bytes));
	CHECK(vkfftgo_execute(p, VKFFTGO_INVERSE, back, in_bytes, spec, cb));
	expect_close(back, in, in_bytes / 4, 1e-5f, "registered round trip");
	/* the spectrum equals the one computed from ordinary memory */
	{
		float *plain_in = (float *)malloc(in_bytes);
		memcpy(plain_in, in, in_bytes);
		CHECK(vkfftgo_execute(p, VKFFTGO_FORWARD, plain_spec, cb, plain_in, in_bytes));
		expect_close(spec, plain_spec, cb / 4, 1e-6f, "registered vs ordinary spectrum");
		free(plain_in);
	}
	/* in place, C2C, inside the registered block */
	if (kind == VKFFTGO_C2C) {
		memcpy(back, in, cb);
		CHECK(vkfftgo_forward(p, back, back));
		expect_close(back, spec, cb / 4, 1e-6f, "registered in-place forward");
	}
	CHECK(vkfftgo_plan_destroy(p));
	free(plain_spec);
}

int main(void)
{
	size_t bytes = 1 << 20;
	char *heap = NULL, *mapped;
	CHECK(vkfftgo_device_open(0, &dev));
	if (posix_memalign((void **)&heap, 4096, bytes) != 0)
		return 1;
	mapped = (char *)mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mapped == MAP_FAILED)
		return 1;

	CHECK(vkfftgo_host_register(dev, heap, bytes));
	CHECK(vkfftgo_host_register(dev, mapped, bytes));
	/* staging on for everything (threshold 0): registered memory skips it; and off */
	round_trip(VKFFTGO_C2C, 16, 24, 0, heap, bytes);
	round_trip(VKFFTGO_R2C, 12, 30, 0, mapped, bytes);
	round_trip(VKFFTGO_C2C, 8, 40, -1, mapped, bytes);
	round_trip(VKFFTGO_R2C, 10, 18, -1, heap, bytes);
	printf("hostreg: C2C and R2C round trips in registered malloc and mmap memory: OK\n");

	/* bad arguments */
	EXPECT_FAIL(vkfftgo_host_register(NULL, heap, bytes), VKFFTGO_ERROR_NULL_POINTER,
		    "vkfftgo_host_register|device handle is NULL");
	EXPECT_FAIL(vkfftgo_host_register(dev, NULL, bytes), VKFFTGO_ERROR_NULL_POINTER, "ptr is NULL");
	EXPECT_FAIL(vkfftgo_host_register(dev, heap, 0), VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes is 0");
	EXPECT_FAIL(vkfftgo_host_register(dev, heap + 4096, 4096), VKFFTGO_ERROR_INVALID_ARGUMENT,
		    "overlaps memory already registered");
	EXPECT_FAIL(vkfftgo_host_unregister(dev, heap + 64), VKFFTGO_ERROR_INVALID_ARGUMENT,
		    "vkfftgo_host_unregister|is not the start of host memory registered");
	EXPECT_FAIL(vkfftgo_host_unregister(dev, NULL), VKFFTGO_ERROR_NULL_POINTER, "ptr is NULL");
	CHECK(vkfftgo_host_unregister(dev, heap));
	EXPECT_FAIL(vkfftgo_host_unregister(dev, heap), VKFFTGO_ERROR_INVALID_ARGUMENT, "is not the start");
	/* unregistered again, the memory is ordinary memory: still correct, staged */
	round_trip(VKFFTGO_C2C, 16, 24, 0, heap, bytes);
	/* and can be registered again */
	CHECK(vkfftgo_host_register(dev, heap, bytes));
	CHECK(vkfftgo_host_unregister(dev, heap));
	/* closing the device unregisters what is left (mapped); its handle is then dead */
	CHECK(vkfftgo_device_close(dev));
	EXPECT_FAIL(vkfftgo_host_unregister(dev, mapped), VKFFTGO_ERROR_INVALID_HANDLE, "not an open device handle");
	EXPECT_FAIL(vkfftgo_host_register(dev, mapped, bytes), VKFFTGO_ERROR_INVALID_HANDLE, "not an open device handle");
	/* a new device can register the same memory (the old registration is gone) */
	CHECK(vkfftgo_device_open(0, &dev));
	CHECK(vkfftgo_host_register(dev, mapped, bytes));
	round_trip(VKFFTGO_C2C, 8, 8, 0, mapped, bytes);
	CHECK(vkfftgo_device_close(dev));
	munmap(mapped, bytes);
	free(heap);
	printf("hostreg: bad arguments rejected, registrations undone by unregister and device close: OK\n");
	return 0;
}
