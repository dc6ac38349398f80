/* vkfftgo.h — the C interface of libvkfftgo, GPU FFTs through VkFFT with cached plans.
 *
 * Hand-written and stable. Everything is reached through opaque handles, so no struct
 * layout here depends on the GPU backend; the backend the library was built for is in
 * the generated vkfftgo_config.h, installed beside this file (VKFFTGO_BACKEND).
 *
 *   vkfftgo_device *d; vkfftgo_plan *p;
 *   vkfftgo_device_open(0, &d);
 *   vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;   (C2C, single, backward norm)
 *   desc.rank = 3; desc.shape[0] = nz; desc.shape[1] = ny; desc.shape[2] = nx;
 *   vkfftgo_plan_create(d, &desc, &p);
 *   vkfftgo_forward(p, out, in); vkfftgo_inverse(p, out, in);
 *   vkfftgo_plan_destroy(p); vkfftgo_device_close(d);
 *
 * Build:  cc app.c $(pkg-config --cflags --libs vkfftgo)
 *   or    find_package(VkFFTGo) + target_link_libraries(app VkFFTGo::vkfftgo)
 *
 * ERRORS. Every function that can fail returns a vkfftgo_status; VKFFTGO_SUCCESS is 0.
 * On failure vkfftgo_last_error() returns a message that says what was wrong, for the
 * calling thread only; a successful call leaves it as it was (like errno).
 *
 * THREADS. All functions may be called from any thread. Devices may be shared between
 * threads. Calls on one plan are serialised by the plan (a VkFFT application is not
 * reentrant): give each thread its own plan to run transforms in parallel. A handle
 * destroyed (or whose device was closed) while another thread uses it makes that call
 * finish first, and every later call return VKFFTGO_ERROR_INVALID_HANDLE: handles are
 * never reused for another object.
 *
 * COST. The per-call functions — vkfftgo_execute, vkfftgo_forward/inverse,
 * vkfftgo_execute_buffer, vkfftgo_execute_cl/_cu, vkfftgo_device_sync — run in C and
 * never enter the library's Go runtime; creating and destroying objects does. So does,
 * once per plan, the first out-of-place (out != in) complex transform on device memory:
 * it builds the plan's out-of-place kernels (through the kernel cache, like a plan),
 * which every later call runs from C with no copy of in.
 *
 * LAYOUT. Shapes are row-major like numpy and FFTW: shape[rank-1] is contiguous.
 * Complex data is interleaved (float re, im) — C99 float complex / std::complex<float>,
 * or the double versions. R2C plans take real data of the plan's shape and produce
 * numpy's rfftn half spectrum: the last axis has shape[rank-1]/2+1 complex elements.
 * Their inverse is FFTW's c2r (numpy's irfftn) of any half spectrum, Hermitian or not:
 * the leading axes are inverted as complex data, then each last-axis line counts its
 * bins 0 and n/2 by their real parts.
 *
 * INSIDE YOUR PROCESS. libvkfftgo.so carries a Go runtime:
 *  - One runtime per process; the library is never unloaded (dlclose does not unload
 *    it).
 *  - fork() without exec(): the child has only the thread that forked, so neither the
 *    Go runtime nor the GPU context (OpenCL, CUDA, Vulkan) nor the parent's devices,
 *    plans and buffers can be used there. The library notices (a pthread_atfork
 *    handler, registered when it is loaded), and in the child every function but the
 *    few listed below returns VKFFTGO_ERROR_FORKED at once, with a message saying so,
 *    instead of waiting for threads that do not exist: transforms, syncs, creations,
 *    vkfftgo_device_open (no device can be opened in the child either), and destroys
 *    and closes, which release nothing (the objects are the parent's; the child's exit
 *    frees its copy of the memory). Only the functions that touch no state still
 *    answer: vkfftgo_last_error, vkfftgo_status_string, vkfftgo_version,
 *    vkfftgo_version_string, vkfftgo_check_version, vkfftgo_backend,
 *    vkfftgo_backend_name, vkfftgo_vkfft_version and vkfftgo_forked. A child that needs
 *    the GPU must exec a new program, or be started that way (Python's multiprocessing
 *    'spawn' start method instead of 'fork'; 'forkserver' only if the server process
 *    never loaded the library, which LD_PRELOAD makes every process do); a process
 *    forked before the library was loaded may load and use it as usual. A fork made with a raw
 *    system call, bypassing the C library's fork() and its pthread_atfork handlers,
 *    goes unnoticed.
 *  - The Go runtime installs signal handlers (SIGSEGV, SIGBUS, SIGFPE, SIGPIPE, ...) when
 *    the library is loaded. A host that installs its own SIGSEGV/SIGBUS/SIGFPE handler
 *    afterwards must install it with SA_ONSTACK (and SA_SIGINFO) and chain to the
 *    handler it replaced (call the old sa_sigaction) for faults that are not its own;
 *    otherwise faults the Go runtime expects (and turns into errors) kill the process.
 *    Install handlers with sigaction, not signal(). tests/capi/signal_host.cpp does it.
 *  - No Go panic crosses into C: every entry point recovers and returns
 *    VKFFTGO_ERROR_INTERNAL. Invalid pointers that reach the GPU driver are not caught.
 *  - Only vkfftgo_* symbols are exported.
 */
#ifndef VKFFTGO_H
#define VKFFTGO_H

#include <stddef.h>
#include <stdint.h>

#ifndef VKFFTGO_BUILDING_LIBRARY
#include "vkfftgo_config.h" /* generated: VKFFTGO_BACKEND, the backend guard */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- opaque handles ---- */
typedef struct vkfftgo_device vkfftgo_device; /* one GPU context + in-order queue/stream */
typedef struct vkfftgo_plan vkfftgo_plan;     /* compiled kernels + device buffers, reused */
typedef struct vkfftgo_buffer vkfftgo_buffer; /* device memory owned by the library */

/* ---- status codes ---- */
typedef enum vkfftgo_status {
	VKFFTGO_SUCCESS = 0,
	VKFFTGO_ERROR_INVALID_ARGUMENT = 1, /* an argument is out of range (enum, size field) */
	VKFFTGO_ERROR_NULL_POINTER = 2,     /* a required pointer or handle is NULL */
	VKFFTGO_ERROR_INVALID_HANDLE = 3,   /* not a live handle of this kind (destroyed?) */
	VKFFTGO_ERROR_INVALID_SHAPE = 4,    /* rank not 1..4, or a dimension <= 0 */
	VKFFTGO_ERROR_INVALID_BATCH = 5,    /* batch < 0 */
	VKFFTGO_ERROR_WRONG_SIZE = 6,       /* a buffer has not the size the plan needs */
	VKFFTGO_ERROR_CLOSED = 7,           /* the object was closed (its device closed) */
	VKFFTGO_ERROR_TOO_LARGE = 8,        /* does not fit the device, or 64-bit sizes */
	VKFFTGO_ERROR_OUT_OF_MEMORY = 9,    /* device or host memory exhausted */
	VKFFTGO_ERROR_UNSUPPORTED = 10,     /* the device or VkFFT cannot do this */
	VKFFTGO_ERROR_WRONG_DEVICE = 11,    /* a buffer of another device than the plan */
	VKFFTGO_ERROR_NO_DEVICE = 12,       /* no such device, or no platform */
	VKFFTGO_ERROR_NO_BACKEND = 13,      /* library built without a GPU backend */
	VKFFTGO_ERROR_VERSION = 14,         /* VkFFT too old */
	VKFFTGO_ERROR_BACKEND = 15,         /* the GPU API (OpenCL, CUDA) reported an error */
	VKFFTGO_ERROR_VKFFT = 16,           /* VkFFT reported an error */
	VKFFTGO_ERROR_INTERNAL = 17,        /* a bug in vkfftgo (a recovered panic) */
	VKFFTGO_ERROR_FORKED = 18           /* called in a child forked without exec (INSIDE YOUR PROCESS) */
} vkfftgo_status;

#ifndef VKFFTGO_NO_PROTOTYPES /* (defined only inside the library's Go code) */
/* The calling thread's message for its last failed call ("" if none). Valid until that
 * thread's next vkfftgo call; never NULL. */
const char *vkfftgo_last_error(void);
/* A constant name for a status code, e.g. "VKFFTGO_ERROR_WRONG_SIZE". */
const char *vkfftgo_status_string(vkfftgo_status status);

/* ---- library identity ---- */
/* The VKFFT_BACKEND number the library was built with: 3 OpenCL, 1 CUDA, 0 Vulkan. It
 * equals VKFFTGO_BACKEND from vkfftgo_config.h for a correctly built program. */
int vkfftgo_backend(void);
const char *vkfftgo_backend_name(void); /* "opencl", "cuda", "vulkan" */
/* The library's version as MAJOR*10000 + MINOR*100 + PATCH (compare with
 * VKFFTGO_VERSION from vkfftgo_config.h), and as a string "MAJOR.MINOR.PATCH". */
int vkfftgo_version(void);
const char *vkfftgo_version_string(void);
/* The VkFFT version compiled in, as MAJOR*10000 + MINOR*100 + PATCH (10304 = 1.3.4). */
int vkfftgo_vkfft_version(void);
/* Whether the library loaded at run time serves a program compiled against this header:
 * VKFFTGO_SUCCESS if its major version is the program's and its minor.patch at least the
 * program's, else VKFFTGO_ERROR_VERSION with a message naming both (an older library
 * lacks functions or descriptor fields the program may use; another major version may
 * have changed them). Call it once at start-up, as VKFFTGO_CHECK_VERSION(). The version
 * macros VKFFTGO_VERSION_MAJOR, _MINOR, _PATCH and VKFFTGO_VERSION come from
 * vkfftgo_config.h, generated with the library; see docs/api-stability.md for what a
 * version promises. */
vkfftgo_status vkfftgo_check_version(int major, int minor, int patch);
#define VKFFTGO_CHECK_VERSION() \
	vkfftgo_check_version(VKFFTGO_VERSION_MAJOR, VKFFTGO_VERSION_MINOR, VKFFTGO_VERSION_PATCH)
/* 1 in a child process forked (fork without exec) from a process that had loaded the
 * library, where every other call returns VKFFTGO_ERROR_FORKED; else 0. Never enters the
 * Go runtime and takes no lock: a library that forwards to another implementation in
 * such a child (libvkfftgo_fftw3 runs FFTW there) asks this first. */
int vkfftgo_forked(void);

/* ---- devices ---- */
/* Number of devices of the library's backend, across all platforms. */
vkfftgo_status vkfftgo_device_count(int *count);
/* Opens device ordinal (0 .. count-1): one context and queue for the handle's life. */
vkfftgo_status vkfftgo_device_open(int ordinal, vkfftgo_device **device);
/* Closes the device, and with it every plan and buffer still open on it (their handles
 * become invalid). NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_device_close(vkfftgo_device *device);
/* Copies the device name into name (NUL-terminated, truncated to capacity). */
vkfftgo_status vkfftgo_device_name(vkfftgo_device *device, char *name, size_t capacity);
/* Whether double precision plans can run (1) or not (0). */
vkfftgo_status vkfftgo_device_supports_double(vkfftgo_device *device, int *supported);
/* Waits until all work queued on the device has finished. */
vkfftgo_status vkfftgo_device_sync(vkfftgo_device *device);
#endif /* VKFFTGO_NO_PROTOTYPES */

/* ---- a device on your own CUDA or OpenCL context ----
 * For a host that already has a context (an ITK, OpenCV or ArrayFire program, a CuPy or
 * pyopencl user): the library runs its work there instead of making a second context,
 * so memory and queues are shared. Both functions exist in every library; the one for
 * another backend than the library's returns VKFFTGO_ERROR_UNSUPPORTED. */
struct CUctx_st;          /* CUcontext is struct CUctx_st * */
struct CUstream_st;       /* CUstream */
struct _cl_context;       /* cl_context */
struct _cl_device_id;     /* cl_device_id */
struct _cl_command_queue; /* cl_command_queue */
#ifndef VKFFTGO_NO_PROTOTYPES
/* CUDA: a device on context (not NULL), running its work on stream (NULL: a
 * non-blocking stream of the device's own). The library neither retains nor destroys
 * the context or the stream: keep both alive until vkfftgo_device_close, which waits
 * for the stream and leaves the calling thread's current context as it was. */
vkfftgo_status vkfftgo_device_open_cu(struct CUctx_st *context, struct CUstream_st *stream,
				      vkfftgo_device **device);
/* OpenCL: a device on context (not NULL) and device_id (NULL: the context's first
 * device), running its work on queue (NULL: a new in-order queue of its own; a queue
 * given must be in order and of that context and device). The library retains the
 * context and queue (clRetainContext, clRetainCommandQueue) and releases them at
 * vkfftgo_device_close: release your own references whenever you like; it never
 * destroys what it did not create. */
vkfftgo_status vkfftgo_device_open_cl(struct _cl_context *context, struct _cl_device_id *device_id,
				      struct _cl_command_queue *queue, vkfftgo_device **device);
#endif

/* Device memory held by the device's plans and buffers (not VkFFT's small tables).
 * Set size = sizeof(vkfftgo_mem_stats) (VKFFTGO_MEM_STATS_INIT does); later versions
 * may add fields at the end and fill only the ones the caller's size covers. */
typedef struct vkfftgo_mem_stats {
	uint32_t size;
	uint32_t reserved;
	int64_t live_allocations; /* allocations held by open plans and buffers */
	int64_t live_bytes;       /* their size */
	int64_t allocations;      /* device allocations made since open */
	int64_t frees;            /* device allocations freed since open */
	int64_t cached_bytes;     /* released memory kept by the allocation cache for reuse */
} vkfftgo_mem_stats;
#define VKFFTGO_MEM_STATS_INIT { (uint32_t)sizeof(vkfftgo_mem_stats), 0u, 0, 0, 0, 0, 0 }
#ifndef VKFFTGO_NO_PROTOTYPES
vkfftgo_status vkfftgo_device_mem_stats(vkfftgo_device *device, vkfftgo_mem_stats *stats);
#endif

/* The device allocation cache: memory released by plans and buffers stays allocated, in
 * size buckets, for later plans and buffers, so loops that create and destroy them make
 * no device allocation or free after the first round (cudaFree synchronises the whole
 * device). Up to limit bytes are kept (default: a quarter of the device's memory, at most
 * 1 GiB); 0 turns caching off. */
typedef struct vkfftgo_alloc_cache_stats {
	uint32_t size;
	uint32_t reserved;
	int64_t hits;         /* allocations served from the cache */
	int64_t misses;       /* allocations that went to the device */
	int64_t evicted;      /* cached allocations freed (limit, trim) */
	int64_t bytes_held;   /* cached, free for reuse */
	int64_t bytes_in_use; /* held by open plans and buffers */
	int64_t limit;
} vkfftgo_alloc_cache_stats;
#define VKFFTGO_ALLOC_CACHE_STATS_INIT { (uint32_t)sizeof(vkfftgo_alloc_cache_stats), 0u, 0, 0, 0, 0, 0, 0 }
#ifndef VKFFTGO_NO_PROTOTYPES
vkfftgo_status vkfftgo_alloc_cache_set_limit(vkfftgo_device *device, int64_t bytes);
/* Frees all cached memory. */
vkfftgo_status vkfftgo_alloc_cache_trim(vkfftgo_device *device);
vkfftgo_status vkfftgo_alloc_cache_get_stats(vkfftgo_device *device, vkfftgo_alloc_cache_stats *stats);
/* Host transfers of at least bytes from ordinary (pageable) memory go through pinned
 * staging buffers, the copy into them overlapping the transfer; negative turns staging
 * off. Default 1 MiB, off for devices that compute in host memory (a CPU). */
vkfftgo_status vkfftgo_device_set_staging_threshold(vkfftgo_device *device, int64_t bytes);
#endif

/* ---- plans ---- */
enum { VKFFTGO_MAX_RANK = 3 };  /* entries of desc.shape; a rank-4 plan puts its last axis in shape3 */
enum { VKFFTGO_MAX_AXES = 4 };  /* the most axes a plan has (VkFFT 1.3.4's limit) */
enum { VKFFTGO_C2C = 0, VKFFTGO_R2C = 1, VKFFTGO_R2R = 2 }; /* kind */
enum { VKFFTGO_DCT1 = 1, VKFFTGO_DCT2 = 2, VKFFTGO_DCT3 = 3, VKFFTGO_DCT4 = 4, /* r2r_kind */
       VKFFTGO_DST1 = 5, VKFFTGO_DST2 = 6, VKFFTGO_DST3 = 7, VKFFTGO_DST4 = 8 };
enum { VKFFTGO_STORAGE_DEFAULT = 0,              /* storage: the precision's own type */
       VKFFTGO_STORAGE_HALF = 1,                 /* fp16 data (uint16_t bits), fp32 arithmetic */
       VKFFTGO_STORAGE_FLOAT_COMPUTE_DOUBLE = 2 }; /* float data, double arithmetic */
enum { VKFFTGO_SINGLE = 0, VKFFTGO_DOUBLE = 1 };          /* precision */
enum { VKFFTGO_NORM_BACKWARD = 0, VKFFTGO_NORM_ORTHO = 1, /* numpy's norm= */
       VKFFTGO_NORM_FORWARD = 2 };
enum { VKFFTGO_LUT_DEFAULT = 0, VKFFTGO_LUT_ON = 1, VKFFTGO_LUT_OFF = 2 };
enum { VKFFTGO_FORWARD = -1, VKFFTGO_INVERSE = 1 };       /* direction, as FFTW/cuFFT */
/* desc.tune: whether the plan uses autotuned launch parameters. DEFAULT reads the
 * VKFFTGO_TUNE environment variable (off, cached, measure, refresh; cached when unset).
 * CACHED uses a tuning stored for this device and plan, if any, else a fixed prior where
 * VkFFT's defaults are known to be slow (VKFFTGO_TUNED_PRIOR); MEASURE also measures
 * one (seconds) when none is stored, and stores it beside the kernel cache; REFRESH
 * measures even when one is stored. Knobs set by hand (below) turn tuning off. */
enum { VKFFTGO_TUNE_DEFAULT = 0, VKFFTGO_TUNE_OFF = 1, VKFFTGO_TUNE_CACHED = 2,
       VKFFTGO_TUNE_MEASURE = 3, VKFFTGO_TUNE_REFRESH = 4 };
/* where a plan's launch parameters came from (vkfftgo_plan_tuned) */
enum { VKFFTGO_TUNED_NONE = 0, VKFFTGO_TUNED_BY_HAND = 1, VKFFTGO_TUNED_STORED = 2,
       VKFFTGO_TUNED_MEASURED = 3, VKFFTGO_TUNED_PRIOR = 4 };

/* A plan's description. Always start from VKFFTGO_PLAN_DESC_INIT: it sets size, which
 * tells the library which version of this struct the caller was compiled with (later
 * versions only add fields at the end; an older library rejects a newer descriptor
 * only if the caller set one of the fields it does not know). */
typedef struct vkfftgo_plan_desc {
	uint32_t size;      /* sizeof(vkfftgo_plan_desc); set by VKFFTGO_PLAN_DESC_INIT */
	int32_t kind;       /* VKFFTGO_C2C (default) or VKFFTGO_R2C */
	int32_t precision;  /* VKFFTGO_SINGLE (default) or VKFFTGO_DOUBLE */
	int32_t norm;       /* VKFFTGO_NORM_BACKWARD (default): inverse scaled by 1/N */
	int32_t lut;        /* twiddle source, VKFFTGO_LUT_DEFAULT */
	int32_t rank;       /* 1..4 (4: see shape3) */
	int64_t shape[VKFFTGO_MAX_RANK]; /* row-major; for R2C the real data's shape */
	int64_t batch;      /* transforms of shape laid one after another; 0 means 1 */
	/* VkFFT launch-configuration knobs; 0 keeps VkFFT's defaults */
	int64_t coalesced_memory, aim_threads, register_boost;

	/* ---- since 0.2: axes, rank 4, real-to-real, storage, in-place R2C, strides. A
	 * descriptor of the size above (an older header's) still works: these are zero. ---- */
	int64_t shape3;     /* rank 4: the fourth, last (contiguous) axis after shape[0..2] */
	int32_t naxes;      /* axes to transform (numpy's axes=); 0 = all of them */
	int32_t axes[VKFFTGO_MAX_AXES]; /* axis numbers, negative count from the end; the others
				   are batch dimensions wherever they sit. R2C needs the last axis */
	int32_t r2r_kind;   /* kind VKFFTGO_R2R: VKFFTGO_DCT1..VKFFTGO_DST4 (scipy's dctn/dstn,
			       norm="backward"; the inverse undoes the forward under every norm) */
	int32_t storage;    /* VKFFTGO_STORAGE_*; HALF and FLOAT_COMPUTE_DOUBLE need VKFFTGO_SINGLE */
	int32_t real_inplace; /* R2C: 1 = one buffer in FFTW's padded layout, rows of
				 2*(n/2+1) reals; transform with out == in */
	/* Strides in elements per axis (numpy's strides / element size), for device buffers and
	 * native memory; all zero = contiguous. C2C and R2R: in_strides for in, out_strides for
	 * out, both directions. R2C: in_strides for the real data, out_strides for the
	 * spectrum. Host transforms need contiguous plans. */
	int64_t in_strides[VKFFTGO_MAX_AXES];
	int64_t out_strides[VKFFTGO_MAX_AXES];
	/* ---- since 0.2: autotuning (a descriptor ending above still works: these are zero) ---- */
	int32_t tune;       /* VKFFTGO_TUNE_DEFAULT (the environment's, cached when unset) */
	int32_t tuning_lut; /* twiddle source when lut is VKFFTGO_LUT_DEFAULT (a tuner's choice) */
	/* more knobs (see vkfft.Tuning): four-step register boost, bandwidth boost (-1 off),
	 * three-stage four-step threshold, shared memory cap in bytes, forced Bluestein
	 * length, and per VkFFT dimension (fastest first) the cap on transforms per block */
	int64_t register_boost_4step, bandwidth_boost, swap_to_3stage_4step, shared_memory,
		bluestein_size;
	int64_t grouped_batch[VKFFTGO_MAX_AXES];
	/* ---- whole spectra (a descriptor ending above still works: these are zero) ---- */
	int32_t full_spectrum; /* R2C: 1 = the complex side is the whole spectrum, prod(shape)
				  complex values per transform as a C2C FFT of the real data gives
				  them (numpy's fftn of real input), expanded from the half one on
				  the device; the inverse takes a whole spectrum X and returns the
				  real part of its inverse (that of (X + conj(X[-k]))/2), folded on
				  the device. Axes may leave out the last axis. Not with
				  real_inplace, strides or fp16 storage. */
	int32_t reserved0;
} vkfftgo_plan_desc;
#define VKFFTGO_PLAN_DESC_INIT                                                              \
	{ (uint32_t)sizeof(vkfftgo_plan_desc), VKFFTGO_C2C, VKFFTGO_SINGLE,                  \
	  VKFFTGO_NORM_BACKWARD, VKFFTGO_LUT_DEFAULT, 0, { 0, 0, 0 }, 1, 0, 0, 0,             \
	  0, 0, { 0, 0, 0, 0 }, 0, VKFFTGO_STORAGE_DEFAULT, 0, { 0, 0, 0, 0 }, { 0, 0, 0, 0 },   \
	  VKFFTGO_TUNE_DEFAULT, VKFFTGO_LUT_DEFAULT, 0, 0, 0, 0, 0, { 0, 0, 0, 0 }, 0, 0 }

#ifndef VKFFTGO_NO_PROTOTYPES
/* Builds a plan: compiles the kernels and allocates the device buffers every later
 * transform reuses (about a second; do it once, keep the plan). */
vkfftgo_status vkfftgo_plan_create(vkfftgo_device *device, const vkfftgo_plan_desc *desc,
				   vkfftgo_plan **plan);
/* Frees the plan's kernels and device buffers. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_plan_destroy(vkfftgo_plan *plan);
/* The launch parameters the plan runs with: fills desc (its size set, e.g. by
 * VKFFTGO_PLAN_DESC_INIT) with the plan's description, the knobs as tuned; *source (may
 * be NULL) gets VKFFTGO_TUNED_*. Timings of the tuning: default_ms and tuned_ms (may be
 * NULL; 0 when never measured) are device forward+inverse times on this device. */
vkfftgo_status vkfftgo_plan_tuned(vkfftgo_plan *plan, vkfftgo_plan_desc *desc, int *source,
				  double *default_ms, double *tuned_ms);
/* The sizes the plan's data have, in bytes: complex_bytes for complex data (C2C input and
 * output, the R2C spectrum); real_bytes for R2C real data (0 for C2C). Either may be NULL. */
vkfftgo_status vkfftgo_plan_bytes(vkfftgo_plan *plan, size_t *complex_bytes, size_t *real_bytes);
/* The bytes out and in hold in a transform of direction (VKFFTGO_FORWARD/INVERSE), for
 * every kind of plan: fp16 data counts 2 bytes a value, an in-place R2C plan its padded
 * buffer, a strided plan what its strides reach (buffers must hold at least that). */
vkfftgo_status vkfftgo_plan_io_bytes(vkfftgo_plan *plan, int direction, size_t *out_bytes,
				     size_t *in_bytes);

/* Host transforms: upload in, transform, download into out, wait. out may equal in.
 * C2C: both complex_bytes. R2C forward: in real, out complex; inverse the other way.
 * The inverse is scaled as desc.norm says. in is never modified. */
vkfftgo_status vkfftgo_forward(vkfftgo_plan *plan, void *out, const void *in);
vkfftgo_status vkfftgo_inverse(vkfftgo_plan *plan, void *out, const void *in);
/* The checked form: direction VKFFTGO_FORWARD or VKFFTGO_INVERSE, and the sizes of both
 * buffers in bytes, which must be exactly what the plan needs (else
 * VKFFTGO_ERROR_WRONG_SIZE, before anything is read or written). */
vkfftgo_status vkfftgo_execute(vkfftgo_plan *plan, int direction, void *out, size_t out_bytes,
			       const void *in, size_t in_bytes);

/* ---- device buffers (no host copies on the transform) ---- */
/* Allocates bytes (positive) of device memory; contents undefined. */
vkfftgo_status vkfftgo_buffer_create(vkfftgo_device *device, size_t bytes, vkfftgo_buffer **buffer);
/* Frees it. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_buffer_destroy(vkfftgo_buffer *buffer);
vkfftgo_status vkfftgo_buffer_size(vkfftgo_buffer *buffer, size_t *bytes);
/* Copies bytes (exactly the buffer's size) from the host; returns when src may be reused. */
vkfftgo_status vkfftgo_buffer_upload(vkfftgo_buffer *buffer, const void *src, size_t bytes);
/* Waits for the device's queued work, then copies the buffer (exactly its size) to dst. */
vkfftgo_status vkfftgo_buffer_download(vkfftgo_buffer *buffer, void *dst, size_t bytes);
/* Transforms device buffers of the plan's device; out may equal in (in place). Out of
 * place, a C2C transform reads in and writes out with no copy (a second set of kernels,
 * built on the first such call, as fast as in place), leaving in unchanged.
 * Sizes must be exactly the plan's (see vkfftgo_plan_bytes). The work is only queued:
 * vkfftgo_buffer_download or vkfftgo_device_sync waits for it. An R2C inverse with more
 * than one axis uses in as scratch space; one of a batch of 1-D lines clears the
 * imaginary parts of in's bins 0 and n/2, which it ignores as FFTW does (any R2C inverse
 * computes FFTW's c2r of in, Hermitian or not). */
vkfftgo_status vkfftgo_execute_buffer(vkfftgo_plan *plan, int direction, vkfftgo_buffer *out,
				      vkfftgo_buffer *in);

/* ---- registered host memory (no staging copy, no HostBuffer) ---- */
/* Page-locks bytes of host memory at ptr that the caller allocated (malloc,
 * posix_memalign, mmap, an image library's buffer) for the device's DMA engine: CUDA
 * cuMemHostRegister; OpenCL a CL_MEM_USE_HOST_PTR buffer over it, which drivers that can
 * pin host memory use to do so. Host transforms (vkfftgo_execute, vkfftgo_forward, ...)
 * whose in and out lie in registered memory copy them directly at pinned speed instead
 * of staging them. The memory stays the caller's: keep it allocated until
 * vkfftgo_host_unregister (or vkfftgo_device_close), and do not unregister or free it
 * while a transform on it runs. Ranges must not overlap; registering costs about as
 * much as a large allocation, so do it once per buffer, not per call. */
vkfftgo_status vkfftgo_host_register(vkfftgo_device *device, void *ptr, size_t bytes);
/* Unregisters the memory registered at ptr (the same address), after the device's
 * queued work. */
vkfftgo_status vkfftgo_host_unregister(vkfftgo_device *device, void *ptr);

#endif /* VKFFTGO_NO_PROTOTYPES */

/* ---- streams, pinned host buffers and asynchronous transforms ----
 * A stream is an extra in-order queue of the device (a CUDA stream, an OpenCL command
 * queue): work on different streams may overlap (uploads of one transform with the
 * computation of another). vkfftgo_execute_async queues a host round trip between two
 * pinned host buffers on a stream and returns at once; vkfftgo_stream_wait waits for
 * it. The buffers belong to the device until that wait returns: do not read out or
 * write in before. A plan is ordered across streams (a later call on any stream waits
 * for its earlier work). vkfftgo_execute_async and vkfftgo_stream_wait run in C like
 * the other per-call functions and never enter the library's Go runtime; the other calls
 * here do (a few microseconds). The work itself runs on the device. */
typedef struct vkfftgo_stream vkfftgo_stream;
typedef struct vkfftgo_host_buffer vkfftgo_host_buffer;
#ifndef VKFFTGO_NO_PROTOTYPES
vkfftgo_status vkfftgo_stream_create(vkfftgo_device *device, vkfftgo_stream **stream);
/* Waits for the stream's work, then frees it. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_stream_destroy(vkfftgo_stream *stream);
/* Waits until all work queued on the stream has finished. */
vkfftgo_status vkfftgo_stream_wait(vkfftgo_stream *stream);
/* Allocates bytes (positive) of page-locked host memory for the device's DMA; *ptr (may
 * be NULL) gets its address, valid until vkfftgo_host_buffer_destroy (or the device's
 * close). Host transforms (vkfftgo_execute) on it also copy at pinned speed. */
vkfftgo_status vkfftgo_host_buffer_create(vkfftgo_device *device, size_t bytes, vkfftgo_host_buffer **buffer,
					  void **ptr);
/* Waits for queued work, then frees the memory. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_host_buffer_destroy(vkfftgo_host_buffer *buffer);
/* The buffer's address and size; either pointer may be NULL, not both. */
vkfftgo_status vkfftgo_host_buffer_ptr(vkfftgo_host_buffer *buffer, void **ptr, size_t *bytes);
/* Queues on stream the transform of in into out (direction VKFFTGO_FORWARD/INVERSE),
 * host buffers of the device of exactly the sizes vkfftgo_plan_io_bytes says (out may
 * be in where the plan allows in place); returns without waiting. Strided plans and
 * fp16 storage plans refuse it. */
vkfftgo_status vkfftgo_execute_async(vkfftgo_plan *plan, vkfftgo_stream *stream, int direction,
				     vkfftgo_host_buffer *out, vkfftgo_host_buffer *in);
#endif

/* ---- pipelines: large host batches with transfers overlapping the computation ----
 * A pipeline splits a batched complex-to-complex transform (desc.batch a multiple of
 * chunks, chunks >= 2) into chunks on two streams: while one chunk is transformed the
 * next is uploaded and the previous downloaded, so a host round trip takes about the
 * time of its transfers. Host memory from vkfftgo_host_buffer_create (or registered)
 * goes straight to the device; other memory is staged through the pipeline's own
 * pinned buffers. */
typedef struct vkfftgo_pipeline vkfftgo_pipeline;
#ifndef VKFFTGO_NO_PROTOTYPES
vkfftgo_status vkfftgo_pipeline_create(vkfftgo_device *device, const vkfftgo_plan_desc *desc, int chunks,
				       vkfftgo_pipeline **pipeline);
/* NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_pipeline_destroy(vkfftgo_pipeline *pipeline);
/* The bytes of in and of out (the whole batch). */
vkfftgo_status vkfftgo_pipeline_bytes(vkfftgo_pipeline *pipeline, size_t *bytes);
/* Transforms the whole batch in into out (out may equal in) and returns when out is
 * complete; both sizes must be vkfftgo_pipeline_bytes'. */
vkfftgo_status vkfftgo_pipeline_execute(vkfftgo_pipeline *pipeline, int direction, void *out, size_t out_bytes,
					const void *in, size_t in_bytes);
#endif

/* ---- several devices of one host: pools ----
 * A pool is several devices sharing the work of pool plans: a pool plan splits
 * desc.batch across the devices as evenly as possible (a device gets no share when batch
 * is below the number of devices) and each device transforms its share with a plan, queue
 * and staging of its own, all devices at once; a call returns when every device is done.
 * Host memory goes in and comes out as for one device's plan of the same descriptor, and
 * so do the results (bit for bit on devices of one model). A device that fails makes the
 * call fail with its status and a message naming the device, once the other devices are
 * done. These calls enter the library's Go runtime (a few microseconds per call). */
typedef struct vkfftgo_pool vkfftgo_pool;
typedef struct vkfftgo_pool_plan vkfftgo_pool_plan;
#ifndef VKFFTGO_NO_PROTOTYPES
/* Opens the n devices indices lists (ordinals as vkfftgo_device_open takes them, each at
 * most once) as one pool, in that order; indices NULL with n 0 opens every device. */
vkfftgo_status vkfftgo_pool_open(const int *indices, int n, vkfftgo_pool **pool);
/* Closes the pool's plans (their handles become invalid), then its devices. NULL is
 * allowed and does nothing. */
vkfftgo_status vkfftgo_pool_close(vkfftgo_pool *pool);
/* The number of devices in the pool. */
vkfftgo_status vkfftgo_pool_size(vkfftgo_pool *pool, int *count);
/* Builds a pool plan of desc: kind VKFFTGO_C2C or VKFFTGO_R2C, batch at least 1, host data
 * in the plan's precision (no fp16 storage), contiguous (no strides, no real_inplace).
 * The devices build their plans at once. */
vkfftgo_status vkfftgo_pool_plan_create(vkfftgo_pool *pool, const vkfftgo_plan_desc *desc,
					vkfftgo_pool_plan **plan);
/* Frees the devices' plans. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_pool_plan_destroy(vkfftgo_pool_plan *plan);
/* The bytes out and in hold in a transform of direction, as vkfftgo_plan_io_bytes. */
vkfftgo_status vkfftgo_pool_plan_io_bytes(vkfftgo_pool_plan *plan, int direction, size_t *out_bytes,
					  size_t *in_bytes);
/* How many transforms of the batch each device of the pool runs: batches[k] for the
 * pool's device k (0 for a device without a share); count must be vkfftgo_pool_size's. */
vkfftgo_status vkfftgo_pool_plan_batches(vkfftgo_pool_plan *plan, int64_t *batches, int count);
/* Host transform of in into out, checked as vkfftgo_execute: direction VKFFTGO_FORWARD or
 * VKFFTGO_INVERSE, both sizes exactly vkfftgo_pool_plan_io_bytes' (else
 * VKFFTGO_ERROR_WRONG_SIZE, before anything is read or written); out may equal in for
 * C2C. Returns when every device is done. */
vkfftgo_status vkfftgo_pool_execute(vkfftgo_pool_plan *plan, int direction, void *out, size_t out_bytes,
				    const void *in, size_t in_bytes);
#endif

/* ---- one transform across a pool: slab plans (FFTW-MPI's slab decomposition) ----
 * A slab plan distributes one 2-D or 3-D transform across a pool's devices: device k
 * holds a contiguous slab of the first axis, split by FFTW-MPI's default block rule (each
 * device in pool order takes ceil(n0/devices) rows until none are left: local_n0 and
 * local_0_start). A forward transform transforms each slab along the other axes, transposes
 * all-to-all through host memory so that each device holds a slab of the second axis
 * (the host transposing while the devices transform: chunks), transforms the first axis
 * there and, unless transposed_out is set (FFTW_MPI_TRANSPOSED_OUT), transposes back; the
 * inverse mirrors it. Host arrays go in
 * and come out as for one device's plan of the same shape, batch and norm; with
 * transposed_out the forward's output (with transposed_in the inverse's input) has the
 * first two axes swapped, [batch][n1][n0][n2]. These calls enter the library's Go
 * runtime. */
typedef struct vkfftgo_slab_plan vkfftgo_slab_plan;
/* A slab plan's description. Always start from VKFFTGO_SLAB_DESC_INIT. */
typedef struct vkfftgo_slab_desc {
	uint32_t size;          /* sizeof(vkfftgo_slab_desc); set by VKFFTGO_SLAB_DESC_INIT */
	int32_t kind;           /* VKFFTGO_C2C (default) or VKFFTGO_R2C */
	int32_t precision;      /* VKFFTGO_SINGLE (default) or VKFFTGO_DOUBLE */
	int32_t norm;           /* VKFFTGO_NORM_BACKWARD (default), of the whole transform */
	int32_t rank;           /* 2 or 3 */
	int32_t transposed_out; /* 1: the forward leaves its output transposed */
	int32_t transposed_in;  /* 1: the inverse takes its input transposed */
	int32_t chunks;         /* pipelining of each device's stages: 0 chooses, 1 runs
				   every stage whole, k cuts it into up to k chunks (the host
				   transposes one while the device transforms those before) */
	int64_t shape[3];       /* row-major; for R2C the real data's shape. shape[0] and the
				   second axis of the complex array (for a 2-D R2C shape[1]/2+1)
				   need at least one row per device */
	int64_t batch;          /* transforms laid one after another; 0 means 1 */
} vkfftgo_slab_desc;
#define VKFFTGO_SLAB_DESC_INIT                                                          \
	{ (uint32_t)sizeof(vkfftgo_slab_desc), VKFFTGO_C2C, VKFFTGO_SINGLE,              \
	  VKFFTGO_NORM_BACKWARD, 0, 0, 0, 0, { 0, 0, 0 }, 1 }
#ifndef VKFFTGO_NO_PROTOTYPES
/* Builds a slab plan of desc on the pool's devices, all at once. A shape the pool cannot
 * split (fewer rows or columns than devices), a rank other than 2 or 3 and unknown field
 * values are VKFFTGO_ERROR_INVALID_ARGUMENT or VKFFTGO_ERROR_INVALID_SHAPE, with a message
 * naming the field. vkfftgo_pool_close destroys the pool's slab plans. */
vkfftgo_status vkfftgo_slab_plan_create(vkfftgo_pool *pool, const vkfftgo_slab_desc *desc,
					vkfftgo_slab_plan **plan);
/* Frees the devices' plans and staging. NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_slab_plan_destroy(vkfftgo_slab_plan *plan);
/* Each device's slab: start[k] and rows[k] for the pool's device k, of the first axis
 * or, with transposed 1, of the second axis (the transposed layout); count must be
 * vkfftgo_pool_size's. */
vkfftgo_status vkfftgo_slab_plan_slabs(vkfftgo_slab_plan *plan, int transposed, int64_t *start,
				       int64_t *rows, int count);
/* The bytes out and in hold in a transform of direction (the whole arrays). */
vkfftgo_status vkfftgo_slab_plan_io_bytes(vkfftgo_slab_plan *plan, int direction, size_t *out_bytes,
					  size_t *in_bytes);
/* Host transform of the whole array in into out, checked as vkfftgo_pool_execute (sizes
 * exactly vkfftgo_slab_plan_io_bytes'; out may equal in for C2C); in is not modified
 * unless it is out. Returns when every device is done. */
vkfftgo_status vkfftgo_slab_execute(vkfftgo_slab_plan *plan, int direction, void *out, size_t out_bytes,
				    const void *in, size_t in_bytes);
#endif

/* ---- the plan cache: plans leased by descriptor ----
 * Each device keeps the plans released to it, keyed by their full description, up to
 * limits (like CuPy's plan cache): vkfftgo_plan_acquire hands out an idle plan of the
 * descriptor, or builds one (through the kernel cache, usually in milliseconds), and
 * vkfftgo_plan_release gives it back. A leased plan is an ordinary vkfftgo_plan to every
 * per-call function, owned by its holder alone until released (vkfftgo_plan_destroy
 * releases it too); a lease never waits for another: when all plans of a descriptor are
 * leased, another is built. */
typedef struct vkfftgo_plan_cache_stats {
	uint32_t size;
	uint32_t reserved;
	int64_t hits;      /* leases served by an idle cached plan */
	int64_t misses;    /* leases that built a plan */
	int64_t evictions; /* plans closed to stay within the limits, or by clear */
	int64_t plans;     /* plans held, leased or idle */
	int64_t leased;    /* plans leased now */
	int64_t bytes;     /* device bytes of the plans' buffers */
	int64_t max_plans; /* the limits (vkfftgo_plan_cache_set_limits) */
	int64_t max_bytes;
} vkfftgo_plan_cache_stats;
#define VKFFTGO_PLAN_CACHE_STATS_INIT { (uint32_t)sizeof(vkfftgo_plan_cache_stats), 0u, 0, 0, 0, 0, 0, 0, 0, 0 }

/* ---- the kernel cache: compiled kernels on disk, shared by processes ----
 * Plans are built from kernels saved by earlier processes (milliseconds instead of about
 * a second of compilation). The settings are the process's, for plans built afterwards;
 * the environment (VKFFTGO_CACHE_DIR, VKFFTGO_CACHE_MAX_BYTES) gives the defaults. */
typedef struct vkfftgo_kernel_cache_stats {
	uint32_t size;
	uint32_t reserved;
	int64_t hits, misses;  /* plans built from a saved entry / compiled */
	int64_t rejected;      /* entries found but not trusted (corrupt, stale, foreign) */
	int64_t stored;        /* entries written */
	int64_t store_errors;  /* entries that could not be written */
	int64_t evicted;       /* entries removed to stay under max_bytes */
	int64_t entries, bytes; /* the directory now */
	int64_t max_bytes;
	/* ---- a plan's kernels one by one, found by their source's hash (a struct ending
	 * above still works: these are then left alone) ---- */
	int64_t kernels_compiled; /* compiled from source, ahead of VkFFT or by it */
	int64_t kernels_parallel; /* of those, ahead on the pool of compile jobs */
	int64_t kernels_forked;   /* of those, in forked child processes (VKFFTGO_COMPILE_FORK) */
	int64_t kernels_loaded;   /* found by their source instead of compiled */
} vkfftgo_kernel_cache_stats;
#define VKFFTGO_KERNEL_CACHE_STATS_INIT \
	{ (uint32_t)sizeof(vkfftgo_kernel_cache_stats), 0u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

#ifndef VKFFTGO_NO_PROTOTYPES
/* Leases a plan of desc from the device's cache (building it on a miss). */
vkfftgo_status vkfftgo_plan_acquire(vkfftgo_device *device, const vkfftgo_plan_desc *desc, vkfftgo_plan **plan);
/* Gives a leased plan back; its handle becomes invalid. NULL does nothing; a plan of
 * vkfftgo_plan_create is VKFFTGO_ERROR_INVALID_ARGUMENT (destroy it instead). */
vkfftgo_status vkfftgo_plan_release(vkfftgo_plan *plan);
/* At most max_plans plans (0: none kept, every released plan is freed; negative: no
 * limit; default 16) and max_bytes of their device buffers (0: no limit). Idle plans
 * beyond the limits are freed now, least recently used first; leased ones never. */
vkfftgo_status vkfftgo_plan_cache_set_limits(vkfftgo_device *device, int64_t max_plans, int64_t max_bytes);
/* Frees every idle plan; leased ones are freed when released. */
vkfftgo_status vkfftgo_plan_cache_clear(vkfftgo_device *device);
vkfftgo_status vkfftgo_plan_cache_get_stats(vkfftgo_device *device, vkfftgo_plan_cache_stats *stats);

/* The directory: "off" disables the disk cache; NULL or "" goes back to the default. */
vkfftgo_status vkfftgo_kernel_cache_set_dir(const char *dir);
/* The directory in use, NUL-terminated (VKFFTGO_ERROR_WRONG_SIZE if capacity is too
 * small), and whether the disk cache is on. dir or enabled may be NULL, not both. */
vkfftgo_status vkfftgo_kernel_cache_get_dir(char *dir, size_t capacity, int *enabled);
/* Caps the directory's size (least recently used entries go first); 0: the default. */
vkfftgo_status vkfftgo_kernel_cache_set_max_bytes(int64_t bytes);
vkfftgo_status vkfftgo_kernel_cache_get_stats(vkfftgo_kernel_cache_stats *stats);
/* Removes every entry; *removed (may be NULL) gets how many. */
vkfftgo_status vkfftgo_kernel_cache_clear(int64_t *removed);
/* Whether a plan of desc on device (vkfftgo_plan_create, vkfftgo_plan_acquire) would
 * now be built from the disk cache, in milliseconds, rather than compiled (about a
 * second): *cached = 1 if an entry for its kernels is saved, with the tuning the plan
 * would use; 0 if building it would compile (no entry, the disk cache off, or a tuning
 * still to be measured). Nothing is built. Since 0.2. */
vkfftgo_status vkfftgo_kernel_cache_contains(vkfftgo_device *device, const vkfftgo_plan_desc *desc, int *cached);
#endif

/* ---- convolution and correlation (VkFFT's fused kernel multiplication) ----
 * One call does the forward transform, the product with the kernel's spectrum (computed
 * once, at creation) and the inverse. Layout: in has batch items of features components
 * of prod(shape) points, component after component; out has batch items of kernels
 * results of features components; the kernel has kernels x KF components of
 * prod(kernel_shape or shape) points, KF = features, or matrix*matrix for matrix-vector
 * convolution (component j*matrix+l maps input component l to output component j).
 * Results are circular over shape, or, with kernel_shape set, linear as
 * scipy.signal.fftconvolve(in, kernel, "same"): out[i] = sum_j in[j] kernel[i-j+(K-1)/2]
 * per axis (the padding is internal). Correlate is ifft(conj(fft(in)) * fft(kernel));
 * phase correlation divides each product by its magnitude. */
typedef struct vkfftgo_convolution vkfftgo_convolution;
enum { VKFFTGO_CONVOLVE = 0, VKFFTGO_CORRELATE = 1, VKFFTGO_PHASE_CORRELATE = 2 };
/* boundary: what a linear convolution (kernel_shape) takes beyond the data — zeros
 * (scipy's "same"), the nearest edge value (ITK's ZeroFluxNeumannBoundaryCondition) or
 * the data repeated (ITK's PeriodicBoundaryCondition); the padding is filled on the
 * device */
enum { VKFFTGO_BOUNDARY_ZERO = 0, VKFFTGO_BOUNDARY_REPLICATE = 1, VKFFTGO_BOUNDARY_PERIODIC = 2 };
typedef struct vkfftgo_convolution_desc {
	uint32_t size;      /* sizeof(vkfftgo_convolution_desc); set by VKFFTGO_CONVOLUTION_DESC_INIT */
	int32_t mode;       /* VKFFTGO_CONVOLVE (default), VKFFTGO_CORRELATE, VKFFTGO_PHASE_CORRELATE */
	int32_t kind;       /* VKFFTGO_C2C (complex data and kernel) or VKFFTGO_R2C (real ones) */
	int32_t precision;  /* VKFFTGO_SINGLE or VKFFTGO_DOUBLE */
	int32_t lut;        /* VKFFTGO_LUT_DEFAULT */
	int32_t rank;       /* 1..3 */
	int64_t shape[VKFFTGO_MAX_RANK];        /* the data's shape, row-major */
	int64_t batch;                          /* 0 means 1 */
	int64_t kernel_shape[VKFFTGO_MAX_RANK]; /* all 0: circular; else linear ("same") */
	int32_t features;   /* components per point, 0 means 1 */
	int32_t matrix;     /* 2 or 3: matrix-vector convolution; 0 none */
	int32_t kernels;    /* kernels applied to every item, 0 means 1 */
	int32_t boundary;   /* VKFFTGO_BOUNDARY_* (default zero); linear convolution only */
} vkfftgo_convolution_desc;
#define VKFFTGO_CONVOLUTION_DESC_INIT                                                       \
	{ (uint32_t)sizeof(vkfftgo_convolution_desc), VKFFTGO_CONVOLVE, VKFFTGO_C2C, VKFFTGO_SINGLE, \
	  VKFFTGO_LUT_DEFAULT, 0, { 0, 0, 0 }, 1, { 0, 0, 0 }, 0, 0, 0, 0 }

/* ---- spectrometer: |X|^2 of integer samples summed into bins ----
 * Batches of n-point FFTs of samples (interleaved re, im for complex formats), with a
 * scale and an optional window (n floats, copied), power summed over the batch and over
 * calls into n bins (n/2+1 for real input) until reset. */
typedef struct vkfftgo_spectrometer vkfftgo_spectrometer;
/* sample formats: one per row of the Go binding's table (vkfft/sampleformat.go), of the
 * same value, which its tests check against this enum */
enum {
	VKFFTGO_COMPLEX_INT8 = 1,    /* int8 re, im */
	VKFFTGO_COMPLEX_INT16 = 2,   /* int16 re, im */
	VKFFTGO_COMPLEX_UINT8 = 3,   /* offset binary: 128 is 0 */
	VKFFTGO_COMPLEX_FLOAT16 = 4, /* IEEE half re, im */
	VKFFTGO_REAL_INT8 = 5,
	VKFFTGO_REAL_INT16 = 6
};
/* how conversion and accumulation join the FFT (docs/convolution-spectrometer.md); DIRECT
 * runs kernels of the library's own instead of VkFFT's (complex input, power-of-two n
 * from 16 to 2^22, where the device's shared memory per work-group holds them, beyond
 * 4096 points on Vulkan only with float atomics; elsewhere AUTO's path) */
enum { VKFFTGO_FUSION_AUTO = 0, VKFFTGO_FUSION_COMPANION = 1, VKFFTGO_FUSION_LOAD = 2, VKFFTGO_FUSION_POWER = 3,
       VKFFTGO_FUSION_ATOMIC = 4, VKFFTGO_FUSION_DIRECT = 5 };
/* where FUSION_ATOMIC's store sums |X|^2 over the transforms of one work-group before
 * adding to the bins (docs/convolution-spectrometer.md): AUTO is the device's stored
 * spectrometer tuning (vkfft tune -spectrometer) or the default; OFF one atomic add per
 * element; REGISTERS per store statement; SHARED per bin in shared memory (n <= 8192) */
enum { VKFFTGO_GROUP_SUM_AUTO = 0, VKFFTGO_GROUP_SUM_OFF = 1, VKFFTGO_GROUP_SUM_REGISTERS = 2,
       VKFFTGO_GROUP_SUM_SHARED = 3 };
typedef struct vkfftgo_spectrometer_desc {
	uint32_t size;        /* sizeof(vkfftgo_spectrometer_desc); set by VKFFTGO_SPECTROMETER_DESC_INIT */
	int32_t input;        /* VKFFTGO_COMPLEX_INT8, ... */
	int64_t n;            /* FFT length */
	int64_t batch;        /* FFTs per accumulate call */
	const float *window;  /* n values, or NULL */
	float scale;          /* multiplies every sample; 0 means 1 */
	int32_t fftshift;     /* 1: bins from the most negative frequency up (complex input) */
	int32_t fusion;       /* VKFFTGO_FUSION_AUTO */
	int32_t reserved;
	int64_t chunk;        /* FFTs the device works on at a time (divides batch); 0: automatic */
	/* later fields: a descriptor of the first version ends above (these are then 0) */
	int32_t group_sum;        /* VKFFTGO_GROUP_SUM_AUTO */
	int32_t group_transforms; /* transforms per work-group of the group sum; 0: automatic */
} vkfftgo_spectrometer_desc;
#define VKFFTGO_SPECTROMETER_DESC_INIT                                                     \
	{ (uint32_t)sizeof(vkfftgo_spectrometer_desc), VKFFTGO_COMPLEX_INT8, 0, 1, NULL, 1.0f, 0, \
	  VKFFTGO_FUSION_AUTO, 0, 0, VKFFTGO_GROUP_SUM_AUTO, 0 }

#ifndef VKFFTGO_NO_PROTOTYPES
/* Transforms kernel (kernel_bytes exactly as the layout above says) and builds the
 * convolution. */
vkfftgo_status vkfftgo_convolution_create(vkfftgo_device *device, const vkfftgo_convolution_desc *desc,
					  const void *kernel, size_t kernel_bytes,
					  vkfftgo_convolution **convolution);
/* NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_convolution_destroy(vkfftgo_convolution *convolution);
/* The sizes of in and out, in bytes. Either pointer may be NULL. */
vkfftgo_status vkfftgo_convolution_bytes(vkfftgo_convolution *convolution, size_t *in_bytes, size_t *out_bytes);
/* Host memory: upload in, convolve, download into out, wait. out may equal in when the
 * sizes agree. Sizes must be exactly vkfftgo_convolution_bytes'. */
vkfftgo_status vkfftgo_convolution_apply(vkfftgo_convolution *convolution, void *out, size_t out_bytes,
					 const void *in, size_t in_bytes);
/* Device buffers of the convolution's device (out may be in); queued only. */
vkfftgo_status vkfftgo_convolution_apply_buffer(vkfftgo_convolution *convolution, vkfftgo_buffer *out,
						vkfftgo_buffer *in);

vkfftgo_status vkfftgo_spectrometer_create(vkfftgo_device *device, const vkfftgo_spectrometer_desc *desc,
					   vkfftgo_spectrometer **spectrometer);
/* NULL is allowed and does nothing. */
vkfftgo_status vkfftgo_spectrometer_destroy(vkfftgo_spectrometer *spectrometer);
/* The number of bins, and the bytes of one batch of samples. Either may be NULL. */
vkfftgo_status vkfftgo_spectrometer_size(vkfftgo_spectrometer *spectrometer, int64_t *bins, size_t *sample_bytes);
/* Adds one batch of host samples (exactly sample_bytes); returns when the device is done. */
vkfftgo_status vkfftgo_spectrometer_accumulate(vkfftgo_spectrometer *spectrometer, const void *samples,
					       size_t bytes);
/* Adds one batch of samples in a device buffer (exactly sample_bytes); queued only. */
vkfftgo_status vkfftgo_spectrometer_accumulate_buffer(vkfftgo_spectrometer *spectrometer, vkfftgo_buffer *samples);
/* Waits and copies the bins (count must be the number of bins) into psd. */
vkfftgo_status vkfftgo_spectrometer_read(vkfftgo_spectrometer *spectrometer, float *psd, size_t count);
/* Zeroes the bins. */
vkfftgo_status vkfftgo_spectrometer_reset(vkfftgo_spectrometer *spectrometer);
/* The path in use (VKFFTGO_FUSION_*): the one asked for, or COMPANION where VkFFT's
 * kernels could not be rewritten. */
vkfftgo_status vkfftgo_spectrometer_fusion(vkfftgo_spectrometer *spectrometer, int *fusion);
/* The group sum in use (VKFFTGO_GROUP_SUM_OFF on paths other than FUSION_ATOMIC, or where
 * the rewriter refused the one asked for) and its transforms per work-group. */
vkfftgo_status vkfftgo_spectrometer_group(vkfftgo_spectrometer *spectrometer, int *sum, int *transforms);
#endif /* VKFFTGO_NO_PROTOTYPES */

/* ---- backend interop: your own device memory and the device's queue/stream ---- */
/* Memory must belong to the device's context and be at least the size the plan needs
 * (native handles carry no size). All work of a device runs in order on its one queue or
 * stream: order your own work against it (events, clFinish, cuStreamSynchronize). */
#if VKFFTGO_BACKEND == 3 && !defined(VKFFTGO_NO_PROTOTYPES) /* OpenCL: cl_mem is struct _cl_mem *, and so on */
struct _cl_mem;
struct _cl_command_queue;
/* The device's in-order command queue; owned by the device (do not release it). */
vkfftgo_status vkfftgo_device_cl_queue(vkfftgo_device *device, struct _cl_command_queue **queue);
/* The buffer's cl_mem; owned by the buffer (do not release it). */
vkfftgo_status vkfftgo_buffer_cl_mem(vkfftgo_buffer *buffer, struct _cl_mem **mem);
/* Transforms cl_mem objects of the device's context; out may equal in. Out of place, a
 * C2C transform only reads in, with no copy (see vkfftgo_execute_buffer). Queued only. */
vkfftgo_status vkfftgo_execute_cl(vkfftgo_plan *plan, int direction, struct _cl_mem *out,
				  struct _cl_mem *in);
#elif VKFFTGO_BACKEND == 1 && !defined(VKFFTGO_NO_PROTOTYPES) /* CUDA: CUstream is struct CUstream_st *, CUdeviceptr an integer */
struct CUstream_st;
/* The device's stream (NULL means CUDA's legacy default stream); owned by the device. */
vkfftgo_status vkfftgo_device_cu_stream(vkfftgo_device *device, struct CUstream_st **stream);
/* The buffer's CUdeviceptr; owned by the buffer. */
vkfftgo_status vkfftgo_buffer_cu_ptr(vkfftgo_buffer *buffer, uint64_t *ptr);
/* Transforms CUdeviceptr memory of the device's (primary) context; out may equal in. Out
 * of place, a C2C transform only reads in, with no copy (see vkfftgo_execute_buffer). */
vkfftgo_status vkfftgo_execute_cu(vkfftgo_plan *plan, int direction, uint64_t out, uint64_t in);
#elif VKFFTGO_BACKEND == 0 && !defined(VKFFTGO_NO_PROTOTYPES) /* Vulkan: handles as vulkan_core.h declares them in 64-bit builds */
struct VkInstance_T;
struct VkPhysicalDevice_T;
struct VkDevice_T;
struct VkQueue_T;
struct VkBuffer_T;
/* The device's VkInstance, VkPhysicalDevice, VkDevice and the queue family its queues come
 * from (each output may be NULL); owned by the library: do not destroy them. Create your
 * own VkBuffers on this VkDevice to pass them to vkfftgo_execute_vk. */
vkfftgo_status vkfftgo_device_vk_handles(vkfftgo_device *device, struct VkInstance_T **instance,
					 struct VkPhysicalDevice_T **physical, struct VkDevice_T **dev,
					 uint32_t *queue_family);
/* The VkQueue the device submits its work to. VkQueue is externally synchronised: do not
 * submit to it while a vkfftgo call on the device runs; vkfftgo_device_sync first. */
vkfftgo_status vkfftgo_device_vk_queue(vkfftgo_device *device, struct VkQueue_T **queue);
/* The buffer's VkBuffer (device-local, storage and transfer usage); owned by the buffer. */
vkfftgo_status vkfftgo_buffer_vk_buffer(vkfftgo_buffer *buffer, struct VkBuffer_T **buf);
/* Transforms VkBuffers of the device's VkDevice (bound to memory, with storage-buffer and
 * transfer-src/dst usage); out may equal in (out of place, a C2C transform only reads in,
 * with no copy). Queued only: vkfftgo_device_sync waits. */
vkfftgo_status vkfftgo_execute_vk(vkfftgo_plan *plan, int direction, struct VkBuffer_T *out,
				  struct VkBuffer_T *in);
#endif

#ifdef __cplusplus
}
#endif
#endif /* VKFFTGO_H */
