/* vkg_xfer.h — host transfers: the backend's transfer primitives, and the backend-
 * independent layers built on them:
 *
 *   vkg_pool.c      a pool of threads that split one memcpy between them
 *   vkg_stage.c     the stager (pageable memory through two pinned slots) and the host
 *                   round trips of one transform
 *   vkg_pipeline.c  a batch in chunks over two queues, transfers overlapping transforms
 *
 * None of them knows what a plan is: the core (vkg_core.c) describes each direction of a
 * plan as a vkg_run and hands it down.
 *
 * Queues and events are the backend's handles as integers (vkg_backend.h); queue 0 is
 * the device's own. The primitives expect the device's
 * context to be current (vkg_ctx_enter); the vkg_run_* and vkg_pipeline_* entry points
 * enter it themselves.
 */
#ifndef VKG_XFER_H
#define VKG_XFER_H

#include "vkg.h"

/* ---- the backend's transfer primitives (forwarders; vkg_backend.h says what each does) ---- */
int vkg_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_host_free(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_host_unregister(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st);
void vkg_queue_destroy(vkg_device *dev, uint64_t queue);
int vkg_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st);
int vkg_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off,
		       uint64_t bytes, vkg_status *st);
int vkg_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_event_destroy(vkg_device *dev, uint64_t ev);
int vkg_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st);

/* ---- wrappers for Go (vkg_common.c; they enter the context themselves) ---- */

/* Pinned host memory for HostBuffers: mapped here and registered with the device.
 * Retiring it unregisters it and leaves its addresses reserved but inaccessible, so that
 * a stale pointer faults, or is recognised as closed, instead of reaching whatever memory
 * would otherwise be mapped there next; unmap gives the addresses back. */
int vkg_hostmem_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_hostmem_retire(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t handle);
void vkg_hostmem_unmap(void *ptr, uint64_t bytes);
/* vkg_host_register/unregister inside the device's context, for memory a caller owns */
int vkg_hostmem_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_hostmem_unregister(vkg_device *dev, void *ptr, uint64_t handle);
/* a queue, and if ev is not NULL an event to go with it; destroy takes ev 0 for none */
int vkg_stream_create(vkg_device *dev, uint64_t *queue, uint64_t *ev, vkg_status *st);
void vkg_stream_destroy(vkg_device *dev, uint64_t queue, uint64_t ev);
int vkg_stream_sync(vkg_device *dev, uint64_t queue, vkg_status *st);

/* ---- a transform as the transfer layer sees it (made by vkg_core.c) ---- */

struct vkg_run {
	vkg_device *dev;
	vkg_mem in, out;              /* the device buffers a host round trip fills and empties */
	uint64_t in_bytes, out_bytes; /* the host bytes it reads and writes */
	/* The plan's side, called with the context current. Between claim and release the
	 * plan's buffers are used on queue: claim orders queue after the plan's work on other
	 * queues, launch enqueues the transform (scaling included), release marks the end of
	 * this use (after the downloads) for the next claim on another queue. */
	int (*claim)(const vkg_run *run, uint64_t queue, vkg_status *st);
	int (*launch)(const vkg_run *run, uint64_t queue, vkg_status *st);
	int (*release)(const vkg_run *run, uint64_t queue, vkg_status *st);
	void *owner; /* the plan: only the functions above look at it */
	int inverse;
};

/* VKG_ERR_INVALID unless src_bytes and dst_bytes are what a host round trip of run needs. */
int vkg_run_check_io(const vkg_run *run, uint64_t dst_bytes, uint64_t src_bytes, vkg_status *st);

/* ---- vkg_pool.c: copy threads ---- */

/* A pool of threads that split large memcpys between them. One copy runs on the pool at a
 * time; a caller that finds it busy copies alone rather than wait. Thread-safe. */
typedef struct vkg_pool vkg_pool;
int vkg_pool_create(int threads, vkg_pool **out, vkg_status *st);
void vkg_pool_destroy(vkg_pool *p);
void vkg_pool_copy(vkg_pool *p, void *dst, const void *src, size_t bytes);

/* ---- vkg_stage.c: staging through pinned slots, host round trips ---- */

/* A stager copies pageable memory into one of two pinned slots (with the pool's threads)
 * while the device reads the other slot, so a host transfer runs at pinned speed. One
 * caller at a time: its owner hands it out. Entry points enter the context themselves. */
typedef struct vkg_stager vkg_stager;
int vkg_stager_create(vkg_device *dev, uint64_t slot_bytes, vkg_pool *pool, vkg_stager **out,
		      vkg_status *st);
void vkg_stager_destroy(vkg_stager *s);

/* One synchronous host round trip of run on the device's queue: upload src, transform,
 * download into dst. Through the stager's slots if stager is not NULL, else direct. On
 * return nothing queued reads src or writes dst any more, failures included. */
int vkg_run_host(const vkg_run *run, vkg_stager *stager, void *dst, uint64_t dst_bytes, const void *src,
		 uint64_t src_bytes, vkg_status *st);

/* The same on queue for pinned src and dst, asynchronously: upload, transform and
 * download are enqueued and the call returns. */
int vkg_run_host_async(const vkg_run *run, uint64_t queue, void *dst, uint64_t dst_bytes, const void *src,
		       uint64_t src_bytes, vkg_status *st);

/* ---- vkg_pipeline.c: overlapped batches ---- */

/* runs[k] (k = 0, 1: plans of the same configuration, one chunk of the batch each, with
 * buffers of their own) run on queues[k]; chunk i is uploaded, transformed and downloaded
 * on queue i%2, so one chunk's transfers overlap the other's transform. src and dst hold
 * nchunks chunks (src_bytes and dst_bytes in all). Waits for completion.
 *
 * vkg_pipeline_run_pinned: src and dst are pinned, the device reads and writes them.
 * vkg_pipeline_run_pageable: ordinary memory, copied by the pool's threads through pinned
 * chunk buffers (pin_in[k], pin_out[k]: one chunk each, for queue k); queue k records
 * evs[k] after each chunk, so the host copies one chunk while the device works on the
 * other. */
int vkg_pipeline_run_pinned(const vkg_run *runs[2], const uint64_t queues[2], void *dst, uint64_t dst_bytes,
			    const void *src, uint64_t src_bytes, uint64_t nchunks, vkg_status *st);
int vkg_pipeline_run_pageable(const vkg_run *runs[2], const uint64_t queues[2], const uint64_t evs[2],
			      vkg_pool *pool, void *const pin_in[2], void *const pin_out[2], void *dst,
			      uint64_t dst_bytes, const void *src, uint64_t src_bytes, uint64_t nchunks,
			      vkg_status *st);

#endif
