/* vkg_stage.c — host transfers at pinned speed, on any backend.
 *
 * Pageable (ordinary) host memory cannot be read by the device's DMA engine directly:
 * drivers copy it through a small pinned buffer of their own, synchronously. Here two
 * pinned slots of our own take turns: while the device reads slot A, several threads copy
 * the next chunk into slot B. The same with the directions swapped for downloads.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_xfer.h"

#define VKG_MAX_COPY_THREADS 16
/* below this a single memcpy beats waking the copy threads */
#define VKG_PARALLEL_COPY_MIN (1u << 20)

typedef struct copy_pool copy_pool;
typedef struct pool_arg {
	copy_pool *p;
} pool_arg;

/* A small pool of threads that split one memcpy between them. */
struct copy_pool {
	int n, started;
	pool_arg args[VKG_MAX_COPY_THREADS];
	pthread_t th[VKG_MAX_COPY_THREADS];
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t gen;
	int pending, quit;
	char *dst;
	const char *src;
	size_t bytes;
	size_t next; /* the next piece to take (atomic) */
};

/* Copies are cut into pieces this large, taken in turn by whichever thread is free: a
 * thread the scheduler delays holds up one piece, not a fixed share of the copy. */
#define VKG_COPY_PIECE (256u << 10)

/* take_pieces copies pieces of the current job until none are left. */
static void take_pieces(copy_pool *p)
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

/* Chunks of one transfer come back to back: spin this many rounds before sleeping. */
#define VKG_SPIN_ROUNDS 4000

static void *pool_worker(void *arg)
{
	copy_pool *p = ((pool_arg *)arg)->p;
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

static void pool_start(copy_pool *p, int n)
{
	int i;
	memset(p, 0, sizeof *p);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	p->started = 1;
	if (n > VKG_MAX_COPY_THREADS)
		n = VKG_MAX_COPY_THREADS;
	for (i = 0; i < n; i++) {
		p->args[i].p = p;
		if (pthread_create(&p->th[i], NULL, pool_worker, &p->args[i]) != 0)
			break;
		p->n = i + 1;
	}
}

static void pool_stop(copy_pool *p)
{
	int i;
	if (!p->started)
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
}

static void pool_copy(copy_pool *p, void *dst, const void *src, size_t bytes)
{
	if (p->n < 1 || bytes < VKG_PARALLEL_COPY_MIN) {
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
}

struct vkg_stager {
	vkg_device *dev;
	uint64_t slot_bytes;
	void *slot[2];
	uint64_t slot_handle[2];
	uint64_t slot_ev[2]; /* recorded after the device's last use of the slot */
	copy_pool pool;
};

int vkg_stager_create(vkg_device *dev, uint64_t slot_bytes, int threads, vkg_stager **out,
		      vkg_status *st)
{
	vkg_stager *s;
	int i, rc;
	*out = NULL;
	s = calloc(1, sizeof *s);
	if (!s)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	s->dev = dev;
	s->slot_bytes = slot_bytes;
	rc = vkg_ctx_enter(dev, st);
	if (rc) {
		free(s);
		return rc;
	}
	for (i = 0; i < 2 && rc == VKG_OK; i++) {
		rc = vkg_host_alloc(dev, slot_bytes, &s->slot[i], &s->slot_handle[i], st);
		if (rc == VKG_OK)
			rc = vkg_event_create(dev, &s->slot_ev[i], st);
	}
	vkg_ctx_leave(dev);
	if (rc) {
		vkg_stager_destroy(s);
		return rc;
	}
	pool_start(&s->pool, threads);
	*out = s;
	return VKG_OK;
}

void vkg_stager_destroy(vkg_stager *s)
{
	vkg_status st;
	int i, entered;
	if (!s)
		return;
	entered = vkg_ctx_enter(s->dev, &st) == VKG_OK;
	for (i = 0; i < 2; i++) {
		if (s->slot_ev[i]) {
			vkg_event_sync(s->dev, s->slot_ev[i], &st);
			vkg_event_destroy(s->dev, s->slot_ev[i]);
		}
		if (s->slot[i])
			vkg_host_free(s->dev, s->slot[i], s->slot_handle[i]);
	}
	if (entered)
		vkg_ctx_leave(s->dev);
	pool_stop(&s->pool);
	free(s);
}

void vkg_stager_copy(vkg_stager *s, void *dst, const void *src, uint64_t bytes)
{
	pool_copy(&s->pool, dst, src, (size_t)bytes);
}

/* chunk_len: the i-th chunk of a transfer starts small and doubles up to a slot, so the
 * first copy (nothing to overlap with yet) and the last are short. */
static uint64_t chunk_len(const vkg_stager *s, int i, uint64_t remaining)
{
	uint64_t n = s->slot_bytes >> 3;
	if (n < (1u << 20))
		n = 1u << 20;
	while (i-- > 0 && n < s->slot_bytes)
		n <<= 1;
	if (n > s->slot_bytes)
		n = s->slot_bytes;
	return remaining < n ? remaining : n;
}

/* stage_write copies src into device memory dst+off through the slots. It returns once
 * src has been consumed; the last DMA may still run (tracked by the slot events). */
static int stage_write(vkg_stager *s, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
		       uint64_t bytes, vkg_status *st)
{
	uint64_t done = 0;
	int k = 0, rc, i = 0;
	while (done < bytes) {
		uint64_t n = chunk_len(s, i++, bytes - done);
		/* the slot is free once the device has read what we put there last time */
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		pool_copy(&s->pool, s->slot[k], (const char *)src + done, n);
		if ((rc = vkg_mem_write_async(s->dev, queue, dst, off + done, s->slot[k], n, st)) != VKG_OK)
			return rc;
		if ((rc = vkg_event_record(s->dev, queue, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		done += n;
		k ^= 1;
	}
	return VKG_OK;
}

/* stage_read copies device memory src+off into dst through the slots, the download of
 * one chunk overlapping the host copy of the previous one. It returns when dst is full. */
static int stage_read(vkg_stager *s, uint64_t queue, void *dst, vkg_mem src, uint64_t off,
		      uint64_t bytes, vkg_status *st)
{
	uint64_t issued = 0, copied = 0, len[2] = {0, 0};
	int k = 0, rc, i, chunk = 0;
	/* queue two downloads ahead, then alternate: wait, copy out, queue the next */
	for (i = 0; i < 2 && issued < bytes; i++) {
		uint64_t n = chunk_len(s, chunk++, bytes - issued);
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[i], st)) != VKG_OK)
			return rc;
		if ((rc = vkg_mem_read_async(s->dev, queue, s->slot[i], src, off + issued, n, st)) != VKG_OK)
			return rc;
		if ((rc = vkg_event_record(s->dev, queue, s->slot_ev[i], st)) != VKG_OK)
			return rc;
		len[i] = n;
		issued += n;
	}
	while (copied < bytes) {
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		pool_copy(&s->pool, (char *)dst + copied, s->slot[k], len[k]);
		copied += len[k];
		if (issued < bytes) {
			uint64_t n = chunk_len(s, chunk++, bytes - issued);
			rc = vkg_mem_read_async(s->dev, queue, s->slot[k], src, off + issued, n, st);
			if (rc == VKG_OK)
				rc = vkg_event_record(s->dev, queue, s->slot_ev[k], st);
			if (rc)
				return rc;
			len[k] = n;
			issued += n;
		}
		k ^= 1;
	}
	return VKG_OK;
}

int vkg_plan_run_host_staged(vkg_plan *plan, vkg_stager *stager, int inverse, void *dst,
			     uint64_t dst_bytes, const void *src, uint64_t src_bytes, double scale,
			     vkg_status *st)
{
	vkg_device *dev = vkg_plan_device(plan);
	vkg_mem in, out;
	vkg_status sync_st;
	int rc;

	if (!stager)
		return vkg_plan_run_host(plan, inverse, dst, dst_bytes, src, src_bytes, scale, st);
	rc = vkg_plan_check_io(plan, inverse, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	vkg_plan_io_buffers(plan, inverse, &in, &out);
	rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = stage_write(stager, 0, in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run_queue(plan, inverse, 0, scale, st);
	if (rc == VKG_OK)
		rc = stage_read(stager, 0, dst, out, 0, dst_bytes, st);
	if (rc != VKG_OK)
		vkg_queue_sync(dev, 0, &sync_st); /* leave nothing running on the caller's memory */
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_plan_run_host_async(vkg_plan *plan, uint64_t queue, uint64_t plan_ev, uint64_t plan_queue,
			    int inverse, void *dst, uint64_t dst_bytes, const void *src,
			    uint64_t src_bytes, double scale, vkg_status *st)
{
	vkg_device *dev = vkg_plan_device(plan);
	vkg_mem in, out;
	int rc;

	rc = vkg_plan_check_io(plan, inverse, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	vkg_plan_io_buffers(plan, inverse, &in, &out);
	rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	if (plan_queue != queue)
		rc = vkg_queue_wait_event(dev, queue, plan_ev, st);
	if (rc == VKG_OK)
		rc = vkg_mem_write_async(dev, queue, in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = vkg_plan_run_queue(plan, inverse, queue, scale, st);
	if (rc == VKG_OK)
		rc = vkg_mem_read_async(dev, queue, dst, out, 0, dst_bytes, st);
	if (rc == VKG_OK)
		rc = vkg_event_record(dev, queue, plan_ev, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_pipeline_run(vkg_plan *plans[2], uint64_t queues[2], vkg_stager *stager, int pinned,
		     int inverse, void *dst, uint64_t out_bytes, const void *src, uint64_t in_bytes,
		     uint64_t nchunks, double scale, vkg_status *st)
{
	vkg_device *dev = vkg_plan_device(plans[0]);
	vkg_status sync_st;
	uint64_t i, pin, pout;
	int rc, k;

	vkg_plan_io_bytes(plans[0], inverse, &pin, &pout);
	if (pin != in_bytes || pout != out_bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "chunk sizes %llu -> %llu bytes do not match the plans",
				(unsigned long long)in_bytes, (unsigned long long)out_bytes);
	if (!pinned && !stager)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "pageable memory needs a stager");
	rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	for (i = 0; i < nchunks && rc == VKG_OK; i++) {
		vkg_mem in, out;
		const char *s = (const char *)src + i * in_bytes;
		k = (int)(i & 1);
		vkg_plan_io_buffers(plans[k], inverse, &in, &out);
		if (pinned) {
			rc = vkg_mem_write_async(dev, queues[k], in, 0, s, in_bytes, st);
			if (rc == VKG_OK)
				rc = vkg_plan_run_queue(plans[k], inverse, queues[k], scale, st);
			if (rc == VKG_OK)
				rc = vkg_mem_read_async(dev, queues[k], (char *)dst + i * out_bytes, out, 0,
							out_bytes, st);
		} else {
			/* the download waits for its chunk; the other queue's upload and transform
			 * were queued before it and keep the device busy meanwhile */
			rc = stage_write(stager, queues[k], in, 0, s, in_bytes, st);
			if (rc == VKG_OK)
				rc = vkg_plan_run_queue(plans[k], inverse, queues[k], scale, st);
			if (rc == VKG_OK && i > 0) {
				vkg_mem pin_, pout_;
				int j = k ^ 1;
				vkg_plan_io_buffers(plans[j], inverse, &pin_, &pout_);
				rc = stage_read(stager, queues[j], (char *)dst + (i - 1) * out_bytes, pout_, 0,
						out_bytes, st);
			}
		}
	}
	if (rc == VKG_OK && !pinned && nchunks > 0) {
		vkg_mem pin_, pout_;
		k = (int)((nchunks - 1) & 1);
		vkg_plan_io_buffers(plans[k], inverse, &pin_, &pout_);
		rc = stage_read(stager, queues[k], (char *)dst + (nchunks - 1) * out_bytes, pout_, 0,
				out_bytes, st);
	}
	/* done when both queues are; on failure too, so nothing runs on the caller's memory */
	for (k = 0; k < 2; k++) {
		int r2 = vkg_queue_sync(dev, queues[k], rc == VKG_OK ? st : &sync_st);
		if (rc == VKG_OK)
			rc = r2;
	}
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_pipeline_run_pageable(vkg_plan *plans[2], uint64_t queues[2], uint64_t evs[2], vkg_stager *stager,
			      void *pin_in[2], void *pin_out[2], int inverse, void *dst, uint64_t out_bytes,
			      const void *src, uint64_t in_bytes, uint64_t nchunks, double scale,
			      vkg_status *st)
{
	vkg_device *dev = vkg_plan_device(plans[0]);
	vkg_status sync_st;
	uint64_t i, pin, pout;
	int rc = VKG_OK, k;

	vkg_plan_io_bytes(plans[0], inverse, &pin, &pout);
	if (pin != in_bytes || pout != out_bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "chunk sizes %llu -> %llu bytes do not match the plans",
				(unsigned long long)in_bytes, (unsigned long long)out_bytes);
	rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	/* While the device works on chunk i-1 (the other stream), the host copies chunk i-2's
	 * result out of this stream's pinned buffers and chunk i into them. */
	for (i = 0; i < nchunks + 2 && rc == VKG_OK; i++) {
		vkg_mem in, out;
		k = (int)(i & 1);
		if (i >= 2) {
			rc = vkg_event_sync(dev, evs[k], st);
			if (rc)
				break;
			pool_copy(&stager->pool, (char *)dst + (i - 2) * out_bytes, pin_out[k], out_bytes);
		}
		if (i >= nchunks)
			continue;
		pool_copy(&stager->pool, pin_in[k], (const char *)src + i * in_bytes, in_bytes);
		vkg_plan_io_buffers(plans[k], inverse, &in, &out);
		rc = vkg_mem_write_async(dev, queues[k], in, 0, pin_in[k], in_bytes, st);
		if (rc == VKG_OK)
			rc = vkg_plan_run_queue(plans[k], inverse, queues[k], scale, st);
		if (rc == VKG_OK)
			rc = vkg_mem_read_async(dev, queues[k], pin_out[k], out, 0, out_bytes, st);
		if (rc == VKG_OK)
			rc = vkg_event_record(dev, queues[k], evs[k], st);
	}
	if (rc != VKG_OK)
		for (k = 0; k < 2; k++)
			vkg_queue_sync(dev, queues[k], &sync_st);
	vkg_ctx_leave(dev);
	return rc;
}

/* ---- wrappers for Go (context entered here) ---- */

int vkg_pinned_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_host_alloc(dev, bytes, ptr, handle, st);
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_pinned_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_host_free(dev, ptr, handle);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_stream_create(vkg_device *dev, uint64_t *queue, uint64_t *ev, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_queue_create(dev, queue, st);
	if (rc == VKG_OK && ev) {
		rc = vkg_event_create(dev, ev, st);
		if (rc)
			vkg_queue_destroy(dev, *queue);
	}
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_stream_destroy(vkg_device *dev, uint64_t queue, uint64_t ev)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_queue_sync(dev, queue, &st);
	if (ev)
		vkg_event_destroy(dev, ev);
	vkg_queue_destroy(dev, queue);
	if (entered)
		vkg_ctx_leave(dev);
}

int vkg_stream_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_queue_sync(dev, queue, st);
	vkg_ctx_leave(dev);
	return rc;
}

int vkg_event_new(vkg_device *dev, uint64_t *ev, vkg_status *st)
{
	int rc = vkg_ctx_enter(dev, st);
	if (rc)
		return rc;
	rc = vkg_event_create(dev, ev, st);
	vkg_ctx_leave(dev);
	return rc;
}

void vkg_event_free(vkg_device *dev, uint64_t ev)
{
	vkg_status st;
	int entered = vkg_ctx_enter(dev, &st) == VKG_OK;
	vkg_event_sync(dev, ev, &st);
	vkg_event_destroy(dev, ev);
	if (entered)
		vkg_ctx_leave(dev);
}
