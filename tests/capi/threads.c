/* threads.c — 4 threads, each with its own plan, transforming at once; then bad
 * arguments, each of which must return an error status and a useful, thread-local
 * message.   cc -pthread threads.c $(pkg-config --cflags --libs vkfftgo) */
#include <math.h>
#include <pthread.h>

#include "check.h"

#define NTHREADS 4
#define ITERS 20

static vkfftgo_device *dev;

struct job {
	int id;
	int ok;
	char err[512];
};

static void *worker(void *arg)
{
	struct job *j = (struct job *)arg;
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_plan *p = NULL;
	int64_t n0 = 8, n1 = 16 + 4 * j->id; /* a different shape per thread */
	size_t n = (size_t)(n0 * n1), bytes = 2 * n * 2 * sizeof(float); /* batch 2, complex */
	float *in = (float *)malloc(bytes), *spec = (float *)malloc(bytes), *back = (float *)malloc(bytes);
	desc.rank = 2;
	desc.shape[0] = n0;
	desc.shape[1] = n1;
	desc.batch = 2;
	for (size_t i = 0; i < 4 * n; i++)
		in[i] = (float)test_value(i + 1000u * (size_t)j->id);
	if (vkfftgo_plan_create(dev, &desc, &p) != VKFFTGO_SUCCESS) {
		snprintf(j->err, sizeof j->err, "plan_create: %s", vkfftgo_last_error());
		goto out;
	}
	for (int it = 0; it < ITERS; it++) {
		if (vkfftgo_execute(p, VKFFTGO_FORWARD, spec, bytes, in, bytes) != VKFFTGO_SUCCESS ||
		    vkfftgo_execute(p, VKFFTGO_INVERSE, back, bytes, spec, bytes) != VKFFTGO_SUCCESS) {
			snprintf(j->err, sizeof j->err, "iteration %d: %s", it, vkfftgo_last_error());
			goto out;
		}
		for (size_t i = 0; i < 4 * n; i++)
			if (fabsf(back[i] - in[i]) > 1e-5f) {
				snprintf(j->err, sizeof j->err, "iteration %d: element %zu is %g, want %g", it, i,
					 back[i], in[i]);
				goto out;
			}
	}
	/* an error on this thread sets this thread's message only */
	if (vkfftgo_execute(p, VKFFTGO_FORWARD, spec, 3, in, bytes) != VKFFTGO_ERROR_WRONG_SIZE ||
	    !strstr(vkfftgo_last_error(), "out has 3 bytes")) {
		snprintf(j->err, sizeof j->err, "wrong-size message: %s", vkfftgo_last_error());
		goto out;
	}
	j->ok = 1;
out:
	vkfftgo_plan_destroy(p);
	free(in);
	free(spec);
	free(back);
	return NULL;
}

static void *other_thread_message(void *arg)
{
	*(int *)arg = vkfftgo_last_error()[0]; /* a fresh thread has no message */
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	struct job jobs[NTHREADS];
	CHECK(vkfftgo_device_open(0, &dev));
	for (int i = 0; i < NTHREADS; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].id = i;
		pthread_create(&t[i], NULL, worker, &jobs[i]);
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		if (!jobs[i].ok) {
			fprintf(stderr, "thread %d failed: %s\n", i, jobs[i].err);
			return 1;
		}
	}
	printf("threads: %d threads x %d forward+inverse on their own plans: OK\n", NTHREADS, ITERS);

	/* ---- bad arguments ---- */
	vkfftgo_device *d2 = NULL;
	vkfftgo_plan *p = NULL;
	vkfftgo_buffer *b = NULL;
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	float buf[64];
	size_t cb = 0;
	int count;

	EXPECT_FAIL(vkfftgo_device_count(NULL), VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_device_count|count is NULL");
	CHECK(vkfftgo_device_count(&count));
	EXPECT_FAIL(vkfftgo_device_open(count + 7, &d2), VKFFTGO_ERROR_NO_DEVICE, "vkfftgo_device_open|no such device");
	EXPECT_FAIL(vkfftgo_device_open(-1, &d2), VKFFTGO_ERROR_NO_DEVICE, "device -1");
	EXPECT_FAIL(vkfftgo_device_open(0, NULL), VKFFTGO_ERROR_NULL_POINTER, "device output pointer is NULL");
	EXPECT_FAIL(vkfftgo_plan_create(NULL, &desc, &p), VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_plan_create|device handle is NULL");
	EXPECT_FAIL(vkfftgo_plan_create(dev, NULL, &p), VKFFTGO_ERROR_NULL_POINTER, "desc is NULL");
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, NULL), VKFFTGO_ERROR_NULL_POINTER, "plan output pointer is NULL");
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE, "desc->rank is 0");
	desc.rank = 5;
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE, "desc->rank is 5");
	desc.rank = 3; /* shape all zero */
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_SHAPE, "dimension 0|must be positive");
	desc.rank = 1;
	desc.shape[0] = 16;
	desc.batch = -2;
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_BATCH, "batch -2 is negative");
	desc.batch = 1;
	desc.kind = 7;
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->kind is 7");
	desc.kind = VKFFTGO_C2C;
	desc.precision = 3;
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->precision is 3");
	desc.precision = VKFFTGO_SINGLE;
	desc.norm = 9;
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->norm is 9");
	desc.norm = VKFFTGO_NORM_BACKWARD;
	desc.size = 8; /* not made with VKFFTGO_PLAN_DESC_INIT */
	EXPECT_FAIL(vkfftgo_plan_create(dev, &desc, &p), VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is 8|VKFFTGO_PLAN_DESC_INIT");
	{ /* a newer caller's descriptor: unknown trailing fields must be zero */
		struct {
			vkfftgo_plan_desc d;
			int64_t future;
		} big;
		memset(&big, 0, sizeof big);
		big.d = desc;
		big.d.size = (uint32_t)sizeof big;
		big.future = 1;
		EXPECT_FAIL(vkfftgo_plan_create(dev, &big.d, &p), VKFFTGO_ERROR_UNSUPPORTED, "does not know");
		big.future = 0;
		CHECK(vkfftgo_plan_create(dev, &big.d, &p)); /* accepted: 1-D C2C of 16 */
	}
	if (p == NULL)
		return 1;
	CHECK(vkfftgo_plan_bytes(p, &cb, NULL));
	if (cb != 16 * 8)
		return 1;
	EXPECT_FAIL(vkfftgo_forward(NULL, buf, buf), VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_forward|plan handle is NULL");
	EXPECT_FAIL(vkfftgo_forward(p, NULL, buf), VKFFTGO_ERROR_NULL_POINTER, "out is NULL");
	EXPECT_FAIL(vkfftgo_inverse(p, buf, NULL), VKFFTGO_ERROR_NULL_POINTER, "vkfftgo_inverse|in is NULL");
	EXPECT_FAIL(vkfftgo_execute(p, 0, buf, cb, buf, cb), VKFFTGO_ERROR_INVALID_ARGUMENT, "direction is 0");
	EXPECT_FAIL(vkfftgo_execute(p, VKFFTGO_FORWARD, buf, cb, buf, 0), VKFFTGO_ERROR_WRONG_SIZE, "in 0|needs out 128 and in 128");
	EXPECT_FAIL(vkfftgo_execute(p, VKFFTGO_INVERSE, buf, cb * 2, buf, cb), VKFFTGO_ERROR_WRONG_SIZE, "inverse: out has 256 bytes");
	/* a handle of the wrong kind, and a destroyed one */
	EXPECT_FAIL(vkfftgo_forward((vkfftgo_plan *)dev, buf, buf), VKFFTGO_ERROR_INVALID_HANDLE, "not a live plan handle");
	EXPECT_FAIL(vkfftgo_device_sync((vkfftgo_device *)p), VKFFTGO_ERROR_INVALID_HANDLE, "not an open device handle");
	EXPECT_FAIL(vkfftgo_buffer_create(dev, 0, &b), VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes is 0");
	CHECK(vkfftgo_buffer_create(dev, 6, &b)); /* any size; a transform checks it against the plan */
	EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, b, b), VKFFTGO_ERROR_WRONG_SIZE,
		    "vkfftgo_execute_buffer|out has 6 bytes and in 6|needs out 128 and in 128");
	CHECK(vkfftgo_buffer_destroy(b));
	CHECK(vkfftgo_buffer_create(dev, cb, &b));
	EXPECT_FAIL(vkfftgo_buffer_upload(b, buf, cb + 4), VKFFTGO_ERROR_WRONG_SIZE, "the buffer has 128");
	EXPECT_FAIL(vkfftgo_buffer_download(b, NULL, cb), VKFFTGO_ERROR_NULL_POINTER, "dst is NULL");
	EXPECT_FAIL(vkfftgo_execute_buffer(p, VKFFTGO_FORWARD, NULL, b), VKFFTGO_ERROR_NULL_POINTER, "out is NULL");
	{
		vkfftgo_mem_stats ms;
		memset(&ms, 0, sizeof ms);
		EXPECT_FAIL(vkfftgo_device_mem_stats(dev, &ms), VKFFTGO_ERROR_INVALID_ARGUMENT, "VKFFTGO_MEM_STATS_INIT");
	}
	CHECK(vkfftgo_plan_destroy(p));
	EXPECT_FAIL(vkfftgo_forward(p, buf, buf), VKFFTGO_ERROR_INVALID_HANDLE, "not a live plan handle");
	EXPECT_FAIL(vkfftgo_plan_destroy(p), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_plan_destroy");
	CHECK(vkfftgo_plan_destroy(NULL));
	/* closing the device closes its buffers: their handles become invalid */
	CHECK(vkfftgo_device_close(dev));
	EXPECT_FAIL(vkfftgo_buffer_upload(b, buf, cb), VKFFTGO_ERROR_INVALID_HANDLE, "not a live buffer handle");
	EXPECT_FAIL(vkfftgo_device_close(dev), VKFFTGO_ERROR_INVALID_HANDLE, "vkfftgo_device_close");
	{ /* the message is per thread */
		int other = -1;
		pthread_t th;
		pthread_create(&th, NULL, other_thread_message, &other);
		pthread_join(th, NULL);
		if (other != 0 || vkfftgo_last_error()[0] == 0) {
			fprintf(stderr, "last_error is not thread-local\n");
			return 1;
		}
	}
	if (strcmp(vkfftgo_status_string(VKFFTGO_ERROR_WRONG_SIZE), "VKFFTGO_ERROR_WRONG_SIZE") != 0)
		return 1;
	printf("threads: bad arguments rejected with messages: OK\n");
	return 0;
}
