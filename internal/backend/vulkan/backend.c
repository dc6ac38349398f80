/* backend.c — the vulkan backend's table (VKFFT_BACKEND 0), and the adapters from the
 * contract's integers and void pointers to Vulkan's types. */
#include <glslang/build_info.h>
#include <stdio.h>

#include "vkg_vulkan.h"

uint64_t vkg_vk_device_handle(const vkg_device *dev, int which)
{
	switch (which) {
	case VKG_HANDLE_QUEUE:
		return vkg_vk_device_queue(dev);
	case VKG_HANDLE_DEVICE:
		return vkg_vk_device_device(dev);
	case VKG_HANDLE_INSTANCE:
		return vkg_vk_device_instance(dev);
	case VKG_HANDLE_PHYSICAL:
		return vkg_vk_device_physical(dev);
	case VKG_HANDLE_QUEUE_FAMILY:
		return vkg_vk_device_family(dev);
	case VKG_HANDLE_ORDINAL:
		return (uint64_t)(int64_t)-1;
	}
	return 0;
}

static int64_t stat(vkg_device *dev, int which)
{
	switch (which) {
	case VKG_STAT_LIVE_BUFFERS:
		return vkg_vk_live_buffers(dev);
	case VKG_STAT_PINNED_COPIES:
		return vkg_vk_pinned_copies(dev);
	case VKG_STAT_SHADER_COPIES:
		return vkg_vk_shader_copies(dev);
	case VKG_STAT_PIPELINE_CACHE_BYTES:
		return (int64_t)vkg_vk_pipeline_cache_bytes(dev);
	}
	return -1;
}

/* glslang compiles VkFFT's kernels and ours: its version names the binaries. */
static const char *compiler_ident(void)
{
	static char ident[64];
	snprintf(ident, sizeof ident, "glslang %d.%d.%d", GLSLANG_VERSION_MAJOR, GLSLANG_VERSION_MINOR,
		 GLSLANG_VERSION_PATCH);
	return ident;
}

static int record_begin(vkg_device *dev, uint64_t queue, void **cmd, vkg_status *st)
{
	VkCommandBuffer cb = VK_NULL_HANDLE;
	int rc = vkg_vk_record_begin(dev, queue, &cb, st);
	*cmd = cb;
	return rc;
}

static int plan_pool(vkg_device *dev, uint64_t *pool, uint64_t *fence, vkg_status *st)
{
	VkCommandPool p = VK_NULL_HANDLE;
	VkFence f = VK_NULL_HANDLE;
	int rc = vkg_vk_plan_pool(dev, &p, &f, st);
	*pool = (uint64_t)p;
	*fence = (uint64_t)f;
	return rc;
}

static void plan_pool_free(vkg_device *dev, uint64_t pool, uint64_t fence)
{
	vkg_vk_plan_pool_free(dev, (VkCommandPool)pool, (VkFence)fence);
}

static int queue_submit(void *queue, uint32_t count, const void *submits, uint64_t fence)
{
	return vkg_vk_queue_submit((VkQueue)queue, count, (const VkSubmitInfo *)submits, (VkFence)fence);
}

static void cmd_barrier(void *cmd) { vkg_vk_cmd_barrier((VkCommandBuffer)cmd); }

static int cmd_scale(vkg_device *dev, void *cmd, vkg_mem mem, uint64_t n, int double_precision, double factor,
		     vkg_status *st)
{
	return vkg_vk_cmd_scale(dev, (VkCommandBuffer)cmd, (VkBuffer)mem, n, double_precision, factor, st);
}

static int kernel_record(vkg_device *dev, void *cmd, vkg_kernel *k, const uint64_t groups[2], uint32_t local,
			 int nargs, const vkg_arg *args, const vkg_window *win, vkg_status *st)
{
	return vkg_vk_kernel_record(dev, (VkCommandBuffer)cmd, k, groups, local, nargs, args, win, st);
}

static const vkg_backend table = {
	.version = VKG_BACKEND_VERSION,
	.id = 0,
	.name = "vulkan",
	VKG_BACKEND_REQUIRED(VKG_VK_SET)
	.stat = stat,
	.queue_native = vkg_vk_queue_native,
	.compiler_ident = compiler_ident,
	.record_begin = record_begin,
	.record_end = vkg_vk_record_end,
	.queue_kick = vkg_vk_queue_kick,
	.use_set = vkg_vk_use_set,
	.use_wait = vkg_vk_use_wait,
	.use_clear = vkg_vk_use_clear,
	.plan_pool = plan_pool,
	.plan_pool_free = plan_pool_free,
	.queue_submit = queue_submit,
	.cmd_barrier = cmd_barrier,
	.cmd_scale = cmd_scale,
	.kernel_record = kernel_record,
};

const vkg_backend *vkg_vulkan_backend(void) { return &table; }
