/* vkg_fork.c — whether this process is a child forked (without exec) from the one that
 * loaded the library; see vkg.h. The handler is registered by a constructor, so it is in
 * place before any fork the host may make: a child is unusable even when no device was
 * open at fork time (a c-shared library's Go runtime is broken there), and a flag set by
 * the handler costs one load per call, where comparing getpid() would cost a system call. */
#include <pthread.h>

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
