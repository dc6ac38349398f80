/* state.c — the planner's lock and the thread counts callers ask for. Planning,
 * destruction, the fork child's re-planning and the exit handler all take this one
 * lock (FFTW's planner is not thread-safe either; execution needs no lock). It lives
 * below every file that takes it, so that none of them depends on the planner. */
#include "vfw.h"

static pthread_mutex_t planner_mu = PTHREAD_MUTEX_INITIALIZER;
static int nthreads_of[2] = { 1, 1 };
int vfw_real_threads_used;

void vfw_planner_lock(void)
{
	pthread_mutex_lock(&planner_mu);
}

void vfw_planner_unlock(void)
{
	pthread_mutex_unlock(&planner_mu);
}

int vfw_planner_trylock(void)
{
	return pthread_mutex_trylock(&planner_mu) == 0;
}

/* A thread that held the lock at fork time does not exist in the child to release it. */
static void child_handler(void)
{
	pthread_mutex_init(&planner_mu, NULL);
}

__attribute__((constructor)) static void watch_at_load(void)
{
	/* fails only without memory for the entry: the lock then stays as fork left it */
	(void)pthread_atfork(NULL, NULL, child_handler);
}

void vfw_set_nthreads(int prec, int n)
{
	pthread_mutex_lock(&planner_mu);
	nthreads_of[prec] = n < 1 ? 1 : n;
	pthread_mutex_unlock(&planner_mu);
}

int vfw_get_nthreads(int prec)
{
	pthread_mutex_lock(&planner_mu);
	int n = nthreads_of[prec];
	pthread_mutex_unlock(&planner_mu);
	return n;
}

int vfw_get_nthreads_locked(int prec)
{
	return nthreads_of[prec];
}
