/* core.h — what the C API keeps behind its handles so that a call runs in C: the C
 * records of devices, plans and buffers. Go creates and destroys them (with the vkfft
 * objects they mirror); the per-call entry points (hotpath*.c) only read them, under the
 * handle's lock (handles.h). */
#ifndef VKGCAPI_CORE_H
#define VKGCAPI_CORE_H

#include <pthread.h>
#include <stdint.h>

#include "vkg.h"
#include "vkg_spectro.h"
#include "vkg_xfer.h"

typedef struct vkgc_range {
	uintptr_t start, end;
} vkgc_range;

#define VKGC_MAX_STAGERS 16

/* A device: its core handle, and how host round trips reach it — the same machinery as
 * vkfft's Device for its Go callers (hostbuffer.go): copy threads made on first use and
 * up to max_stagers pinned slot pairs, each lent to one transfer at a time. */
typedef struct vkgc_device {
	vkg_device *dev;
	int64_t stage_min; /* atomic: stage host transfers of at least this many bytes; < 0 off */
	uint64_t slot_bytes;
	int threads, max_stagers;
	pthread_mutex_t stage_mu; /* guards what follows; not held during a transfer */
	vkg_pool *pool;
	vkg_stager *idle[VKGC_MAX_STAGERS];
	int nidle, made;
	int failed; /* no pinned memory or threads to be had: copy directly */
	pthread_rwlock_t ranges_mu;
	vkgc_range *ranges; /* registered host memory: never staged */
	size_t nranges, cap;
} vkgc_device;

/* A plan: the core plan and what a call checks, as vkfft's BytePlan says (sizes are not
 * derived here). The core plan carries its normalisation and its order against its work
 * on other queues (vkg_plan_run_device and the run descriptors claim and release it), so
 * streams and asynchronous calls go through the same core entry points with a
 * queue. */
/* Whether a transform's out may be its in (ccore.InPlaceRule, in its order). */
enum {
	VKGC_INPLACE_ALLOWED = 0,         /* complex and real-to-real plans */
	VKGC_INPLACE_REFUSED_R2C = 1,     /* out-of-place R2C: real and complex data differ */
	VKGC_INPLACE_REFUSED_STRIDES = 2, /* strided, in_strides != out_strides */
	VKGC_INPLACE_REQUIRED = 3         /* real_inplace: one padded array */
};

typedef struct vkgc_plan {
	vkgc_device *dev;
	vkg_plan *core;
	int inplace;             /* VKGC_INPLACE_* */
	int strided;             /* device memory only; buffers hold at least io_bytes */
	uint64_t io_bytes[2][2]; /* [inverse][0 out, 1 in] */
	/* Out of place without a copy (C2C): the vkfft plan's second application, which
	 * reads in and writes out (vkfft/oop.go), owned by the vkfft plan. While oop_builder
	 * is not 0 it is not built yet: the first out-of-place call builds it through Go
	 * (vkgcapi_build_out_of_place) and clears oop_builder, so every later call finds it
	 * here. Both are read and written under the slot's exclusive lock. NULL with
	 * oop_builder 0: none (not C2C, strided, fp16 storage, or it could not be built),
	 * out-of-place calls copy in into out and transform in place. */
	vkg_plan *oop;
	uintptr_t oop_builder; /* a cgo.Handle of the Go function that builds it */
	/* [inverse]: why vkfftgo_execute_async refuses the plan (vkfft's message, malloc'd,
	 * freed with the record), or NULL */
	char *async_refusal[2];
} vkgc_plan;

/* Device memory of the library's. */
typedef struct vkgc_buffer {
	vkgc_device *dev;
	vkg_mem mem;
	uint64_t bytes;
} vkgc_buffer;

/* A stream: one more queue of the device (vkfft.Stream), as vkg_run_host_async takes it. */
typedef struct vkgc_stream {
	vkgc_device *dev;
	uint64_t queue;
} vkgc_stream;

/* Pinned host memory of the device's (vkfft.HostBuffer). */
typedef struct vkgc_host_buffer {
	vkgc_device *dev;
	void *ptr;
	uint64_t bytes;
} vkgc_host_buffer;

/* A convolution (vkfft.Convolution, RealConvolution): what its Apply and ApplyBuffer
 * hand the core (vkg.h, vkg_conv.c), with the same arguments. The plan, pad and buffers
 * are the vkfft object's. */
typedef struct vkgc_conv {
	vkgc_device *dev;
	vkg_plan *plan;
	const vkg_conv_pad *pad; /* zero-padded (linear) convolutions; else NULL */
	vkg_mem in, out;         /* the device buffers of host round trips (out may be in) */
	uint64_t in_bytes, out_bytes, items;
	int inplace; /* the result lands in the input buffer */
} vkgc_conv;

/* A spectrometer (vkfft.Spectrometer): its core (vkg_spectro.h) and what Accumulate and
 * Read do around it. While host_builder is not 0 the buffers of host streaming are not
 * made yet: the first host accumulation has Go make them (vkgcapi_spectro_prepare_host)
 * and clears it, under the slot's exclusive lock, as a plan's out-of-place kernels. */
typedef struct vkgc_spectro {
	vkgc_device *dev;
	vkg_spectro *core;
	uint64_t nffts, sample_bytes, bins; /* per call: FFTs, bytes of samples; bins read */
	int fftshift;
	int32_t *perm;  /* perm[position] = bin (VkFFT's own order), or NULL: in order */
	float *scratch; /* bins values, the download before reordering (with perm or fftshift) */
	uintptr_t host_builder;
} vkgc_spectro;

vkgc_device *vkgc_device_new(vkg_device *dev, int64_t stage_min, uint64_t slot_bytes, int threads,
			     int max_stagers);
/* Frees the record, its stagers and copy threads; the device is still open, and no call
 * uses it. */
void vkgc_device_free(vkgc_device *d);
/* Records registered host memory (0), or reports no memory for it (-1). */
int vkgc_range_add(vkgc_device *d, uintptr_t start, uint64_t bytes);
void vkgc_range_remove(vkgc_device *d, uintptr_t start);

vkgc_plan *vkgc_plan_new(vkgc_device *d, vkg_plan *core, int inplace, int strided, uint64_t fwd_out,
			 uint64_t fwd_in, uint64_t inv_out, uint64_t inv_in);
vkgc_buffer *vkgc_buffer_new(vkgc_device *d, vkg_mem mem, uint64_t bytes);
vkgc_stream *vkgc_stream_new(vkgc_device *d, uint64_t queue);
vkgc_host_buffer *vkgc_host_buffer_new(vkgc_device *d, void *ptr, uint64_t bytes);

/* perm (nperm values, copied; 0: none) and a scratch buffer when the bins are reordered;
 * vkgc_spectro_free frees them with the record. */
vkgc_conv *vkgc_conv_new(vkgc_device *d, vkg_plan *plan, const vkg_conv_pad *pad, vkg_mem in, vkg_mem out,
			 uint64_t in_bytes, uint64_t out_bytes, uint64_t items, int inplace);
vkgc_spectro *vkgc_spectro_new(vkgc_device *d, vkg_spectro *core, uint64_t nffts, uint64_t sample_bytes,
			       uint64_t bins, int fftshift, const int32_t *perm, uint64_t nperm);
void vkgc_spectro_free(vkgc_spectro *s);

/* The device's copy threads for host transfers that are not staged (the spectrometer's
 * pageable samples), made on first use; NULL with st set if they cannot be had. */
vkg_pool *vkgc_device_pool(vkgc_device *d, vkg_status *st);
/* [p, p+n) lies in one range of registered or pinned host memory of the device. */
int vkgc_device_pinned(vkgc_device *d, const void *p, uint64_t n);

/* Go (capi/fuse.go; fn is only read): makes the spectrometer's host-streaming buffers with the function
 * behind builder; on failure it sets the calling thread's message, "fn: why", and
 * returns the status. Called once per record, on its first host accumulation. */
int vkgcapi_spectro_prepare_host(uintptr_t builder, char *fn);

/* Go (capi/oop.go): builds the out-of-place application with the function behind
 * builder; NULL if it cannot be built. The only call into Go on the per-call path, made
 * once per plan record. */
void *vkgcapi_build_out_of_place(uintptr_t builder);
/* The plan's out-of-place application for a transform of in into out (NULL: in place, or
 * none), built on the first such call; the caller holds the plan's slot exclusively. */
vkg_plan *vkgc_plan_oop(vkgc_plan *p, vkg_mem out, vkg_mem in);

/* The bytes a transform writes (out) and reads (in). */
void vkgc_plan_io(const vkgc_plan *p, int inverse, uint64_t *out, uint64_t *in);
/* A host round trip, through one of the device's stagers when the arrays are large and
 * not registered: the same choice as vkfft's Go path (Device.takeStager). */
int vkgc_run_host(vkgc_plan *p, int inverse, void *dst, uint64_t dst_bytes, const void *src, uint64_t src_bytes,
		  vkg_status *st);

#endif
