/* Checks vkg_fork_jobs (internal/engine/vkg_fork_compile.c), the compiles of a cold plan
 * in forked children, on a machine without a GPU:
 *   forkcheck LIBNVRTC ARCH FILE.cu...
 * - the CUBINs the workers send back are byte for byte those compiled in this process,
 *   with fewer workers than kernels (a worker compiles several), with one each, and with
 *   one child and threads of this process for the other workers (no fork budget left),
 *   and with two such calls at once from two threads (one forks while the other's
 *   threads compile);
 * - a job that fails, a child that is killed and a child that hangs past the deadline each
 *   leave only their own job without a binary, the hung child is killed in time — at the
 *   deadline, and long before it where the others answered at once (a straggler) — and no
 *   child is left unreaped and no descriptor open.
 * Exits 1 on the first failed check; make cuda-kernel-check runs it under
 * AddressSanitizer. */
#define _GNU_SOURCE /* clock_gettime, waitpid and friends under -std=c99 */
#include <dirent.h>
#include <pthread.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nvrtc_dl.h"

#include "vkg.h"

static struct {
	create_fn create;
	compile_fn compile;
	size_fn cubin_size;
	get_fn cubin;
	destroy_fn destroy;
	const char *arch;
	char **sources;
	int n;
} nv;

static int failures;
#define CHECK(cond, ...)                                          \
	do {                                                      \
		if (!(cond)) {                                    \
			fprintf(stderr, "forkcheck: " __VA_ARGS__); \
			fprintf(stderr, "\n");                    \
			failures++;                               \
		}                                                 \
	} while (0)

/* The engine's status helper, which vkg_fork_compile.c's header declares. */
int vkg_fail(vkg_status *st, int code, int native, const char *fmt, ...)
{
	(void)st;
	(void)native;
	(void)fmt;
	return code;
}

/* The compiles run by this process (its threads), not by a forked child. */
static pid_t main_pid;
static int local_compiles;

/* Kernel i % nv.n to a CUBIN, as the engine does (vkg_nvrtc_build), bracketed likewise. */
static int compile_one(void *ctx, int i, void **bin, size_t *bytes)
{
	const char *opts[1] = {nv.arch};
	nvrtcProgram p;
	int ok;
	(void)ctx;
	if (getpid() == main_pid)
		__atomic_fetch_add(&local_compiles, 1, __ATOMIC_RELAXED);
	vkg_compile_enter();
	ok = nv.create(&p, nv.sources[i % nv.n], "forkcheck.cu", 0, NULL, NULL) == NVRTC_SUCCESS;
	ok = ok && nv.compile(p, 1, opts) == NVRTC_SUCCESS;
	vkg_compile_leave();
	ok = ok && nv.cubin_size(p, bytes) == NVRTC_SUCCESS && *bytes > 0 && (*bin = malloc(*bytes)) != NULL;
	if (ok && nv.cubin(p, *bin) != NVRTC_SUCCESS) {
		free(*bin);
		*bin = NULL;
		ok = 0;
	}
	nv.destroy(&p);
	return ok ? 0 : -1;
}

/* Job 1 fails, job 2's child is killed, job 3's child hangs; the others answer "job i". */
static int misbehave(void *ctx, int i, void **bin, size_t *bytes)
{
	(void)ctx;
	if (i == 1)
		return -1;
	if (i == 2)
		kill(getpid(), SIGKILL); /* as a crash ends it: no answer, the pipe closed */
	if (i == 3)
		sleep(30);
	*bin = malloc(32);
	if (!*bin)
		return -1;
	*bytes = (size_t)snprintf(*bin, 32, "job %d", i) + 1;
	return 0;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void no_children_left(const char *what)
{
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "%s: a child was left unreaped", what);
}

static void check_compiles(int jobs, int workers, double fork_budget_ms)
{
	void **bins = calloc((size_t)jobs, sizeof *bins), **want = calloc((size_t)jobs, sizeof *want);
	size_t *bytes = calloc((size_t)jobs, sizeof *bytes), *want_bytes = calloc((size_t)jobs, sizeof *want_bytes);
	int i, done, from_children = -1, fds = open_fds();
	if (!bins || !want || !bytes || !want_bytes) {
		CHECK(0, "out of memory");
		return;
	}
	for (i = 0; i < jobs; i++)
		CHECK(compile_one(NULL, i, &want[i], &want_bytes[i]) == 0, "kernel %d does not compile here", i);
	main_pid = getpid();
	local_compiles = 0;
	done = vkg_fork_jobs(jobs, workers, compile_one, NULL, 120000, fork_budget_ms, bins, bytes, &from_children);
	if (fork_budget_ms > 0)
		CHECK(local_compiles == 0 && from_children == jobs,
		      "%d jobs on %d children: %d compiled in this process, %d sent by children", jobs, workers,
		      local_compiles, from_children);
	else /* one child took the first job, the threads some of the others */
		CHECK(local_compiles >= 1 && local_compiles < jobs && from_children == jobs - local_compiles,
		      "%d jobs on one child and threads: %d compiled in this process, %d sent by the child", jobs,
		      local_compiles, from_children);
	CHECK(done == jobs, "%d jobs on %d workers: %d came back", jobs, workers, done);
	for (i = 0; i < jobs; i++) {
		CHECK(bins[i] && bytes[i] == want_bytes[i] && !memcmp(bins[i], want[i], bytes[i]),
		      "%d jobs on %d workers: job %d's CUBIN differs from this process's", jobs, workers, i);
		free(bins[i]);
		free(want[i]);
	}
	no_children_left("compiles");
	CHECK(open_fds() == fds, "compiles: %d descriptors open before, %d after", fds, open_fds());
	printf("forkcheck: %d kernels on %d workers (%s), CUBINs identical to this process's\n", jobs, workers,
	       fork_budget_ms > 0 ? "children" : "one child, threads for the others");
	free(bins);
	free(want);
	free(bytes);
	free(want_bytes);
}

/* One of two calls at once: one child and two threads each, every CUBIN compared. */
struct concurrent_call {
	int jobs, done, same;
	void **want;
	size_t *want_bytes;
};

static void *concurrent_call(void *arg)
{
	struct concurrent_call *c = arg;
	void **bins = calloc((size_t)c->jobs, sizeof *bins);
	size_t *bytes = calloc((size_t)c->jobs, sizeof *bytes);
	int i;
	if (!bins || !bytes) {
		free(bins);
		free(bytes);
		return NULL;
	}
	c->done = vkg_fork_jobs(c->jobs, 3, compile_one, NULL, 120000, 0, bins, bytes, NULL);
	c->same = 0;
	for (i = 0; i < c->jobs; i++) {
		c->same += bins[i] && bytes[i] == c->want_bytes[i] && !memcmp(bins[i], c->want[i], bytes[i]);
		free(bins[i]);
	}
	free(bins);
	free(bytes);
	return NULL;
}

static void check_concurrent(int jobs)
{
	struct concurrent_call calls[2];
	pthread_t t[2];
	void **want = calloc((size_t)jobs, sizeof *want);
	size_t *want_bytes = calloc((size_t)jobs, sizeof *want_bytes);
	int i, fds = open_fds();
	if (!want || !want_bytes) {
		CHECK(0, "out of memory");
		return;
	}
	for (i = 0; i < jobs; i++)
		CHECK(compile_one(NULL, i, &want[i], &want_bytes[i]) == 0, "kernel %d does not compile here", i);
	for (i = 0; i < 2; i++) {
		calls[i] = (struct concurrent_call){jobs, -1, 0, want, want_bytes};
		CHECK(pthread_create(&t[i], NULL, concurrent_call, &calls[i]) == 0, "no thread");
	}
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		CHECK(calls[i].done == jobs && calls[i].same == jobs,
		      "two calls at once: call %d has %d of %d binaries, %d identical to this process's", i,
		      calls[i].done, jobs, calls[i].same);
	}
	for (i = 0; i < jobs; i++)
		free(want[i]);
	free(want);
	free(want_bytes);
	no_children_left("two calls at once");
	CHECK(open_fds() == fds, "two calls at once: %d descriptors open before, %d after", fds, open_fds());
	printf("forkcheck: two calls at once, %d kernels each on a child and two threads, CUBINs identical\n", jobs);
}

/* The misbehaving jobs on six children; timeout_ms the deadline, and the most the call may
 * take: the hung child must be killed by then. */
static void check_failures(int timeout_ms, int limit_ms)
{
	void *bins[6] = {0};
	size_t bytes[6] = {0};
	int i, done, from_children = -1, fds = open_fds();
	double t0 = now_ms(), ms;
	done = vkg_fork_jobs(6, 6, misbehave, NULL, timeout_ms, 1e9, bins, bytes, &from_children);
	ms = now_ms() - t0;
	CHECK(done == 3 && from_children == 3, "failing jobs: %d of 6 came back (%d from children), want 3 (0, 4, 5)",
	      done, from_children);
	for (i = 0; i < 6; i++) {
		char want[32];
		snprintf(want, sizeof want, "job %d", i);
		if (i >= 1 && i <= 3)
			CHECK(!bins[i], "failing jobs: job %d (failed, killed or hung) has a binary", i);
		else
			CHECK(bins[i] && bytes[i] == strlen(want) + 1 && !strcmp(bins[i], want),
			      "failing jobs: job %d's answer is wrong", i);
		free(bins[i]);
	}
	CHECK(ms < limit_ms, "failing jobs: the hung child held the caller %.0f ms (deadline %d, limit %d)", ms,
	      timeout_ms, limit_ms);
	no_children_left("failing jobs");
	CHECK(open_fds() == fds, "failing jobs: %d descriptors open before, %d after", fds, open_fds());
	printf("forkcheck: a failed, a killed and a hung child cost only their jobs (%.0f ms, deadline %d)\n", ms,
	       timeout_ms);
}

int main(int argc, char **argv)
{
	void *lib;
	int i;
	if (argc < 4) {
		fprintf(stderr, "usage: %s LIBNVRTC ARCH FILE.cu...\n", argv[0]);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "forkcheck: %s\n", dlerror());
		return 1;
	}
	nv.create = (create_fn)dlsym(lib, "nvrtcCreateProgram");
	nv.compile = (compile_fn)dlsym(lib, "nvrtcCompileProgram");
	nv.cubin_size = (size_fn)dlsym(lib, "nvrtcGetCUBINSize");
	nv.cubin = (get_fn)dlsym(lib, "nvrtcGetCUBIN");
	nv.destroy = (destroy_fn)dlsym(lib, "nvrtcDestroyProgram");
	if (!nv.create || !nv.compile || !nv.cubin_size || !nv.cubin || !nv.destroy) {
		fprintf(stderr, "forkcheck: %s lacks an NVRTC function\n", argv[1]);
		return 1;
	}
	static char arch[64];
	snprintf(arch, sizeof arch, "--gpu-architecture=%s", argv[2]);
	nv.arch = arch;
	nv.n = argc - 3 < 4 ? argc - 3 : 4;
	nv.sources = calloc((size_t)nv.n, sizeof *nv.sources);
	for (i = 0; i < nv.n; i++)
		if (!nv.sources || !(nv.sources[i] = read_file(argv[3 + i]))) {
			fprintf(stderr, "forkcheck: cannot read %s\n", argv[3 + i]);
			return 1;
		}
	check_compiles(nv.n, nv.n, 1e9);
	check_compiles(nv.n + 2, 2, 1e9);
	check_compiles(nv.n + 1, 3, 0);
	check_concurrent(nv.n + 2);
	check_failures(1500, 10000);
	/* the others answer at once: the hung child is a straggler long before the deadline */
	check_failures(60000, 8000);
	for (i = 0; i < nv.n; i++)
		free(nv.sources[i]);
	free(nv.sources); /* NVRTC stays loaded: its C++ runtime's pool would count as a leak */
	if (failures)
		return 1;
	printf("forkcheck: ok\n");
	return 0;
}
