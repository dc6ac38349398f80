/* vkg_vulkan.h — the vulkan backend's functions, which backend.c gathers into its
 * vkg_backend table (vkg_backend.h says what each does; backend.c turns the contract's
 * integers and void pointers into Vulkan's types). Private to this directory.
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

#include "vkg_backend.h"

typedef struct vkg_vk_queue vkg_vk_queue;

/* the table's required entries, each vkg_vk_<entry> with the entry's type */
#define VKG_VK_DECLARE(entry) VKG_BACKEND_DECLARE(vkg_vk, entry)
#define VKG_VK_SET(entry) VKG_BACKEND_SET(vkg_vk, entry)
VKG_BACKEND_REQUIRED(VKG_VK_DECLARE)

uint64_t vkg_vk_max_binding(const vkg_device *dev);
int64_t vkg_vk_live_buffers(vkg_device *dev);
int64_t vkg_vk_pinned_copies(vkg_device *dev);
int64_t vkg_vk_shader_copies(vkg_device *dev);
uint64_t vkg_vk_pipeline_cache_bytes(vkg_device *dev);
int vkg_vk_plan_pool(vkg_device *dev, VkCommandPool *pool, VkFence *fence, vkg_status *st);
void vkg_vk_plan_pool_free(vkg_device *dev, VkCommandPool pool, VkFence fence);
uint64_t vkg_vk_device_instance(const vkg_device *dev);
uint64_t vkg_vk_device_physical(const vkg_device *dev);
uint64_t vkg_vk_device_device(const vkg_device *dev);
uint64_t vkg_vk_device_queue(const vkg_device *dev);
uint32_t vkg_vk_device_family(const vkg_device *dev);
VkResult vkg_vk_queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence);
void vkg_vk_cmd_barrier(VkCommandBuffer cb);
int vkg_vk_record_begin(vkg_device *dev, uint64_t queue, VkCommandBuffer *cb, vkg_status *st);
int vkg_vk_record_end(vkg_device *dev, uint64_t queue, uint64_t *ticket, vkg_status *st);
int vkg_vk_queue_kick(vkg_device *dev, uint64_t queue, vkg_status *st);
void vkg_vk_use_set(vkg_device *dev, vkg_use *use, uint64_t queue, uint64_t ticket);
int vkg_vk_use_wait(vkg_device *dev, vkg_use *use, vkg_status *st);
void vkg_vk_use_clear(vkg_use *use);
uint64_t vkg_vk_queue_native(vkg_device *dev, uint64_t queue);
int vkg_vk_cmd_scale(vkg_device *dev, VkCommandBuffer cb, VkBuffer mem, uint64_t n, int double_precision, double factor, vkg_status *st);

/* Records a launch of companion kernel k into cb (any command buffer, primary or
 * secondary) by push descriptors; win gives one view per buffer argument, in order, or
 * is NULL for whole buffers (vkg_kern_vulkan.c). */
int vkg_vk_kernel_record(vkg_device *dev, VkCommandBuffer cb, vkg_kernel *k, const uint64_t groups[2],
			 uint32_t local, int nargs, const vkg_arg *args, const vkg_window *win, vkg_status *st);

#endif
