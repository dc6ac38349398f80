/* vkg.h — the engine's C interface, for the engine's own Go code and for the C API's
 * per-call path (capi/).
 *
 * vkg_core.c is the only translation unit that includes vkFFT.h (it is large and slow
 * to compile); it owns plans. Devices, memory, queues and companion kernels belong to
 * the registered backend (vkg_backend.h), reached through the forwarders below. Nothing
 * in this header depends on the backend.
 */
#ifndef VKG_H
#define VKG_H

#include <stddef.h>
#include <stdint.h>

#include "vkg_backend.h"

/* Hands over st->detail (NULL if none); the caller frees it. */
char *vkg_status_take_detail(vkg_status *st);
/* Frees a status's detail: before a status is freed or reused. */
void vkg_status_clear(vkg_status *st);

/* ---- fork (vkg_fork.c) ----
 * A child made by fork() without exec() has only the thread that forked: the GPU driver's
 * threads, the locks they held and the parent's contexts are not usable there, and in
 * libvkfftgo neither is the Go runtime. A pthread_atfork child handler, registered when the
 * library is loaded, marks such a child; every entry point that would touch a device, or
 * take a lock another thread might have held at fork time, checks the mark first and fails
 * with VKG_ERR_FORKED instead of waiting for threads that do not exist. */
int vkg_forked(void);
/* The mark itself, for callers that read it without a call (Go: an atomic load). */
int *vkg_fork_mark(void);
/* Registers the handler (idempotent; the load-time constructor already did). */
void vkg_fork_watch(void);
/* The handler itself: marks this process as a forked child. */
void vkg_fork_child(void);
/* Undoes vkg_fork_child, for tests that mark their own process (never after a real fork). */
void vkg_fork_clear(void);
/* Fills st with the VKG_ERR_FORKED message and returns VKG_ERR_FORKED. */
int vkg_fail_forked(vkg_status *st);
#define VKG_FORK_GUARD(st)                             \
	do {                                           \
		if (__builtin_expect(vkg_forked(), 0)) \
			return vkg_fail_forked(st);    \
	} while (0)
#define VKG_FORK_GUARD_VOID()                          \
	do {                                           \
		if (__builtin_expect(vkg_forked(), 0)) \
			return;                        \
	} while (0)

typedef struct vkg_plan vkg_plan;
/* For tests: forks, makes dev's and plan's calls in the child, which runs only C, and
 * waits for it at most seconds; the child's exit code (bits: calls that did not fail with
 * VKG_ERR_FORKED), -1 when killed at the deadline, 128 + a fatal signal, -2 on a failed
 * fork or wait. vkg_fork.c says which calls. */
int vkg_fork_probe(vkg_device *dev, vkg_plan *plan, int seconds);

/* ---- the registered backend (vkg_backend.c) ----
 * The engine reaches the backend through vkg_be (vkg_backend.h says what each entry
 * does); the functions below forward to it under the names the engine's layers use. */
extern const vkg_backend *vkg_be;
/* Installs be; fails (message in err) for a table of another VKG_BACKEND_VERSION, a
 * table with a required entry missing, or a second backend. */
int vkg_backend_register(const vkg_backend *be, char *err, size_t errlen);
int vkg_backend_id(void); /* the VKFFT_BACKEND number, or -1 with none registered */
const char *vkg_backend_name(void);
int vkg_device_count(vkg_status *st);
int vkg_device_query(int ordinal, vkg_device_info *info, vkg_status *st);
int vkg_device_open(int ordinal, vkg_device **out, vkg_status *st);
int vkg_device_open_native(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal, vkg_status *st);
void vkg_device_close(vkg_device *dev);
const vkg_device_info *vkg_device_get_info(const vkg_device *dev);
void vkg_device_native(vkg_device *dev, vkg_native *out);
uint64_t vkg_device_handle(const vkg_device *dev, int which);
int64_t vkg_device_stat(vkg_device *dev, int which);
int vkg_ctx_enter(vkg_device *dev, vkg_status *st);
void vkg_ctx_leave(vkg_device *dev);
int vkg_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
void vkg_mem_free(vkg_device *dev, vkg_mem mem);
int vkg_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes,
		  vkg_status *st);
int vkg_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		 vkg_status *st);
int vkg_device_sync(vkg_device *dev, vkg_status *st);
int vkg_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes,
		    vkg_status *st);
int vkg_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st);
int vkg_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st);
uint64_t vkg_queue_native(vkg_device *dev, uint64_t queue);
int vkg_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st);
const char *vkg_compiler_ident(void);
/* the driver's and the compiler's files and the compiler's version; 0 when the backend
 * loads nothing at run time */
int vkg_runtime_libraries(const char **driver, const char **compiler, int *major, int *minor);

/* Device-wide wrappers that enter and leave the context themselves (for cgo calls). */
int vkg_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
void vkg_free(vkg_device *dev, vkg_mem mem);
int vkg_upload(vkg_device *dev, vkg_mem dst, const void *src, uint64_t bytes, vkg_status *st);
/* bytes of src to dst at off (waits until they are consumed) */
int vkg_upload_range(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_download(vkg_device *dev, void *dst, vkg_mem src, uint64_t bytes, vkg_status *st);
int vkg_sync(vkg_device *dev, vkg_status *st);
/* A part of device memory to the host (waits for queued work), and a device-to-device
 * copy (queued); for the autotuner's checks. */
int vkg_download_range(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		       vkg_status *st);
int vkg_copy(vkg_device *dev, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st);

/* ---- core layer (vkg_core.c) ---- */
enum { VKG_C2C = 0, VKG_R2C = 1, VKG_R2R = 2 };

/* ---- a plan's kernels one by one (vkg_kset.c; the hooks in vkg_core_kernels.h) ----
 * VkFFT generates and compiles a plan's kernels one after another inside its
 * initialisation. vkg_plan_kernels runs that initialisation once without compiling or
 * running anything, to learn each kernel's final source (after the fuse rewriter) and
 * compile options; the caller finds or compiles the binaries (several at once, with
 * vkg_kernel_compile) and hands the set to vkg_plan_create (params.kernels), whose
 * compiles are served from it. A kernel VkFFT still compiles itself there (the set
 * lacked it) is added to the set, marked from_init, for the caller to keep. */
typedef struct vkg_src_kernel {
	char *source;  /* the source the compiler gets */
	char *options; /* its options, one per line ("" for none) */
	char *name;    /* the program's name (NVRTC's; "" elsewhere) */
	void *binary;  /* malloc'd; NULL until found or compiled */
	uint64_t binary_bytes;
	int from_init; /* compiled by VkFFT during vkg_plan_create */
} vkg_src_kernel;
typedef struct vkg_kernel_set {
	vkg_src_kernel *k;
	int n, cap;
} vkg_kernel_set;
/* Adds a kernel (the texts copied; options NULL is ""); NULL when out of memory. */
vkg_src_kernel *vkg_kernel_set_add(vkg_kernel_set *s, const char *source, const char *options, const char *name);
/* The first kernel of these texts that has a binary, or NULL. */
const vkg_src_kernel *vkg_kernel_set_find(const vkg_kernel_set *s, const char *source, const char *options,
					  const char *name);
/* Frees every kernel's texts and binary, and the array; the set is empty afterwards. */
void vkg_kernel_set_clear(vkg_kernel_set *s);
/* 1 where this build can generate a plan's kernels without compiling them. */
int vkg_plan_kernels_supported(void);
enum { VKG_STORAGE_DEFAULT = 0, VKG_STORAGE_HALF = 1, VKG_STORAGE_FLOAT_COMPUTE_DOUBLE = 2 };

typedef struct vkg_plan_params {
	int rank;            /* 1..4 */
	uint64_t shape[4];   /* row-major, last axis contiguous (numpy order) */
	uint64_t batch;      /* >= 1 */
	int kind;            /* VKG_C2C or VKG_R2C */
	int double_precision;
	int normalize;       /* VkFFT's own 1/N on the inverse (numpy "backward") */
	int use_lut;         /* -1 off, 0 VkFFT's choice, 1 on */
	double forward_scale, inverse_scale; /* applied after VkFFT's own normalisation; 0 = 1 */
	/* launch-configuration knobs; 0 keeps VkFFT's default */
	uint64_t coalesced_memory, aim_threads, register_boost;
	uint64_t register_boost_4step, swap_to_3stage_4step;
	uint64_t grouped_batch[4]; /* per VkFFT dimension, fastest first */
	int64_t bandwidth_boost;   /* performBandwidthBoost: -1 off, >0 factor */
	uint64_t shared_memory;    /* sharedMemorySize cap in bytes */
	uint64_t bluestein_size;   /* forceBluesteinSequenceSize */
	/* C2C read from an input buffer (real_buffer's slot: VkFFT's inputBuffer) and write
	 * buffer, leaving the input untouched: out of place without a copy */
	int out_of_place;
	/* the plan's own buffers: complex data, and for R2C the real data */
	vkg_mem buffer;
	uint64_t buffer_bytes;
	vkg_mem real_buffer;
	uint64_t real_bytes;
	/* kernel binaries: load from blob if non-NULL, else compile (and keep them if save) */
	const void *load_blob;
	uint64_t load_bytes;
	int save;
	/* ---- layout: axes, strides, storage, real-to-real (configure_layout in vkg_core.c);
	 * the Go side maps numpy's shape/axes/strides onto VkFFT's terms (layout.go) ---- */
	int vk_dim;              /* VkFFT dimensions, fastest first; 0 keeps rank/shape/batch */
	uint64_t vk_size[4];
	int vk_omit[4];          /* VkFFT's omitDimension */
	uint64_t vk_batch;       /* numberBatches */
	int strided;             /* src through inputBuffer (in_stride), dst in buffer (out_stride) */
	uint64_t in_stride[4];   /* VkFFT's inputBufferStride: dims 1..vk_dim-1, then the batch */
	uint64_t out_stride[4];  /* VkFFT's bufferStride */
	int r2r_dct, r2r_dst;    /* performDCT / performDST type 1..4 (kind VKG_R2R), else 0 */
	int storage;             /* VKG_STORAGE_* */
	int real_inplace;        /* R2C in one buffer with FFTW's padded rows */
	/* FFTW's c2r semantics for R2C plans of more than one line (vkg_herm.h): the companion
	 * kernel vkg_herm for the plan's storage type, run on the complex buffer before each
	 * inverse. NULL where it could not be built: hermitian_why says why (copied at
	 * creation), and the plan's inverse is refused rather than run on input that may not
	 * be Hermitian. */
	struct vkg_kernel *hermitian;
	const char *hermitian_why;
	/* convolution, separate input/output buffers, zero padding and fused stages
	 * (vkg_core_fuse.h); all zero for a plain transform */
	/* binaries the compiles are served from, and where VkFFT's own compiles are added
	 * (C memory; NULL: VkFFT compiles every kernel itself, as it generates it) */
	vkg_kernel_set *kernels;
	struct vkg_plan_stages {
		/* VkFFT's isInputFormatted / isOutputFormatted: the first pass reads input_buffer,
		 * the last pass writes output_buffer (0: bound at run time); buffer is scratch */
		int separate_input, separate_output;
		vkg_mem input_buffer, output_buffer;
		uint64_t input_bytes, output_bytes;
		/* element strides of the input and output buffers, fastest axis first as VkFFT
		 * counts them (stride[i] is the distance between steps of axis i+1; the entry
		 * after the last axis is the distance between features/batches); 0 = dense */
		uint64_t input_stride[4], output_stride[4];
		/* spatial zero padding, per axis in row-major order like shape: elements
		 * [pad_left, pad_right) of that axis are zero and never read (nor written back) */
		uint64_t pad_left[3], pad_right[3];
		int conv; /* VKG_CONV_* */
		int conj; /* convolution with conj(fft(input)) (cross-correlation) */
		int cross_power; /* divide the product by its magnitude (phase correlation) */
		uint64_t features, matrix, kernels; /* coordinateFeatures, matrixConvolution, numberKernels */
		int symmetric;
		vkg_mem kernel_buffer;
		uint64_t kernel_bytes;
		int forward_only;      /* makeForwardPlanOnly */
		int offsets_at_launch; /* buffer offsets given per run (vkg_plan_run_io) */
		int no_reorder;        /* disableReorderFourStep: multi-pass output left in VkFFT's order */
		int return_to_input;   /* inverseReturnToInputBuffer: the last pass writes the input buffer */
		uint64_t shared_memory; /* sharedMemorySize VkFFT plans kernels for (0: the device's) */
		/* fused stages: VkFFT's generated source is rewritten so that the first pass reads
		 * fuse_load samples (vkg_load) and/or the last pass stores through vkg_store;
		 * fuse_prelude defines both (vkfft/kernels.go). Forward single-precision C2C only. */
		int fuse_load, fuse_store;
		const char *fuse_prelude;      /* prepended to a fused kernel */
		const char *fuse_input_decl;   /* the new declaration of its input, e.g. "const char2* inputs" */
		const char *fuse_extra_params; /* appended to its parameters ("" on CUDA) */
		/* GLSL's (vkg_fuse_text; NULL in the C dialects): the entry point, VkFFT's
		 * declarations of input and output, the output's new one, the text before the entry */
		const char *fuse_entry, *fuse_input_vkfft, *fuse_output_vkfft, *fuse_output_decl, *fuse_entry_prelude;
		vkg_mem fuse_window, fuse_out; /* bound after creation: the window and the store target */
		/* group accumulation of the fused store (vkg_fuse.h, VKG_FUSE_GROUP) when
		 * fuse_group_id is set: how the kernel reads its work-group index along the
		 * batch, and the other reads of it that make the rewriter refuse */
		const char *fuse_group_id, *fuse_group_forbid;
		/* bytes of shared memory the group store declares beside VkFFT's: checked against
		 * the device's limit before a GLSL kernel is compiled (the CUDA and OpenCL drivers
		 * refuse such a kernel themselves) */
		uint64_t fuse_group_shared;
	} stages;
} vkg_plan_params;

enum { VKG_CONV_NONE = 0, VKG_CONV_KERNEL = 1, VKG_CONV_APPLY = 2 };

int vkg_vkfft_version(void);
/* 1 when the VkFFT headers carry cvendor/patches (VKFFT_VKFFTGO_PATCHED), else 0 */
int vkg_vkfft_patched(void);
int vkg_plan_create(vkg_device *dev, const vkg_plan_params *params, vkg_plan **out, vkg_status *st);
/* Adds the kernels a plan of params would compile to out, compiling and running none of
 * them (params.kernels, load_blob and save are ignored). VKG_ERR_UNSUPPORTED where this
 * build cannot (vkg_plan_kernels_supported). */
int vkg_plan_kernels(vkg_device *dev, const vkg_plan_params *params, vkg_kernel_set *out, vkg_status *st);
/* Compiles k's source with its options as VkFFT would; the binary (malloc'd) goes into
 * k->binary. Safe to call from several threads at once, for distinct kernels. */
int vkg_kernel_compile(vkg_device *dev, vkg_src_kernel *k, vkg_status *st);
/* Kernels compiled in forked children (vkg_fork_compile.c).
 * vkg_fork_jobs runs jobs 0..n-1 on up to `workers` workers at once, which take the next
 * job from one queue: processes forked from this one, as many as fork within
 * fork_budget_ms (at least one), and threads of this process for the rest. A worker's fn
 * compiles job i into a malloc'd binary and returns 0. The binaries come back in bins[i]
 * (all NULL on entry; malloc'd, the caller frees) and bytes[i]; a job that failed, or
 * whose child died, hung past timeout_ms or fell far behind the first result
 * (vkg_fork_compile.c), keeps bins[i] NULL. Returns how many jobs have a binary
 * (*from_children of them sent by children; NULL allowed), or -1 when no child could be
 * forked.
 * Every compiler call in this process is bracketed by vkg_compile_enter/leave
 * (vkg_backend.h), so that no thread is inside the compiler when a child is forked. */
typedef int (*vkg_forked_job)(void *ctx, int i, void **bin, size_t *bytes);
int vkg_fork_jobs(int n, int workers, vkg_forked_job fn, void *ctx, int timeout_ms, double fork_budget_ms,
		  void **bins, size_t *bytes, int *from_children);

/* vkg_kernels_compile_forked compiles ks[0..n) (CUDA: NVRTC) on up to `workers` workers of
 * vkg_fork_jobs, each binary stored in its kernel; the kernels left without one are for
 * vkg_kernel_compile. Returns how many were compiled (0 where forking is unsupported),
 * *forked of them in children. */
int vkg_kernels_compile_forked(vkg_device *dev, vkg_src_kernel **ks, int n, int workers, int *forked);

/* Waits for the plan's work on every queue, then frees it. */
void vkg_plan_destroy(vkg_plan *plan);
/* The compiled kernels saved at creation (params.save); valid until destroy. */
int vkg_plan_binary(vkg_plan *plan, const void **data, uint64_t *bytes);
/* Frees the saved binaries once they have been copied out. */
void vkg_plan_drop_binary(vkg_plan *plan);

/* A plan's host round trip in one direction, described for the transfer layer
 * (vkg_xfer.h), which runs it without knowing anything else of plans. Made at creation;
 * valid until vkg_plan_destroy. */
typedef struct vkg_run vkg_run;
const vkg_run *vkg_plan_run_desc(const vkg_plan *plan, int inverse);

/* One transform on device memory, enqueued on queue (the backend's handle as an integer;
 * 0: the device's own) after the plan's earlier work on other queues; buffer/real_buffer 0
 * mean the plan's own. real_buffer is VkFFT's inputBuffer: R2C's real data, or an
 * out-of-place C2C plan's input (params.out_of_place). A non-zero copy_from is first
 * copied into buffer (out-of-place C2C on an in-place plan). Enters the device's context
 * itself. */
int vkg_plan_run_device(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem real_buffer,
			vkg_mem copy_from, uint64_t queue, vkg_status *st);
/* One transform from device memory in to out on the device's queue (vkg_plan_run_device's
 * buffers as a caller names them): a complex plan runs in place when out == in and copies
 * in into out first otherwise; a real plan reads real in and writes complex out forward,
 * and the other way inverse (in is scratch then for more than one axis, and loses the
 * imaginary parts of bins 0 and n/2 for a batch of lines: vkg_herm.h); an in-place real
 * plan needs out == in; a strided plan reads in through its input strides. Sizes (and
 * equal strides in place) are the caller's to check. For the C API's per-call entry
 * points. */
int vkg_plan_run_out_in(vkg_plan *plan, int inverse, vkg_mem out, vkg_mem in, vkg_status *st);
/* vkg_plan_run_out_in with the plan's out-of-place application oop (a plan of the same
 * transform made with params.out_of_place; NULL: none): a contiguous complex plan given
 * out != in runs oop, which reads in and writes out, instead of copying in into out and
 * transforming there. */
int vkg_plan_run_out_in_oop(vkg_plan *plan, vkg_plan *oop, int inverse, vkg_mem out, vkg_mem in, vkg_status *st);

/* A run with every buffer explicit, for plans with stages: buffer (0 = the plan's own),
 * input and output (separate_input/output; 0 = the plan's), byte offsets into them
 * (offsets_at_launch), on queue (0 = the device's). Expects the context entered. */
int vkg_plan_run_io(vkg_plan *plan, int inverse, uint64_t queue, vkg_mem buffer, vkg_mem input,
		    uint64_t input_off, vkg_mem output, uint64_t output_off, vkg_status *st);
/* The same, entering the context itself and optionally waiting (for calls from Go). */
int vkg_plan_run_io_wait(vkg_plan *plan, int inverse, vkg_mem buffer, vkg_mem input, vkg_mem output,
			 int wait, vkg_status *st);
/* vkg_conv.c: items runs of vkg_plan_run_io, item i at byte offsets i*in_step and
 * i*out_step (offsets_at_launch; items 1 runs once at offset 0). The _wait form enters
 * the context, first copies copy_from (when not 0) into in, and may wait. The host round
 * trip uploads src into in, runs the items, downloads out into dst and waits. With a
 * vkg_conv_pad, in and out are compact (comps arrays of m) and the plan runs in place on
 * io (comps arrays of p): the pad kernel fills io with in and zeros, the crop kernel
 * copies io's first m points back to out. */
typedef struct vkg_conv_pad {
	vkg_kernel *pad, *crop;
	uint64_t comps, m[3], p[3]; /* row-major, leading axes 1 below rank 3 */
	vkg_mem io;
	uint64_t boundary; /* what the pad kernel puts beyond the data: VKG_BOUNDARY_* */
} vkg_conv_pad;
/* The values beyond the data in a zero-padded convolution's padding: the positions past
 * the data's end stand for those after it, the rest (up to p) for those before its start,
 * split halfway; they take zeros, the nearest edge value, or the periodic continuation. */
enum { VKG_BOUNDARY_ZERO = 0, VKG_BOUNDARY_REPLICATE = 1, VKG_BOUNDARY_PERIODIC = 2 };
int vkg_plan_run_items(vkg_plan *plan, uint64_t queue, vkg_mem in, vkg_mem out, uint64_t items, uint64_t in_step,
		       uint64_t out_step, vkg_status *st);
int vkg_plan_run_items_wait(vkg_plan *plan, vkg_device *dev, const vkg_conv_pad *cp, vkg_mem copy_from, vkg_mem in,
			    vkg_mem out, uint64_t items, uint64_t in_step, uint64_t out_step, int wait, vkg_status *st);
int vkg_plan_run_io_host(vkg_plan *plan, vkg_device *dev, const vkg_conv_pad *cp, void *dst, uint64_t dst_bytes,
			 vkg_mem out, const void *src, uint64_t src_bytes, vkg_mem in, uint64_t items, vkg_status *st);
/* The launches of the Hermitian projection before each inverse (vkg_herm.h); 0: none. */
int vkg_plan_hermitian_launches(const vkg_plan *plan);
/* How many of VkFFT's kernels the fused-stage rewriter changed (0 without stages). */
int vkg_plan_fused_kernels(vkg_plan *plan);
/* The number of passes (kernel launches) of a forward transform along the first axis. */
int vkg_plan_axis_uploads(vkg_plan *plan);
/* The passes over the whole data of one transform (forward, or inverse): the kernels
 * VkFFT launches on every axis (Bluestein's second half and R2C's decomposition
 * included) and the normalisation kernel when the plan has one, but not the c2r
 * projection's small launches. 0 if the plan has no application in that direction. */
int vkg_plan_passes(vkg_plan *plan, int inverse);
/* Device memory VkFFT allocated itself for the plan (its temporary buffer), in bytes. */
uint64_t vkg_plan_own_bytes(vkg_plan *plan);
/* How often the plan recorded a direction into command buffers (backends that record:
 * tests expect once per direction while the buffers stay the same); 0 elsewhere. */
uint64_t vkg_plan_recordings(vkg_plan *plan);

/* ---- whole spectra of real data (vkg_full.c) ----
 * A real plan whose complex side is the whole spectrum, as a complex FFT of the real data
 * gives it (numpy's fftn of real input), instead of the half one: companion kernels turn
 * one into the other on the device, so host transfers carry the whole spectrum and nothing
 * is expanded on the host. EXPAND: an R2C plan and the half spectrum in its buffer;
 * forward expands it into the whole one (the other half from Hermitian symmetry), inverse
 * folds a whole spectrum X into the half one of (X + conj(X[-k]))/2, so the C2R returns
 * the real part of X's inverse. WIDEN: a C2C plan (the halved axis is not transformed);
 * forward widens the real data to complex, inverse keeps the real part. */
enum { VKG_FULL_NONE = 0, VKG_FULL_EXPAND = 1, VKG_FULL_WIDEN = 2 };
typedef struct vkg_full_params {
	int mode;              /* VKG_FULL_* */
	vkg_kernel *to_full;   /* EXPAND vkg_herm_expand (half -> whole); WIDEN vkg_widen (real -> complex) */
	vkg_kernel *from_full; /* EXPAND vkg_herm_fold (whole -> half); WIDEN vkg_real_part (complex -> real) */
	vkg_mem buffer;        /* EXPAND: the whole spectrum; WIDEN: the real data (the plan's own) */
	uint64_t bytes;
	/* EXPAND: the data are batch x dims[0] x dims[1] x dims[2] x n, row-major (leading dims
	 * 1 below rank 4), n the halved axis; bit i of mirror is set when dims[i] is
	 * transformed, so its frequencies mirror too. WIDEN: count reals in all. */
	uint64_t batch, dims[3], n, mirror;
	uint64_t count;
} vkg_full_params;
/* Makes plan a whole-spectrum plan (its run descriptors and buffer runs included): mode
 * EXPAND on an R2C plan, WIDEN on a C2C one, neither strided nor in place. The kernels
 * and the buffer stay the caller's; they must outlive the plan. */
int vkg_plan_set_full(vkg_plan *plan, const vkg_full_params *f, vkg_status *st);
/* The kernels' launches on queue (the context entered): to_full from src into dst, and
 * from_full from src into dst, over the geometry of f. */
int vkg_full_to(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_mem src, vkg_mem dst, vkg_status *st);
int vkg_full_from(const vkg_full_params *f, vkg_device *dev, uint64_t queue, vkg_mem src, vkg_mem dst,
		  vkg_status *st);

/* ---- companion kernels (the backend's module_build & co.) ---- */
int vkg_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
		     vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st);
void vkg_module_destroy(vkg_module *m);
int vkg_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st);
/* Expects the context entered. Launches of one kernel may come from several threads at
 * once (OpenCL keeps a kernel's arguments: its launches take a lock). */
int vkg_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st);
/* The largest window of a buffer one kernel argument may view, and the alignment of its
 * offset, in bytes: Vulkan's maxStorageBufferRange and minStorageBufferOffsetAlignment;
 * unlimited (a device pointer) on OpenCL and CUDA. */
void vkg_kernel_binding_limits(vkg_device *dev, uint64_t *max_bytes, uint64_t *align);
/* vkg_kernel_launch on the device's queue, entering the context itself (vkg_conv.c). */
int vkg_kernel_launch_now(vkg_device *dev, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs,
			  const vkg_arg *args, vkg_status *st);

#endif
