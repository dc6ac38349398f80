/* vk_interop.c — a C program that uses the Vulkan library's device with Vulkan of its own:
 * it creates a VkBuffer on the library's VkDevice, fills it through a mapping, transforms
 * it in place with vkfftgo_execute_vk, and compares with the library's host-memory
 * transform. Built only against a vulkan libvkfftgo:
 *   cc vk_interop.c $(pkg-config --cflags --libs vkfftgo) -lvulkan */
#include <math.h>
#include <vulkan/vulkan.h>

#include "check.h"

#if VKFFTGO_BACKEND != 0
#error "vk_interop.c needs a vulkan libvkfftgo"
#endif

#define N 1024

int main(void)
{
	vkfftgo_device *d = NULL;
	vkfftgo_plan *p = NULL;
	vkfftgo_plan_desc desc = VKFFTGO_PLAN_DESC_INIT;
	VkInstance inst = VK_NULL_HANDLE;
	VkPhysicalDevice phys = VK_NULL_HANDLE;
	VkDevice dev = VK_NULL_HANDLE;
	VkQueue queue = VK_NULL_HANDLE;
	uint32_t family = UINT32_MAX, t;
	VkBuffer buf;
	VkDeviceMemory mem;
	VkMemoryRequirements req;
	VkPhysicalDeviceMemoryProperties mp;
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	static float in[2 * N], want[2 * N];
	float *mapped;
	double err = 0;
	int i;

	CHECK(vkfftgo_device_open(0, &d));
	CHECK(vkfftgo_device_vk_handles(d, &inst, &phys, &dev, &family));
	CHECK(vkfftgo_device_vk_queue(d, &queue));
	if (!inst || !phys || !dev || !queue || family == UINT32_MAX) {
		fprintf(stderr, "null Vulkan handle\n");
		return 1;
	}
	CHECK(vkfftgo_device_vk_handles(d, NULL, NULL, NULL, NULL)); /* every output optional */
	desc.rank = 1;
	desc.shape[0] = N;
	CHECK(vkfftgo_plan_create(d, &desc, &p));
	for (i = 0; i < 2 * N; i++)
		in[i] = (float)test_value((size_t)i);
	CHECK(vkfftgo_forward(p, want, in));

	/* our own buffer on the library's device, host-visible so we can fill it directly */
	bci.size = sizeof in;
	bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	if (vkCreateBuffer(dev, &bci, NULL, &buf) != VK_SUCCESS)
		return fprintf(stderr, "vkCreateBuffer\n"), 1;
	vkGetBufferMemoryRequirements(dev, buf, &req);
	vkGetPhysicalDeviceMemoryProperties(phys, &mp);
	for (t = 0; t < mp.memoryTypeCount; t++)
		if ((req.memoryTypeBits >> t & 1) &&
		    (mp.memoryTypes[t].propertyFlags & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
			    (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
			break;
	if (t == mp.memoryTypeCount)
		return fprintf(stderr, "no host-visible memory type\n"), 1;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = t;
	if (vkAllocateMemory(dev, &mai, NULL, &mem) != VK_SUCCESS || vkBindBufferMemory(dev, buf, mem, 0) != VK_SUCCESS ||
	    vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&mapped) != VK_SUCCESS)
		return fprintf(stderr, "allocating the buffer's memory\n"), 1;
	memcpy(mapped, in, sizeof in);

	CHECK(vkfftgo_execute_vk(p, VKFFTGO_FORWARD, (struct VkBuffer_T *)buf, (struct VkBuffer_T *)buf));
	CHECK(vkfftgo_device_sync(d));
	for (i = 0; i < 2 * N; i++)
		if (fabs((double)mapped[i] - want[i]) > err)
			err = fabs((double)mapped[i] - want[i]);
	if (!(err < 1e-3)) {
		fprintf(stderr, "VkBuffer transform differs from the host transform by %g\n", err);
		return 1;
	}
	/* and back, through the library's own buffer as the destination */
	{
		vkfftgo_buffer *b = NULL;
		struct VkBuffer_T *vb = NULL;
		static float back[2 * N];
		CHECK(vkfftgo_buffer_create(d, sizeof in, &b));
		CHECK(vkfftgo_buffer_vk_buffer(b, &vb));
		if (!vb)
			return fprintf(stderr, "null VkBuffer\n"), 1;
		CHECK(vkfftgo_execute_vk(p, VKFFTGO_INVERSE, vb, (struct VkBuffer_T *)buf));
		CHECK(vkfftgo_buffer_download(b, back, sizeof back));
		err = 0;
		for (i = 0; i < 2 * N; i++)
			if (fabs((double)back[i] - in[i]) > err)
				err = fabs((double)back[i] - in[i]);
		if (!(err < 1e-5))
			return fprintf(stderr, "round trip through VkBuffers: error %g\n", err), 1;
		CHECK(vkfftgo_buffer_destroy(b));
	}
	EXPECT_FAIL(vkfftgo_execute_vk(p, VKFFTGO_FORWARD, NULL, (struct VkBuffer_T *)buf), VKFFTGO_ERROR_NULL_POINTER,
		    "out is NULL");
	EXPECT_FAIL(vkfftgo_device_vk_queue(d, NULL), VKFFTGO_ERROR_NULL_POINTER, "queue is NULL");
	CHECK(vkfftgo_device_sync(d));
	vkUnmapMemory(dev, mem);
	vkDestroyBuffer(dev, buf, NULL);
	vkFreeMemory(dev, mem, NULL);
	CHECK(vkfftgo_plan_destroy(p));
	CHECK(vkfftgo_device_close(d));
	printf("vk_interop: caller's VkBuffer on the library's VkDevice, forward and back: ok (error %.2g)\n", err);
	return 0;
}
