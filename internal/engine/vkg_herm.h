/* vkg_herm.h — FFTW's complex-to-real semantics on a half spectrum that is not Hermitian.
 *
 * A multi-dimensional c2r in FFTW (and numpy's irfftn, pocketfft) is a c2c inverse over
 * the leading transformed axes, then a 1-D c2r along the last axis that ignores the
 * imaginary parts of bins 0 and n/2. That is the same as first projecting the
 * self-conjugate planes of the half spectrum (last-axis index 0 and, for even n, n/2)
 * onto Hermitian symmetry,
 *
 *	X[k, P] = (X[k, P] + conj(X[-k, P])) / 2,
 *
 * with every transformed leading index negated modulo its length (batch and
 * untransformed axes are not mirrored). VkFFT's C2R computes the inverse of a Hermitian
 * spectrum correctly but gives something else for other input — over several axes, and
 * also for a batch of 1-D lines, where the imaginary parts of one line's bins 0 and n/2
 * reach its neighbour (VkFFT transforms two real lines as one complex one) — so every R2C
 * plan but a single 1-D line runs the companion kernel vkg_herm (written in
 * vkfft/kernels_herm.go) on its complex buffer right before VkFFT's inverse. It touches
 * the two planes only; in the multi-dimensional case VkFFT uses that buffer as scratch
 * anyway, and for 1-D lines it only clears imaginary parts that FFTW ignores.
 *
 * The kernel walks the planes as coordinates (plane, inner axes 1-3, outer axis), each
 * work-item owning one pair {k, -k} (the one with the lower offset does the work).
 * Where a buffer argument can only be bound in windows (Vulkan's maxStorageBufferRange),
 * the outer axis is split into launches whose two windows hold a run of slices and the
 * mirrored run; elsewhere one launch covers everything.
 */
#ifndef VKG_HERM_H
#define VKG_HERM_H

#include <stdint.h>

#include "vkg.h"

/* work-items per group (the companion kernels' size on every backend) */
#define VKG_HERM_LOCAL 256
/* the kernel's arguments: the two buffer views, then these scalars (launch.arg) */
enum {
	VKG_HERM_COUNT,  /* work-items of this launch */
	VKG_HERM_NYQ,    /* offset of the n/2 plane; 0 when n is odd (one plane) */
	VKG_HERM_N1, VKG_HERM_N2, VKG_HERM_N3, /* inner axes' lengths (1: none) */
	VKG_HERM_S1, VKG_HERM_S2, VKG_HERM_S3, /* and their element strides */
	VKG_HERM_MIRROR, /* bit i-1: inner axis i is mirrored; bit 3: the outer axis */
	VKG_HERM_NOUT, VKG_HERM_SOUT, /* the outer axis: length, stride */
	VKG_HERM_J0,   /* the first outer index of this launch */
	VKG_HERM_AOFF, VKG_HERM_BOFF, /* element offsets of the two windows (subtracted) */
	VKG_HERM_NSCALARS
};
#define VKG_HERM_NARGS (2 + VKG_HERM_NSCALARS)

typedef struct vkg_herm_launch {
	uint64_t groups;
	uint64_t a_off, a_bytes, b_off, b_bytes; /* the windows, in bytes (bound where it matters) */
	uint64_t arg[VKG_HERM_NSCALARS];
} vkg_herm_launch;

typedef struct vkg_herm {
	int needed;    /* the plan's inverse is a C2R over more than one axis */
	vkg_kernel *k; /* NULL: the projection cannot run (why), and the inverse is refused */
	char why[320];
	int nlaunches;
	vkg_herm_launch *launches; /* malloc'd */
} vkg_herm;

/* Decides from a plan's parameters whether its inverse needs the projection and, when
 * it does, plans the launches of params->hermitian over its complex buffer (the
 * backend's binding limits decide how many). A plan whose projection cannot run keeps
 * why; vkg_herm_check then fails its inverse. Fails only when out of host memory. */
int vkg_herm_init(vkg_herm *h, vkg_device *dev, const vkg_plan_params *p, vkg_status *st);
void vkg_herm_free(vkg_herm *h);
/* VKG_OK when the projection can run (or is not needed), else the reason, as
 * VKG_ERR_UNSUPPORTED. */
int vkg_herm_check(const vkg_herm *h, vkg_status *st);
/* Caps the window of later plans' launches below the backend's limit (0: the backend's
 * own), so that tests reach the windowed launches with small buffers. */
void vkg_herm_set_window_limit(uint64_t bytes);
/* Queues the projection of buffer buf on queue (0: the device's), on backends whose
 * kernel arguments are plain device pointers (OpenCL, CUDA); the context is entered. */
int vkg_herm_run(vkg_device *dev, uint64_t queue, const vkg_herm *h, vkg_mem buf, vkg_status *st);

#endif
