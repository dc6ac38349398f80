/* vkg_kern_vulkan.c — companion kernels on Vulkan.
 *
 * A module's source is one GLSL compute shader per kernel (kernels_glsl.go), each after a
 * line "//!vkg-kernel NAME SIGNATURE LOCAL". The signature has a letter per launch
 * argument: b a storage buffer (bound whole, in order, at bindings 0, 1, ... by push
 * descriptors), s a scalar (a 32-bit push constant, in order), - an argument the kernel
 * ignores. glslang compiles each shader to SPIR-V; the module's binary — what the kernel
 * cache keeps — is those headers and the SPIR-V, so a load skips glslang.
 *
 * Every kernel is a compute pipeline with its own descriptor set layout (push
 * descriptors) and pipeline layout, all made when the module is built. A launch records
 * bind, push and dispatch into the queue's current batch like any other command
 * (vkg_vulkan_queue.c): the barrier in front of every command orders it after the FFTs
 * and copies recorded before it, on that queue. Nothing is allocated per launch. */
#if VKFFT_BACKEND == 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkg_vulkan_int.h"

#define VKG_MAX_KERNELS 16
#define KERN_MAX_ARGS 16
#define KERN_MAX_BUFS 8
#define KERN_NAME 64
#define KERN_SIG 32
#define MARKER "//!vkg-kernel "
#define SPIRV_MAGIC 0x07230203u

/* The module binary: BIN_MAGIC, a uint32 count, then per kernel a bin_kernel header and
 * its SPIR-V words. Host byte order; the kernel cache keys it by device and build. */
static const char BIN_MAGIC[8] = {'V', 'K', 'G', 'S', 'P', 'V', '1', 0};

typedef struct bin_kernel {
	char name[KERN_NAME];
	char sig[KERN_SIG];
	uint32_t local;
	uint32_t words;
} bin_kernel;

struct vkg_kernel {
	char name[KERN_NAME];
	char sig[KERN_SIG];
	int nargs, nbufs, nscalars;
	uint32_t local;
	uint32_t max_groups[3]; /* the device's maxComputeWorkGroupCount */
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkPipeline pipe;
};

struct vkg_module {
	vkg_device *dev;
	int nkernels;
	struct vkg_kernel kernels[VKG_MAX_KERNELS];
};

/* ---- the binary ---- */

typedef struct blob {
	unsigned char *p;
	size_t len, cap;
} blob;

static int blob_put(blob *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;
		unsigned char *p;
		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return 1;
}

/* valid_sig: only b, s and -, at most KERN_MAX_ARGS of them and KERN_MAX_BUFS buffers. */
static int valid_sig(const char *sig)
{
	int n = 0, bufs = 0;
	for (; *sig; sig++, n++) {
		if (*sig != 'b' && *sig != 's' && *sig != '-')
			return 0;
		bufs += *sig == 'b';
	}
	return n <= KERN_MAX_ARGS && bufs <= KERN_MAX_BUFS;
}

/* ---- source to binary: glslang ---- */

static int compile_shader(const char *name, const char *src, blob *out, const bin_kernel *hdr, vkg_status *st)
{
	char what[KERN_NAME + 32];
	bin_kernel h = *hdr;
	uint32_t *words;
	size_t n;
	int rc;

	snprintf(what, sizeof what, "companion kernel %s", name);
	if ((rc = vkg_vk_glsl_to_spirv(what, NULL, src, &words, &n, st)) != VKG_OK)
		return rc;
	h.words = (uint32_t)n;
	if (!blob_put(out, &h, sizeof h) || !blob_put(out, words, n * sizeof *words))
		rc = vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	free(words);
	return rc;
}

/* compile_module turns the module's source into its binary (*out, malloc'd). */
static int compile_module(const char *source, blob *out, vkg_status *st)
{
	const char *p = strstr(source, MARKER);
	uint32_t count = 0;
	int rc;

	if (!p)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel source for Vulkan has no \"%s\" line", MARKER);
	if (!blob_put(out, BIN_MAGIC, sizeof BIN_MAGIC) || !blob_put(out, &count, sizeof count))
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	while (p) {
		bin_kernel h;
		const char *body = strchr(p, '\n'), *next;
		char *src;
		unsigned local = 0;
		char fmt[32];

		memset(&h, 0, sizeof h);
		snprintf(fmt, sizeof fmt, "%%%ds %%%ds %%u", KERN_NAME - 1, KERN_SIG - 1);
		if (!body || sscanf(p + strlen(MARKER), fmt, h.name, h.sig, &local) != 3 || !valid_sig(h.sig) ||
		    local == 0 || local > 1024)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "bad companion kernel header: %.80s", p);
		if (count == VKG_MAX_KERNELS)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "more than %d companion kernels in one module",
					VKG_MAX_KERNELS);
		h.local = local;
		body++;
		next = strstr(body, MARKER);
		src = next ? strndup(body, (size_t)(next - body)) : strdup(body);
		if (!src)
			return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
		rc = compile_shader(h.name, src, out, &h, st);
		free(src);
		if (rc)
			return rc;
		count++;
		p = next;
	}
	memcpy(out->p + sizeof BIN_MAGIC, &count, sizeof count);
	return VKG_OK;
}

/* ---- binary to pipelines ---- */

static void kernel_free(vkg_device *dev, struct vkg_kernel *k)
{
	if (k->pipe)
		vkDestroyPipeline(dev->device, k->pipe, NULL);
	if (k->layout)
		vkDestroyPipelineLayout(dev->device, k->layout, NULL);
	if (k->dsl)
		vkDestroyDescriptorSetLayout(dev->device, k->dsl, NULL);
	k->pipe = VK_NULL_HANDLE;
	k->layout = VK_NULL_HANDLE;
	k->dsl = VK_NULL_HANDLE;
}

/* kernel_make creates k's layouts and pipeline from its SPIR-V (k->sig, k->local set). */
static int kernel_make(vkg_device *dev, struct vkg_kernel *k, const uint32_t *code, uint32_t words, vkg_status *st)
{
	VkDescriptorSetLayoutBinding binds[KERN_MAX_BUFS];
	VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 0};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkShaderModule mod;
	VkResult r;
	int i;

	k->nargs = (int)strlen(k->sig);
	for (i = 0; i < k->nargs; i++) {
		if (k->sig[i] == 'b') {
			VkDescriptorSetLayoutBinding *b = &binds[k->nbufs];
			memset(b, 0, sizeof *b);
			b->binding = (uint32_t)k->nbufs++;
			b->descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			b->descriptorCount = 1;
			b->stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
		} else if (k->sig[i] == 's') {
			k->nscalars++;
		}
	}
	dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
	dslci.bindingCount = (uint32_t)k->nbufs;
	dslci.pBindings = binds;
	r = vkCreateDescriptorSetLayout(dev->device, &dslci, NULL, &k->dsl);
	if (r != VK_SUCCESS) {
		k->dsl = VK_NULL_HANDLE;
		return vkg_vk_fail(st, r, "vkCreateDescriptorSetLayout (companion kernel)");
	}
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &k->dsl;
	if (k->nscalars) {
		pcr.size = (uint32_t)k->nscalars * 4;
		plci.pushConstantRangeCount = 1;
		plci.pPushConstantRanges = &pcr;
	}
	r = vkCreatePipelineLayout(dev->device, &plci, NULL, &k->layout);
	if (r != VK_SUCCESS) {
		k->layout = VK_NULL_HANDLE;
		return vkg_vk_fail(st, r, "vkCreatePipelineLayout (companion kernel)");
	}
	smci.codeSize = (size_t)words * 4;
	smci.pCode = code;
	r = vkCreateShaderModule(dev->device, &smci, NULL, &mod);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateShaderModule (companion kernel)");
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = mod;
	cpci.stage.pName = "main";
	cpci.layout = k->layout;
	r = vkCreateComputePipelines(dev->device, dev->pipeline_cache, 1, &cpci, NULL, &k->pipe);
	vkDestroyShaderModule(dev->device, mod, NULL);
	if (r != VK_SUCCESS) {
		k->pipe = VK_NULL_HANDLE;
		return vkg_vk_fail(st, r, "vkCreateComputePipelines (companion kernel)");
	}
	return VKG_OK;
}

/* load_module makes m's kernels from a binary, checking every length and field first:
 * a corrupt entry is an error (the kernel cache then rebuilds), never a crash. */
static int load_module(vkg_module *m, const unsigned char *bin, uint64_t bytes, const uint32_t max_groups[3],
		       vkg_status *st)
{
	uint64_t off = sizeof BIN_MAGIC + 4;
	uint32_t count, i;
	int rc;

	if (bytes < off || memcmp(bin, BIN_MAGIC, sizeof BIN_MAGIC) != 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "not a companion kernel binary for Vulkan");
	memcpy(&count, bin + sizeof BIN_MAGIC, 4);
	if (count == 0 || count > VKG_MAX_KERNELS)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel binary with %u kernels", count);
	for (i = 0; i < count; i++) {
		struct vkg_kernel *k = &m->kernels[m->nkernels];
		bin_kernel h;
		uint32_t *code, magic;
		if (bytes - off < sizeof h)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel binary truncated");
		memcpy(&h, bin + off, sizeof h);
		off += sizeof h;
		if (memchr(h.name, 0, sizeof h.name) == NULL || memchr(h.sig, 0, sizeof h.sig) == NULL ||
		    !valid_sig(h.sig) || h.local == 0 || h.local > 1024 || h.words < 5 ||
		    (bytes - off) / 4 < h.words)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel binary: bad entry %u", i);
		memcpy(&magic, bin + off, 4);
		if (magic != SPIRV_MAGIC)
			return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel binary: entry %u is not SPIR-V", i);
		/* vkCreateShaderModule wants 4-byte aligned words */
		code = malloc((size_t)h.words * 4);
		if (!code)
			return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
		memcpy(code, bin + off, (size_t)h.words * 4);
		off += (uint64_t)h.words * 4;
		memset(k, 0, sizeof *k);
		memcpy(k->name, h.name, sizeof k->name);
		memcpy(k->sig, h.sig, sizeof k->sig);
		k->local = h.local;
		memcpy(k->max_groups, max_groups, sizeof k->max_groups);
		m->nkernels++; /* counted before it is complete: destroy frees what exists */
		rc = kernel_make(m->dev, k, code, h.words, st);
		free(code);
		if (rc)
			return rc;
	}
	if (off != bytes)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel binary: %llu trailing bytes",
				(unsigned long long)(bytes - off));
	return VKG_OK;
}

int vkg_vk_module_build(vkg_device *dev, const char *source, const void *binary, uint64_t binary_bytes,
		     vkg_module **out, void **bin_out, uint64_t *bin_bytes, vkg_status *st)
{
	VkPhysicalDeviceProperties props;
	blob b = {0};
	vkg_module *m;
	int rc;

	*out = NULL;
	if (bin_out) {
		*bin_out = NULL;
		*bin_bytes = 0;
	}
	if (!dev->push_descriptor)
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"companion kernels on Vulkan need VK_KHR_push_descriptor, which this driver lacks");
	if (binary_bytes == 0) {
		rc = compile_module(source, &b, st);
		if (rc) {
			free(b.p);
			return rc;
		}
		binary = b.p;
		binary_bytes = b.len;
	}
	m = calloc(1, sizeof *m);
	if (!m) {
		free(b.p);
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	}
	m->dev = dev;
	vkGetPhysicalDeviceProperties(dev->physical, &props);
	rc = load_module(m, binary, binary_bytes, props.limits.maxComputeWorkGroupCount, st);
	if (rc) {
		vkg_vk_module_destroy(m);
		free(b.p);
		return rc;
	}
	if (b.p && bin_out) {
		*bin_out = b.p;
		*bin_bytes = b.len;
	} else {
		free(b.p);
	}
	*out = m;
	return VKG_OK;
}

void vkg_vk_module_destroy(vkg_module *m)
{
	int i;
	if (!m)
		return;
	/* launches still queued or running use the pipelines */
	vkg_vk_sync_all(m->dev);
	for (i = 0; i < m->nkernels; i++)
		kernel_free(m->dev, &m->kernels[i]);
	free(m);
}

int vkg_vk_module_kernel(vkg_module *m, const char *name, vkg_kernel **out, vkg_status *st)
{
	int i;
	*out = NULL;
	for (i = 0; i < m->nkernels; i++)
		if (strcmp(m->kernels[i].name, name) == 0) {
			*out = &m->kernels[i];
			return VKG_OK;
		}
	return vkg_fail(st, VKG_ERR_INVALID, 0, "no companion kernel %s in the module", name);
}

/* ---- launch ---- */

uint64_t vkg_vk_max_binding(const vkg_device *dev) { return dev->storage_range; }

/* One launch's descriptors, push constants and grid, checked before anything is recorded. */
typedef struct kern_call {
	VkDescriptorBufferInfo bi[KERN_MAX_BUFS];
	VkWriteDescriptorSet w[KERN_MAX_BUFS];
	uint32_t push[KERN_MAX_ARGS];
	int nb, ns;
	uint32_t gx, gy, gz;
} kern_call;

static int kern_prepare(vkg_device *dev, vkg_kernel *k, const uint64_t groups[2], uint32_t local, int nargs,
			const vkg_arg *args, const vkg_window *win, kern_call *c, vkg_status *st)
{
	uint64_t z;
	int i;

	c->nb = c->ns = 0;
	if (nargs != k->nargs)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel %s takes %d arguments, not %d", k->name,
				k->nargs, nargs);
	if (local != k->local)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel %s runs %u work-items per group on Vulkan, not %u",
				k->name, k->local, local);
	for (i = 0; i < nargs; i++) {
		uint64_t v = 0;
		if (k->sig[i] == '-')
			continue;
		if (args[i].size == 8)
			memcpy(&v, args[i].ptr, 8);
		else if (args[i].size == 4) {
			uint32_t v32;
			memcpy(&v32, args[i].ptr, 4);
			v = v32;
		} else {
			return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel %s: argument %d has %u bytes", k->name,
					i, args[i].size);
		}
		if (k->sig[i] == 's') {
			if (v > UINT32_MAX)
				return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
						"companion kernel %s: argument %d (%llu) exceeds the 32-bit indices of "
						"companion kernels on Vulkan",
						k->name, i, (unsigned long long)v);
			c->push[c->ns++] = (uint32_t)v;
		} else {
			VkBuffer buf = (VkBuffer)(uintptr_t)v;
			uint64_t bytes, off = 0, range = VK_WHOLE_SIZE;
			if (!v)
				return vkg_fail(st, VKG_ERR_INVALID, 0, "companion kernel %s: buffer argument %d is null",
						k->name, i);
			if (win) {
				off = win[c->nb].offset;
				range = bytes = win[c->nb].range;
				if (off % dev->offset_align)
					return vkg_fail(st, VKG_ERR_INVALID, 0,
							"companion kernel %s: a window at byte %llu is not aligned to %llu",
							k->name, (unsigned long long)off,
							(unsigned long long)dev->offset_align);
			} else {
				bytes = vkg_vk_buffer_bytes(dev, buf);
			}
			if (bytes > dev->storage_range)
				return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
						"companion kernel %s: a buffer of %llu bytes exceeds what one Vulkan "
						"storage buffer binding covers on this device (maxStorageBufferRange, "
						"%llu bytes)",
						k->name, (unsigned long long)bytes, (unsigned long long)dev->storage_range);
			c->bi[c->nb].buffer = buf;
			c->bi[c->nb].offset = off;
			c->bi[c->nb].range = range;
			memset(&c->w[c->nb], 0, sizeof c->w[c->nb]);
			c->w[c->nb].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
			c->w[c->nb].dstBinding = (uint32_t)c->nb;
			c->w[c->nb].descriptorCount = 1;
			c->w[c->nb].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			c->w[c->nb].pBufferInfo = &c->bi[c->nb];
			c->nb++;
		}
	}
	/* x beyond the device's group count goes over z too (VKG_GID folds them back): the
	 * kernels check their index against their length, so extra groups do nothing */
	z = (groups[0] + k->max_groups[0] - 1) / k->max_groups[0];
	/* and VKG_GID is 32 bits: every work-item's index must fit */
	if (z > k->max_groups[2] || groups[1] > k->max_groups[1] ||
	    (groups[0] + z - 1) / z * z * local > (1ull << 32))
		return vkg_fail(st, VKG_ERR_UNSUPPORTED, 0,
				"companion kernel %s: a launch of %llu x %llu groups of %u is too large for Vulkan here",
				k->name, (unsigned long long)groups[0], (unsigned long long)groups[1], local);
	c->gz = (uint32_t)z;
	c->gx = (uint32_t)((groups[0] + z - 1) / z);
	c->gy = (uint32_t)groups[1];
	return VKG_OK;
}

static void kern_emit(vkg_device *dev, vkg_kernel *k, const kern_call *c, VkCommandBuffer cb)
{
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipe);
	if (c->nb)
		dev->push_descriptor(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, (uint32_t)c->nb, c->w);
	if (c->ns)
		vkCmdPushConstants(cb, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, (uint32_t)c->ns * 4, c->push);
	vkCmdDispatch(cb, c->gx, c->gy, c->gz);
}

int vkg_vk_kernel_record(vkg_device *dev, VkCommandBuffer cb, vkg_kernel *k, const uint64_t groups[2],
			 uint32_t local, int nargs, const vkg_arg *args, const vkg_window *win, vkg_status *st)
{
	kern_call c;
	int rc;
	if (groups[0] == 0 || groups[1] == 0)
		return VKG_OK;
	if ((rc = kern_prepare(dev, k, groups, local, nargs, args, win, &c, st)) != VKG_OK)
		return rc;
	kern_emit(dev, k, &c, cb);
	return VKG_OK;
}

int vkg_vk_kernel_launch(vkg_device *dev, uint64_t queue, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
		      int nargs, const vkg_arg *args, vkg_status *st)
{
	kern_call c;
	vkg_vk_queue *q;
	VkCommandBuffer cb;
	int rc;

	if (groups[0] == 0 || groups[1] == 0)
		return VKG_OK;
	if ((rc = kern_prepare(dev, k, groups, local, nargs, args, NULL, &c, st)) != VKG_OK)
		return rc;
	q = vkg_vk_queue_of(dev, queue);
	if ((rc = vkg_vk_op_begin(q, &cb, st)) != VKG_OK)
		return rc;
	kern_emit(dev, k, &c, cb);
	/* the caller returns with the launch queued: start the batch unless the queue is busy */
	return vkg_vk_op_end(q, NULL, 1, st);
}

#endif
