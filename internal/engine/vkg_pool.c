/* vkg_pool.c — a small pool of threads that split one memcpy between them.
 *
 * Copying pageable memory into pinned memory is bound by one core's memory bandwidth;
 * several threads copying disjoint pieces get several times that. One job runs at a time:
 * a second caller that finds the pool busy copies alone instead of waiting, so independent
 * transfers never serialise on the pool.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_xfer.h"

#define VKG_MAX_COPY_THREADS 16
/* below this a single memcpy beats waking the copy threads */
#define VKG_PARALLEL_COPY_MIN (1u << 20)
/* Copies are cut into pieces this large, taken in turn by whichever thread is free: a
 * thread the scheduler delays holds up one piece, not a fixed share of the copy. */
#define VKG_COPY_PIECE (256u << 10)
/* Chunks of one transfer come back to back: spin this many rounds before sleeping. */
#define VKG_SPIN_ROUNDS 4000

struct vkg_pool {
	int n;
	pthread_t th[VKG_MAX_COPY_THREADS];
	pthread_mutex_t job; /* held by the caller whose copy the pool runs */
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t gen;
	int pending, quit;
	char *dst;
	const char *src;
	size_t bytes;
	size_t next; /* the next piece to take (atomic) */
};

/* take_pieces copies pieces of the current job until none are left. */
static void take_pieces(vkg_pool *p)
{
	for (;;) {
		size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
		size_t off = i * VKG_COPY_PIECE, len;
		if (off >= p->bytes)
			return;
		len = p->bytes - off < VKG_COPY_PIECE ? p->bytes - off : VKG_COPY_PIECE;
		memcpy(p->dst + off, p->src + off, len);
	}
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *pool_worker(void *arg)
{
	vkg_pool *p = arg;
	uint64_t seen = 0;
	for (;;) {
		int i;
		for (i = 0; i < VKG_SPIN_ROUNDS && __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) == seen &&
			    !__atomic_load_n(&p->quit, __ATOMIC_ACQUIRE);
		     i++)
			cpu_relax();
		pthread_mutex_lock(&p->mu);
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		take_pieces(p);
		pthread_mutex_lock(&p->mu);
		if (--p->pending == 0)
			pthread_cond_signal(&p->done);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int vkg_pool_create(int threads, vkg_pool **out, vkg_status *st)
{
	vkg_pool *p;
	int i;
	VKG_FORK_GUARD(st);
	*out = NULL;
	p = calloc(1, sizeof *p);
	if (!p)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	pthread_mutex_init(&p->job, NULL);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	if (threads > VKG_MAX_COPY_THREADS)
		threads = VKG_MAX_COPY_THREADS;
	/* fewer threads than asked (or none) still copies correctly, only slower */
	for (i = 0; i < threads; i++) {
		if (pthread_create(&p->th[i], NULL, pool_worker, p) != 0)
			break;
		p->n = i + 1;
	}
	*out = p;
	return VKG_OK;
}

void vkg_pool_destroy(vkg_pool *p)
{
	int i;
	VKG_FORK_GUARD_VOID();
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->quit, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->n; i++)
		pthread_join(p->th[i], NULL);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->job);
	free(p);
}

void vkg_pool_copy(vkg_pool *p, void *dst, const void *src, size_t bytes)
{
	if (!p || p->n < 1 || bytes < VKG_PARALLEL_COPY_MIN || pthread_mutex_trylock(&p->job) != 0) {
		memcpy(dst, src, bytes);
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->dst = dst;
	p->src = src;
	p->bytes = bytes;
	p->next = 0;
	p->pending = p->n;
	__atomic_store_n(&p->gen, p->gen + 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	take_pieces(p); /* the calling thread copies too */
	pthread_mutex_lock(&p->mu);
	while (p->pending)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
	pthread_mutex_unlock(&p->job);
}
