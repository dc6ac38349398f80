/* vkg_vulkan_buffer.c — VkBuffers with their own memory, and the device's two tables of
 * them: the device buffers it allocated (a vkg_mem is the VkBuffer; the table finds its
 * memory and size again) and the pinned ranges (host-visible buffers over host memory,
 * which copies use directly). Nothing here waits for a queue: the queue file makes its
 * staging arenas and finds pinned ranges here, and freeing, which must wait for the
 * queues first, is the memory file's (vkg_vulkan_mem.c). */
#include <stdlib.h>

#include "vkg_vulkan_int.h"

/* ---- buffers ---- */

/* A memory type allowed by bits with all of want; with avoid, one without it if any. */
static int memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits, VkMemoryPropertyFlags want,
		       VkMemoryPropertyFlags avoid)
{
	uint32_t i;
	int pass;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < mp->memoryTypeCount; i++) {
			VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
			if (!(bits & (1u << i)) || (f & want) != want)
				continue;
			if (pass == 0 && (f & avoid))
				continue;
			return (int)i;
		}
	return -1;
}

int vkg_vk_buffer_create(vkg_device *dev, uint64_t bytes, int host, VkBuffer *buf, VkDeviceMemory *mem, void **map,
			 vkg_status *st)
{
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	VkMemoryRequirements req;
	VkResult r;
	int type;

	bci.size = bytes;
	bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
	r = vkCreateBuffer(dev->device, &bci, NULL, buf);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateBuffer");
	vkGetBufferMemoryRequirements(dev->device, *buf, &req);
	if (host) {
		/* cached host memory reads back at memcpy speed; coherent needs no flushes */
		type = memory_type(&dev->memprops, req.memoryTypeBits,
				   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
					   VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
				   0);
		if (type < 0)
			type = memory_type(&dev->memprops, req.memoryTypeBits,
					   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
	} else {
		/* not the small host-visible BAR window, where there is a choice */
		type = memory_type(&dev->memprops, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
				   dev->info.host_memory ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
		if (type < 0)
			type = memory_type(&dev->memprops, req.memoryTypeBits, 0, 0);
	}
	if (type < 0) {
		vkDestroyBuffer(dev->device, *buf, NULL);
		return vkg_fail(st, VKG_ERR_BACKEND, 0, "no suitable Vulkan memory type for a %s buffer",
				host ? "host-visible" : "device-local");
	}
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)type;
	r = vkAllocateMemory(dev->device, &mai, NULL, mem);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(dev->device, *buf, *mem, 0);
	else
		*mem = VK_NULL_HANDLE;
	if (r == VK_SUCCESS && host)
		r = vkMapMemory(dev->device, *mem, 0, VK_WHOLE_SIZE, 0, map);
	if (r != VK_SUCCESS) {
		vkDestroyBuffer(dev->device, *buf, NULL);
		if (*mem)
			vkFreeMemory(dev->device, *mem, NULL);
		return vkg_vk_fail(st, r, host ? "allocating host-visible memory" : "vkAllocateMemory");
	}
	return VKG_OK;
}

/* ---- the device buffers' table (dev->mu) ---- */

static size_t mem_bucket(VkBuffer b)
{
	uint64_t h = (uint64_t)(uintptr_t)b;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h >> 40) % VKG_VK_MEM_BUCKETS;
}

void vkg_vk_buffer_track(vkg_device *dev, mem_node *n)
{
	size_t k = mem_bucket(n->buffer);
	pthread_mutex_lock(&dev->mu);
	n->next = dev->mem[k];
	dev->mem[k] = n;
	dev->live_buffers++;
	pthread_mutex_unlock(&dev->mu);
}

mem_node *vkg_vk_buffer_untrack(vkg_device *dev, VkBuffer buf)
{
	mem_node **pp, *n = NULL;
	pthread_mutex_lock(&dev->mu);
	for (pp = &dev->mem[mem_bucket(buf)]; *pp; pp = &(*pp)->next)
		if ((*pp)->buffer == buf) {
			n = *pp;
			*pp = n->next;
			dev->live_buffers--;
			break;
		}
	pthread_mutex_unlock(&dev->mu);
	return n;
}

uint64_t vkg_vk_buffer_bytes(vkg_device *dev, VkBuffer buf)
{
	mem_node *n;
	uint64_t bytes = 0;
	pthread_mutex_lock(&dev->mu);
	for (n = dev->mem[mem_bucket(buf)]; n; n = n->next)
		if (n->buffer == buf) {
			bytes = n->bytes;
			break;
		}
	pthread_mutex_unlock(&dev->mu);
	return bytes;
}

int64_t vkg_vk_live_buffers(vkg_device *dev)
{
	int64_t n;
	pthread_mutex_lock(&dev->mu);
	n = dev->live_buffers;
	pthread_mutex_unlock(&dev->mu);
	return n;
}

/* ---- pinned ranges (dev->mu) ---- */

int vkg_vk_pin_add(vkg_device *dev, const pinned_range *r, vkg_status *st)
{
	pthread_mutex_lock(&dev->mu);
	if (dev->npins == dev->pins_cap) {
		size_t cap = dev->pins_cap ? 2 * dev->pins_cap : 16;
		pinned_range *p = realloc(dev->pins, cap * sizeof *p);
		if (!p) {
			pthread_mutex_unlock(&dev->mu);
			return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
		}
		dev->pins = p;
		dev->pins_cap = cap;
	}
	dev->pins[dev->npins++] = *r;
	pthread_mutex_unlock(&dev->mu);
	return VKG_OK;
}

int vkg_vk_pin_take(vkg_device *dev, uint64_t handle, pinned_range *out)
{
	size_t i;
	int found = 0;
	pthread_mutex_lock(&dev->mu);
	for (i = 0; i < dev->npins; i++)
		if ((uint64_t)(uintptr_t)dev->pins[i].buffer == handle) {
			*out = dev->pins[i];
			dev->pins[i] = dev->pins[--dev->npins];
			found = 1;
			break;
		}
	pthread_mutex_unlock(&dev->mu);
	return found;
}

int vkg_vk_find_pinned(vkg_device *dev, const void *p, uint64_t bytes, VkBuffer *buf, uint64_t *off)
{
	size_t i;
	int found = 0;
	const char *c = p;
	pthread_mutex_lock(&dev->mu);
	for (i = 0; i < dev->npins; i++) {
		pinned_range *r = &dev->pins[i];
		if (c >= r->ptr && c + bytes <= r->ptr + r->bytes) {
			*buf = r->buffer;
			*off = (uint64_t)(c - r->ptr);
			found = 1;
			__atomic_add_fetch(&dev->pinned_copies, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	pthread_mutex_unlock(&dev->mu);
	return found;
}

int64_t vkg_vk_pinned_copies(vkg_device *dev) { return __atomic_load_n(&dev->pinned_copies, __ATOMIC_RELAXED); }

/* ---- both tables at device close ---- */

void vkg_vk_buffers_destroy_all(vkg_device *dev)
{
	size_t i;
	for (i = 0; i < VKG_VK_MEM_BUCKETS; i++) {
		mem_node *n = dev->mem[i];
		while (n) {
			mem_node *next = n->next;
			vkDestroyBuffer(dev->device, n->buffer, NULL);
			vkFreeMemory(dev->device, n->memory, NULL);
			free(n);
			n = next;
		}
		dev->mem[i] = NULL;
	}
	dev->live_buffers = 0;
	for (i = 0; i < dev->npins; i++) {
		vkDestroyBuffer(dev->device, dev->pins[i].buffer, NULL);
		vkFreeMemory(dev->device, dev->pins[i].memory, NULL);
	}
	free(dev->pins);
	dev->pins = NULL;
	dev->npins = dev->pins_cap = 0;
}
