/* handles.h — the C API's handles: a slot index and a generation in the handle's value.
 *
 * A handle is not a pointer but the number
 *     1 << 63 | generation << 32 | kind << 24 | slot index
 * cast to the opaque pointer type of vkfftgo.h. The top bit makes it a non-canonical
 * address, never memory of the process: the Go runtime, which sees handles as pointers
 * in its exported functions' arguments, then never takes one for a pointer into its heap. Destroying an object bumps its slot's
 * generation, so a stale handle never reaches the slot's next object: it is simply not
 * live (VKFFTGO_ERROR_INVALID_HANDLE), nor is a handle of another kind or a made-up
 * value. Slots live in segments that are never freed, so looking one up and locking it
 * is always safe, whatever the value.
 *
 * Each slot has a lock: a call holds it shared (or exclusive, for a plan, whose VkFFT
 * application is not reentrant) from lookup to return, and retiring a handle takes it
 * exclusively, so destruction waits for the calls in flight and later calls fail.
 * A new kind of object (stream, host buffer, pipeline, plan-cache lease) is a new
 * VKGC_* value and a C record stored as the slot's object.
 */
#ifndef VKGCAPI_HANDLES_H
#define VKGCAPI_HANDLES_H

#include <pthread.h>
#include <stdint.h>

/* VKGC_CONVOLUTION and VKGC_SPECTROMETER hold a vkgc_conv and a vkgc_spectro (core.h)
 * for their per-call functions, which run in C (hotpath_fuse.c); creation, destruction
 * and the queries of sizes run in Go (capi/fuse.go). VKGC_STREAM and VKGC_HOST_BUFFER
 * hold a vkgc_stream and a vkgc_host_buffer for vkfftgo_execute_async and
 * vkfftgo_stream_wait, which run in C (hotpath_async.c); their other calls run in Go
 * (capi/streams.go). VKGC_PIPELINE's calls run in Go (capi/pipeline.go; obj is NULL), and
 * so do VKGC_POOL's and VKGC_POOL_PLAN's, a pool of devices and a plan split across them
 * (capi/pool.go), and VKGC_SLAB_PLAN's, one transform distributed across a pool (capi/slab.go). */
enum vkgc_kind { VKGC_DEVICE = 1, VKGC_PLAN = 2, VKGC_BUFFER = 3, VKGC_STREAM = 5, VKGC_HOST_BUFFER = 6,
		 VKGC_PIPELINE = 7, VKGC_CONVOLUTION = 8, VKGC_SPECTROMETER = 9, VKGC_POOL = 10, VKGC_POOL_PLAN = 11,
		 VKGC_SLAB_PLAN = 12 };

typedef struct vkgc_slot {
	pthread_rwlock_t lock;
	uint32_t gen;  /* atomic; one more when an object gets the slot, and again when retired */
	uint32_t kind; /* VKGC_* while live, 0 while free; written under the exclusive lock */
	void *obj;     /* the kind's C record */
	uint32_t next_free;
} vkgc_slot;

/* A new handle for obj (a record of kind); NULL if the table is full or out of memory. */
void *vkgc_handle_new(unsigned kind, void *obj);

/* Looks up a handle and locks its slot, shared or exclusive; NULL unless the handle is
 * live and of kind. vkgc_release unlocks. */
vkgc_slot *vkgc_acquire(const void *handle, unsigned kind, int exclusive);
void vkgc_release(vkgc_slot *slot);

/* Makes a handle invalid, waiting for the calls that hold it, and frees its slot for a
 * later generation; returns its object (NULL if the handle was not live). */
void *vkgc_retire(uintptr_t handle, unsigned kind);

#endif
