/* fork.c — fork without exec. A child forked before any call already gets
 * VKFFTGO_ERROR_FORKED (the handler is registered when the library loads). Then a
 * device, plan and buffer are open when the process forks;
 * in the child every function that touches state returns VKFFTGO_ERROR_FORKED at once
 * with a message saying why — the per-call functions (C), the ones written in Go (their
 * C wrappers refuse before entering Go), vkfftgo_device_open, and destroys and closes —
 * while the functions that touch no state still answer, and the child exits normally
 * (exit handlers run). Then the same while another thread is inside the library (its
 * plan's lock held, or inside Go building a plan) at the moment of the fork. The parent
 * waits for each child with a deadline, so a child that hangs fails the test, and goes
 * on using its objects afterwards.
 *   cc -pthread fork.c $(pkg-config --cflags --libs vkfftgo) -lm */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

enum { N = 4096, CHILD_SECONDS = 30 };

static vkfftgo_device *dev;
static vkfftgo_plan *plan;
static vkfftgo_buffer *buf;
static float in[2 * N], out[2 * N], want[2 * N];

static int in_child;

#ifdef __SANITIZE_ADDRESS__
/* LeakSanitizer asks this before its check at exit (sanitizer/lsan_interface.h). A forked
 * child's heap holds what only the parent's other threads pointed to, and their stacks
 * cannot be scanned there: the check belongs to the parent. */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return in_child;
}
#endif

#define EXPECT_FORKED(call) EXPECT_FAIL(call, VKFFTGO_ERROR_FORKED, "fork without exec|nothing was done")

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits for the child; a child still running after CHILD_SECONDS is killed and fails. */
static void wait_child(pid_t pid, const char *what)
{
	double deadline = now() + CHILD_SECONDS;
	int status = 0;
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			perror("waitpid");
			exit(1);
		}
		if (now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "%s: the child did not finish within %d s (a call waited for threads it does not have)\n",
				what, CHILD_SECONDS);
			exit(1);
		}
		usleep(2000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: the child failed (status 0x%x)\n", what, status);
		exit(1);
	}
}

static pid_t fork_or_die(void)
{
	pid_t pid;
	fflush(stdout); /* the child's exit must not print the parent's buffered lines again */
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	in_child = pid == 0;
	return pid;
}

static void expect_equal(const float *got, const char *what)
{
	for (size_t i = 0; i < 2 * N; i++)
		if (fabsf(got[i] - want[i]) > 1e-3f * (1 + fabsf(want[i]))) {
			fprintf(stderr, "%s: element %zu is %g, want %g\n", what, i, got[i], want[i]);
			exit(1);
		}
}

/* Everything the child may call, on the parent's objects and on new ones. */
static void child_calls(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	vkfftgo_mem_stats ms = VKFFTGO_MEM_STATS_INIT;
	vkfftgo_alloc_cache_stats as = VKFFTGO_ALLOC_CACHE_STATS_INIT;
	vkfftgo_plan_cache_stats ps = VKFFTGO_PLAN_CACHE_STATS_INIT;
	vkfftgo_kernel_cache_stats ks = VKFFTGO_KERNEL_CACHE_STATS_INIT;
	vkfftgo_convolution_desc cd = VKFFTGO_CONVOLUTION_DESC_INIT;
	vkfftgo_spectrometer_desc sd = VKFFTGO_SPECTROMETER_DESC_INIT;
	vkfftgo_device *d2 = NULL;
	vkfftgo_plan *p2 = NULL;
	vkfftgo_buffer *b2 = NULL;
	vkfftgo_stream *s2 = NULL;
	vkfftgo_host_buffer *h2 = NULL;
	vkfftgo_pipeline *pl = NULL;
	vkfftgo_convolution *cv = NULL;
	vkfftgo_spectrometer *sp = NULL;
	size_t a, b;
	int n, dbl, src;
	int64_t removed;
	double t0 = now();
	char name[64], dir[512];
	const size_t bytes = sizeof in;

	desc.rank = 1;
	desc.shape[0] = N;
	if (!vkfftgo_forked()) {
		fprintf(stderr, "vkfftgo_forked() is 0 in the child\n");
		exit(1);
	}
	/* the per-call functions, written in C */
	EXPECT_FORKED(vkfftgo_execute(plan, VKFFTGO_FORWARD, out, bytes, in, bytes));
	EXPECT_FORKED(vkfftgo_forward(plan, out, in));
	EXPECT_FORKED(vkfftgo_inverse(plan, out, in));
	EXPECT_FORKED(vkfftgo_execute_buffer(plan, VKFFTGO_FORWARD, buf, buf));
	EXPECT_FORKED(vkfftgo_execute_async(plan, NULL, VKFFTGO_FORWARD, NULL, NULL));
	EXPECT_FORKED(vkfftgo_plan_io_bytes(plan, VKFFTGO_FORWARD, &a, &b));
	EXPECT_FORKED(vkfftgo_device_sync(dev));
	EXPECT_FORKED(vkfftgo_device_set_staging_threshold(dev, 0));
#if VKFFTGO_BACKEND == 3
	EXPECT_FORKED(vkfftgo_execute_cl(plan, VKFFTGO_FORWARD, NULL, NULL));
	EXPECT_FORKED(vkfftgo_device_cl_queue(dev, NULL));
#elif VKFFTGO_BACKEND == 1
	EXPECT_FORKED(vkfftgo_execute_cu(plan, VKFFTGO_FORWARD, 0, 0));
#elif VKFFTGO_BACKEND == 0
	EXPECT_FORKED(vkfftgo_execute_vk(plan, VKFFTGO_FORWARD, NULL, NULL));
#endif
	/* a message names the call */
	if (strncmp(vkfftgo_last_error(), "vkfft", 5) != 0) {
		fprintf(stderr, "the message does not start with the call's name: %s\n", vkfftgo_last_error());
		exit(1);
	}
	/* the functions written in Go, behind their C wrappers */
	EXPECT_FORKED(vkfftgo_device_count(&n));
	EXPECT_FORKED(vkfftgo_device_open(0, &d2));
	EXPECT_FORKED(vkfftgo_device_open_cl(NULL, NULL, NULL, &d2));
	EXPECT_FORKED(vkfftgo_device_open_cu(NULL, NULL, &d2));
	EXPECT_FORKED(vkfftgo_device_name(dev, name, sizeof name));
	EXPECT_FORKED(vkfftgo_device_supports_double(dev, &dbl));
	EXPECT_FORKED(vkfftgo_device_mem_stats(dev, &ms));
	EXPECT_FORKED(vkfftgo_alloc_cache_set_limit(dev, 0));
	EXPECT_FORKED(vkfftgo_alloc_cache_trim(dev));
	EXPECT_FORKED(vkfftgo_alloc_cache_get_stats(dev, &as));
	EXPECT_FORKED(vkfftgo_plan_create(dev, &desc, &p2));
	EXPECT_FORKED(vkfftgo_plan_bytes(plan, &a, &b));
	EXPECT_FORKED(vkfftgo_plan_tuned(plan, &desc, &src, NULL, NULL));
	EXPECT_FORKED(vkfftgo_plan_acquire(dev, &desc, &p2));
	EXPECT_FORKED(vkfftgo_plan_release(plan));
	EXPECT_FORKED(vkfftgo_plan_cache_set_limits(dev, 1, 0));
	EXPECT_FORKED(vkfftgo_plan_cache_clear(dev));
	EXPECT_FORKED(vkfftgo_plan_cache_get_stats(dev, &ps));
	EXPECT_FORKED(vkfftgo_kernel_cache_set_dir("off"));
	EXPECT_FORKED(vkfftgo_kernel_cache_get_dir(dir, sizeof dir, NULL));
	EXPECT_FORKED(vkfftgo_kernel_cache_set_max_bytes(0));
	EXPECT_FORKED(vkfftgo_kernel_cache_get_stats(&ks));
	EXPECT_FORKED(vkfftgo_kernel_cache_clear(&removed));
	EXPECT_FORKED(vkfftgo_kernel_cache_contains(dev, &desc, &dbl));
	EXPECT_FORKED(vkfftgo_buffer_create(dev, bytes, &b2));
	EXPECT_FORKED(vkfftgo_buffer_size(buf, &a));
	EXPECT_FORKED(vkfftgo_buffer_upload(buf, in, bytes));
	EXPECT_FORKED(vkfftgo_buffer_download(buf, out, bytes));
	EXPECT_FORKED(vkfftgo_host_register(dev, in, bytes));
	EXPECT_FORKED(vkfftgo_host_unregister(dev, in));
	EXPECT_FORKED(vkfftgo_stream_create(dev, &s2));
	EXPECT_FORKED(vkfftgo_stream_wait(s2));
	EXPECT_FORKED(vkfftgo_host_buffer_create(dev, bytes, &h2, NULL));
	EXPECT_FORKED(vkfftgo_pipeline_create(dev, &desc, 2, &pl));
	EXPECT_FORKED(vkfftgo_convolution_create(dev, &cd, in, bytes, &cv));
	EXPECT_FORKED(vkfftgo_spectrometer_create(dev, &sd, &sp));
	/* destroys and closes release nothing (the objects are the parent's), NULL too */
	EXPECT_FORKED(vkfftgo_plan_destroy(plan));
	EXPECT_FORKED(vkfftgo_buffer_destroy(buf));
	EXPECT_FORKED(vkfftgo_device_close(dev));
	EXPECT_FORKED(vkfftgo_device_close(NULL));
	EXPECT_FORKED(vkfftgo_stream_destroy(NULL));
	EXPECT_FORKED(vkfftgo_host_buffer_destroy(NULL));
	EXPECT_FORKED(vkfftgo_pipeline_destroy(NULL));
	EXPECT_FORKED(vkfftgo_convolution_destroy(NULL));
	EXPECT_FORKED(vkfftgo_spectrometer_destroy(NULL));
	if (d2 || p2 || b2 || s2 || h2 || pl || cv || sp) {
		fprintf(stderr, "a refused creation wrote its output handle\n");
		exit(1);
	}
	/* what touches no state still answers */
	if (strcmp(vkfftgo_status_string(VKFFTGO_ERROR_FORKED), "VKFFTGO_ERROR_FORKED") != 0 ||
	    vkfftgo_backend() != VKFFTGO_BACKEND || !vkfftgo_backend_name()[0] || vkfftgo_version() != VKFFTGO_VERSION ||
	    !vkfftgo_version_string()[0] || vkfftgo_vkfft_version() < 10304 ||
	    VKFFTGO_CHECK_VERSION() != VKFFTGO_SUCCESS) {
		fprintf(stderr, "an identity function failed in the child\n");
		exit(1);
	}
	if (now() - t0 > 5) {
		fprintf(stderr, "the refused calls took %.1f s\n", now() - t0);
		exit(1);
	}
}

/* ---- a thread inside the library while the process forks ---- */

static volatile int stop;
static float busy_in[2 * N], busy_out[2 * N];

static void *busy_transforms(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		CHECK(vkfftgo_execute(plan, VKFFTGO_FORWARD, busy_out, sizeof busy_out, busy_in, sizeof busy_in));
	return NULL;
}

static void *busy_creation(void *arg)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	(void)arg;
	desc.rank = 1;
	desc.shape[0] = 512;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) { /* in and out of Go, from the plan cache */
		vkfftgo_plan *p;
		CHECK(vkfftgo_plan_acquire(dev, &desc, &p));
		CHECK(vkfftgo_plan_release(p));
	}
	return NULL;
}

static void fork_while_busy(void)
{
	pthread_t th[2];
	enum { FORKS = 6 };
	stop = 0;
	if (pthread_create(&th[0], NULL, busy_transforms, NULL) || pthread_create(&th[1], NULL, busy_creation, NULL)) {
		perror("pthread_create");
		exit(1);
	}
	for (int i = 0; i < FORKS; i++) {
		usleep(20000 + 7000 * i);
		pid_t pid = fork_or_die();
		if (pid == 0) {
			vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
			vkfftgo_plan *p;
			desc.rank = 1;
			desc.shape[0] = 512;
			EXPECT_FORKED(vkfftgo_execute(plan, VKFFTGO_FORWARD, out, sizeof out, in, sizeof in));
			EXPECT_FORKED(vkfftgo_plan_acquire(dev, &desc, &p));
			EXPECT_FORKED(vkfftgo_plan_create(dev, &desc, &p));
			EXPECT_FORKED(vkfftgo_device_close(dev));
			_exit(0); /* the first child showed that exit handlers run */
		}
		wait_child(pid, "fork while another thread is inside the library");
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	printf("fork: %d children forked while two threads were inside the library (a plan's lock, Go) got "
	       "VKFFTGO_ERROR_FORKED at once\n",
	       FORKS);
}

int main(void)
{
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	double t0;
	pid_t pid;

	for (size_t i = 0; i < 2 * N; i++)
		in[i] = busy_in[i] = (float)test_value(i);
	if (vkfftgo_forked()) {
		fprintf(stderr, "vkfftgo_forked() is 1 in the parent\n");
		return 1;
	}
	/* before any device is open: the handler is registered when the library loads */
	pid = fork_or_die();
	if (pid == 0) {
		int n;
		vkfftgo_device *d;
		if (!vkfftgo_forked()) {
			fprintf(stderr, "a child forked before any call: vkfftgo_forked() is 0\n");
			exit(1);
		}
		EXPECT_FORKED(vkfftgo_device_count(&n));
		EXPECT_FORKED(vkfftgo_device_open(0, &d));
		exit(0);
	}
	wait_child(pid, "fork before any device was open");
	CHECK(vkfftgo_device_open(0, &dev));
	desc.rank = 1;
	desc.shape[0] = N;
	CHECK(vkfftgo_plan_create(dev, &desc, &plan));
	CHECK(vkfftgo_buffer_create(dev, sizeof in, &buf));
	CHECK(vkfftgo_buffer_upload(buf, in, sizeof in));
	CHECK(vkfftgo_execute(plan, VKFFTGO_FORWARD, want, sizeof want, in, sizeof in));

	t0 = now();
	pid = fork_or_die();
	if (pid == 0) {
		child_calls();
		exit(0); /* exit handlers run, in the library and the GPU runtime */
	}
	wait_child(pid, "fork with a device, plan and buffer open");
	printf("fork: the child got VKFFTGO_ERROR_FORKED from every call that touches state, identity calls "
	       "answered, and it exited normally: %.0f ms\n",
	       (now() - t0) * 1e3);

	fork_while_busy();

	/* the parent goes on with the same objects */
	if (vkfftgo_forked()) {
		fprintf(stderr, "vkfftgo_forked() is 1 in the parent after the forks\n");
		return 1;
	}
	memset(out, 0, sizeof out);
	CHECK(vkfftgo_execute(plan, VKFFTGO_FORWARD, out, sizeof out, in, sizeof in));
	expect_equal(out, "parent's transform after the forks");
	CHECK(vkfftgo_execute_buffer(plan, VKFFTGO_FORWARD, buf, buf));
	CHECK(vkfftgo_buffer_download(buf, out, sizeof out));
	expect_equal(out, "parent's buffer transform after the forks");
	CHECK(vkfftgo_buffer_destroy(buf));
	CHECK(vkfftgo_plan_destroy(plan));
	CHECK(vkfftgo_device_close(dev));
	printf("fork: the parent's device, plan and buffer work as before, and close: OK\n");
	return 0;
}
