/* vkg_vulkan_mem.c — the backend's memory (vkg_vulkan.h): device buffers, device-local
 * with one VkDeviceMemory each; pinned HostBuffers, mapped host-visible VkBuffers that the
 * copy commands read and write directly; and the free-memory query. Above the queue file:
 * a buffer or pinned range may be used by a batch still recording or on the device, so
 * freeing one first submits and waits for every queue (vkg_vk_sync_all). */
#include <stdlib.h>

#include "vkg_vulkan_int.h"

/* ---- device buffers ---- */

int vkg_vk_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	VkBuffer buf;
	VkDeviceMemory mem;
	mem_node *n;
	int rc;
	*out = 0;
	if (bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "zero-byte allocation");
	if (dev->info.max_alloc && bytes > dev->info.max_alloc)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0,
				"%llu bytes exceed the device's largest allocation (%llu bytes)",
				(unsigned long long)bytes, (unsigned long long)dev->info.max_alloc);
	n = malloc(sizeof *n);
	if (!n)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	/* whole 32-bit words: companion kernels read byte samples as uint words */
	bytes = (bytes + 3) & ~(uint64_t)3;
	rc = vkg_vk_buffer_create(dev, bytes, 0, &buf, &mem, NULL, st);
	if (rc) {
		free(n);
		return rc;
	}
	n->buffer = buf;
	n->memory = mem;
	n->bytes = bytes;
	vkg_vk_buffer_track(dev, n);
	*out = (vkg_mem)(uintptr_t)buf;
	return VKG_OK;
}

void vkg_vk_mem_free(vkg_device *dev, vkg_mem m)
{
	mem_node *n;
	if (!m)
		return;
	n = vkg_vk_buffer_untrack(dev, (VkBuffer)(uintptr_t)m);
	if (!n)
		return; /* not ours (a caller's VkBuffer): nothing to free */
	/* a batch, submitted or still recording, may use it: destroying it then is not
	 * allowed (cuMemFree synchronises too; frees are rare behind the allocation cache) */
	vkg_vk_sync_all(dev);
	vkDestroyBuffer(dev->device, n->buffer, NULL);
	vkFreeMemory(dev->device, n->memory, NULL);
	free(n);
}

int vkg_vk_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st)
{
	VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
	VkPhysicalDeviceMemoryProperties2 mp2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, .pNext = &budget};
	uint32_t i;
	uint64_t free_sum = 0;
	*free_bytes = 0;
	*total_bytes = dev->info.global_mem;
	if (!dev->has_budget)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"this Vulkan driver does not report free device memory (no VK_EXT_memory_budget)");
	vkGetPhysicalDeviceMemoryProperties2(dev->physical, &mp2);
	for (i = 0; i < mp2.memoryProperties.memoryHeapCount; i++)
		if (mp2.memoryProperties.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT &&
		    budget.heapBudget[i] > budget.heapUsage[i])
			free_sum += budget.heapBudget[i] - budget.heapUsage[i];
	*free_bytes = free_sum;
	return VKG_OK;
}

/* ---- pinned ranges ---- */

void vkg_vk_pin_remove(vkg_device *dev, uint64_t handle)
{
	pinned_range r = {0};
	if (!handle || !vkg_vk_pin_take(dev, handle, &r))
		return;
	vkg_vk_sync_all(dev); /* copies into or out of it may still be queued */
	vkDestroyBuffer(dev->device, r.buffer, NULL);
	vkFreeMemory(dev->device, r.memory, NULL);
}

/* Pinned memory is a host-visible VkBuffer, mapped once; copies to and from it are
 * recorded against the buffer, so no intermediate copy is made. */
int vkg_vk_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	pinned_range r;
	int rc;
	*ptr = NULL;
	*handle = 0;
	if (bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "zero-byte allocation");
	rc = vkg_vk_buffer_create(dev, bytes, 1, &r.buffer, &r.memory, (void **)&r.ptr, st);
	if (rc)
		return rc;
	r.bytes = bytes;
	if ((rc = vkg_vk_pin_add(dev, &r, st)) != VKG_OK) {
		vkDestroyBuffer(dev->device, r.buffer, NULL);
		vkFreeMemory(dev->device, r.memory, NULL);
		return rc;
	}
	*ptr = r.ptr;
	*handle = (uint64_t)(uintptr_t)r.buffer;
	return VKG_OK;
}

void vkg_vk_host_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)ptr;
	vkg_vk_pin_remove(dev, handle);
}
