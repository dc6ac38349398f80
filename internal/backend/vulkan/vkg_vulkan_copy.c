/* vkg_vulkan_copy.c — device-to-device copies. vkCmdCopyBuffer is what Vulkan offers, but
 * on NVIDIA's driver a compute queue runs it at a fifth of the memory's speed (0.8 TB/s on
 * an H200 where a kernel copies at 4 TB/s): a copy of a large buffer on a discrete device
 * goes through a companion kernel of the backend's own instead (vkg_kern_vulkan.c), 64
 * bytes per invocation. On a device whose memory is the host's (llvmpipe),
 * vkCmdCopyBuffer is a memcpy and stays. VKFFTGO_VULKAN_COPY=shader|transfer overrides the
 * choice for every size (read when the device opens). */
#include <stdlib.h>
#include <string.h>

#include "vkg_vulkan_int.h"

/* below this a copy is a command like any other: the transfer's speed does not matter */
#define COPY_SHADER_MIN (1u << 20)
#define COPY_LOCAL 256
#define COPY_PER_GROUP 1024 /* uvec4s: COPY_LOCAL invocations, 4 each */

/* Each work-group moves four blocks of 256 uvec4s, all loads before the stores: one
 * 16-byte access per invocation leaves too few bytes in flight to fill HBM. Groups past
 * the device's x count fold over z (vkg_kern_vulkan.c's launch). */
static const char copy_src[] =
	"//!vkg-kernel vkg_copy bbs 256\n"
	"#version 450\n"
	"layout(local_size_x = 256) in;\n"
	"layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 s[]; };\n"
	"layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 d[]; };\n"
	"layout(push_constant) uniform Params { uint n; } pc;\n"
	"void main() {\n"
	"  uint g = gl_WorkGroupID.x + gl_WorkGroupID.z * gl_NumWorkGroups.x;\n"
	"  uint i = g * 1024u + gl_LocalInvocationID.x;\n"
	"  if (i + 768u < pc.n) {\n"
	"    uvec4 a = s[i], b = s[i + 256u], c = s[i + 512u], e = s[i + 768u];\n"
	"    d[i] = a; d[i + 256u] = b; d[i + 512u] = c; d[i + 768u] = e;\n"
	"  } else {\n"
	"    for (uint k = 0u; k < 4u; k++, i += 256u)\n"
	"      if (i < pc.n) d[i] = s[i];\n"
	"  }\n"
	"}\n";

int vkg_vk_copy_mode(void)
{
	const char *env = getenv("VKFFTGO_VULKAN_COPY");
	if (env && strcmp(env, "shader") == 0)
		return VKG_VK_COPY_SHADER;
	if (env && strcmp(env, "transfer") == 0)
		return VKG_VK_COPY_TRANSFER;
	return VKG_VK_COPY_AUTO;
}

void vkg_vk_copy_free(vkg_device *dev)
{
	vkg_vk_module_destroy(dev->copy_module);
	dev->copy_module = NULL;
	dev->copy_kernel = NULL;
	dev->copy_state = 0;
}

/* Whether a copy of bytes goes through the shader, building it on first use. A shader
 * that fails to build leaves every copy to vkCmdCopyBuffer, which is slower, not wrong. */
static int use_shader(vkg_device *dev, uint64_t bytes)
{
	int ok;
	if (!dev->push_descriptor || bytes < 16 || dev->copy_mode == VKG_VK_COPY_TRANSFER)
		return 0;
	if (dev->copy_mode == VKG_VK_COPY_AUTO && (dev->info.host_memory || bytes < COPY_SHADER_MIN))
		return 0;
	pthread_mutex_lock(&dev->scale_mu);
	if (dev->copy_state == 0) {
		vkg_status st;
		memset(&st, 0, sizeof st);
		dev->copy_state = -1;
		if (vkg_vk_module_build(dev, copy_src, NULL, 0, &dev->copy_module, NULL, NULL, &st) == VKG_OK &&
		    vkg_vk_module_kernel(dev->copy_module, "vkg_copy", &dev->copy_kernel, &st) == VKG_OK)
			dev->copy_state = 1;
		free(st.detail);
	}
	ok = dev->copy_state > 0;
	pthread_mutex_unlock(&dev->scale_mu);
	return ok;
}

/* Records the shader's copy of the first bytes (a multiple of 16) of src to dst: one
 * launch per window of at most maxStorageBufferRange bytes, at offsets that are
 * multiples of 64 KiB (and so of any storage-buffer offset alignment). */
static int record_shader_copy(vkg_device *dev, VkCommandBuffer cb, VkBuffer dst, VkBuffer src, uint64_t bytes,
			      vkg_status *st)
{
	uint64_t window = dev->storage_range, start, sv = (uint64_t)(uintptr_t)src, dv = (uint64_t)(uintptr_t)dst;
	int rc = VKG_OK;
	if (window > (1ull << 32) - 65536)
		window = (1ull << 32) - 65536;
	window &= ~(uint64_t)0xffff;
	if (window == 0)
		window = 0x10000;
	for (start = 0; start < bytes && rc == VKG_OK; start += window) {
		uint64_t len = bytes - start < window ? bytes - start : window;
		uint32_t n = (uint32_t)(len / 16);
		uint64_t groups[2] = {(n + COPY_PER_GROUP - 1) / COPY_PER_GROUP, 1};
		vkg_arg args[3] = {{&sv, 8}, {&dv, 8}, {&n, 4}};
		vkg_window win[2] = {{start, len}, {start, len}};
		rc = vkg_vk_kernel_record(dev, cb, dev->copy_kernel, groups, COPY_LOCAL, 3, args, win, st);
	}
	return rc;
}

int vkg_vk_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	VkCommandBuffer cb;
	uint64_t head = 0;
	int rc;
	if (bytes == 0 || dst == src)
		return VKG_OK;
	if (use_shader(dev, bytes))
		head = bytes & ~(uint64_t)15;
	if ((rc = vkg_vk_op_begin(q, &cb, st)) != VKG_OK)
		return rc;
	if (head) {
		rc = record_shader_copy(dev, cb, (VkBuffer)(uintptr_t)dst, (VkBuffer)(uintptr_t)src, head, st);
		if (rc == VKG_OK)
			__atomic_add_fetch(&dev->shader_copies, 1, __ATOMIC_RELAXED);
	}
	if (rc == VKG_OK && head < bytes) {
		VkBufferCopy region = {head, head, bytes - head};
		vkCmdCopyBuffer(cb, (VkBuffer)(uintptr_t)src, (VkBuffer)(uintptr_t)dst, 1, &region);
	}
	/* part of a larger operation (a copy before a transform): the caller submits */
	q->nops++;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int64_t vkg_vk_shader_copies(vkg_device *dev) { return __atomic_load_n(&dev->shader_copies, __ATOMIC_RELAXED); }
