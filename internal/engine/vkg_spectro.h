/* vkg_spectro.h — the spectrometer's device work (vkg_spectro.c): samples in chunks of
 * FFTs through conversion, the FFT and |X|^2 accumulation, on any backend. Go builds the
 * plan, the companion kernels and the buffers and fills a vkg_spectro (C memory). */
#ifndef VKG_SPECTRO_H
#define VKG_SPECTRO_H

#include "vkg.h"
#include "vkg_xfer.h"

/* how a chunk is processed */
enum {
	VKG_SP_COMPANION = 0, /* convert kernel, FFT, sum kernel */
	VKG_SP_FUSED_LOAD = 1, /* FFT reading samples itself, sum kernel over the spectrum */
	VKG_SP_FUSED_POWER = 2, /* FFT reading samples and storing |X|^2, sum kernel over the powers */
	VKG_SP_FUSED_ATOMIC = 3, /* FFT reading samples and adding |X|^2 into the bins itself */
	VKG_SP_DIRECT = 4        /* one kernel of our own: samples to summed |X|^2, no VkFFT plan */
};

typedef struct vkg_spectro {
	vkg_device *dev;
	vkg_plan *plan;          /* one chunk of FFTs */
	int path;                /* VKG_SP_* */
	int real_input;          /* R2C: convert into rbuf, spectrum of n/2+1 bins */
	uint64_t n, bins, chunk; /* points per FFT, spectrum bins, FFTs per chunk */
	uint64_t turn;           /* FFTs per upload of host streaming: the chunk, or fewer
				  * for the direct path (which runs any count up to a chunk) */
	uint64_t sample_bytes;   /* bytes of one input sample */
	uint64_t sum_groups;     /* y-groups of the sum kernel (atomic adds when > 1): of a
				  * chunk's items, or of the direct kernel's partial rows */
	/* without float atomics (Vulkan): sum_groups rows of bins, one per y-group of the
	 * sum kernel, which a second launch of sum_f adds into the bins; 0 elsewhere */
	vkg_mem sums;
	vkg_kernel *convert, *sum_c, *sum_f, *zero;
	vkg_kernel *direct;                     /* VKG_SP_DIRECT's kernel */
	vkg_mem twiddles;                       /* its exp(-2 pi i e / n) */
	uint64_t direct_local, direct_ty;       /* its work-group size, transforms at once */
	uint64_t direct_groups;                 /* work-groups a launch aims at */
	/* where the direct kernel writes rows instead of adding into the bins (OpenCL, a
	 * Vulkan device without float atomics): a row of sums per work-group of a launch,
	 * direct_groups rows, which sum_f adds into the bins */
	vkg_mem partials;
	/* the split direct path (N = split_n1 * n2): its column kernel (direct is the row
	 * kernel), work-group size and columns at once, and a chunk's intermediate spectra */
	vkg_kernel *columns;
	uint64_t split_n1, columns_local, columns_ty;
	vkg_mem mid;
	vkg_mem cbuf, rbuf, pbuf, psd, window; /* complex chunk, real chunk, power chunk, bins, window */
	/* host streaming: device and pinned chunk buffers per turn, the upload queue, events */
	vkg_mem in[2];
	void *pin[2];
	uint64_t copy_queue, ev_up[2], ev_done[2];
} vkg_spectro;

/* Accumulates nffts FFTs of device samples starting at FFT first, on the device's queue.
 * nffts is a multiple of chunk. Enters the context itself. */
int vkg_spectro_device(vkg_spectro *s, vkg_mem samples, uint64_t first, uint64_t nffts, vkg_status *st);
/* The same from host memory: src is copied chunk by chunk into pinned memory (by the
 * pool's threads, unless pinned) and uploaded on the copy queue while the device works
 * on the previous chunk. Returns when the device is done. */
int vkg_spectro_host(vkg_spectro *s, vkg_pool *pool, const void *src, int pinned, uint64_t nffts,
		     vkg_status *st);
/* The copy queue and the events of host streaming (in, pin set by the caller), made on
 * first use and freed (after waiting for them) by vkg_spectro_host_free. */
int vkg_spectro_host_init(vkg_spectro *s, vkg_status *st);
void vkg_spectro_host_free(vkg_spectro *s);
/* Zeroes the accumulated bins. */
int vkg_spectro_zero(vkg_spectro *s, vkg_status *st);

#endif
