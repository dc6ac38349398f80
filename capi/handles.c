/* handles.c — the slot table behind the C API's handles (see handles.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "handles.h"

_Static_assert(sizeof(void *) == 8, "vkfftgo handles need 64-bit pointers");

#define SEG_BITS 12
#define SEG_SLOTS (1u << SEG_BITS)
#define IDX_BITS 24
#define MAX_SLOTS (1u << IDX_BITS)
#define NSEGS (MAX_SLOTS / SEG_SLOTS)

/* Segments are made on demand and never freed: a lookup of any value touches only
 * memory that stays valid. Slot 0 is never handed out, so no handle is 0 (NULL). */
static vkgc_slot *segs[NSEGS];
static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_new = 1; /* the first slot never used */
/* freed slots, reused oldest first so that one slot's generation advances slowly */
static uint32_t free_head, free_tail;

static vkgc_slot *slot_at(uint32_t idx)
{
	vkgc_slot *seg = __atomic_load_n(&segs[idx >> SEG_BITS], __ATOMIC_ACQUIRE);
	return seg ? &seg[idx & (SEG_SLOTS - 1)] : NULL;
}

/* A segment's slots, with locks that prefer writers: a handle being retired must not
 * wait behind an endless stream of calls that hold it shared. */
static vkgc_slot *new_segment(void)
{
	pthread_rwlockattr_t attr;
	vkgc_slot *seg = calloc(SEG_SLOTS, sizeof *seg);
	uint32_t i;
	if (!seg)
		return NULL;
	pthread_rwlockattr_init(&attr);
#ifdef PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
	for (i = 0; i < SEG_SLOTS; i++)
		pthread_rwlock_init(&seg[i].lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	return seg;
}

#define TAG ((uintptr_t)1 << 63)
#define GEN_MASK 0x7fffffffu

/* next_gen is the generation after g: 31 bits, never 0. */
static uint32_t next_gen(uint32_t g) { return (g + 1) & GEN_MASK ? (g + 1) & GEN_MASK : 1; }

static void *encode(uint32_t gen, unsigned kind, uint32_t idx)
{
	return (void *)(TAG | (uintptr_t)gen << 32 | (uintptr_t)(kind & 0xff) << IDX_BITS | idx);
}

void *vkgc_handle_new(unsigned kind, void *obj)
{
	vkgc_slot *s;
	uint32_t idx, gen;
	pthread_mutex_lock(&table_mu);
	if (free_head) {
		idx = free_head;
		s = slot_at(idx); /* a freed slot's segment exists */
		if (!s) {
			pthread_mutex_unlock(&table_mu);
			return NULL;
		}
		free_head = s->next_free;
		if (!free_head)
			free_tail = 0;
	} else {
		if (next_new >= MAX_SLOTS) {
			pthread_mutex_unlock(&table_mu);
			return NULL;
		}
		idx = next_new;
		if (!segs[idx >> SEG_BITS]) {
			vkgc_slot *seg = new_segment();
			if (!seg) {
				pthread_mutex_unlock(&table_mu);
				return NULL;
			}
			__atomic_store_n(&segs[idx >> SEG_BITS], seg, __ATOMIC_RELEASE);
		}
		next_new++;
		s = slot_at(idx);
		if (!s) {
			pthread_mutex_unlock(&table_mu);
			return NULL;
		}
	}
	pthread_mutex_unlock(&table_mu);

	pthread_rwlock_wrlock(&s->lock);
	gen = next_gen(__atomic_load_n(&s->gen, __ATOMIC_RELAXED));
	s->kind = kind;
	s->obj = obj;
	s->next_free = 0;
	__atomic_store_n(&s->gen, gen, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&s->lock);
	return encode(gen, kind, idx);
}

/* The slot a handle names if its value is well formed and its generation current. */
static vkgc_slot *lookup(uintptr_t h, unsigned kind, uint32_t *gen)
{
	uint32_t idx = (uint32_t)(h & (MAX_SLOTS - 1));
	vkgc_slot *s;
	*gen = (uint32_t)(h >> 32) & GEN_MASK;
	if (!(h & TAG) || ((h >> IDX_BITS) & 0xff) != kind || idx == 0 || *gen == 0)
		return NULL;
	s = slot_at(idx);
	if (!s || __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) != *gen)
		return NULL;
	return s;
}

vkgc_slot *vkgc_acquire(const void *handle, unsigned kind, int exclusive)
{
	uint32_t gen;
	vkgc_slot *s = lookup((uintptr_t)handle, kind, &gen);
	if (!s)
		return NULL;
	if (exclusive)
		pthread_rwlock_wrlock(&s->lock);
	else
		pthread_rwlock_rdlock(&s->lock);
	/* retired (and maybe reused) while this call waited for the lock */
	if (__atomic_load_n(&s->gen, __ATOMIC_RELAXED) != gen || s->kind != kind) {
		pthread_rwlock_unlock(&s->lock);
		return NULL;
	}
	return s;
}

void vkgc_release(vkgc_slot *slot) { pthread_rwlock_unlock(&slot->lock); }

void *vkgc_retire(uintptr_t handle, unsigned kind)
{
	uint32_t gen, idx = (uint32_t)(handle & (MAX_SLOTS - 1));
	vkgc_slot *s = lookup(handle, kind, &gen);
	void *obj;
	if (!s)
		return NULL;
	pthread_rwlock_wrlock(&s->lock);
	if (__atomic_load_n(&s->gen, __ATOMIC_RELAXED) != gen || s->kind != kind) {
		pthread_rwlock_unlock(&s->lock);
		return NULL;
	}
	obj = s->obj;
	s->obj = NULL;
	s->kind = 0;
	/* a generation no handle carries until the next object gets one more */
	__atomic_store_n(&s->gen, next_gen(gen), __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&s->lock);

	pthread_mutex_lock(&table_mu);
	s->next_free = 0;
	if (free_tail)
		slot_at(free_tail)->next_free = idx;
	else
		free_head = idx;
	free_tail = idx;
	pthread_mutex_unlock(&table_mu);
	return obj;
}
