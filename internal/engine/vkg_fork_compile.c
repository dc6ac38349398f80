/* vkg_fork_compile.c — a cold plan's kernels compiled in child processes forked from this
 * one. NVRTC's compiles on threads of one process wait on each other inside NVRTC (six at
 * once take about 1.6× the longest one); compiles in separate processes do not, and a
 * child forked from this process starts with NVRTC already loaded. A child runs only the
 * compiles it takes and this file's C, never the engine's API or Go (a child of a
 * multithreaded process has one thread), sends each binary back through a pipe and
 * exits. Workers — the children, and threads of this process where fewer children were
 * forked — take jobs from one queue in memory they share, so a long compile does not hold
 * up the short ones behind it. fork() copies the page tables, a cost that grows with the
 * process's resident memory (about 8 ms a GiB of 4 KiB pages), so forking stops once the
 * forks have taken fork_budget_ms and threads take the workers' places left. Whatever
 * goes wrong — no fork, a child that dies, hangs or falls far behind — leaves that job
 * without a binary, for the caller to compile here. See vkg.h. */
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vkg.h"

/* No compile may be inside the compiler while a child is forked: the child would inherit
 * the compiler's locks held by a thread it does not have. The fork waits for the compiles
 * under way, and new ones wait for the fork (writers first: other plans' compiles, one
 * after another, would otherwise hold the fork off until all of them end). */
static pthread_rwlock_t compile_lock;
static pthread_once_t compile_lock_once = PTHREAD_ONCE_INIT;
/* Set in a compile child, which inherits the lock held for writing by the thread that
 * forked it and has no other thread to wait for. */
static int in_child;

static void compile_lock_init(void)
{
	pthread_rwlockattr_t a;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&compile_lock, &a);
	pthread_rwlockattr_destroy(&a);
}

void vkg_compile_enter(void)
{
	if (in_child)
		return;
	pthread_once(&compile_lock_once, compile_lock_init);
	pthread_rwlock_rdlock(&compile_lock);
}

void vkg_compile_leave(void)
{
	if (!in_child)
		pthread_rwlock_unlock(&compile_lock);
}

/* A worker that has not delivered long after the first compile came back is hung or
 * starved: once the first result is in after t ms, the workers have until
 * max(STRAGGLER_MIN_MS, STRAGGLER_FACTOR · t · the jobs each worker has on average). */
#define STRAGGLER_MIN_MS 2000.0
#define STRAGGLER_FACTOR 4.0

/* The queue every worker takes its next job from: a page shared with the children. */
struct job_queue {
	int next;
};

static int take_job(struct job_queue *q, int n)
{
	int i = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED);
	return i < n ? i : -1;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
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

static void run_child(int fd, struct job_queue *q, int n, vkg_forked_job fn, void *ctx)
{
	int i;
	/* dies with the parent: a compile nobody waits for is wasted */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while ((i = take_job(q, n)) >= 0) {
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

/* The threads of this process that take the places of the children not forked. */
struct local_workers {
	struct job_queue *q;
	int n;
	vkg_forked_job fn;
	void *ctx;
	void **bins;
	size_t *bytes;
	double start;
	double first_result; /* ms after start of the first binary made here; 0: none yet */
	int from_children;   /* binaries the children sent */
	pthread_mutex_t mu;
};

static void *local_worker(void *arg)
{
	struct local_workers *w = arg;
	int i;
	while ((i = take_job(w->q, w->n)) >= 0) {
		void *bin = NULL;
		size_t bytes = 0;
		if (w->fn(w->ctx, i, &bin, &bytes) != 0 || !bin || bytes == 0) {
			free(bin);
			continue;
		}
		pthread_mutex_lock(&w->mu);
		w->bins[i] = bin;
		w->bytes[i] = bytes;
		if (w->first_result == 0)
			w->first_result = now_ms() - w->start;
		pthread_mutex_unlock(&w->mu);
	}
	return NULL;
}

/* Forks up to `want` children, each on its own pipe, until the forks have taken
 * fork_budget_ms; returns how many run. Every signal is blocked across the forks and no
 * compile is inside the compiler. */
static int fork_children(struct reader *rd, int want, double fork_budget_ms, struct job_queue *q, int n,
			 vkg_forked_job fn, void *ctx)
{
	sigset_t all, old;
	double spent = 0;
	int c, open = 0;
	/* the children start with every signal blocked: no handler of the host's (Go's among
	 * them) may run in a process that has only this thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_once(&compile_lock_once, compile_lock_init);
	pthread_rwlock_wrlock(&compile_lock);
	for (c = 0; c < want && (c == 0 || spent < fork_budget_ms); c++) {
		int p[2];
		double t0;
		if (pipe(p) != 0)
			break;
		t0 = now_ms();
		rd[c].pid = fork();
		if (rd[c].pid == 0) {
			int o;
			in_child = 1;
			close(p[0]);
			for (o = 0; o < c; o++) /* the parent alone must hold the other pipes */
				close(rd[o].fd);
			run_child(p[1], q, n, fn, ctx);
		}
		spent += now_ms() - t0;
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
	return open;
}

/* Reads the children's results until every pipe is closed or the deadline (timeout_ms, or
 * the stragglers' once a first result is in) has passed. */
static void collect(struct reader *rd, int children, struct pollfd *pfd, int n, int workers, int timeout_ms,
		    struct local_workers *lw)
{
	int open = children;
	while (open > 0) {
		double now = now_ms() - lw->start, first, deadline = timeout_ms;
		int k = 0, c, r, left;
		pthread_mutex_lock(&lw->mu);
		first = lw->first_result;
		pthread_mutex_unlock(&lw->mu);
		if (first > 0) {
			double rounds = (n + workers - 1) / workers, straggler = STRAGGLER_FACTOR * first * rounds;
			if (straggler < STRAGGLER_MIN_MS)
				straggler = STRAGGLER_MIN_MS;
			if (straggler < deadline)
				deadline = straggler;
		}
		left = (int)(deadline - now);
		if (left <= 0)
			break;
		for (c = 0; c < children; c++)
			if (rd[c].fd >= 0) {
				pfd[k].fd = rd[c].fd;
				pfd[k].events = POLLIN;
				pfd[k].revents = 0;
				k++;
			}
		/* wakes now and then: a first result made by a local worker moves the deadline */
		r = poll(pfd, (nfds_t)k, left < 50 ? left : 50);
		if (r < 0 && errno != EINTR)
			break;
		for (c = 0, k = 0; r > 0 && c < children; c++) {
			int got;
			if (rd[c].fd < 0)
				continue;
			if (!pfd[k++].revents)
				continue;
			pthread_mutex_lock(&lw->mu); /* bins is shared with the local workers */
			got = read_some(&rd[c], n, lw->bins, lw->bytes);
			if (got > 0 && lw->bins[rd[c].h.job]) {
				lw->from_children++;
				if (lw->first_result == 0)
					lw->first_result = now_ms() - lw->start;
			}
			pthread_mutex_unlock(&lw->mu);
			if (got < 0) {
				close(rd[c].fd);
				rd[c].fd = -1;
				open--;
			}
		}
	}
}

int vkg_fork_jobs(int n, int workers, vkg_forked_job fn, void *ctx, int timeout_ms, double fork_budget_ms,
		  void **bins, size_t *bytes, int *from_children)
{
	struct reader *rd;
	struct pollfd *pfd;
	struct job_queue *q;
	struct local_workers lw;
	pthread_t *threads;
	int c, i, children, started = 0, done = 0;
	if (from_children)
		*from_children = 0;
	if (n <= 0)
		return 0;
	if (workers > n)
		workers = n;
	if (workers < 1)
		workers = 1;
	q = mmap(NULL, sizeof *q, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return -1;
	q->next = 0;
	rd = calloc((size_t)workers, sizeof *rd);
	pfd = calloc((size_t)workers, sizeof *pfd);
	threads = calloc((size_t)workers, sizeof *threads);
	if (!rd || !pfd || !threads) {
		free(rd);
		free(pfd);
		free(threads);
		munmap(q, sizeof *q);
		return -1;
	}
	for (c = 0; c < workers; c++)
		rd[c].fd = -1;
	memset(&lw, 0, sizeof lw);
	lw.q = q, lw.n = n, lw.fn = fn, lw.ctx = ctx, lw.bins = bins, lw.bytes = bytes;
	pthread_mutex_init(&lw.mu, NULL);
	lw.start = now_ms();
	children = fork_children(rd, workers, fork_budget_ms, q, n, fn, ctx);
	if (children == 0) {
		pthread_mutex_destroy(&lw.mu);
		free(rd);
		free(pfd);
		free(threads);
		munmap(q, sizeof *q);
		return -1;
	}
	for (c = children; c < workers; c++)
		if (pthread_create(&threads[started], NULL, local_worker, &lw) == 0)
			started++;
	collect(rd, children, pfd, n, workers, timeout_ms, &lw);
	for (c = 0; c < children; c++) {
		if (rd[c].fd >= 0) { /* past the deadline */
			kill(rd[c].pid, SIGKILL);
			close(rd[c].fd);
		}
		free(rd[c].bin);
		while (waitpid(rd[c].pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	/* the jobs the killed children held are left; the local workers end with the queue */
	for (c = 0; c < started; c++)
		pthread_join(threads[c], NULL);
	for (i = 0; i < n; i++)
		done += bins[i] != NULL;
	if (from_children)
		*from_children = lw.from_children;
	pthread_mutex_destroy(&lw.mu);
	free(rd);
	free(pfd);
	free(threads);
	munmap(q, sizeof *q);
	return done;
}
