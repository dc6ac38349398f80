/* vkg_backend.h — the contract between the engine and a GPU backend.
 *
 * A backend (internal/backend/<name>/) owns devices, memory, queues, events and
 * companion kernels for one GPU API, and never sees VkFFT. It fills one vkg_backend
 * table and its Go file registers it with the engine when the program starts
 * (engine.Register), as a database/sql driver registers itself; exactly one backend is
 * registered per build. The engine (internal/engine/) calls the backend only through
 * this table, through the vkg_* forwarders of vkg_backend.c, and includes no backend's
 * header; a backend may call the engine's status helpers (vkg_fail) and its compile
 * bracket (vkg_compile_enter/leave), nothing else.
 *
 * Handles travel as integers: a vkg_mem is a cl_mem, CUdeviceptr or VkBuffer; a queue
 * is a cl_command_queue, CUstream or the Vulkan backend's queue object, and queue 0 is
 * always the device's own; an event is a small backend object. Unless an entry says it
 * enters the context itself, the caller has made the device's context current
 * (ctx_enter).
 *
 * Entries marked "optional" may be NULL; the engine then reports VKG_ERR_UNSUPPORTED
 * (or a neutral value). Every other entry must be set. A change that breaks an existing
 * backend raises VKG_BACKEND_VERSION; engine.Register refuses a table of another
 * version.
 */
#ifndef VKG_BACKEND_H
#define VKG_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#define VKG_BACKEND_VERSION 1

#define VKG_MSG_LEN 1024

/* Status codes shared by both layers; Go maps them to its sentinel errors. */
enum {
	VKG_OK = 0,
	VKG_ERR_INVALID = 1,     /* bad argument */
	VKG_ERR_NO_DEVICE = 2,   /* no such device / no platform */
	VKG_ERR_OUT_OF_MEMORY = 3,
	VKG_ERR_UNSUPPORTED = 4, /* size, precision or feature the device/VkFFT can't do */
	VKG_ERR_BACKEND = 5,     /* the GPU API failed */
	VKG_ERR_VKFFT = 6,       /* VkFFT returned an error */
	VKG_ERR_VERSION = 7,     /* VkFFT headers too old */
	VKG_ERR_FORKED = 8       /* a child forked without exec: the parent's GPU state is unusable */
};

/* Every call that can fail reports into one of these; the Go side keeps one per plan
 * (C memory) for the hot path, so no error text is ever written into Go memory. */
typedef struct vkg_status {
	int code;
	int native; /* the backend's or VkFFT's own code, 0 if none */
	char msg[VKG_MSG_LEN];
	/* What VkFFT printed while failing (compiler logs, kernel source), whole: malloc'd,
	 * owned by the status until the reader takes it (vkg_status_take_detail). */
	char *detail;
} vkg_status;

/* Fills st and returns code (vkg_common.c): the one engine function a backend calls. */
int vkg_fail(vkg_status *st, int code, int native, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A backend brackets each call of an in-process compiler (NVRTC) with these
 * (vkg_fork_compile.c): the engine forks compile children only while no thread is inside
 * the compiler, whose locks a child would inherit held. */
void vkg_compile_enter(void);
void vkg_compile_leave(void);

/* A device allocation: cl_mem, CUdeviceptr or VkBuffer, as an integer. */
typedef uint64_t vkg_mem;

typedef struct vkg_device vkg_device; /* defined by the backend */
typedef struct vkg_module vkg_module; /* companion kernels compiled together */
typedef struct vkg_kernel vkg_kernel; /* one kernel of a module */

typedef struct vkg_device_info {
	char name[256];
	char vendor[256];
	char driver[128];
	char platform[256];
	uint64_t global_mem;
	uint64_t max_alloc;
	uint32_t vendor_id;
	int compute_major, compute_minor; /* CUDA compute capability; 0 elsewhere */
	int fp64;                         /* double precision supported */
	int fp16;                         /* half-precision arithmetic/storage (StorageHalf) */
	int host_memory; /* computes in host memory (a CPU device): pinned staging gains nothing */
	uint64_t local_mem; /* OpenCL local (CUDA shared) memory per work-group, bytes; 0 unknown */
	/* companion kernels may add floats atomically in device memory (Vulkan needs
	 * VK_EXT_shader_atomic_float; OpenCL and CUDA always can) */
	int float_atomics;
	/* kernels may add floats atomically in shared memory (Vulkan needs
	 * shaderSharedFloat32AtomicAdd; set only there, where the spectrometer's group sums
	 * in shared memory depend on it) */
	int shared_float_atomics;
	/* the largest buffer a companion kernel binds, and the alignment of a bound window's
	 * offset (Vulkan's maxStorageBufferRange and minStorageBufferOffsetAlignment); 0: no
	 * limit, any offset (a device pointer on OpenCL and CUDA) */
	uint64_t max_binding, binding_align;
} vkg_device_info;

/* The native handles VkFFT's configuration points at; they live as long as the device.
 * Only the engine's VkFFT glue casts them to the API's types. */
typedef struct vkg_native {
	void *device;         /* cl_device_id* | CUdevice* | VkDevice* */
	void *context;        /* cl_context*   | unused    | unused */
	void *queue;          /* cl_command_queue* | CUstream* | VkQueue* (the device's own) */
	void *physical;       /* unused | unused | VkPhysicalDevice* */
	void *pipeline_cache; /* unused | unused | VkPipelineCache* */
	const void *api;      /* CUDA: the driver and NVRTC entry points (vkg_cuda_api.h) */
} vkg_native;

/* Which foreign context device_open_native wraps. */
enum { VKG_NATIVE_OPENCL = 1, VKG_NATIVE_CUDA = 2 };

/* What device_handle returns, for interop; 0 where the API has no such object. */
enum {
	VKG_HANDLE_CONTEXT = 1,  /* cl_context | CUcontext */
	VKG_HANDLE_QUEUE = 2,    /* the device's own cl_command_queue | CUstream | VkQueue */
	VKG_HANDLE_DEVICE = 3,   /* cl_device_id | CUdevice | VkDevice */
	VKG_HANDLE_INSTANCE = 4, /* VkInstance */
	VKG_HANDLE_PHYSICAL = 5, /* VkPhysicalDevice */
	VKG_HANDLE_QUEUE_FAMILY = 6,
	VKG_HANDLE_ORDINAL = 7   /* the device's index as device_open numbers them, or -1 */
};

/* Counters a backend may keep for tests (stat); -1 where it keeps none. */
enum {
	VKG_STAT_LIVE_BUFFERS = 1,        /* device allocations held for vkg_mem buffers */
	VKG_STAT_PINNED_COPIES = 2,       /* copies straight to or from pinned/registered memory */
	VKG_STAT_PIPELINE_CACHE_BYTES = 3, /* the size of the device's pipeline cache */
	VKG_STAT_SHADER_COPIES = 4         /* device-to-device copies done by a compute shader */
};

/* One companion-kernel argument: a pointer to its value (a vkg_mem for buffers) and its
 * size. */
typedef struct vkg_arg {
	const void *ptr;
	uint32_t size;
} vkg_arg;

/* A view of a companion kernel's buffer argument: bytes [offset, offset+range), the
 * offset a multiple of the device's binding_align. */
typedef struct vkg_window {
	uint64_t offset, range;
} vkg_window;

/* A queue and a point on it: what the engine remembers of a plan's last use where the
 * backend records into command buffers (record_begin). */
typedef struct vkg_use {
	void *queue; /* the backend's; retained while set */
	uint64_t ticket;
} vkg_use;

typedef struct vkg_backend {
	unsigned version; /* VKG_BACKEND_VERSION the table was built against */
	int id;           /* VkFFT's VKFFT_BACKEND: 3 OpenCL, 1 CUDA, 0 Vulkan */
	const char *name; /* "opencl", "cuda", "vulkan" */

	/* ---- devices ---- */

	/* The number of devices, or the negated status code on failure. Enters nothing. */
	int (*device_count)(vkg_status *st);
	/* Describes device ordinal without opening it. */
	int (*device_query)(int ordinal, vkg_device_info *info, vkg_status *st);
	/* Opens device ordinal: its context (CUDA: the primary one) and its own in-order
	 * queue, created once for the device's life. */
	int (*device_open)(int ordinal, vkg_device **out, vkg_status *st);
	/* optional. Opens a device on a context the caller made: kind VKG_NATIVE_OPENCL takes
	 * (cl_context, cl_device_id or 0 for its first device, in-order cl_command_queue or 0
	 * to make one), VKG_NATIVE_CUDA takes (CUcontext, CUstream or 0 to make one, unused).
	 * What the caller made is released on close, never destroyed. *ordinal gets the
	 * device's index, or -1. VKG_ERR_UNSUPPORTED for another API's kind. */
	int (*device_open_native)(int kind, const uint64_t handles[3], vkg_device **out, int *ordinal,
				  vkg_status *st);
	/* Waits for the device's work and frees it, queues and context included. */
	void (*device_close)(vkg_device *dev);
	/* The description filled at open; valid until close. */
	const vkg_device_info *(*device_info)(const vkg_device *dev);
	/* The handles VkFFT's configuration points at. */
	void (*device_native)(vkg_device *dev, vkg_native *out);
	/* A native handle for interop (VKG_HANDLE_*); 0 where the API has none. */
	uint64_t (*device_handle)(const vkg_device *dev, int which);
	/* Free and total device memory as the driver reports them; enters the context
	 * itself. VKG_ERR_UNSUPPORTED where the API has no such query. */
	int (*device_mem_info)(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st);
	/* Makes the device's context current on the calling thread for the length of one C
	 * call (CUDA: pushed, then popped by ctx_leave, so a host's own current context is
	 * left as it was); a no-op where the API has no current context. */
	int (*ctx_enter)(vkg_device *dev, vkg_status *st);
	void (*ctx_leave)(vkg_device *dev);
	/* optional. A test counter (VKG_STAT_*); -1 where the backend keeps none. */
	int64_t (*stat)(vkg_device *dev, int which);

	/* ---- device memory and the device's queue ---- */

	int (*mem_alloc)(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
	void (*mem_free)(vkg_device *dev, vkg_mem mem);
	/* Host <-> device copies. A write is enqueued; a read waits for everything before it
	 * on the device's queue, so write-run-read needs no other synchronisation. */
	int (*mem_write)(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes,
			 vkg_status *st);
	int (*mem_read)(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
	/* A device-to-device copy, and dst[i] *= factor over n real elements (float or
	 * double: the ortho and forward normalisations VkFFT does not apply itself), on
	 * queue. */
	int (*mem_copy_on)(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes,
			   vkg_status *st);
	int (*mem_scale_on)(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
			    double factor, vkg_status *st);
	/* Waits for everything queued on the device's queue, or on queue. */
	int (*device_sync)(vkg_device *dev, vkg_status *st);
	int (*queue_sync)(vkg_device *dev, uint64_t queue, vkg_status *st);

	/* ---- host memory, more queues, events (the transfer layer's primitives) ---- */

	/* Page-locked host memory the device can DMA from at full speed (CUDA
	 * cuMemHostAlloc; OpenCL a CL_MEM_ALLOC_HOST_PTR buffer, mapped); handle is what
	 * host_free needs. */
	int (*host_alloc)(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
	void (*host_free)(vkg_device *dev, void *ptr, uint64_t handle);
	/* Page-locks host memory the caller owns, [ptr, ptr+bytes), for the DMA engine
	 * (CUDA cuMemHostRegister; OpenCL a CL_MEM_USE_HOST_PTR buffer over it; Vulkan
	 * VK_EXT_external_memory_host, VKG_ERR_UNSUPPORTED without it). */
	int (*host_register)(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
	void (*host_unregister)(vkg_device *dev, void *ptr, uint64_t handle);
	/* More in-order queues on the device, for independent work. */
	int (*queue_create)(vkg_device *dev, uint64_t *queue, vkg_status *st);
	void (*queue_destroy)(vkg_device *dev, uint64_t queue);
	/* optional. The native queue under a queue handle (VkQueue); NULL: the handle is the
	 * native queue. */
	uint64_t (*queue_native)(vkg_device *dev, uint64_t queue);
	/* Copies that return at once; the host memory must stay valid and unchanged until the
	 * queue has passed them (record an event and wait for it). */
	int (*mem_write_async)(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			       uint64_t bytes, vkg_status *st);
	int (*mem_read_async)(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
			      vkg_status *st);
	/* Reusable markers: record on a queue, make another queue wait for one, or wait on
	 * the host. Waiting for an event never recorded returns at once. */
	int (*event_create)(vkg_device *dev, uint64_t *ev, vkg_status *st);
	void (*event_destroy)(vkg_device *dev, uint64_t ev);
	int (*event_record)(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
	int (*queue_wait_event)(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
	int (*event_sync)(vkg_device *dev, uint64_t ev, vkg_status *st);

	/* ---- companion kernels ----
	 * A module is kernels compiled from the backend's source language (OpenCL C, CUDA C
	 * through NVRTC, GLSL through glslang to SPIR-V) or loaded from the binary an earlier
	 * build returned. */

	/* Builds from binary when binary_bytes > 0, else from source; a build from source
	 * returns its binary in *bin_out (malloc'd, the caller frees) for the kernel cache. */
	int (*module_build)(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
			    vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st);
	void (*module_destroy)(vkg_module *m);
	int (*module_kernel)(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st);
	/* Enqueues groups[0] x groups[1] work-groups of local x 1 work-items on queue. A
	 * kernel is not reentrant (OpenCL keeps its arguments): its owner serialises
	 * launches. */
	int (*kernel_launch)(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
			     int nargs, const vkg_arg *args, vkg_status *st);

	/* ---- identity ---- */

	/* optional. The kernel compiler this process uses ("nvrtc 12.4", "glslang 11.13.0"):
	 * its binaries belong to it, so it is part of the kernel-cache key. */
	const char *(*compiler_ident)(void);
	/* optional. The libraries opened at run time: the driver's file, the compiler's file
	 * and version ("" and 0 before they are loaded). */
	void (*runtime_libraries)(const char **driver, const char **compiler, int *major, int *minor);

	/* ---- command recording (backends whose API records command buffers: Vulkan) ----
	 * All optional, and all set together. VkFFT records a transform into a command buffer
	 * the engine gets here; the engine keeps a plan's recordings and appends them to a
	 * queue's batch. */

	/* Locks queue, makes sure a command buffer is recording, orders what follows after
	 * everything recorded before and returns it (a VkCommandBuffer); record_end unlocks,
	 * submitting the batch only if it has grown long, and gives the ticket at which what
	 * was recorded has finished. */
	int (*record_begin)(vkg_device *dev, uint64_t queue, void **cmd, vkg_status *st);
	int (*record_end)(vkg_device *dev, uint64_t queue, uint64_t *ticket, vkg_status *st);
	/* Submits queue's batch unless the device already holds two of its batches: for an
	 * entry point that returns with work queued. */
	int (*queue_kick)(vkg_device *dev, uint64_t queue, vkg_status *st);
	/* Remember (retaining the queue), wait for (submitting its batch if the ticket is
	 * still in it) and forget a use; a queue destroyed meanwhile had finished. */
	void (*use_set)(vkg_device *dev, vkg_use *use, uint64_t queue, uint64_t ticket);
	int (*use_wait)(vkg_device *dev, vkg_use *use, vkg_status *st);
	void (*use_clear)(vkg_use *use);
	/* A command pool and fence of a plan's own (VkCommandPool, VkFence): VkFFT allocates
	 * command buffers from the pool and waits on the fence during creation, and the plan
	 * records its secondary command buffers from the same pool. */
	int (*plan_pool)(vkg_device *dev, uint64_t *pool, uint64_t *fence, vkg_status *st);
	void (*plan_pool_free)(vkg_device *dev, uint64_t pool, uint64_t fence);
	/* VkFFT's own submissions (its table uploads), under the queue's lock. */
	int (*queue_submit)(void *queue, uint32_t count, const void *submits, uint64_t fence);
	/* Records a full memory barrier into cmd, and mem[i] *= factor over n real
	 * elements. */
	void (*cmd_barrier)(void *cmd);
	int (*cmd_scale)(vkg_device *dev, void *cmd, vkg_mem mem, uint64_t n, int double_precision, double factor,
			 vkg_status *st);
	/* Records a launch of companion kernel k into cmd (kernel_launch's arguments); win
	 * gives one view per buffer argument, in order, or is NULL for whole buffers. */
	int (*kernel_record)(vkg_device *dev, void *cmd, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
			     int nargs, const vkg_arg *args, const vkg_window *win, vkg_status *st);
} vkg_backend;

/* The entries every backend fills: engine.Register refuses a table without one. */
#define VKG_BACKEND_REQUIRED(X)                                                                    \
	X(device_count) X(device_query) X(device_open) X(device_close) X(device_info) X(device_native) \
	X(device_handle) X(device_mem_info) X(ctx_enter) X(ctx_leave) X(mem_alloc) X(mem_free)        \
	X(mem_write) X(mem_read) X(mem_copy_on) X(mem_scale_on) X(device_sync) X(queue_sync)          \
	X(host_alloc) X(host_free) X(host_register) X(host_unregister) X(queue_create)                \
	X(queue_destroy) X(mem_write_async) X(mem_read_async) X(event_create) X(event_destroy)        \
	X(event_record) X(queue_wait_event) X(event_sync) X(module_build) X(module_destroy)           \
	X(module_kernel) X(kernel_launch)

/* A backend names its implementation of entry prefix_entry: VKG_BACKEND_DECLARE declares
 * it with the entry's own type (so the table and the functions cannot drift apart) and
 * VKG_BACKEND_SET fills the entry with it, e.g.
 *     #define VKG_OCL_DECLARE(entry) VKG_BACKEND_DECLARE(vkg_ocl, entry)
 *     VKG_BACKEND_REQUIRED(VKG_OCL_DECLARE)
 * in the backend's header, and VKG_BACKEND_REQUIRED(VKG_OCL_SET) inside its table. */
#define VKG_BACKEND_DECLARE(prefix, entry) __typeof__(*((vkg_backend *)0)->entry) prefix##_##entry;
#define VKG_BACKEND_SET(prefix, entry) .entry = prefix##_##entry,

#endif
