/* vkg_stage.c — host round trips of one transform, direct, staged or asynchronous.
 *
 * Pageable (ordinary) host memory cannot be read by the device's DMA engine directly:
 * drivers copy it through a small pinned buffer of their own, synchronously. A stager
 * has two pinned slots of its own that take turns: while the device reads slot A, the
 * pool's threads copy the next chunk into slot B. The same with the directions swapped
 * for downloads.
 */
#include <stdlib.h>

#include "vkg_fault.h"
#include "vkg_xfer.h"

struct vkg_stager {
	vkg_device *dev;
	vkg_pool *pool;
	uint64_t slot_bytes;
	void *slot[2];
	uint64_t slot_handle[2];
	uint64_t slot_ev[2]; /* recorded after the device's last use of the slot */
};

int vkg_stager_create(vkg_device *dev, uint64_t slot_bytes, vkg_pool *pool, vkg_stager **out,
		      vkg_status *st)
{
	vkg_stager *s;
	int i, rc;
	*out = NULL;
	s = calloc(1, sizeof *s);
	if (!s)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	s->dev = dev;
	s->pool = pool;
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
	*out = s;
	return VKG_OK;
}

void vkg_stager_destroy(vkg_stager *s)
{
	vkg_status st;
	int i, entered;
	VKG_FORK_GUARD_VOID();
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
	free(s);
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

/* stage_write copies src into device memory dst through the slots. It returns once src
 * has been consumed; the last DMA may still run (tracked by the slot events). */
static int stage_write(vkg_stager *s, uint64_t queue, vkg_mem dst, const void *src, uint64_t bytes,
		       vkg_status *st)
{
	uint64_t done = 0;
	int k = 0, rc, i = 0;
	while (done < bytes) {
		uint64_t n = chunk_len(s, i++, bytes - done);
		/* the slot is free once the device has read what we put there last time */
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		vkg_pool_copy(s->pool, s->slot[k], (const char *)src + done, n);
		if ((rc = vkg_mem_write_async(s->dev, queue, dst, done, s->slot[k], n, st)) != VKG_OK)
			return rc;
		if ((rc = vkg_event_record(s->dev, queue, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		done += n;
		k ^= 1;
	}
	return VKG_OK;
}

/* stage_read copies device memory src into dst through the slots, the download of one
 * chunk overlapping the host copy of the previous one. It returns when dst is full. */
static int stage_read(vkg_stager *s, uint64_t queue, void *dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	uint64_t issued = 0, copied = 0, len[2] = {0, 0};
	int k = 0, rc, i, chunk = 0;
	/* queue two downloads ahead, then alternate: wait, copy out, queue the next */
	for (i = 0; i < 2 && issued < bytes; i++) {
		uint64_t n = chunk_len(s, chunk++, bytes - issued);
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[i], st)) != VKG_OK)
			return rc;
		if ((rc = vkg_mem_read_async(s->dev, queue, s->slot[i], src, issued, n, st)) != VKG_OK)
			return rc;
		if ((rc = vkg_event_record(s->dev, queue, s->slot_ev[i], st)) != VKG_OK)
			return rc;
		len[i] = n;
		issued += n;
	}
	while (copied < bytes) {
		if ((rc = vkg_event_sync(s->dev, s->slot_ev[k], st)) != VKG_OK)
			return rc;
		vkg_pool_copy(s->pool, (char *)dst + copied, s->slot[k], len[k]);
		copied += len[k];
		if (issued < bytes) {
			uint64_t n = chunk_len(s, chunk++, bytes - issued);
			rc = vkg_mem_read_async(s->dev, queue, s->slot[k], src, issued, n, st);
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

int vkg_run_check_io(const vkg_run *run, uint64_t dst_bytes, uint64_t src_bytes, vkg_status *st)
{
	if (src_bytes != run->in_bytes || dst_bytes != run->out_bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0,
				"buffer sizes %llu -> %llu bytes do not match the plan (%llu -> %llu)",
				(unsigned long long)src_bytes, (unsigned long long)dst_bytes,
				(unsigned long long)run->in_bytes, (unsigned long long)run->out_bytes);
	return VKG_OK;
}

/* run_begin checks the sizes, enters the context and claims queue for run; on failure
 * nothing is left entered. run_end releases the queue whatever happened since (what was
 * enqueued must be waited for by the plan's next user elsewhere), leaves the context and
 * returns the first failure. */
static int run_begin(const vkg_run *run, uint64_t queue, uint64_t dst_bytes, uint64_t src_bytes, vkg_status *st)
{
	int rc = vkg_run_check_io(run, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	rc = vkg_ctx_enter(run->dev, st);
	if (rc)
		return rc;
	rc = run->claim(run, queue, st);
	if (rc)
		vkg_ctx_leave(run->dev);
	return rc;
}

static int run_end(const vkg_run *run, uint64_t queue, int rc, vkg_status *st)
{
	vkg_status release_st;
	int r2 = run->release(run, queue, rc == VKG_OK ? st : &release_st);
	vkg_ctx_leave(run->dev);
	return rc != VKG_OK ? rc : r2;
}

int vkg_run_host(const vkg_run *run, vkg_stager *stager, void *dst, uint64_t dst_bytes, const void *src,
		 uint64_t src_bytes, vkg_status *st)
{
	vkg_device *dev = run->dev;
	vkg_status sync_st;
	int rc = run_begin(run, 0, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	rc = stager ? stage_write(stager, 0, run->in, src, src_bytes, st)
		    : vkg_mem_write(dev, run->in, 0, src, src_bytes, st);
	if (rc == VKG_OK && !stager)
		VKG_FAULT_NOTE_UPLOAD(1); /* the queue may still read src */
	if (rc == VKG_OK)
		rc = run->launch(run, 0, st);
	if (rc == VKG_OK && VKG_FAULT(VKG_FAULT_DOWNLOAD))
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "injected fault: the download failed to enqueue");
	if (rc == VKG_OK)
		rc = stager ? stage_read(stager, 0, dst, run->out, dst_bytes, st)
			    : vkg_mem_read(dev, dst, run->out, 0, dst_bytes, st);
	/* A failure anywhere may leave an upload from src or a download into dst queued:
	 * they are the caller's memory, so nothing may touch them once we return. */
	if (rc != VKG_OK)
		vkg_device_sync(dev, &sync_st);
	VKG_FAULT_NOTE_UPLOAD(0); /* the blocking read or the sync waited for the queue */
	return run_end(run, 0, rc, st);
}

int vkg_run_host_async(const vkg_run *run, uint64_t queue, void *dst, uint64_t dst_bytes, const void *src,
		       uint64_t src_bytes, vkg_status *st)
{
	vkg_device *dev = run->dev;
	int rc = run_begin(run, queue, dst_bytes, src_bytes, st);
	if (rc)
		return rc;
	rc = vkg_mem_write_async(dev, queue, run->in, 0, src, src_bytes, st);
	if (rc == VKG_OK)
		rc = run->launch(run, queue, st);
	if (rc == VKG_OK)
		rc = vkg_mem_read_async(dev, queue, dst, run->out, 0, dst_bytes, st);
	return run_end(run, queue, rc, st);
}
