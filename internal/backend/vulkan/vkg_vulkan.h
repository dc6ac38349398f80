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

int vkg_vk_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st);
void vkg_vk_host_unregister(vkg_device *dev, void *ptr, uint64_t handle);
int vkg_vk_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes, vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st);
void vkg_vk_module_destroy(vkg_module *m);
int vkg_vk_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st);
uint64_t vkg_vk_max_binding(const vkg_device *dev);
int vkg_vk_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs, const vkg_arg *args, vkg_status *st);
int vkg_vk_fail(vkg_status *st, VkResult r, const char *what);
int vkg_vk_device_count(vkg_status *st);
int vkg_vk_device_query(int ordinal, vkg_device_info *info, vkg_status *st);
int vkg_vk_device_open(int ordinal, vkg_device **out, vkg_status *st);
void vkg_vk_device_close(vkg_device *dev);
const vkg_device_info *vkg_vk_device_get_info(const vkg_device *dev);
void vkg_vk_device_native(vkg_device *dev, vkg_native *out);
int vkg_vk_ctx_enter(vkg_device *dev, vkg_status *st);
void vkg_vk_ctx_leave(vkg_device *dev);
int vkg_vk_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st);
void vkg_vk_mem_free(vkg_device *dev, vkg_mem m);
int64_t vkg_vk_live_buffers(vkg_device *dev);
int64_t vkg_vk_pinned_copies(vkg_device *dev);
uint64_t vkg_vk_pipeline_cache_bytes(vkg_device *dev);
int vkg_vk_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st);
int vkg_vk_plan_pool(vkg_device *dev, VkCommandPool *pool, VkFence *fence, vkg_status *st);
void vkg_vk_plan_pool_free(vkg_device *dev, VkCommandPool pool, VkFence fence);
int vkg_vk_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st);
void vkg_vk_host_free(vkg_device *dev, void *ptr, uint64_t handle);
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
int vkg_vk_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st);
void vkg_vk_queue_destroy(vkg_device *dev, uint64_t queue);
int vkg_vk_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st);
int vkg_vk_device_sync(vkg_device *dev, vkg_status *st);
uint64_t vkg_vk_queue_native(vkg_device *dev, uint64_t queue);
int vkg_vk_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_vk_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st);
int vkg_vk_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_vk_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st);
int vkg_vk_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st);
int vkg_vk_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st);
void vkg_vk_event_destroy(vkg_device *dev, uint64_t ev);
int vkg_vk_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_vk_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st);
int vkg_vk_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st);
int vkg_vk_cmd_scale(vkg_device *dev, VkCommandBuffer cb, VkBuffer mem, uint64_t n, int double_precision, double factor, vkg_status *st);
int vkg_vk_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision, double factor, vkg_status *st);

#endif
