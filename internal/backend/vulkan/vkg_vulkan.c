/* vkg_vulkan.c — devices through Vulkan (VKFFT_BACKEND 0): the instance, discovery,
 * opening and closing, and the handles VkFFT and interop need. The top of the backend's
 * files (vkg_vulkan_int.h has their layering): memory is in vkg_vulkan_buffer.c and
 * vkg_vulkan_mem.c, queues in vkg_vulkan_queue.c, the normalisation shader in
 * vkg_vulkan_scale.c.
 *
 * One VkInstance per process (made on first use, kept for the process's life) and glslang
 * initialised once, before any plan compiles. A device is a VkDevice with up to eight
 * queues of one compute-capable family; the device's own queue and every stream are a
 * vkg_vk_queue (vkg_vulkan.h) on one of them. Work is recorded into the queue's current
 * command buffer and submitted in batches: when an entry point returns with work queued
 * and the device holds less than two of the queue's batches, when a batch grows long, or
 * when something waits. Every recorded command is preceded by a full memory barrier,
 * which also orders it after earlier submissions to the same VkQueue, so each queue is in
 * order like an OpenCL queue or a CUDA stream.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>

#include "vkg_vulkan_int.h"

/* ---- process-wide state ---- */

static pthread_once_t instance_once = PTHREAD_ONCE_INIT;
static VkInstance instance;
static VkResult instance_result;

static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;
static int glslang_ok;

/* ---- instance and device discovery ---- */

/* VKFFTGO_VULKAN_VALIDATE=1 runs under Khronos' validation layer and aborts at the first
 * error it reports (make test-vulkan does, for the queue and memory tests): a misuse of
 * the API becomes a failed test instead of undefined behaviour. */
static VkDebugUtilsMessengerEXT validation_messenger;

static VKAPI_ATTR VkBool32 VKAPI_CALL validation_error(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
						     VkDebugUtilsMessageTypeFlagsEXT type,
						     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	(void)type;
	(void)user;
	if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
		return VK_FALSE;
	/* VkFFT 1.3.4 writes null buffers into some descriptor sets at creation; the first
	 * recording rewrites them (vkg_core_vulkan.h), which a later error would show */
	if (data->pMessageIdName && strstr(data->pMessageIdName, "VUID-VkDescriptorBufferInfo-buffer-02998"))
		return VK_FALSE;
	fprintf(stderr, "vkfftgo: Vulkan validation error: %s\n", data->pMessage);
	abort();
}

static int has_layer(const char *name)
{
	uint32_t n = 0, i;
	VkLayerProperties *l;
	int found = 0;
	vkEnumerateInstanceLayerProperties(&n, NULL);
	l = calloc(n ? n : 1, sizeof *l);
	if (!l)
		return 0;
	vkEnumerateInstanceLayerProperties(&n, l);
	for (i = 0; i < n && !found; i++)
		found = strcmp(l[i].layerName, name) == 0;
	free(l);
	return found;
}

static void make_instance(void)
{
	uint32_t api = VK_API_VERSION_1_0;
	PFN_vkEnumerateInstanceVersion enum_version =
		(PFN_vkEnumerateInstanceVersion)vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion");
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
	VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	VkDebugUtilsMessengerCreateInfoEXT mci = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
	const char *layer = "VK_LAYER_KHRONOS_validation", *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	const char *v = getenv("VKFFTGO_VULKAN_VALIDATE");
	int validate = v && *v && strcmp(v, "0") != 0;
	if (enum_version)
		enum_version(&api);
	if (api < VK_API_VERSION_1_2) {
		instance_result = VK_ERROR_INCOMPATIBLE_DRIVER;
		return;
	}
	app.pApplicationName = "vkfftgo";
	app.pEngineName = "VkFFT";
	app.apiVersion = VK_API_VERSION_1_2;
	ci.pApplicationInfo = &app;
	if (validate) {
		if (!has_layer(layer)) {
			fprintf(stderr, "vkfftgo: VKFFTGO_VULKAN_VALIDATE is set but %s is not installed "
					"(Debian: vulkan-validationlayers)\n", layer);
			abort();
		}
		mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
		mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
		mci.pfnUserCallback = validation_error;
		ci.pNext = &mci; /* also covers vkCreateInstance itself */
		ci.enabledLayerCount = 1;
		ci.ppEnabledLayerNames = &layer;
		ci.enabledExtensionCount = 1;
		ci.ppEnabledExtensionNames = &ext;
	}
	instance_result = vkCreateInstance(&ci, NULL, &instance);
	if (instance_result == VK_SUCCESS && validate) {
		PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
			instance, "vkCreateDebugUtilsMessengerEXT");
		if (create)
			create(instance, &mci, NULL, &validation_messenger);
		fprintf(stderr, "vkfftgo: Vulkan validation layer on: the first error aborts\n");
	}
}

static void init_glslang(void) { glslang_ok = glslang_initialize_process(); }

static int get_instance(vkg_status *st)
{
	pthread_once(&instance_once, make_instance);
	if (instance_result != VK_SUCCESS)
		return vkg_vk_fail(st, instance_result,
				   "vkCreateInstance (no Vulkan 1.2 driver found: install the GPU's driver, or "
				   "mesa-vulkan-drivers for the CPU; on NVIDIA containers set VK_DRIVER_FILES to "
				   "the driver's nvidia_icd.json)");
	return VKG_OK;
}

/* A device qualifies with Vulkan 1.2, timeline semaphores and a compute queue family. */
static int qualifies(VkPhysicalDevice pd, uint32_t *family, uint32_t *nqueues)
{
	VkPhysicalDeviceProperties p;
	VkPhysicalDeviceTimelineSemaphoreFeatures tl = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &tl};
	VkQueueFamilyProperties fams[32];
	uint32_t n = 32, i, best = UINT32_MAX;
	int want_graphics;
	vkGetPhysicalDeviceProperties(pd, &p);
	if (p.apiVersion < VK_API_VERSION_1_2)
		return 0;
	vkGetPhysicalDeviceFeatures2(pd, &f2);
	if (!tl.timelineSemaphore)
		return 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
	/* prefer a compute family without graphics (NVIDIA's async compute family), unless
	 * VKFFTGO_VULKAN_FAMILY=graphics asks for the universal one (its copies and
	 * dispatches are scheduled differently on some drivers: a measurement knob) */
	want_graphics = getenv("VKFFTGO_VULKAN_FAMILY") && strcmp(getenv("VKFFTGO_VULKAN_FAMILY"), "graphics") == 0;
	for (i = 0; i < n; i++) {
		int has_g, best_g;
		if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
			continue;
		has_g = (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
		best_g = best != UINT32_MAX && (fams[best].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
		if (best == UINT32_MAX || (best_g != want_graphics && has_g == want_graphics))
			best = i;
	}
	if (best == UINT32_MAX)
		return 0;
	if (family)
		*family = best;
	if (nqueues)
		*nqueues = fams[best].queueCount < VKG_VK_MAX_QUEUES ? fams[best].queueCount : VKG_VK_MAX_QUEUES;
	return 1;
}

/* Finds the ordinal-th qualifying physical device; with count, counts them instead. */
static int find_device(int ordinal, VkPhysicalDevice *out, int *count, vkg_status *st)
{
	VkPhysicalDevice pds[64];
	uint32_t n = 64, i;
	int seen = 0, rc;
	VkResult r;
	pthread_once(&instance_once, make_instance);
	if (instance_result == VK_ERROR_INCOMPATIBLE_DRIVER && count) {
		*count = 0; /* no driver: no devices, not an error */
		return VKG_OK;
	}
	if ((rc = get_instance(st)) != VKG_OK)
		return rc;
	r = vkEnumeratePhysicalDevices(instance, &n, pds);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		return vkg_vk_fail(st, r, "vkEnumeratePhysicalDevices");
	for (i = 0; i < n; i++) {
		if (!qualifies(pds[i], NULL, NULL))
			continue;
		if (seen == ordinal) {
			*out = pds[i];
			return VKG_OK;
		}
		seen++;
	}
	if (count) {
		*count = seen;
		return VKG_OK;
	}
	if (seen == 0)
		return vkg_fail(st, VKG_ERR_NO_DEVICE, 0,
				"no Vulkan 1.2 device with compute queues and timeline semaphores found (%u physical "
				"devices; install a GPU driver, or mesa-vulkan-drivers for the CPU)",
				n);
	return vkg_fail(st, VKG_ERR_NO_DEVICE, 0, "no Vulkan device %d: there are %d", ordinal, seen);
}

int vkg_vk_device_count(vkg_status *st)
{
	VkPhysicalDevice pd;
	int n = 0;
	int rc = find_device(-1, &pd, &n, st);
	return rc ? -rc : n;
}

static void uuid_string(char *out, size_t len, const uint8_t *u)
{
	snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
		 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static const char *vendor_name(uint32_t id)
{
	switch (id) {
	case 0x10de: return "NVIDIA Corporation";
	case 0x1002: return "AMD";
	case 0x8086: return "Intel";
	case 0x10005: return "Mesa";
	case 0x13b5: return "ARM";
	case 0x5143: return "Qualcomm";
	default: return "unknown vendor";
	}
}

/* Driver and Platform carry the driver's and the device's UUIDs: the kernel cache keys on
 * them (compiled pipelines depend on both). */
static void fill_info(VkPhysicalDevice pd, vkg_device_info *info, uint64_t *storage_range, uint64_t *offset_align,
		      VkPhysicalDeviceMemoryProperties *memprops)
{
	VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceIDProperties ids = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, .pNext = &drv};
	VkPhysicalDeviceMaintenance3Properties m3 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES, .pNext = &ids};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &m3};
	VkPhysicalDeviceFeatures feats;
	VkPhysicalDeviceMemoryProperties mp;
	VkPhysicalDeviceProperties *p = &p2.properties;
	char dev_uuid[40], drv_uuid[40];
	uint32_t i;
	uint64_t local = 0;

	memset(info, 0, sizeof *info);
	vkGetPhysicalDeviceProperties2(pd, &p2);
	vkGetPhysicalDeviceFeatures(pd, &feats);
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	uuid_string(dev_uuid, sizeof dev_uuid, ids.deviceUUID);
	uuid_string(drv_uuid, sizeof drv_uuid, ids.driverUUID);
	snprintf(info->name, sizeof info->name, "%s", p->deviceName);
	snprintf(info->vendor, sizeof info->vendor, "%s", vendor_name(p->vendorID));
	if (p->vendorID == 0x10de) /* NVIDIA packs its version as 10.8.8.6 bits */
		snprintf(info->driver, sizeof info->driver, "%.32s %.40s (%u.%u.%u, driver %s)", drv.driverName,
			 drv.driverInfo, p->driverVersion >> 22, (p->driverVersion >> 14) & 0xff,
			 (p->driverVersion >> 6) & 0xff, drv_uuid);
	else
		snprintf(info->driver, sizeof info->driver, "%.32s %.40s (%u.%u.%u, driver %s)", drv.driverName,
			 drv.driverInfo, VK_API_VERSION_MAJOR(p->driverVersion), VK_API_VERSION_MINOR(p->driverVersion),
			 VK_API_VERSION_PATCH(p->driverVersion), drv_uuid);
	snprintf(info->platform, sizeof info->platform, "Vulkan %u.%u.%u (device %s)",
		 VK_API_VERSION_MAJOR(p->apiVersion), VK_API_VERSION_MINOR(p->apiVersion),
		 VK_API_VERSION_PATCH(p->apiVersion), dev_uuid);
	for (i = 0; i < mp.memoryHeapCount; i++)
		if (mp.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
			local += mp.memoryHeaps[i].size;
	info->global_mem = local;
	info->max_alloc = m3.maxMemoryAllocationSize ? m3.maxMemoryAllocationSize : local;
	info->vendor_id = p->vendorID;
	info->fp64 = feats.shaderFloat64 != 0;
	{
		/* StorageHalf: VkFFT's fp16 kernels read and write float16 storage buffers */
		VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
		VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
							 .pNext = &f11};
		VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
		vkGetPhysicalDeviceFeatures2(pd, &f2);
		info->fp16 = f11.storageBuffer16BitAccess && f12.shaderFloat16;
	}
	info->host_memory = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
	info->local_mem = p->limits.maxComputeSharedMemorySize;
	if (storage_range)
		*storage_range = p->limits.maxStorageBufferRange;
	if (offset_align)
		*offset_align = p->limits.minStorageBufferOffsetAlignment;
	if (memprops)
		*memprops = mp;
}

int vkg_vk_device_query(int ordinal, vkg_device_info *info, vkg_status *st)
{
	VkPhysicalDevice pd;
	int rc = find_device(ordinal, &pd, NULL, st);
	if (rc)
		return rc;
	fill_info(pd, info, NULL, NULL, NULL);
	return VKG_OK;
}

static int has_extension(VkPhysicalDevice pd, const char *name)
{
	uint32_t n = 0, i;
	VkExtensionProperties *ext;
	int found = 0;
	vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
	ext = calloc(n ? n : 1, sizeof *ext);
	if (!ext)
		return 0;
	vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext);
	for (i = 0; i < n && !found; i++)
		found = strcmp(ext[i].extensionName, name) == 0;
	free(ext);
	return found;
}

int vkg_vk_device_open(int ordinal, vkg_device **out, vkg_status *st)
{
	vkg_device *dev;
	float prio[VKG_VK_MAX_QUEUES] = {1, 1, 1, 1, 1, 1, 1, 1};
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
						 .pNext = &f11};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
	VkPhysicalDeviceFeatures have;
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2};
	VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
	const char *exts[4];
	uint32_t next = 0, i;
	VkResult r;
	int rc;

	*out = NULL;
	pthread_once(&glslang_once, init_glslang);
	if (!glslang_ok)
		return vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang_initialize_process failed");
	dev = calloc(1, sizeof *dev);
	if (!dev)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	rc = find_device(ordinal, &dev->physical, NULL, st);
	if (rc) {
		free(dev);
		return rc;
	}
	qualifies(dev->physical, &dev->family, &dev->nqueues);
	fill_info(dev->physical, &dev->info, &dev->storage_range, &dev->offset_align, &dev->memprops);
	dev->spin_ns = vkg_vk_spin_ns(dev->info.host_memory);
	dev->copy_mode = vkg_vk_copy_mode();

	qci.queueFamilyIndex = dev->family;
	qci.queueCount = dev->nqueues;
	qci.pQueuePriorities = prio;
	vkGetPhysicalDeviceFeatures(dev->physical, &have);
	f2.features.shaderFloat64 = have.shaderFloat64;
	f2.features.shaderInt64 = have.shaderInt64;
	f12.timelineSemaphore = VK_TRUE;
	if (dev->info.fp16) {
		f11.storageBuffer16BitAccess = VK_TRUE;
		f12.shaderFloat16 = VK_TRUE;
	}
	if (has_extension(dev->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
		exts[next++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
	if (has_extension(dev->physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) {
		exts[next++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
		dev->has_budget = 1;
	}
	if (has_extension(dev->physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) {
		VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
		VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
		vkGetPhysicalDeviceProperties2(dev->physical, &p2);
		exts[next++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
		dev->import_align = hp.minImportedHostPointerAlignment ? hp.minImportedHostPointerAlignment : 4096;
	}
	if (has_extension(dev->physical, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
		/* the spectrometer's companion kernels add |X|^2 into the bins atomically; without
		 * it they reduce each bin in one work-item (VKFFTGO_VULKAN_FLOAT_ATOMICS=0 tests
		 * that path on a device that has it) */
		VkPhysicalDeviceShaderAtomicFloatFeaturesEXT have_af = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
		VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &have_af};
		const char *env = getenv("VKFFTGO_VULKAN_FLOAT_ATOMICS");
		vkGetPhysicalDeviceFeatures2(dev->physical, &q2);
		if (have_af.shaderBufferFloat32AtomicAdd && !(env && strcmp(env, "0") == 0)) {
			exts[next++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
			af.shaderBufferFloat32AtomicAdd = VK_TRUE;
			/* the fused spectrometer's group sums in shared memory (vkfft/kernels_glsl.go) */
			af.shaderSharedFloat32AtomicAdd = have_af.shaderSharedFloat32AtomicAdd;
			af.pNext = f12.pNext;
			f12.pNext = &af;
			dev->float_atomic_add = 1;
			dev->shared_float_atomic_add = have_af.shaderSharedFloat32AtomicAdd == VK_TRUE;
		}
	}
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.enabledExtensionCount = next;
	dci.ppEnabledExtensionNames = exts;
	r = vkCreateDevice(dev->physical, &dci, NULL, &dev->device);
	if (r != VK_SUCCESS) {
		free(dev);
		return vkg_vk_fail(st, r, "vkCreateDevice");
	}
	for (i = 0; i < dev->nqueues; i++)
		vkGetDeviceQueue(dev->device, dev->family, i, &dev->vq[i]);
	if (next && strcmp(exts[0], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0)
		dev->push_descriptor =
			(PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(dev->device, "vkCmdPushDescriptorSetKHR");
	if (dev->import_align)
		dev->host_pointer_props = (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(
			dev->device, "vkGetMemoryHostPointerPropertiesEXT");
	/* shared by VkFFT's pipelines; vkCreateComputePipelines synchronises it itself */
	if (vkCreatePipelineCache(dev->device, &pcci, NULL, &dev->pipeline_cache) != VK_SUCCESS)
		dev->pipeline_cache = VK_NULL_HANDLE;
	pthread_mutex_init(&dev->mu, NULL);
	pthread_mutex_init(&dev->scale_mu, NULL);
	dev->next_vq = 1;
	rc = vkg_vk_queue_new(dev, 0, &dev->own, st);
	if (rc) {
		vkg_vk_device_close(dev);
		return rc;
	}
	dev->info.float_atomics = dev->float_atomic_add;
	dev->info.shared_float_atomics = dev->shared_float_atomic_add;
	dev->info.max_binding = dev->storage_range;
	dev->info.binding_align = dev->offset_align;
	*out = dev;
	return VKG_OK;
}

void vkg_vk_device_close(vkg_device *dev)
{
	if (!dev)
		return;
	vkg_vk_copy_free(dev);
	if (dev->own)
		vkg_vk_queue_close(dev->own);
	vkDeviceWaitIdle(dev->device);
	vkg_vk_buffers_destroy_all(dev);
	vkg_vk_scale_free(dev);
	if (dev->pipeline_cache)
		vkDestroyPipelineCache(dev->device, dev->pipeline_cache, NULL);
	vkDestroyDevice(dev->device, NULL);
	pthread_mutex_destroy(&dev->mu);
	pthread_mutex_destroy(&dev->scale_mu);
	free(dev);
}

const vkg_device_info *vkg_vk_device_info(const vkg_device *dev) { return &dev->info; }

void vkg_vk_device_native(vkg_device *dev, vkg_native *out)
{
	memset(out, 0, sizeof *out);
	out->physical = &dev->physical;
	out->device = &dev->device;
	out->queue = &dev->vq[0]; /* VkFFT uploads its tables through it (queue_submit) */
	out->pipeline_cache = dev->pipeline_cache ? &dev->pipeline_cache : NULL;
}

int vkg_vk_ctx_enter(vkg_device *dev, vkg_status *st)
{
	(void)dev;
	(void)st;
	return VKG_OK;
}

void vkg_vk_ctx_leave(vkg_device *dev) { (void)dev; }

uint64_t vkg_vk_pipeline_cache_bytes(vkg_device *dev)
{
	size_t n = 0;
	if (!dev->pipeline_cache || vkGetPipelineCacheData(dev->device, dev->pipeline_cache, &n, NULL) != VK_SUCCESS)
		return 0;
	return n;
}

/* ---- per-plan objects for the core ---- */

int vkg_vk_plan_pool(vkg_device *dev, VkCommandPool *pool, VkFence *fence, vkg_status *st)
{
	VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkResult r;
	*pool = VK_NULL_HANDLE;
	*fence = VK_NULL_HANDLE;
	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	pci.queueFamilyIndex = dev->family;
	r = vkCreateCommandPool(dev->device, &pci, NULL, pool);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkCreateCommandPool");
	r = vkCreateFence(dev->device, &fci, NULL, fence);
	if (r != VK_SUCCESS) {
		vkDestroyCommandPool(dev->device, *pool, NULL);
		*pool = VK_NULL_HANDLE;
		return vkg_vk_fail(st, r, "vkCreateFence");
	}
	return VKG_OK;
}

void vkg_vk_plan_pool_free(vkg_device *dev, VkCommandPool pool, VkFence fence)
{
	if (pool)
		vkDestroyCommandPool(dev->device, pool, NULL);
	if (fence)
		vkDestroyFence(dev->device, fence, NULL);
}

/* ---- interop ---- */

uint64_t vkg_vk_device_instance(const vkg_device *dev)
{
	(void)dev;
	return (uint64_t)(uintptr_t)instance;
}
uint64_t vkg_vk_device_physical(const vkg_device *dev) { return (uint64_t)(uintptr_t)dev->physical; }
uint64_t vkg_vk_device_device(const vkg_device *dev) { return (uint64_t)(uintptr_t)dev->device; }
uint64_t vkg_vk_device_queue(const vkg_device *dev) { return (uint64_t)(uintptr_t)dev->vq[0]; }
uint32_t vkg_vk_device_family(const vkg_device *dev) { return dev->family; }

