/* vkg_fork_compile.c — a cold plan's kernels compiled in child processes forked from this
 * one. NVRTC's compiles on threads of one process wait on each other inside NVRTC (six at
 * once take about 1.6× the longest one); compiles in separate processes do not, and a
 * child forked from this process starts with NVRTC already loaded. A child runs only the
 * compile it is given and this file's C, never the engine's API or Go (a child of a
 * multithreaded process has one thread), sends each binary back through a pipe and
 * exits. Whatever goes wrong — no fork, a child that dies or overruns the deadline —
 * leaves that job without a binary, for the caller to compile here. See vkg.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* prctl, pthread_sigmask and kill under -std=c99 */
#endif
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vkg.h"

/* No compile may be inside the compiler while a child is forked: the child would inherit
 * the compiler's locks held by a thread it does not have. */
static pthread_rwlock_t compile_lock = PTHREAD_RWLOCK_INITIALIZER;
/* Set in a compile child, which inherits the lock held for writing by the thread that
 * forked it and has no other thread to wait for. */
static int in_child;

void vkg_compile_enter(void)
{
	if (!in_child)
		pthread_rwlock_rdlock(&compile_lock);
}

void vkg_compile_leave(void)
{
	if (!in_child)
		pthread_rwlock_unlock(&compile_lock);
}

/* One result on the pipe: the job, its status, the binary's length, then the binary. */
struct result_header {
	int32_t job;
	int32_t ok;
	uint64_t bytes;
};

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static void run_child(int fd, int first, int stride, int n, vkg_forked_job fn, void *ctx)
{
	int i;
	/* dies with the parent: a compile nobody waits for is wasted */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = first; i < n; i += stride) {
		struct result_header h = {i, 0, 0};
		void *bin = NULL;
		size_t bytes = 0;
		if (fn(ctx, i, &bin, &bytes) == 0 && bin && bytes > 0) {
			h.ok = 1;
			h.bytes = bytes;
		}
		if (write_all(fd, &h, sizeof h) || (h.ok && write_all(fd, bin, bytes)))
			_exit(1);
		free(bin);
	}
	_exit(0);
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A child's pipe as the parent reads it: the header, then the binary. */
struct reader {
	int fd;
	pid_t pid;
	struct result_header h;
	size_t got; /* bytes of the header, then of the binary */
	char *bin;
	int in_binary;
};

/* Returns 1 when the reader finished a result (stored), 0 on progress, -1 at the end. */
static int read_some(struct reader *r, int n, void **bins, size_t *bytes)
{
	ssize_t got;
	if (!r->in_binary) {
		got = read(r->fd, (char *)&r->h + r->got, sizeof r->h - r->got);
		if (got < 0 && errno == EINTR)
			return 0;
		if (got <= 0)
			return -1;
		r->got += (size_t)got;
		if (r->got < sizeof r->h)
			return 0;
		if (r->h.job < 0 || r->h.job >= n || (r->h.ok && (r->h.bytes == 0 || r->h.bytes > ((uint64_t)1 << 31))))
			return -1;
		r->got = 0;
		if (!r->h.ok)
			return 1;
		if (!(r->bin = malloc(r->h.bytes)))
			return -1;
		r->in_binary = 1;
		return 0;
	}
	got = read(r->fd, r->bin + r->got, r->h.bytes - r->got);
	if (got < 0 && errno == EINTR)
		return 0;
	if (got <= 0)
		return -1;
	r->got += (size_t)got;
	if (r->got < r->h.bytes)
		return 0;
	free(bins[r->h.job]);
	bins[r->h.job] = r->bin;
	bytes[r->h.job] = r->h.bytes;
	r->bin = NULL;
	r->got = 0;
	r->in_binary = 0;
	return 1;
}

int vkg_fork_jobs(int n, int children, vkg_forked_job fn, void *ctx, int timeout_ms, void **bins, size_t *bytes)
{
	struct reader *rd;
	struct pollfd *pfd;
	sigset_t all, old;
	int c, done = 0, open = 0;
	double deadline = now_ms() + timeout_ms;
	if (n <= 0)
		return 0;
	if (children > n)
		children = n;
	if (children < 1)
		children = 1;
	rd = calloc((size_t)children, sizeof *rd);
	pfd = calloc((size_t)children, sizeof *pfd);
	if (!rd || !pfd) {
		free(rd);
		free(pfd);
		return -1;
	}
	/* the children start with every signal blocked: no handler of the host's (Go's among
	 * them) may run in a process that has only this thread */
	for (c = 0; c < children; c++)
		rd[c].fd = -1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_rwlock_wrlock(&compile_lock);
	for (c = 0; c < children; c++) {
		int p[2];
		if (pipe(p) != 0)
			break;
		rd[c].pid = fork();
		if (rd[c].pid == 0) {
			int o;
			in_child = 1;
			close(p[0]);
			for (o = 0; o < c; o++) /* the parent alone must hold the other pipes */
				close(rd[o].fd);
			run_child(p[1], c, children, n, fn, ctx);
		}
		close(p[1]);
		if (rd[c].pid < 0) {
			close(p[0]);
			break;
		}
		rd[c].fd = p[0];
		open++;
	}
	pthread_rwlock_unlock(&compile_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (open == 0) {
		free(rd);
		free(pfd);
		return -1;
	}
	while (open > 0) {
		int k = 0, left = (int)(deadline - now_ms()), r;
		if (left <= 0)
			break;
		for (c = 0; c < children; c++)
			if (rd[c].fd >= 0) {
				pfd[k].fd = rd[c].fd;
				pfd[k].events = POLLIN;
				pfd[k].revents = 0;
				k++;
			}
		r = poll(pfd, (nfds_t)k, left);
		if (r < 0 && errno != EINTR)
			break;
		for (c = 0, k = 0; r > 0 && c < children; c++) {
			int got;
			if (rd[c].fd < 0)
				continue;
			if (!pfd[k++].revents)
				continue;
			got = read_some(&rd[c], n, bins, bytes);
			if (got > 0 && bins[rd[c].h.job])
				done++;
			if (got < 0) {
				close(rd[c].fd);
				rd[c].fd = -1;
				open--;
			}
		}
	}
	for (c = 0; c < children; c++) {
		if (rd[c].fd >= 0) { /* past the deadline */
			kill(rd[c].pid, SIGKILL);
			close(rd[c].fd);
		}
		free(rd[c].bin);
		if (rd[c].pid > 0)
			while (waitpid(rd[c].pid, NULL, 0) < 0 && errno == EINTR)
				;
	}
	free(rd);
	free(pfd);
	return done;
}
