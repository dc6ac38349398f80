/* vkg_pipeline.c — a batch in chunks over two queues, so that one chunk's transfers
 * overlap the other chunk's transform (and, for pageable memory, the host's copies). */
#include "vkg_xfer.h"

/* pipeline_check validates the chunk layout; the caller's totals must be whole chunks. */
static int pipeline_check(const vkg_run *runs[2], uint64_t dst_bytes, uint64_t src_bytes, uint64_t nchunks,
			  vkg_status *st)
{
	const vkg_run *r = runs[0];
	if (runs[1]->in_bytes != r->in_bytes || runs[1]->out_bytes != r->out_bytes || runs[1]->dev != r->dev)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "the two plans of a pipeline differ");
	if (nchunks == 0 || src_bytes != nchunks * r->in_bytes || dst_bytes != nchunks * r->out_bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0,
				"%llu chunks of %llu -> %llu bytes do not make %llu -> %llu bytes",
				(unsigned long long)nchunks, (unsigned long long)r->in_bytes,
				(unsigned long long)r->out_bytes, (unsigned long long)src_bytes,
				(unsigned long long)dst_bytes);
	return VKG_OK;
}

/* claim_both claims queues[k] for runs[k]; release_both releases them and waits for both
 * queues (on failure too, so nothing runs on the caller's memory after return). */
static int claim_both(const vkg_run *runs[2], const uint64_t queues[2], vkg_status *st)
{
	int rc = runs[0]->claim(runs[0], queues[0], st);
	return rc ? rc : runs[1]->claim(runs[1], queues[1], st);
}

static int release_both(const vkg_run *runs[2], const uint64_t queues[2], int rc, vkg_status *st)
{
	vkg_status later;
	int k;
	for (k = 0; k < 2; k++) {
		int r2 = runs[k]->release(runs[k], queues[k], rc == VKG_OK ? st : &later);
		if (rc == VKG_OK)
			rc = r2;
	}
	for (k = 0; k < 2; k++) {
		int r2 = vkg_queue_sync(runs[k]->dev, queues[k], rc == VKG_OK ? st : &later);
		if (rc == VKG_OK)
			rc = r2;
	}
	return rc;
}

/* pipeline_begin checks the layout, enters the context and claims both queues; on
 * failure nothing is left entered. pipeline_end undoes it and returns the first failure. */
static int pipeline_begin(const vkg_run *runs[2], const uint64_t queues[2], uint64_t dst_bytes,
			  uint64_t src_bytes, uint64_t nchunks, vkg_status *st)
{
	int rc = pipeline_check(runs, dst_bytes, src_bytes, nchunks, st);
	if (rc)
		return rc;
	rc = vkg_ctx_enter(runs[0]->dev, st);
	if (rc)
		return rc;
	rc = claim_both(runs, queues, st);
	if (rc) {
		release_both(runs, queues, rc, st);
		vkg_ctx_leave(runs[0]->dev);
	}
	return rc;
}

static int pipeline_end(const vkg_run *runs[2], const uint64_t queues[2], int rc, vkg_status *st)
{
	rc = release_both(runs, queues, rc, st);
	vkg_ctx_leave(runs[0]->dev);
	return rc;
}

int vkg_pipeline_run_pinned(const vkg_run *runs[2], const uint64_t queues[2], void *dst, uint64_t dst_bytes,
			    const void *src, uint64_t src_bytes, uint64_t nchunks, vkg_status *st)
{
	vkg_device *dev = runs[0]->dev;
	uint64_t i, in_bytes = runs[0]->in_bytes, out_bytes = runs[0]->out_bytes;
	int rc = pipeline_begin(runs, queues, dst_bytes, src_bytes, nchunks, st);
	if (rc)
		return rc;
	for (i = 0; i < nchunks && rc == VKG_OK; i++) {
		int k = (int)(i & 1);
		const vkg_run *r = runs[k];
		rc = vkg_mem_write_async(dev, queues[k], r->in, 0, (const char *)src + i * in_bytes, in_bytes, st);
		if (rc == VKG_OK)
			rc = r->launch(r, queues[k], st);
		if (rc == VKG_OK)
			rc = vkg_mem_read_async(dev, queues[k], (char *)dst + i * out_bytes, r->out, 0, out_bytes, st);
	}
	return pipeline_end(runs, queues, rc, st);
}

int vkg_pipeline_run_pageable(const vkg_run *runs[2], const uint64_t queues[2], const uint64_t evs[2],
			      vkg_pool *pool, void *const pin_in[2], void *const pin_out[2], void *dst,
			      uint64_t dst_bytes, const void *src, uint64_t src_bytes, uint64_t nchunks,
			      vkg_status *st)
{
	vkg_device *dev = runs[0]->dev;
	uint64_t i, in_bytes = runs[0]->in_bytes, out_bytes = runs[0]->out_bytes;
	int rc = pipeline_begin(runs, queues, dst_bytes, src_bytes, nchunks, st);
	if (rc)
		return rc;
	/* While the device works on chunk i-1 (the other queue), the host copies chunk i-2's
	 * result out of this queue's pinned buffers and chunk i into them. */
	for (i = 0; i < nchunks + 2 && rc == VKG_OK; i++) {
		int k = (int)(i & 1);
		const vkg_run *r = runs[k];
		if (i >= 2) {
			rc = vkg_event_sync(dev, evs[k], st);
			if (rc)
				break;
			vkg_pool_copy(pool, (char *)dst + (i - 2) * out_bytes, pin_out[k], out_bytes);
		}
		if (i >= nchunks)
			continue;
		vkg_pool_copy(pool, pin_in[k], (const char *)src + i * in_bytes, in_bytes);
		rc = vkg_mem_write_async(dev, queues[k], r->in, 0, pin_in[k], in_bytes, st);
		if (rc == VKG_OK)
			rc = r->launch(r, queues[k], st);
		if (rc == VKG_OK)
			rc = vkg_mem_read_async(dev, queues[k], pin_out[k], r->out, 0, out_bytes, st);
		if (rc == VKG_OK)
			rc = vkg_event_record(dev, queues[k], evs[k], st);
	}
	return pipeline_end(runs, queues, rc, st);
}
