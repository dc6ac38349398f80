/* vkg_vulkan_scale.c — the ortho and forward normalisations on Vulkan, which VkFFT does
 * not apply itself: a compute shader compiled by glslang on first use, bound by push
 * descriptors so that it records into any command buffer (a plan's recorded transform,
 * or a queue's batch). */
#include <stdlib.h>
#include <string.h>

#include "vkg_vulkan_int.h"

/* ---- normalisation: a compute shader, compiled by glslang on first use ---- */

static const char scale_src[] =
	"#version 450\n"
	"layout(local_size_x = 256) in;\n"
	"layout(std430, set = 0, binding = 0) buffer Data { T a[]; };\n"
	"layout(push_constant) uniform Params { T s; uint n; } pc;\n"
	"void main() {\n"
	"  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;\n"
	"  if (i < pc.n) a[i] *= pc.s;\n"
	"}\n";

static int compile_scale(vkg_device *dev, int dbl, VkPipeline *out, vkg_status *st)
{
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkShaderModule mod;
	VkResult r;
	uint32_t *words;
	size_t n;
	int rc;

	rc = vkg_vk_glsl_to_spirv("the normalisation shader", dbl ? "#define T double\n" : "#define T float\n",
				  scale_src, &words, &n, st);
	if (rc != VKG_OK)
		return rc;
	smci.codeSize = n * sizeof *words;
	smci.pCode = words;
	r = vkCreateShaderModule(dev->device, &smci, NULL, &mod);
	free(words);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateShaderModule");
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = mod;
	cpci.stage.pName = "main";
	cpci.layout = dev->scale_layout;
	r = vkCreateComputePipelines(dev->device, dev->pipeline_cache, 1, &cpci, NULL, out);
	vkDestroyShaderModule(dev->device, mod, NULL);
	return r == VK_SUCCESS ? VKG_OK : vkg_vk_fail(st, r, "vkCreateComputePipelines (normalisation)");
}

static int build_scale(vkg_device *dev, vkg_status *st)
{
	VkDescriptorSetLayoutBinding bind = {0};
	VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkResult r;
	int rc;

	if (!dev->push_descriptor)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"the ortho and forward normalisations need VK_KHR_push_descriptor, which this "
				"Vulkan driver lacks (NormBackward works)");
	bind.binding = 0;
	bind.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	bind.descriptorCount = 1;
	bind.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
	dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
	dslci.bindingCount = 1;
	dslci.pBindings = &bind;
	r = vkCreateDescriptorSetLayout(dev->device, &dslci, NULL, &dev->scale_dsl);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateDescriptorSetLayout");
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &dev->scale_dsl;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &pcr;
	r = vkCreatePipelineLayout(dev->device, &plci, NULL, &dev->scale_layout);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreatePipelineLayout");
	if ((rc = compile_scale(dev, 0, &dev->scale_f, st)) != VKG_OK)
		return rc;
	if (dev->info.fp64 && (rc = compile_scale(dev, 1, &dev->scale_d, st)) != VKG_OK)
		return rc;
	dev->scale_built = 1;
	return VKG_OK;
}

void vkg_vk_scale_free(vkg_device *dev)
{
	if (dev->scale_f)
		vkDestroyPipeline(dev->device, dev->scale_f, NULL);
	if (dev->scale_d)
		vkDestroyPipeline(dev->device, dev->scale_d, NULL);
	if (dev->scale_layout)
		vkDestroyPipelineLayout(dev->device, dev->scale_layout, NULL);
	if (dev->scale_dsl)
		vkDestroyDescriptorSetLayout(dev->device, dev->scale_dsl, NULL);
	dev->scale_f = dev->scale_d = VK_NULL_HANDLE;
	dev->scale_layout = VK_NULL_HANDLE;
	dev->scale_dsl = VK_NULL_HANDLE;
	dev->scale_built = 0;
}

int vkg_vk_cmd_scale(vkg_device *dev, VkCommandBuffer cb, VkBuffer mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st)
{
	uint64_t esz = double_precision ? 8 : 4, start = 0, chunk;
	unsigned char push[16];
	int rc = VKG_OK;

	pthread_mutex_lock(&dev->scale_mu);
	if (!dev->scale_built)
		rc = build_scale(dev, st);
	pthread_mutex_unlock(&dev->scale_mu);
	if (rc)
		return rc;
	if (double_precision && !dev->scale_d)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0, "the device has no double precision (shaderFloat64)");
	/* each dispatch binds at most maxStorageBufferRange bytes, at an aligned offset */
	chunk = dev->storage_range / esz;
	if (chunk > (1u << 30))
		chunk = 1u << 30;
	chunk &= ~(uint64_t)0xffff;
	if (chunk == 0)
		chunk = 0x10000;
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, double_precision ? dev->scale_d : dev->scale_f);
	memset(push, 0, sizeof push);
	if (double_precision) {
		memcpy(push, &factor, 8);
	} else {
		float f = (float)factor;
		memcpy(push, &f, 4);
	}
	while (start < n) {
		uint64_t len = n - start < chunk ? n - start : chunk;
		uint32_t groups = (uint32_t)((len + 255) / 256), gx = groups < 65535 ? groups : 65535;
		uint32_t gy = (groups + gx - 1) / gx, n32 = (uint32_t)len;
		VkDescriptorBufferInfo bi = {mem, start * esz, len * esz};
		VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		w.dstBinding = 0;
		w.descriptorCount = 1;
		w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		w.pBufferInfo = &bi;
		dev->push_descriptor(cb, VK_PIPELINE_BIND_POINT_COMPUTE, dev->scale_layout, 0, 1, &w);
		/* the push constant block: T s at 0, uint n after it (offset 4 or 8) */
		memcpy(push + esz, &n32, 4);
		vkCmdPushConstants(cb, dev->scale_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, push);
		vkCmdDispatch(cb, gx, gy, 1);
		start += len;
	}
	return VKG_OK;
}

int vkg_vk_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st)
{
	vkg_vk_queue *q = vkg_vk_queue_of(dev, queue);
	VkCommandBuffer cb;
	int rc;
	if ((rc = vkg_vk_op_begin(q, &cb, st)) != VKG_OK)
		return rc;
	rc = vkg_vk_cmd_scale(dev, cb, (VkBuffer)(uintptr_t)mem, n, double_precision, factor, st);
	if (rc) {
		q->nops++;
		pthread_mutex_unlock(&q->mu);
		return rc;
	}
	return vkg_vk_op_end(q, NULL, 0, st);
}

