/* vkg_vulkan.h — what the vulkan backend (vkg_vulkan.c) offers beyond vkg.h, for the core
 * (vkg_core.c, which must record VkFFT's commands into command buffers the backend owns)
 * and for interop. Only the vulkan build includes it.
 *
 * Memory: a vkg_mem is a VkBuffer handle (device-local, one VkDeviceMemory each; the
 * backend finds the memory again when the buffer is freed), so a caller's own VkBuffer
 * is a vkg_mem as it is. Queues: a queue handle (uint64_t) is a vkg_vk_queue* (0 means
 * the device's own): a command pool, a ring of command buffers that take turns recording
 * batches, and a timeline semaphore whose value counts the batches submitted.
 */
#ifndef VKG_VULKAN_H
#define VKG_VULKAN_H

#include <vulkan/vulkan.h>

#include "vkg.h"

typedef struct vkg_vk_queue vkg_vk_queue;

/* The handles VkFFT's configuration points at; they live as long as the device. */
typedef struct vkg_vk_handles {
	VkPhysicalDevice *physical;
	VkDevice *device;
	VkQueue *queue; /* the device's own queue; VkFFT uploads its tables through it */
	VkPipelineCache *pipeline_cache;
	uint32_t family;
} vkg_vk_handles;
void vkg_vk_device_handles(vkg_device *dev, vkg_vk_handles *out);

/* A command pool and fence of a plan's own: VkFFT allocates command buffers from the pool
 * and waits on the fence while it creates the plan, and the plan records its commands
 * into secondary command buffers from the same pool. Both are used by one plan only. */
int vkg_vk_plan_pool(vkg_device *dev, VkCommandPool *pool, VkFence *fence, vkg_status *st);
void vkg_vk_plan_pool_free(vkg_device *dev, VkCommandPool pool, VkFence fence);

/* vkQueueSubmit with the queue's lock held (VkQueue is externally synchronised): vkg_core.c
 * routes VkFFT's own submissions through it. */
VkResult vkg_vk_queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence);

/* Recording into a queue's current batch. begin locks the queue, makes sure a command
 * buffer is recording, orders what follows after everything recorded before (a memory
 * barrier) and returns it; end unlocks, submitting the batch only if it has grown long.
 * ticket is the timeline value at which what was recorded has finished. */
int vkg_vk_record_begin(vkg_device *dev, uint64_t queue, VkCommandBuffer *cb, vkg_status *st);
int vkg_vk_record_end(vkg_device *dev, uint64_t queue, uint64_t *ticket, vkg_status *st);
/* Submits the queue's batch unless the device already holds two of its batches: for an
 * entry point that returns with work queued (record_end leaves that to the caller, so a
 * host round trip that ends in a blocking read goes out as one submission). */
int vkg_vk_queue_kick(vkg_device *dev, uint64_t queue, vkg_status *st);

/* A queue and a ticket on it: what a plan remembers about its last use. wait submits the
 * queue's batch if the ticket is still in it, then waits for the ticket; a queue that was
 * destroyed meanwhile finished its work when it was. */
typedef struct vkg_vk_use {
	vkg_vk_queue *queue;
	uint64_t ticket;
} vkg_vk_use;
void vkg_vk_use_set(vkg_device *dev, vkg_vk_use *use, uint64_t queue, uint64_t ticket);
int vkg_vk_use_wait(vkg_device *dev, vkg_vk_use *use, vkg_status *st);
void vkg_vk_use_clear(vkg_vk_use *use);

/* Records mem[i] *= factor over n real elements into cb (any command buffer, primary or
 * secondary), by push descriptors, so the recording does not depend on descriptor sets. */
int vkg_vk_cmd_scale(vkg_device *dev, VkCommandBuffer cb, VkBuffer mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st);
/* A full memory barrier between the commands before and after it in cb. */
void vkg_vk_cmd_barrier(VkCommandBuffer cb);
/* A view of a buffer argument of a companion kernel: bytes [offset, offset+range); the
 * offset is a multiple of minStorageBufferOffsetAlignment. */
typedef struct vkg_vk_window {
	uint64_t offset, range;
} vkg_vk_window;
/* Records a launch of companion kernel k into cb (any command buffer, primary or
 * secondary) by push descriptors; win gives one view per buffer argument, in order, or
 * is NULL for whole buffers (vkg_kern_vulkan.c). */
int vkg_vk_kernel_record(vkg_device *dev, VkCommandBuffer cb, vkg_kernel *k, const uint64_t groups[2],
			 uint32_t local, int nargs, const vkg_arg *args, const vkg_vk_window *win, vkg_status *st);

int vkg_vk_fail(vkg_status *st, VkResult r, const char *what);

/* ---- interop (vulkan.go, capi) ---- */
uint64_t vkg_vk_device_instance(const vkg_device *dev);  /* VkInstance */
uint64_t vkg_vk_device_physical(const vkg_device *dev);  /* VkPhysicalDevice */
uint64_t vkg_vk_device_device(const vkg_device *dev);    /* VkDevice */
uint64_t vkg_vk_device_queue(const vkg_device *dev);     /* VkQueue of the device's own queue */
uint32_t vkg_vk_device_family(const vkg_device *dev);    /* its queue family */
/* The VkQueue under a vkg queue handle (0: the device's). */
uint64_t vkg_vk_queue_native(vkg_device *dev, uint64_t queue);
/* Number of device-local VkDeviceMemory objects the backend holds for vkg_mem buffers
 * (the leak tests' count of live allocations as the backend sees them). */
int64_t vkg_vk_live_buffers(vkg_device *dev);
/* How often the plan recorded a direction into its command buffers (vkg_core.c). */
uint64_t vkg_vk_plan_recordings(vkg_plan *plan);
/* How many copies went straight between device memory and pinned or registered host
 * memory, without the staging arena (tests). */
int64_t vkg_vk_pinned_copies(vkg_device *dev);
/* Bytes the device's VkPipelineCache (shared by every plan's pipelines) would serialise to:
 * the churn test logs it, as it grows with each distinct pipeline until the device closes. */
uint64_t vkg_vk_pipeline_cache_bytes(vkg_device *dev);
/* 1 when companion kernels can add floats atomically in device memory (the device has
 * VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd, enabled unless
 * VKFFTGO_VULKAN_FLOAT_ATOMICS=0 was set when it was opened), else 0. */
int vkg_vk_float_atomics(const vkg_device *dev);
/* The largest buffer a companion kernel binds (maxStorageBufferRange), in bytes
 * (vkg_kern_vulkan.c). */
uint64_t vkg_vk_max_binding(const vkg_device *dev);
/* Registered host memory (vkg_hostreg_vulkan.c): the caller's pages imported with
 * VK_EXT_external_memory_host; VKG_ERR_UNSUPPORTED without it. */
int vkg_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_host_unregister(vkg_device *dev, void *ptr, uint64_t handle);

#endif
