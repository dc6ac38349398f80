/* real.c — the real FFTW, loaded at run time. dlopen of libfftw3.so.3 / libfftw3f.so.3
 * (and their _threads libraries); api.inc looks every symbol up in these handles, never
 * in the global scope, so a process that preloads this library (LD_PRELOAD) still
 * reaches FFTW's own functions and not ours. VKFFTGO_FFTW_REAL=off pretends there is
 * none (everything the GPU cannot take then returns NULL). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "vfw.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* A thread that held the lock at fork time does not exist in the child to release it. */
static void child_handler(void)
{
	pthread_mutex_init(&mu, NULL);
}

__attribute__((constructor)) static void watch_at_load(void)
{
	(void)pthread_atfork(NULL, NULL, child_handler);
}

static void *open_lib(const char *name)
{
	const char *off = getenv("VKFFTGO_FFTW_REAL");
	if (off && !strcmp(off, "off"))
		return NULL;
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		vfw_log("%s not loadable (%s): problems the GPU does not take get NULL", name, dlerror());
	return h;
}

static void *cached(int prec, int threads)
{
	static void *handles[2][2];
	static int tried[2][2];
	static const char *names[2][2] = {
		{ "libfftw3f.so.3", "libfftw3f_threads.so.3" },
		{ "libfftw3.so.3", "libfftw3_threads.so.3" },
	};
	pthread_mutex_lock(&mu);
	if (!tried[prec][threads]) {
		tried[prec][threads] = 1;
		handles[prec][threads] = open_lib(names[prec][threads]);
	}
	void *h = handles[prec][threads];
	pthread_mutex_unlock(&mu);
	return h;
}

void *vfw_real_lib(int prec)
{
	return cached(prec, 0);
}

void *vfw_real_threads_lib(int prec)
{
	return cached(prec, 1);
}
