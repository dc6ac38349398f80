/* core.h — what the C API keeps behind its handles so that a call runs in C: the C
 * records of devices, plans and buffers. Go creates and destroys them (with the vkfft
 * objects they mirror); the per-call entry points (hotpath*.c) only read them, under the
 * handle's lock (handles.h). */
#ifndef VKGCAPI_CORE_H
#define VKGCAPI_CORE_H

#include <pthread.h>
#include <stdint.h>

#include "vkg.h"
#include "vkg_xfer.h"

typedef struct vkgc_range {
	uintptr_t start, end;
} vkgc_range;

/* A device: its core handle, and how host round trips reach it. */
typedef struct vkgc_device {
	vkg_device *dev;
	int64_t stage_min; /* atomic: stage host transfers of at least this many bytes; < 0 off */
	uint64_t slot_bytes;
	int threads;
	pthread_mutex_t stage_mu; /* held while the stager is in use, as on the Go side */
	vkg_stager *stager;       /* made on first use */
	int stager_failed;        /* no pinned memory to be had: copy directly */
	pthread_rwlock_t ranges_mu;
	vkgc_range *ranges; /* registered host memory: never staged */
	size_t nranges, cap;
} vkgc_device;

/* A plan: the core plan and what a call checks and passes, as vkfft's BytePlan says
 * (sizes are not derived here). Streams and asynchronous calls (issue 15) add the
 * plan's ordering here — the queue of its last asynchronous call and the event recorded
 * after it, which a call on another queue waits for first (vkfft/stream.go's settle and
 * record); the Go side settles a plan before handing it to C. */
typedef struct vkgc_plan {
	vkgc_device *dev;
	vkg_plan *core;
	int real;                /* real-to-complex: in and out are never the same memory */
	uint64_t io_bytes[2][2]; /* [inverse][0 out, 1 in] */
	double fwd_scale, inv_scale;
} vkgc_plan;

/* Device memory of the library's. */
typedef struct vkgc_buffer {
	vkgc_device *dev;
	vkg_mem mem;
	uint64_t bytes;
} vkgc_buffer;

vkgc_device *vkgc_device_new(vkg_device *dev, int64_t stage_min, uint64_t slot_bytes, int threads);
/* Frees the record and its stager; the device is still open, and no call uses it. */
void vkgc_device_free(vkgc_device *d);
/* Records registered host memory (0), or reports no memory for it (-1). */
int vkgc_range_add(vkgc_device *d, uintptr_t start, uint64_t bytes);
void vkgc_range_remove(vkgc_device *d, uintptr_t start);

vkgc_plan *vkgc_plan_new(vkgc_device *d, vkg_plan *core, int real, uint64_t fwd_out, uint64_t fwd_in,
			 uint64_t inv_out, uint64_t inv_in, double fwd_scale, double inv_scale);
vkgc_buffer *vkgc_buffer_new(vkgc_device *d, vkg_mem mem, uint64_t bytes);

/* The bytes a transform writes (out) and reads (in). */
void vkgc_plan_io(const vkgc_plan *p, int inverse, uint64_t *out, uint64_t *in);
/* A host round trip, through the device's stager when the arrays are large and not
 * registered (or pinned): the same choice as vkfft's Go path. */
int vkgc_run_host(vkgc_plan *p, int inverse, void *dst, uint64_t dst_bytes, const void *src, uint64_t src_bytes,
		  vkg_status *st);

#endif
