/* vkg_hostreg_vulkan.c — registered host memory on Vulkan: the caller's pages imported as
 * device-visible memory (VK_EXT_external_memory_host) under a VkBuffer, added to the
 * device's pinned ranges, so copies to and from them are recorded against the buffer with
 * no staging copy. The pages around [ptr, ptr+bytes) are imported whole (the driver's
 * import alignment); they stay the caller's and must outlive the registration. */
#include <stdint.h>

#include "vkg_vulkan_int.h"

int vkg_vk_host_register(vkg_device *dev, void *ptr, uint64_t bytes, uint64_t *handle, vkg_status *st)
{
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
						.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ext};
	VkMemoryHostPointerPropertiesEXT props = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkImportMemoryHostPointerInfoEXT import = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
						   .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &import};
	VkMemoryRequirements req;
	pinned_range r = {0};
	uintptr_t base, end;
	uint32_t bits, t;
	VkResult res;
	int rc;

	*handle = 0;
	if (!ptr || bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "registering %llu bytes at %p", (unsigned long long)bytes, ptr);
	if (!dev->import_align || !dev->host_pointer_props)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"this Vulkan driver cannot import host memory (no VK_EXT_external_memory_host)");
	base = (uintptr_t)ptr & ~(uintptr_t)(dev->import_align - 1);
	end = ((uintptr_t)ptr + bytes + dev->import_align - 1) & ~(uintptr_t)(dev->import_align - 1);
	res = dev->host_pointer_props(dev->device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
				      (void *)base, &props);
	if (res != VK_SUCCESS)
		return vkg_vk_fail(st, res, "vkGetMemoryHostPointerPropertiesEXT");
	bci.size = end - base;
	bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	res = vkCreateBuffer(dev->device, &bci, NULL, &r.buffer);
	if (res != VK_SUCCESS)
		return vkg_vk_fail(st, res, "vkCreateBuffer (imported host memory)");
	vkGetBufferMemoryRequirements(dev->device, r.buffer, &req);
	bits = req.memoryTypeBits & props.memoryTypeBits;
	for (t = 0; t < dev->memprops.memoryTypeCount && !(bits >> t & 1); t++)
		;
	if (t == dev->memprops.memoryTypeCount) {
		vkDestroyBuffer(dev->device, r.buffer, NULL);
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "no memory type can hold both a buffer and imported host memory");
	}
	import.pHostPointer = (void *)base;
	mai.allocationSize = end - base;
	mai.memoryTypeIndex = t;
	res = vkAllocateMemory(dev->device, &mai, NULL, &r.memory);
	if (res == VK_SUCCESS)
		res = vkBindBufferMemory(dev->device, r.buffer, r.memory, 0);
	if (res != VK_SUCCESS) {
		vkDestroyBuffer(dev->device, r.buffer, NULL);
		if (r.memory)
			vkFreeMemory(dev->device, r.memory, NULL);
		return vkg_vk_fail(st, res, "importing host memory (vkAllocateMemory)");
	}
	r.ptr = (char *)base;
	r.bytes = end - base;
	if ((rc = vkg_vk_pin_add(dev, &r, st)) != VKG_OK) {
		vkDestroyBuffer(dev->device, r.buffer, NULL);
		vkFreeMemory(dev->device, r.memory, NULL);
		return rc;
	}
	*handle = (uint64_t)(uintptr_t)r.buffer;
	return VKG_OK;
}

void vkg_vk_host_unregister(vkg_device *dev, void *ptr, uint64_t handle)
{
	(void)ptr;
	vkg_vk_pin_remove(dev, handle);
}
