/* vkg_xfer.h — transfer primitives of the backend layer, and the staging and pipelining
 * built on them (vkg_stage.c, backend-independent).
 *
 * Queues and events are the backend's handles as integers (CUstream / cl_command_queue,
 * a small event object); queue 0 is the device's own. Every function here expects the
 * device's context to be current (vkg_ctx_enter) unless it says otherwise.
 */
#ifndef VKG_XFER_H
#define VKG_XFER_H

#include "vkg.h"

/* Page-locked host memory the device can DMA from at full speed (CUDA cuMemHostAlloc;
 * OpenCL a CL_MEM_ALLOC_HOST_PTR buffer, mapped). handle is what vkg_host_free needs. */
int vkg_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_host_free(vkg_device *dev, void *ptr, uint64_t handle);

/* More in-order queues (streams) on the device, for independent work. */
int vkg_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st);
void vkg_queue_destroy(vkg_device *dev, uint64_t queue);

/* Copies that return at once; the host memory must stay valid and unchanged until the
 * queue has passed them (record an event and wait for it). */
int vkg_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st);
int vkg_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off,
		       uint64_t bytes, vkg_status *st);

/* Reusable markers: record on a queue, make another queue wait for one, or wait on the host.
 * Waiting for an event never recorded returns at once. */
int vkg_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_event_destroy(vkg_device *dev, uint64_t ev);
int vkg_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st);

/* ---- vkg_stage.c: staging of pageable host memory through pinned slots ---- */

/* A stager copies pageable memory into one of two pinned slots (with several threads)
 * while the device reads the other slot, so a host transfer runs at pinned speed. It is
 * not thread-safe: its owner serialises use. Entry points enter the context themselves. */
typedef struct vkg_stager vkg_stager;
int vkg_stager_create(vkg_device *dev, uint64_t slot_bytes, int threads, vkg_stager **out,
		      vkg_status *st);
void vkg_stager_destroy(vkg_stager *s);
/* memcpy with the stager's copy threads (for callers that fill pinned memory themselves). */
void vkg_stager_copy(vkg_stager *s, void *dst, const void *src, uint64_t bytes);

/* Host memory helpers for Go (enter the context themselves). */
int vkg_pinned_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_pinned_free(vkg_device *dev, void *ptr, uint64_t handle);
/* a queue, and if ev is not NULL an event to go with it; destroy takes ev 0 for none */
int vkg_stream_create(vkg_device *dev, uint64_t *queue, uint64_t *ev, vkg_status *st);
void vkg_stream_destroy(vkg_device *dev, uint64_t queue, uint64_t ev);
int vkg_stream_sync(vkg_device *dev, uint64_t queue, vkg_status *st);
int vkg_event_new(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_event_free(vkg_device *dev, uint64_t ev);

/* One host round trip of a plan: like vkg_plan_run_host, but pageable src and dst go
 * through the stager (NULL: direct copies). */
int vkg_plan_run_host_staged(vkg_plan *plan, vkg_stager *stager, int inverse, void *dst,
			     uint64_t dst_bytes, const void *src, uint64_t src_bytes, double scale,
			     vkg_status *st);

/* An asynchronous host round trip on queue, for pinned src and dst: upload, transform and
 * download are enqueued and the call returns. The plan's buffers are shared by every queue
 * it runs on, so the call first makes queue wait for the plan's previous work (plan_ev,
 * recorded on plan_queue) and records plan_ev on queue after it. */
int vkg_plan_run_host_async(vkg_plan *plan, uint64_t queue, uint64_t plan_ev, uint64_t plan_queue,
			    int inverse, void *dst, uint64_t dst_bytes, const void *src,
			    uint64_t src_bytes, double scale, vkg_status *st);

/* Overlapped batches: plans[k] (k = 0, 1: same configuration, one chunk of the batch each,
 * own buffers) run alternately on queues[k]; chunk i is uploaded, transformed and
 * downloaded on queue i%2, so one chunk's transfers overlap the other's. src and dst hold
 * nchunks chunks of in_bytes / out_bytes each. Pinned memory goes straight to the device;
 * pageable memory goes through stager (required then). Waits for completion. */
int vkg_pipeline_run(vkg_plan *plans[2], uint64_t queues[2], vkg_stager *stager, int pinned,
		     int inverse, void *dst, uint64_t out_bytes, const void *src, uint64_t in_bytes,
		     uint64_t nchunks, double scale, vkg_status *st);

/* The same for pageable src and dst, through pinned chunk buffers of the pipeline's own
 * (pin_in[k], pin_out[k]: one chunk each, for queue k) and the stager's copy threads, so
 * the host's copies of one chunk overlap the device's work on the other. queue k records
 * evs[k] after each chunk. Waits for completion. */
int vkg_pipeline_run_pageable(vkg_plan *plans[2], uint64_t queues[2], uint64_t evs[2], vkg_stager *stager,
			      void *pin_in[2], void *pin_out[2], int inverse, void *dst, uint64_t out_bytes,
			      const void *src, uint64_t in_bytes, uint64_t nchunks, double scale,
			      vkg_status *st);

/* Sizes the core layer knows about a plan: the bytes a host call reads and writes. */
void vkg_plan_io_bytes(vkg_plan *plan, int inverse, uint64_t *in_bytes, uint64_t *out_bytes);
/* VKG_ERR_INVALID unless src_bytes and dst_bytes are what a host round trip needs. */
int vkg_plan_check_io(vkg_plan *plan, int inverse, uint64_t dst_bytes, uint64_t src_bytes, vkg_status *st);
/* The plan's device buffers that a host round trip uploads into and downloads from. */
void vkg_plan_io_buffers(vkg_plan *plan, int inverse, vkg_mem *in, vkg_mem *out);
vkg_device *vkg_plan_device(vkg_plan *plan);
int vkg_plan_run_queue(vkg_plan *plan, int inverse, uint64_t queue, double scale, vkg_status *st);

#endif
