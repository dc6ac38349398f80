/* pool.c — a pool of devices from C: a batch split across the devices gives what one
 * device's plan of the same descriptor gives, bit for bit (C2C single and double, R2C
 * both ways, in place); a pool plan's handle dies with its destroy or its pool's close,
 * also while another thread transforms with it; bad arguments get a status and a message
 * naming the problem. PoCL lists its CPU driver as often as POCL_DEVICES names it: the
 * test asks for two devices before the library first starts OpenCL (other drivers ignore
 * the variable; where one device is listed, the pool has that one).
 *   cc -pthread pool.c $(pkg-config --cflags --libs vkfftgo) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

static vkfftgo_device *dev;
static vkfftgo_pool *pool;
static int npool;

/* Runs one direction through a plan of dev and the pool plan of the same descriptor and
 * requires the same bytes. */
static void same_as_one_device(const char *what, vkfftgo_plan *one, vkfftgo_pool_plan *pp, int direction)
{
	size_t ob, ib, pob, pib;
	CHECK(vkfftgo_plan_io_bytes(one, direction, &ob, &ib));
	CHECK(vkfftgo_pool_plan_io_bytes(pp, direction, &pob, &pib));
	if (ob != pob || ib != pib) {
		fprintf(stderr, "%s: pool plan sizes %zu/%zu, one device's %zu/%zu\n", what, pob, pib, ob, ib);
		exit(1);
	}
	unsigned char *in = malloc(ib), *want = malloc(ob), *got = malloc(ob);
	if (strstr(what, "double"))
		for (size_t i = 0; i < ib / sizeof(double); i++)
			((double *)in)[i] = test_value(i + 77);
	else
		for (size_t i = 0; i < ib / sizeof(float); i++)
			((float *)in)[i] = (float)test_value(i + 77);
	CHECK(vkfftgo_execute(one, direction, want, ob, in, ib));
	memset(got, 0, ob);
	CHECK(vkfftgo_pool_execute(pp, direction, got, ob, in, ib));
	if (memcmp(want, got, ob) != 0) {
		size_t i = 0;
		while (want[i] == got[i])
			i++;
		fprintf(stderr, "%s (%s): differs from one device's plan at byte %zu of %zu\n", what,
			direction == VKFFTGO_FORWARD ? "forward" : "inverse", i, ob);
		exit(1);
	}
	free(in);
	free(want);
	free(got);
}

static void check_case(const char *what, vkfftgo_plan_desc desc, const int64_t *batches)
{
	vkfftgo_plan *one;
	vkfftgo_pool_plan *pp;
	int64_t got[8] = {0};
	CHECK(vkfftgo_plan_create(dev, &desc, &one));
	CHECK(vkfftgo_pool_plan_create(pool, &desc, &pp));
	CHECK(vkfftgo_pool_plan_batches(pp, got, npool));
	for (int k = 0; k < npool; k++)
		if (npool == 2 && got[k] != batches[k]) {
			fprintf(stderr, "%s: device %d runs %lld transforms, want %lld\n", what, k, (long long)got[k],
				(long long)batches[k]);
			exit(1);
		}
	same_as_one_device(what, one, pp, VKFFTGO_FORWARD);
	same_as_one_device(what, one, pp, VKFFTGO_INVERSE);
	if (desc.kind == VKFFTGO_C2C) { /* in place */
		size_t b, ib;
		CHECK(vkfftgo_pool_plan_io_bytes(pp, VKFFTGO_FORWARD, &b, &ib));
		unsigned char *x = malloc(b), *want = malloc(b);
		for (size_t i = 0; i < b; i++)
			x[i] = (unsigned char)(i * 7 % 61); /* finite floats and doubles */
		CHECK(vkfftgo_execute(one, VKFFTGO_FORWARD, want, b, x, b));
		CHECK(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, b, x, b));
		if (memcmp(want, x, b) != 0) {
			fprintf(stderr, "%s: in place differs from one device's plan\n", what);
			exit(1);
		}
		free(x);
		free(want);
	}
	CHECK(vkfftgo_pool_plan_destroy(pp));
	CHECK(vkfftgo_plan_destroy(one));
	printf("   %s: the pool's bytes are one device's, both directions\n", what);
}

static void check_results(void)
{
	vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
	int dbl = 0;
	d.rank = 1;
	d.shape[0] = 64;
	d.batch = 5;
	check_case("C2C single 64 x 5", d, (const int64_t[]){3, 2});
	CHECK(vkfftgo_device_supports_double(dev, &dbl));
	if (dbl) {
		d.precision = VKFFTGO_DOUBLE;
		d.rank = 2;
		d.shape[0] = 8;
		d.shape[1] = 16;
		d.batch = 3;
		check_case("C2C double 8x16 x 3", d, (const int64_t[]){2, 1});
	}
	vkfftgo_plan_desc r = VKFFTGO_PLAN_DESC_INIT;
	r.kind = VKFFTGO_R2C;
	r.rank = 2;
	r.shape[0] = 8;
	r.shape[1] = 16;
	r.batch = 3;
	check_case("R2C single 8x16 x 3", r, (const int64_t[]){2, 1});
	r.rank = 1; /* 1-D: VkFFT pairs the real lines, the pool splits in pairs */
	r.shape[0] = 32;
	r.batch = 5;
	check_case("R2C single 32 x 5", r, (const int64_t[]){2, 3});
}

static void check_bad_arguments(void)
{
	vkfftgo_pool *p = NULL;
	vkfftgo_pool_plan *pp = NULL;
	int idx[2] = {0, 0}, neg = -1;
	EXPECT_FAIL(vkfftgo_pool_open(NULL, 1, &p), VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_pool_open|indices");
	EXPECT_FAIL(vkfftgo_pool_open(idx, 0, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "no device indices");
	EXPECT_FAIL(vkfftgo_pool_open(idx, 2, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "device 0 is listed twice");
	EXPECT_FAIL(vkfftgo_pool_open(&neg, 1, &p), VKFFTGO_ERROR_NO_DEVICE, "device -1");
	EXPECT_FAIL(vkfftgo_pool_open(idx, -1, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "n is -1");
	EXPECT_FAIL(vkfftgo_pool_open(NULL, 0, NULL), VKFFTGO_ERROR_NULL_POINTER, "output pointer");
	if (p) {
		fprintf(stderr, "a failed vkfftgo_pool_open left a handle\n");
		exit(1);
	}

	vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
	d.rank = 1;
	d.shape[0] = 16;
	d.batch = 0;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, &d, &pp), VKFFTGO_ERROR_INVALID_BATCH, "batch 0|at least 1");
	d.batch = 2;
	d.kind = VKFFTGO_R2R;
	d.r2r_kind = VKFFTGO_DCT2;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, &d, &pp), VKFFTGO_ERROR_UNSUPPORTED, "VKFFTGO_C2C or VKFFTGO_R2C");
	d.kind = VKFFTGO_C2C;
	d.r2r_kind = 0;
	d.storage = VKFFTGO_STORAGE_HALF;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, &d, &pp), VKFFTGO_ERROR_UNSUPPORTED, "fp16");
	d.storage = VKFFTGO_STORAGE_DEFAULT;
	d.in_strides[0] = 2;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, &d, &pp), VKFFTGO_ERROR_UNSUPPORTED, "in_strides");
	d.in_strides[0] = 0;
	d.kind = VKFFTGO_R2C;
	d.real_inplace = 1;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, &d, &pp), VKFFTGO_ERROR_UNSUPPORTED, "real_inplace");
	d.kind = VKFFTGO_C2C;
	d.real_inplace = 0;
	EXPECT_FAIL(vkfftgo_pool_plan_create(pool, NULL, &pp), VKFFTGO_ERROR_NULL_POINTER, "desc");
	EXPECT_FAIL(vkfftgo_pool_plan_create(NULL, &d, &pp), VKFFTGO_ERROR_NULL_POINTER, "pool handle");
	EXPECT_FAIL(vkfftgo_pool_plan_create((vkfftgo_pool *)dev, &d, &pp), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not an open pool handle");

	CHECK(vkfftgo_pool_plan_create(pool, &d, &pp));
	size_t b = 2 * 16 * 2 * sizeof(float);
	float *x = calloc(1, b);
	int64_t batches[8];
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, 3, x, b), VKFFTGO_ERROR_WRONG_SIZE,
		    "out has 3 bytes");
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_INVERSE, x, b, x, b + 8), VKFFTGO_ERROR_WRONG_SIZE, "inverse");
	EXPECT_FAIL(vkfftgo_pool_execute(pp, 0, x, b, x, b), VKFFTGO_ERROR_INVALID_ARGUMENT, "direction is 0");
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, NULL, b, x, b), VKFFTGO_ERROR_NULL_POINTER, "out");
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, b, NULL, b), VKFFTGO_ERROR_NULL_POINTER, "in");
	EXPECT_FAIL(vkfftgo_pool_plan_batches(pp, batches, npool + 1), VKFFTGO_ERROR_INVALID_ARGUMENT, "count");
	/* a pool plan is no plan, and a plan no pool plan */
	EXPECT_FAIL(vkfftgo_execute((vkfftgo_plan *)pp, VKFFTGO_FORWARD, x, b, x, b), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not a live plan handle");
	CHECK(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, b, x, b));
	CHECK(vkfftgo_pool_plan_destroy(pp));
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, b, x, b), VKFFTGO_ERROR_INVALID_HANDLE,
		    "not a live pool plan handle");
	EXPECT_FAIL(vkfftgo_pool_plan_destroy(pp), VKFFTGO_ERROR_INVALID_HANDLE, "not a live pool plan handle");
	CHECK(vkfftgo_pool_plan_destroy(NULL));
	CHECK(vkfftgo_pool_close(NULL));

	vkfftgo_plan_desc r = VKFFTGO_PLAN_DESC_INIT;
	r.kind = VKFFTGO_R2C;
	r.rank = 1;
	r.shape[0] = 16;
	r.batch = 2;
	CHECK(vkfftgo_pool_plan_create(pool, &r, &pp));
	size_t ob, ib;
	CHECK(vkfftgo_pool_plan_io_bytes(pp, VKFFTGO_FORWARD, &ob, &ib));
	if (ob != 2 * 9 * 2 * sizeof(float) || ib != 2 * 16 * sizeof(float)) {
		fprintf(stderr, "R2C pool plan sizes %zu/%zu\n", ob, ib);
		exit(1);
	}
	EXPECT_FAIL(vkfftgo_pool_execute(pp, VKFFTGO_FORWARD, x, ob, x, ib), VKFFTGO_ERROR_INVALID_ARGUMENT,
		    "distinct in and out");
	CHECK(vkfftgo_pool_plan_destroy(pp));
	free(x);
	printf("   bad arguments: statuses and messages; dead and foreign handles refused\n");
}

struct runner {
	vkfftgo_pool_plan *pp;
	int calls;
	vkfftgo_status last;
};

/* transforms until the handle dies under it */
static void *run_until_dead(void *arg)
{
	struct runner *r = arg;
	size_t b = 4 * 64 * 2 * sizeof(float);
	float *x = calloc(1, b);
	do {
		r->last = vkfftgo_pool_execute(r->pp, VKFFTGO_FORWARD, x, b, x, b);
		r->calls++;
	} while (r->last == VKFFTGO_SUCCESS);
	free(x);
	return NULL;
}

/* Closing a pool invalidates its plans' handles, also while a thread transforms. */
static void check_close_under_calls(void)
{
	vkfftgo_pool *p;
	vkfftgo_pool_plan *pp, *idle;
	vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT;
	int n;
	struct runner r = {0};
	pthread_t t;
	d.rank = 1;
	d.shape[0] = 64;
	d.batch = 4;
	CHECK(vkfftgo_pool_open(NULL, 0, &p)); /* every device */
	CHECK(vkfftgo_pool_size(p, &n));
	CHECK(vkfftgo_pool_plan_create(p, &d, &pp));
	CHECK(vkfftgo_pool_plan_create(p, &d, &idle));
	r.pp = pp;
	pthread_create(&t, NULL, run_until_dead, &r);
	struct timespec ts = {0, 50 * 1000 * 1000};
	nanosleep(&ts, NULL);
	CHECK(vkfftgo_pool_close(p));
	pthread_join(t, NULL);
	if (r.last != VKFFTGO_ERROR_INVALID_HANDLE) {
		fprintf(stderr, "a transform on a closed pool's plan returned %s: %s\n", vkfftgo_status_string(r.last),
			vkfftgo_last_error());
		exit(1);
	}
	EXPECT_FAIL(vkfftgo_pool_plan_destroy(idle), VKFFTGO_ERROR_INVALID_HANDLE, "not a live pool plan handle");
	EXPECT_FAIL(vkfftgo_pool_size(p, &n), VKFFTGO_ERROR_INVALID_HANDLE, "not an open pool handle");
	EXPECT_FAIL(vkfftgo_pool_close(p), VKFFTGO_ERROR_INVALID_HANDLE, "not an open pool handle");
	printf("   pool_close with a thread transforming: %d calls, then VKFFTGO_ERROR_INVALID_HANDLE; plans gone\n",
	       r.calls);
}

int main(void)
{
	int count = 0, idx[2] = {0, 1};
	char name[256];
	setenv("POCL_DEVICES", "pthread pthread", 0);
	CHECK(vkfftgo_device_count(&count));
	CHECK(vkfftgo_device_open(0, &dev));
	CHECK(vkfftgo_device_name(dev, name, sizeof name));
	if (vkfftgo_backend() == 3 && strncmp(name, "pthread", 7) == 0 && count < 2) {
		fprintf(stderr, "PoCL lists %d device(s) with POCL_DEVICES=%s\n", count, getenv("POCL_DEVICES"));
		exit(1);
	}
	npool = count >= 2 ? 2 : 1;
	CHECK(vkfftgo_pool_open(idx, npool, &pool));
	int n = 0;
	CHECK(vkfftgo_pool_size(pool, &n));
	if (n != npool) {
		fprintf(stderr, "vkfftgo_pool_size is %d, want %d\n", n, npool);
		exit(1);
	}
	printf("   pool of %d device(s) like %s (%d listed)\n", npool, name, count);
	check_results();
	check_bad_arguments();
	check_close_under_calls();
	CHECK(vkfftgo_pool_close(pool));
	CHECK(vkfftgo_device_close(dev));
	printf("pool: all passed\n");
	return 0;
}
