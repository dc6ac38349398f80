/* vkg_vulkan_copy.c — device-to-device copies. vkCmdCopyBuffer is what Vulkan offers, but
 * on NVIDIA's driver a compute queue runs it at a fifth of the memory's speed (0.8 TB/s on
 * an H200 where a kernel copies at 4 TB/s): a copy of a large buffer on a discrete device
 * goes through a compute shader instead, 64 bytes per invocation, bound by push
 * descriptors like the normalisation. On a device whose memory is the host's (llvmpipe),
 * vkCmdCopyBuffer is a memcpy and stays. VKFFTGO_VULKAN_COPY=shader|transfer overrides the
 * choice for every size (read when the device opens). */
#include <stdlib.h>
#include <string.h>

#include "vkg_vulkan_int.h"

/* below this a copy is a command like any other: the transfer's speed does not matter */
#define COPY_SHADER_MIN (1u << 20)
#define COPY_PER_GROUP 1024 /* uvec4s: 256 invocations, 4 each */

/* Each work-group moves four blocks of 256 uvec4s, all loads before the stores:
 * one 16-byte access per invocation leaves too few bytes in flight to fill HBM. */
static const char copy_src[] =
	"#version 450\n"
	"layout(local_size_x = 256) in;\n"
	"layout(std430, set = 0, binding = 0) readonly buffer Src { uvec4 s[]; };\n"
	"layout(std430, set = 0, binding = 1) writeonly buffer Dst { uvec4 d[]; };\n"
	"layout(push_constant) uniform Params { uint n; } pc;\n"
	"void main() {\n"
	"  uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;\n"
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

static int build_copy(vkg_device *dev, vkg_status *st)
{
	VkDescriptorSetLayoutBinding bind[2];
	VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkShaderModule mod;
	VkResult r;
	uint32_t *words;
	size_t n;
	int i, rc;

	memset(bind, 0, sizeof bind);
	for (i = 0; i < 2; i++) {
		bind[i].binding = (uint32_t)i;
		bind[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		bind[i].descriptorCount = 1;
		bind[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
	}
	dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
	dslci.bindingCount = 2;
	dslci.pBindings = bind;
	r = vkCreateDescriptorSetLayout(dev->device, &dslci, NULL, &dev->copy_dsl);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateDescriptorSetLayout (copy)");
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &dev->copy_dsl;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &pcr;
	r = vkCreatePipelineLayout(dev->device, &plci, NULL, &dev->copy_layout);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreatePipelineLayout (copy)");
	rc = vkg_vk_glsl_to_spirv("the copy shader", NULL, copy_src, &words, &n, st);
	if (rc != VKG_OK)
		return rc;
	smci.codeSize = n * sizeof *words;
	smci.pCode = words;
	r = vkCreateShaderModule(dev->device, &smci, NULL, &mod);
	free(words);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateShaderModule (copy)");
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = mod;
	cpci.stage.pName = "main";
	cpci.layout = dev->copy_layout;
	r = vkCreateComputePipelines(dev->device, dev->pipeline_cache, 1, &cpci, NULL, &dev->copy_pipe);
	vkDestroyShaderModule(dev->device, mod, NULL);
	if (r != VK_SUCCESS) {
		dev->copy_pipe = VK_NULL_HANDLE;
		return vkg_vk_fail(st, r, "vkCreateComputePipelines (copy)");
	}
	return VKG_OK;
}

void vkg_vk_copy_free(vkg_device *dev)
{
	if (dev->copy_pipe)
		vkDestroyPipeline(dev->device, dev->copy_pipe, NULL);
	if (dev->copy_layout)
		vkDestroyPipelineLayout(dev->device, dev->copy_layout, NULL);
	if (dev->copy_dsl)
		vkDestroyDescriptorSetLayout(dev->device, dev->copy_dsl, NULL);
	dev->copy_pipe = VK_NULL_HANDLE;
	dev->copy_layout = VK_NULL_HANDLE;
	dev->copy_dsl = VK_NULL_HANDLE;
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
		dev->copy_state = build_copy(dev, &st) == VKG_OK ? 1 : -1;
		free(st.detail);
	}
	ok = dev->copy_state > 0;
	pthread_mutex_unlock(&dev->scale_mu);
	return ok;
}

/* Records the shader's copy of the first bytes (a multiple of 16) of src to dst: one
 * dispatch per window of at most maxStorageBufferRange bytes, at offsets that are
 * multiples of 64 KiB (and so of any storage-buffer offset alignment). */
static void record_shader_copy(vkg_device *dev, VkCommandBuffer cb, VkBuffer dst, VkBuffer src, uint64_t bytes)
{
	uint64_t window = dev->storage_range, start = 0;
	unsigned char push[16];
	if (window > (1ull << 32) - 65536)
		window = (1ull << 32) - 65536;
	window &= ~(uint64_t)0xffff;
	if (window == 0)
		window = 0x10000;
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, dev->copy_pipe);
	memset(push, 0, sizeof push);
	while (start < bytes) {
		uint64_t len = bytes - start < window ? bytes - start : window;
		uint32_t n = (uint32_t)(len / 16), groups = (n + COPY_PER_GROUP - 1) / COPY_PER_GROUP;
		uint32_t gx = groups < 65535 ? groups : 65535, gy = (groups + gx - 1) / gx;
		VkDescriptorBufferInfo bi[2] = {{src, start, len}, {dst, start, len}};
		VkWriteDescriptorSet w[2];
		int i;
		memset(w, 0, sizeof w);
		for (i = 0; i < 2; i++) {
			w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
			w[i].dstBinding = (uint32_t)i;
			w[i].descriptorCount = 1;
			w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			w[i].pBufferInfo = &bi[i];
		}
		dev->push_descriptor(cb, VK_PIPELINE_BIND_POINT_COMPUTE, dev->copy_layout, 0, 2, w);
		memcpy(push, &n, 4);
		vkCmdPushConstants(cb, dev->copy_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, push);
		vkCmdDispatch(cb, gx, gy, 1);
		start += len;
	}
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
		record_shader_copy(dev, cb, (VkBuffer)(uintptr_t)dst, (VkBuffer)(uintptr_t)src, head);
		__atomic_add_fetch(&dev->shader_copies, 1, __ATOMIC_RELAXED);
	}
	if (head < bytes) {
		VkBufferCopy region = {head, head, bytes - head};
		vkCmdCopyBuffer(cb, (VkBuffer)(uintptr_t)src, (VkBuffer)(uintptr_t)dst, 1, &region);
	}
	/* part of a larger operation (a copy before a transform): the caller submits */
	q->nops++;
	pthread_mutex_unlock(&q->mu);
	return VKG_OK;
}

int64_t vkg_vk_shader_copies(vkg_device *dev) { return __atomic_load_n(&dev->shader_copies, __ATOMIC_RELAXED); }
