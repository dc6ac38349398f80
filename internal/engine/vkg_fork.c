/* vkg_fork.c — whether this process is a child forked (without exec) from the one that
 * loaded the library; see vkg.h. The handler is registered by a constructor, so it is in
 * place before any fork the host may make: a child is unusable even when no device was
 * open at fork time (a c-shared library's Go runtime is broken there), and a flag set by
 * the handler costs one load per call, where comparing getpid() would cost a system call. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vkg.h"

static int forked;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

void vkg_fork_child(void)
{
	__atomic_store_n(&forked, 1, __ATOMIC_RELAXED);
}

void vkg_fork_clear(void)
{
	__atomic_store_n(&forked, 0, __ATOMIC_RELAXED);
}

int *vkg_fork_mark(void) { return &forked; }

int vkg_forked(void)
{
	return __atomic_load_n(&forked, __ATOMIC_RELAXED);
}

static void install(void)
{
	/* pthread_atfork fails only without memory for the entry; children then go
	 * unmarked, as they did before this check existed */
	(void)pthread_atfork(NULL, NULL, vkg_fork_child);
}

void vkg_fork_watch(void)
{
	pthread_once(&watch_once, install);
}

__attribute__((constructor)) static void watch_at_load(void)
{
	vkg_fork_watch();
}

int vkg_fail_forked(vkg_status *st)
{
	return vkg_fail(st, VKG_ERR_FORKED, 0,
			"this process is a child forked (fork without exec) from the process that loaded vkfftgo: "
			"the parent's devices, plans and buffers cannot be used here, and no device can be opened "
			"(exec a new program after fork, or start workers with Python multiprocessing's 'spawn' "
			"method)");
}

/* Forks with the C library's fork (so the registered handler runs) and, in the child, makes
 * the calls a careless child would: a sync of dev, an open, a run of plan, the plan's
 * destroy and the device's close. Bit i of the child's exit code (0 sync, 1 open, 2 run) is
 * set when that call did not fail with VKG_ERR_FORKED; a destroy or close that waits hangs
 * the child. Returns the child's exit code, -1 when it had to be killed at the deadline,
 * 128 + the signal when it died of one, -2 when fork or waitpid failed. The
 * child runs only C, so no Go runtime is involved in it. The parent waits for the child at
 * most seconds, killing it then. */
int vkg_fork_probe(vkg_device *dev, vkg_plan *plan, int seconds)
{
	pid_t pid = fork();
	if (pid < 0)
		return -2;
	if (pid == 0) {
		vkg_status st = {0}; /* a refused call sets no detail: nothing to free */
		vkg_device *other = NULL;
		int code = 0;
		if (vkg_sync(dev, &st) != VKG_ERR_FORKED)
			code |= 1;
		if (vkg_device_open(0, &other, &st) != VKG_ERR_FORKED || other)
			code |= 2;
		if (vkg_plan_run_device(plan, 0, 0, 0, 0, 0, &st) != VKG_ERR_FORKED)
			code |= 4;
		vkg_plan_destroy(plan); /* a destroy or close that waits hangs the child: */
		vkg_device_close(dev);  /* the parent's deadline catches that */
		_exit(code);
	}
	struct timespec step = {0, 2000000};
	for (long waited = 0; waited < (long)seconds * 500; waited++) {
		int status = 0;
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		if (got < 0 && errno != EINTR)
			return -2;
		nanosleep(&step, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}
