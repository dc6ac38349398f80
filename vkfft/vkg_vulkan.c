//go:build vulkan && !opencl && !cuda

/* vkg_vulkan.c — devices, memory and queues through Vulkan (VKFFT_BACKEND 0).
 *
 * One VkInstance per process (made on first use, kept for the process's life) and glslang
 * initialised once, before any plan compiles. A device is a VkDevice with up to eight
 * queues of one compute-capable family; the device's own queue and every stream are a
 * vkg_vk_queue (vkg_vulkan.h) on one of them. Work is recorded into the queue's current
 * command buffer and submitted in batches: when the device has nothing else of this
 * queue to do, when a batch grows long, or when something waits. Every recorded command
 * is preceded by a full memory barrier, which also orders it after earlier submissions to
 * the same VkQueue, so each queue is in order like an OpenCL queue or a CUDA stream.
 *
 * Memory: device buffers are device-local; host data moves through host-visible memory
 * — pinned HostBuffers (mapped host-visible VkBuffers, read and written by the copy
 * commands directly) or, for ordinary host memory, the queue's own staging arena.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <vulkan/vulkan.h>

#include "vkg_vulkan.h"
#include "vkg_xfer.h"

#define VKG_VK_MAX_QUEUES 8
#define VKG_VK_RING 8            /* command buffers per queue, taking turns */
#define VKG_VK_BATCH_OPS 64      /* a batch is submitted once it holds this many commands */
#define VKG_VK_MAX_WAITS 8       /* cross-queue waits pending for one submission */
#define VKG_VK_ARENA_MIN (1u << 20)
#define VKG_VK_ARENA_MAX (64u << 20) /* per queue; larger host copies go in pieces */
#define VKG_VK_MEM_BUCKETS 1024
#define VKG_VK_WAIT_NS UINT64_MAX

/* ---- process-wide state ---- */

static pthread_once_t instance_once = PTHREAD_ONCE_INIT;
static VkInstance instance;
static VkResult instance_result;

static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;
static int glslang_ok;

/* vkQueueSubmit needs the VkQueue externally synchronised: one lock per VkQueue, found by
 * hashing the handle (two queues may share a lock; that only serialises their submits). */
static pthread_mutex_t submit_mu[16] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static pthread_mutex_t *submit_lock(VkQueue q)
{
	uintptr_t h = (uintptr_t)q;
	return &submit_mu[(h >> 4 ^ h >> 12) & 15];
}

VkResult vkg_vk_queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence)
{
	pthread_mutex_t *mu = submit_lock(queue);
	VkResult r;
	pthread_mutex_lock(mu);
	r = vkQueueSubmit(queue, count, submits, fence);
	pthread_mutex_unlock(mu);
	return r;
}

/* ---- types ---- */

typedef struct mem_node {
	VkBuffer buffer;
	VkDeviceMemory memory;
	struct mem_node *next;
} mem_node;

typedef struct pinned_range {
	char *ptr;
	uint64_t bytes;
	VkBuffer buffer;
	VkDeviceMemory memory;
} pinned_range;

struct vkg_vk_queue {
	vkg_device *dev;
	int vq;   /* index into dev->vq */
	int refs; /* the owner, events and plan uses (atomic) */
	int dead; /* its owner destroyed it: its work is done */
	vkg_vk_queue *next_live; /* the device's list of queues not yet destroyed (dev->mu) */
	pthread_mutex_t mu;
	VkCommandPool pool;
	VkSemaphore timeline;
	uint64_t submitted; /* the last batch submitted signals this value */
	VkCommandBuffer cb[VKG_VK_RING];
	uint64_t cb_ticket[VKG_VK_RING]; /* the batch each last carried (0: none) */
	int cur, recording, nops, held;
	VkSemaphore wait_sem[VKG_VK_MAX_WAITS];
	uint64_t wait_val[VKG_VK_MAX_WAITS];
	int nwaits;
	/* staging arena for ordinary host memory: regions are handed out in order and
	 * reused once every batch that used them has finished */
	VkBuffer arena;
	VkDeviceMemory arena_mem;
	char *arena_ptr;
	uint64_t arena_cap, arena_used;
};

struct vkg_device {
	VkPhysicalDevice physical;
	VkDevice device;
	uint32_t family, nqueues;
	VkQueue vq[VKG_VK_MAX_QUEUES];
	VkPipelineCache pipeline_cache;
	vkg_device_info info;
	VkPhysicalDeviceMemoryProperties memprops;
	uint64_t storage_range, offset_align;
	int has_budget;
	vkg_vk_queue *own;

	pthread_mutex_t mu; /* buffer table, pinned ranges, queue list and assignment */
	vkg_vk_queue *live; /* queues not yet destroyed */
	mem_node *mem[VKG_VK_MEM_BUCKETS];
	int64_t live_buffers;
	pinned_range *pins;
	size_t npins, pins_cap;
	int next_vq;

	/* the normalisation pipelines, built on first use */
	pthread_mutex_t scale_mu;
	PFN_vkCmdPushDescriptorSetKHR push_descriptor;
	VkDescriptorSetLayout scale_dsl;
	VkPipelineLayout scale_layout;
	VkPipeline scale_f, scale_d;
	int scale_built;
};

int vkg_backend_id(void) { return 0; }
const char *vkg_backend_name(void) { return "vulkan"; }

static const char *vk_result_name(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_NOT_READY: return "VK_NOT_READY";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
	case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
	case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
	case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
	case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
	default: return "VkResult";
	}
}

int vkg_vk_fail(vkg_status *st, VkResult r, const char *what)
{
	int code = VKG_ERR_BACKEND;
	if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_TOO_MANY_OBJECTS)
		code = VKG_ERR_OUT_OF_MEMORY;
	else if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
		code = VKG_ERR_NO_DEVICE;
	return vkg_fail(st, code, (int)r, "Vulkan %s failed: %s (%d)", what, vk_result_name(r), (int)r);
}

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
	vkGetPhysicalDeviceProperties(pd, &p);
	if (p.apiVersion < VK_API_VERSION_1_2)
		return 0;
	vkGetPhysicalDeviceFeatures2(pd, &f2);
	if (!tl.timelineSemaphore)
		return 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
	/* prefer a compute family without graphics (NVIDIA's async compute family) */
	for (i = 0; i < n; i++) {
		if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
			continue;
		if (best == UINT32_MAX || ((fams[best].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
					   !(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)))
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

int vkg_device_count(vkg_status *st)
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
	info->host_memory = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
	if (storage_range)
		*storage_range = p->limits.maxStorageBufferRange;
	if (offset_align)
		*offset_align = p->limits.minStorageBufferOffsetAlignment;
	if (memprops)
		*memprops = mp;
}

int vkg_device_query(int ordinal, vkg_device_info *info, vkg_status *st)
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

static int queue_create(vkg_device *dev, int vq, vkg_vk_queue **out, vkg_status *st);
static void queue_release(vkg_vk_queue *q);
static void queue_destroy(vkg_vk_queue *q);

int vkg_device_open(int ordinal, vkg_device **out, vkg_status *st)
{
	vkg_device *dev;
	float prio[VKG_VK_MAX_QUEUES] = {1, 1, 1, 1, 1, 1, 1, 1};
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
	VkPhysicalDeviceFeatures have;
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2};
	VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	const char *exts[2];
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

	qci.queueFamilyIndex = dev->family;
	qci.queueCount = dev->nqueues;
	qci.pQueuePriorities = prio;
	vkGetPhysicalDeviceFeatures(dev->physical, &have);
	f2.features.shaderFloat64 = have.shaderFloat64;
	f2.features.shaderInt64 = have.shaderInt64;
	f12.timelineSemaphore = VK_TRUE;
	if (has_extension(dev->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
		exts[next++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
	if (has_extension(dev->physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) {
		exts[next++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
		dev->has_budget = 1;
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
	/* shared by VkFFT's pipelines; vkCreateComputePipelines synchronises it itself */
	if (vkCreatePipelineCache(dev->device, &pcci, NULL, &dev->pipeline_cache) != VK_SUCCESS)
		dev->pipeline_cache = VK_NULL_HANDLE;
	pthread_mutex_init(&dev->mu, NULL);
	pthread_mutex_init(&dev->scale_mu, NULL);
	dev->next_vq = 1;
	rc = queue_create(dev, 0, &dev->own, st);
	if (rc) {
		vkg_device_close(dev);
		return rc;
	}
	*out = dev;
	return VKG_OK;
}

void vkg_device_close(vkg_device *dev)
{
	size_t i;
	if (!dev)
		return;
	if (dev->own)
		queue_destroy(dev->own);
	vkDeviceWaitIdle(dev->device);
	for (i = 0; i < VKG_VK_MEM_BUCKETS; i++) {
		mem_node *n = dev->mem[i];
		while (n) {
			mem_node *next = n->next;
			vkDestroyBuffer(dev->device, n->buffer, NULL);
			vkFreeMemory(dev->device, n->memory, NULL);
			free(n);
			n = next;
		}
	}
	for (i = 0; i < dev->npins; i++) {
		vkDestroyBuffer(dev->device, dev->pins[i].buffer, NULL);
		vkFreeMemory(dev->device, dev->pins[i].memory, NULL);
	}
	free(dev->pins);
	if (dev->scale_f)
		vkDestroyPipeline(dev->device, dev->scale_f, NULL);
	if (dev->scale_d)
		vkDestroyPipeline(dev->device, dev->scale_d, NULL);
	if (dev->scale_layout)
		vkDestroyPipelineLayout(dev->device, dev->scale_layout, NULL);
	if (dev->scale_dsl)
		vkDestroyDescriptorSetLayout(dev->device, dev->scale_dsl, NULL);
	if (dev->pipeline_cache)
		vkDestroyPipelineCache(dev->device, dev->pipeline_cache, NULL);
	vkDestroyDevice(dev->device, NULL);
	pthread_mutex_destroy(&dev->mu);
	pthread_mutex_destroy(&dev->scale_mu);
	free(dev);
}

const vkg_device_info *vkg_device_get_info(const vkg_device *dev) { return &dev->info; }

void vkg_device_native(vkg_device *dev, vkg_native *out)
{
	out->device = &dev->device;
	out->context = &dev->physical;
	out->queue = &dev->vq[0];
}

void vkg_vk_device_handles(vkg_device *dev, vkg_vk_handles *out)
{
	out->physical = &dev->physical;
	out->device = &dev->device;
	out->queue = &dev->vq[0];
	out->pipeline_cache = dev->pipeline_cache ? &dev->pipeline_cache : NULL;
	out->family = dev->family;
}

int vkg_ctx_enter(vkg_device *dev, vkg_status *st)
{
	(void)dev;
	(void)st;
	return VKG_OK;
}

void vkg_ctx_leave(vkg_device *dev) { (void)dev; }

/* ---- memory ---- */

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

/* A buffer with its own memory: device-local, or host-visible (host) and mapped. */
static int buffer_create(vkg_device *dev, uint64_t bytes, int host, VkBuffer *buf, VkDeviceMemory *mem, void **map,
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

static size_t mem_bucket(VkBuffer b)
{
	uint64_t h = (uint64_t)(uintptr_t)b;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h >> 40) % VKG_VK_MEM_BUCKETS;
}

int vkg_mem_alloc(vkg_device *dev, uint64_t bytes, vkg_mem *out, vkg_status *st)
{
	VkBuffer buf;
	VkDeviceMemory mem;
	mem_node *n;
	size_t k;
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
	rc = buffer_create(dev, bytes, 0, &buf, &mem, NULL, st);
	if (rc) {
		free(n);
		return rc;
	}
	n->buffer = buf;
	n->memory = mem;
	k = mem_bucket(buf);
	pthread_mutex_lock(&dev->mu);
	n->next = dev->mem[k];
	dev->mem[k] = n;
	dev->live_buffers++;
	pthread_mutex_unlock(&dev->mu);
	*out = (vkg_mem)(uintptr_t)buf;
	return VKG_OK;
}

static void sync_all(vkg_device *dev);

void vkg_mem_free(vkg_device *dev, vkg_mem m)
{
	VkBuffer buf = (VkBuffer)(uintptr_t)m;
	mem_node **pp, *n = NULL;
	if (!m)
		return;
	pthread_mutex_lock(&dev->mu);
	for (pp = &dev->mem[mem_bucket(buf)]; *pp; pp = &(*pp)->next)
		if ((*pp)->buffer == buf) {
			n = *pp;
			*pp = n->next;
			dev->live_buffers--;
			break;
		}
	pthread_mutex_unlock(&dev->mu);
	if (!n)
		return; /* not ours (a caller's VkBuffer): nothing to free */
	/* a batch, submitted or still recording, may use it: destroying it then is not
	 * allowed (cuMemFree synchronises too; frees are rare behind the allocation cache) */
	sync_all(dev);
	vkDestroyBuffer(dev->device, n->buffer, NULL);
	vkFreeMemory(dev->device, n->memory, NULL);
	free(n);
}

int64_t vkg_vk_live_buffers(vkg_device *dev)
{
	int64_t n;
	pthread_mutex_lock(&dev->mu);
	n = dev->live_buffers;
	pthread_mutex_unlock(&dev->mu);
	return n;
}

/* The pinned range holding [p, p+bytes), if any. */
static int find_pinned(vkg_device *dev, const void *p, uint64_t bytes, VkBuffer *buf, uint64_t *off)
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
			break;
		}
	}
	pthread_mutex_unlock(&dev->mu);
	return found;
}

/* ---- queues ---- */

static int wait_value(vkg_device *dev, VkSemaphore sem, uint64_t value, vkg_status *st)
{
	VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
	VkResult r;
	if (value == 0)
		return VKG_OK;
	wi.semaphoreCount = 1;
	wi.pSemaphores = &sem;
	wi.pValues = &value;
	r = vkWaitSemaphores(dev->device, &wi, VKG_VK_WAIT_NS);
	return r == VK_SUCCESS ? VKG_OK : vkg_vk_fail(st, r, "vkWaitSemaphores");
}

static uint64_t completed(vkg_vk_queue *q)
{
	uint64_t v = 0;
	vkGetSemaphoreCounterValue(q->dev->device, q->timeline, &v);
	return v;
}

static int queue_create(vkg_device *dev, int vq, vkg_vk_queue **out, vkg_status *st)
{
	VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkSemaphoreTypeCreateInfo stci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &stci};
	VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	vkg_vk_queue *q;
	VkResult r;

	*out = NULL;
	q = calloc(1, sizeof *q);
	if (!q)
		return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
	q->dev = dev;
	q->vq = vq;
	q->refs = 1;
	pthread_mutex_init(&q->mu, NULL);
	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	pci.queueFamilyIndex = dev->family;
	r = vkCreateCommandPool(dev->device, &pci, NULL, &q->pool);
	if (r != VK_SUCCESS)
		goto fail;
	stci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
	stci.initialValue = 0;
	r = vkCreateSemaphore(dev->device, &sci, NULL, &q->timeline);
	if (r != VK_SUCCESS)
		goto fail;
	cai.commandPool = q->pool;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = VKG_VK_RING;
	r = vkAllocateCommandBuffers(dev->device, &cai, q->cb);
	if (r != VK_SUCCESS)
		goto fail;
	pthread_mutex_lock(&dev->mu);
	q->next_live = dev->live;
	dev->live = q;
	pthread_mutex_unlock(&dev->mu);
	*out = q;
	return VKG_OK;
fail:
	queue_release(q);
	return vkg_vk_fail(st, r, "creating a command queue");
}

static void queue_retain(vkg_vk_queue *q) { __atomic_add_fetch(&q->refs, 1, __ATOMIC_RELAXED); }

static void queue_release(vkg_vk_queue *q)
{
	vkg_device *dev;
	if (!q || __atomic_sub_fetch(&q->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	dev = q->dev;
	if (q->timeline) {
		/* nothing may still run on the arena or the command buffers */
		wait_value(dev, q->timeline, q->submitted, NULL);
		vkDestroySemaphore(dev->device, q->timeline, NULL);
	}
	if (q->arena) {
		vkDestroyBuffer(dev->device, q->arena, NULL);
		vkFreeMemory(dev->device, q->arena_mem, NULL);
	}
	if (q->pool)
		vkDestroyCommandPool(dev->device, q->pool, NULL); /* frees the command buffers */
	pthread_mutex_destroy(&q->mu);
	free(q);
}

/* Submits the batch being recorded (q->mu held). */
static int q_flush(vkg_vk_queue *q, vkg_status *st)
{
	VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi};
	VkPipelineStageFlags stages[VKG_VK_MAX_WAITS];
	VkCommandBuffer cb = q->cb[q->cur];
	uint64_t ticket = q->submitted + 1;
	VkResult r;
	int i;

	if (!q->recording)
		return VKG_OK;
	/* device writes become visible to the host once the batch's semaphore says it is done */
	to_host.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
			     NULL, 0, NULL);
	q->recording = 0;
	q->nops = 0;
	r = vkEndCommandBuffer(cb);
	if (r != VK_SUCCESS) {
		q->nwaits = 0;
		return vkg_vk_fail(st, r, "vkEndCommandBuffer");
	}
	for (i = 0; i < q->nwaits; i++)
		stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	tsi.waitSemaphoreValueCount = (uint32_t)q->nwaits;
	tsi.pWaitSemaphoreValues = q->wait_val;
	tsi.signalSemaphoreValueCount = 1;
	tsi.pSignalSemaphoreValues = &ticket;
	si.waitSemaphoreCount = (uint32_t)q->nwaits;
	si.pWaitSemaphores = q->wait_sem;
	si.pWaitDstStageMask = stages;
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	si.signalSemaphoreCount = 1;
	si.pSignalSemaphores = &q->timeline;
	r = vkg_vk_queue_submit(q->dev->vq[q->vq], 1, &si, VK_NULL_HANDLE);
	q->nwaits = 0;
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkQueueSubmit");
	q->submitted = ticket;
	q->cb_ticket[q->cur] = ticket;
	q->cur = (q->cur + 1) % VKG_VK_RING;
	return VKG_OK;
}

/* Makes sure a command buffer is recording (q->mu held). */
static int q_begin(vkg_vk_queue *q, vkg_status *st)
{
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkResult r;
	int rc;
	if (q->recording)
		return VKG_OK;
	/* the ring's next command buffer may still be on the device */
	if (q->cb_ticket[q->cur] && (rc = wait_value(q->dev, q->timeline, q->cb_ticket[q->cur], st)) != VKG_OK)
		return rc;
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	r = vkBeginCommandBuffer(q->cb[q->cur], &bi);
	if (r != VK_SUCCESS)
		return vkg_vk_fail(st, r, "vkBeginCommandBuffer");
	q->recording = 1;
	q->nops = 0;
	return VKG_OK;
}

/* Submits and waits for everything queued on q (q->mu held); the arena is free after. */
static int q_drain(vkg_vk_queue *q, vkg_status *st)
{
	int rc = q_flush(q, st);
	if (rc == VKG_OK)
		rc = wait_value(q->dev, q->timeline, q->submitted, st);
	if (rc == VKG_OK)
		q->arena_used = 0;
	return rc;
}

void vkg_vk_cmd_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
	mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0,
			     NULL, 0, NULL);
}

static vkg_vk_queue *queue_of(vkg_device *dev, uint64_t queue)
{
	return queue ? (vkg_vk_queue *)(uintptr_t)queue : dev->own;
}

/* Locks q and returns a recording command buffer with the ordering barrier in place. */
static int q_op_begin(vkg_vk_queue *q, VkCommandBuffer *cb, vkg_status *st)
{
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_begin(q, st);
	if (rc) {
		pthread_mutex_unlock(&q->mu);
		return rc;
	}
	*cb = q->cb[q->cur];
	vkg_vk_cmd_barrier(*cb);
	return VKG_OK;
}

/* Counts the command and, unless held, submits the batch when the queue has nothing in
 * flight (the device would otherwise idle) or the batch has grown long; unlocks q. */
static int q_op_end(vkg_vk_queue *q, uint64_t *ticket, vkg_status *st)
{
	int rc = VKG_OK;
	q->nops++;
	if (q->nops >= VKG_VK_BATCH_OPS || (!q->held && completed(q) >= q->submitted))
		rc = q_flush(q, st);
	if (ticket)
		*ticket = q->recording ? q->submitted + 1 : q->submitted;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_vk_record_begin(vkg_device *dev, uint64_t queue, VkCommandBuffer *cb, vkg_status *st)
{
	return q_op_begin(queue_of(dev, queue), cb, st);
}

int vkg_vk_record_end(vkg_device *dev, uint64_t queue, uint64_t *ticket, vkg_status *st)
{
	return q_op_end(queue_of(dev, queue), ticket, st);
}

void vkg_vk_queue_hold(vkg_device *dev, uint64_t queue, int hold)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	pthread_mutex_lock(&q->mu);
	q->held += hold ? 1 : -1;
	pthread_mutex_unlock(&q->mu);
}

void vkg_vk_use_set(vkg_device *dev, vkg_vk_use *use, uint64_t queue, uint64_t ticket)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	if (use->queue != q) {
		queue_retain(q);
		queue_release(use->queue);
		use->queue = q;
	}
	use->ticket = ticket;
}

int vkg_vk_use_wait(vkg_device *dev, vkg_vk_use *use, vkg_status *st)
{
	vkg_vk_queue *q = use->queue;
	int rc = VKG_OK;
	(void)dev;
	if (!q || use->ticket == 0)
		return VKG_OK;
	pthread_mutex_lock(&q->mu);
	if (!q->dead && q->submitted < use->ticket)
		rc = q_flush(q, st);
	pthread_mutex_unlock(&q->mu);
	if (rc == VKG_OK)
		rc = wait_value(q->dev, q->timeline, use->ticket, st);
	return rc;
}

void vkg_vk_use_clear(vkg_vk_use *use)
{
	queue_release(use->queue);
	use->queue = NULL;
	use->ticket = 0;
}

int vkg_queue_create(vkg_device *dev, uint64_t *queue, vkg_status *st)
{
	vkg_vk_queue *q;
	int vq, rc;
	/* streams take the family's other queues in turn, so they can run concurrently */
	pthread_mutex_lock(&dev->mu);
	vq = dev->nqueues > 1 ? dev->next_vq : 0;
	if (dev->nqueues > 1)
		dev->next_vq = dev->next_vq + 1 < (int)dev->nqueues ? dev->next_vq + 1 : 1;
	pthread_mutex_unlock(&dev->mu);
	rc = queue_create(dev, vq, &q, st);
	*queue = rc ? 0 : (uint64_t)(uintptr_t)q;
	return rc;
}

/* Waits for the queue's work; the memory goes once no event or plan refers to it. */
static void queue_destroy(vkg_vk_queue *q)
{
	vkg_status st;
	vkg_vk_queue **pp;
	pthread_mutex_lock(&q->dev->mu);
	for (pp = &q->dev->live; *pp; pp = &(*pp)->next_live)
		if (*pp == q) {
			*pp = q->next_live;
			break;
		}
	pthread_mutex_unlock(&q->dev->mu);
	pthread_mutex_lock(&q->mu);
	q_drain(q, &st);
	q->dead = 1;
	pthread_mutex_unlock(&q->mu);
	queue_release(q);
}

void vkg_queue_destroy(vkg_device *dev, uint64_t queue)
{
	(void)dev;
	if (queue)
		queue_destroy((vkg_vk_queue *)(uintptr_t)queue);
}

int vkg_queue_sync(vkg_device *dev, uint64_t queue, vkg_status *st)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	uint64_t target;
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_flush(q, st);
	target = q->submitted;
	pthread_mutex_unlock(&q->mu);
	if (rc == VKG_OK)
		rc = wait_value(dev, q->timeline, target, st);
	return rc;
}

int vkg_device_sync(vkg_device *dev, vkg_status *st) { return vkg_queue_sync(dev, 0, st); }

/* Submits and waits for the work of every queue of the device. */
static void sync_all(vkg_device *dev)
{
	vkg_vk_queue **qs, *q;
	vkg_status st;
	size_t n = 0, i;
	pthread_mutex_lock(&dev->mu);
	for (q = dev->live; q; q = q->next_live)
		n++;
	qs = calloc(n ? n : 1, sizeof *qs);
	if (!qs) { /* out of host memory: at least the device's own queue */
		pthread_mutex_unlock(&dev->mu);
		vkg_queue_sync(dev, 0, &st);
		return;
	}
	for (q = dev->live, n = 0; q; q = q->next_live) {
		queue_retain(q);
		qs[n++] = q;
	}
	pthread_mutex_unlock(&dev->mu);
	for (i = 0; i < n; i++) {
		uint64_t target;
		pthread_mutex_lock(&qs[i]->mu);
		q_flush(qs[i], &st);
		target = qs[i]->submitted;
		pthread_mutex_unlock(&qs[i]->mu);
		wait_value(dev, qs[i]->timeline, target, &st);
		queue_release(qs[i]);
	}
	free(qs);
}

uint64_t vkg_vk_queue_native(vkg_device *dev, uint64_t queue)
{
	return (uint64_t)(uintptr_t)dev->vq[queue_of(dev, queue)->vq];
}

/* ---- staging arena (q->mu held) ---- */

/* Hands out up to bytes of the arena (the amount in *got), submitting and waiting for the
 * queue first when the arena is full, and growing it when it is idle and too small. */
static int arena_take(vkg_vk_queue *q, uint64_t bytes, uint64_t *off, uint64_t *got, vkg_status *st)
{
	uint64_t need = (bytes + 255) & ~(uint64_t)255;
	int rc;
	if (q->arena && q->arena_used + need <= q->arena_cap)
		goto take;
	if ((rc = q_drain(q, st)) != VKG_OK)
		return rc;
	if (need > q->arena_cap && q->arena_cap < VKG_VK_ARENA_MAX) {
		uint64_t cap = VKG_VK_ARENA_MIN;
		/* room for an upload and a download of this size in one batch */
		while (cap < 2 * need && cap < VKG_VK_ARENA_MAX)
			cap <<= 1;
		if (q->arena) {
			vkDestroyBuffer(q->dev->device, q->arena, NULL);
			vkFreeMemory(q->dev->device, q->arena_mem, NULL);
			q->arena = VK_NULL_HANDLE;
			q->arena_cap = 0;
		}
		rc = buffer_create(q->dev, cap, 1, &q->arena, &q->arena_mem, (void **)&q->arena_ptr, st);
		if (rc) {
			q->arena = VK_NULL_HANDLE;
			return rc;
		}
		q->arena_cap = cap;
	}
take:
	*off = q->arena_used;
	*got = bytes < q->arena_cap - q->arena_used ? bytes : q->arena_cap - q->arena_used;
	q->arena_used += (*got + 255) & ~(uint64_t)255;
	return VKG_OK;
}

static void cmd_copy(VkCommandBuffer cb, VkBuffer src, uint64_t src_off, VkBuffer dst, uint64_t dst_off,
		     uint64_t bytes)
{
	VkBufferCopy region;
	region.srcOffset = src_off;
	region.dstOffset = dst_off;
	region.size = bytes;
	vkCmdCopyBuffer(cb, src, dst, 1, &region);
}

/* ---- copies ---- */

int vkg_mem_write_async(vkg_device *dev, uint64_t queue, vkg_mem dst, uint64_t off, const void *src,
			uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	VkBuffer pin;
	uint64_t pin_off, done = 0;
	VkCommandBuffer cb;
	int rc = VKG_OK;

	if (bytes == 0)
		return VKG_OK;
	if (find_pinned(dev, src, bytes, &pin, &pin_off)) {
		if ((rc = q_op_begin(q, &cb, st)) != VKG_OK)
			return rc;
		cmd_copy(cb, pin, pin_off, (VkBuffer)(uintptr_t)dst, off, bytes);
		return q_op_end(q, NULL, st);
	}
	/* ordinary memory: copied into the arena now, so src is free when this returns */
	pthread_mutex_lock(&q->mu);
	while (done < bytes) {
		uint64_t a_off, n;
		rc = arena_take(q, bytes - done, &a_off, &n, st);
		if (rc == VKG_OK)
			rc = q_begin(q, st);
		if (rc)
			break;
		memcpy(q->arena_ptr + a_off, (const char *)src + done, n);
		cb = q->cb[q->cur];
		vkg_vk_cmd_barrier(cb);
		cmd_copy(cb, q->arena, a_off, (VkBuffer)(uintptr_t)dst, off + done, n);
		q->nops++;
		done += n;
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_mem_write(vkg_device *dev, vkg_mem dst, uint64_t off, const void *src, uint64_t bytes, vkg_status *st)
{
	return vkg_mem_write_async(dev, 0, dst, off, src, bytes, st);
}

/* A download into ordinary memory: through the arena, a piece at a time, waiting for each. */
static int read_through_arena(vkg_device *dev, vkg_vk_queue *q, void *dst, vkg_mem src, uint64_t off,
			      uint64_t bytes, vkg_status *st)
{
	uint64_t done = 0;
	int rc = VKG_OK;
	(void)dev;
	pthread_mutex_lock(&q->mu);
	while (done < bytes && rc == VKG_OK) {
		uint64_t a_off, n;
		VkCommandBuffer cb;
		rc = arena_take(q, bytes - done, &a_off, &n, st);
		if (rc == VKG_OK)
			rc = q_begin(q, st);
		if (rc)
			break;
		cb = q->cb[q->cur];
		vkg_vk_cmd_barrier(cb);
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off + done, q->arena, a_off, n);
		rc = q_flush(q, st);
		if (rc == VKG_OK)
			rc = wait_value(q->dev, q->timeline, q->submitted, st);
		if (rc == VKG_OK)
			memcpy((char *)dst + done, q->arena_ptr + a_off, n);
		done += n;
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_mem_read(vkg_device *dev, void *dst, vkg_mem src, uint64_t off, uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = dev->own;
	VkBuffer pin;
	uint64_t pin_off;
	if (bytes == 0)
		return vkg_device_sync(dev, st);
	if (find_pinned(dev, dst, bytes, &pin, &pin_off)) {
		VkCommandBuffer cb;
		int rc = q_op_begin(q, &cb, st);
		if (rc)
			return rc;
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off, pin, pin_off, bytes);
		q->nops++;
		pthread_mutex_unlock(&q->mu);
		return vkg_queue_sync(dev, 0, st);
	}
	return read_through_arena(dev, q, dst, src, off, bytes, st);
}

/* Into pinned memory the copy is only queued; into ordinary memory it cannot be (the data
 * must pass through the arena), so it completes before returning. */
int vkg_mem_read_async(vkg_device *dev, uint64_t queue, void *dst, vkg_mem src, uint64_t off, uint64_t bytes,
		       vkg_status *st)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	VkBuffer pin;
	uint64_t pin_off;
	if (bytes == 0)
		return VKG_OK;
	if (find_pinned(dev, dst, bytes, &pin, &pin_off)) {
		VkCommandBuffer cb;
		int rc = q_op_begin(q, &cb, st);
		if (rc)
			return rc;
		cmd_copy(cb, (VkBuffer)(uintptr_t)src, off, pin, pin_off, bytes);
		return q_op_end(q, NULL, st);
	}
	return read_through_arena(dev, q, dst, src, off, bytes, st);
}

int vkg_mem_copy(vkg_device *dev, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	return vkg_mem_copy_on(dev, 0, dst, src, bytes, st);
}

int vkg_mem_copy_on(vkg_device *dev, uint64_t queue, vkg_mem dst, vkg_mem src, uint64_t bytes, vkg_status *st)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	VkCommandBuffer cb;
	int rc;
	if (bytes == 0 || dst == src)
		return VKG_OK;
	if ((rc = q_op_begin(q, &cb, st)) != VKG_OK)
		return rc;
	cmd_copy(cb, (VkBuffer)(uintptr_t)src, 0, (VkBuffer)(uintptr_t)dst, 0, bytes);
	/* part of a larger operation (a copy before a transform): the caller submits */
	q->nops++;
	pthread_mutex_unlock(&q->mu);
	return VKG_OK;
}

int vkg_device_mem_info(vkg_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, vkg_status *st)
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
	glslang_input_t in = {0};
	glslang_shader_t *sh;
	glslang_program_t *prog = NULL;
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkShaderModule mod;
	VkResult r;
	int rc = VKG_OK;

	in.language = GLSLANG_SOURCE_GLSL;
	in.stage = GLSLANG_STAGE_COMPUTE;
	in.client = GLSLANG_CLIENT_VULKAN;
	in.client_version = GLSLANG_TARGET_VULKAN_1_0;
	in.target_language = GLSLANG_TARGET_SPV;
	in.target_language_version = GLSLANG_TARGET_SPV_1_0;
	in.code = scale_src;
	in.default_version = 450;
	in.default_profile = GLSLANG_NO_PROFILE;
	in.messages = GLSLANG_MSG_DEFAULT_BIT;
	in.resource = glslang_default_resource();
	sh = glslang_shader_create(&in);
	if (!sh)
		return vkg_fail(st, VKG_ERR_BACKEND, 0, "glslang_shader_create failed");
	glslang_shader_set_preamble(sh, dbl ? "#define T double\n" : "#define T float\n");
	if (!glslang_shader_preprocess(sh, &in) || !glslang_shader_parse(sh, &in)) {
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "compiling the normalisation shader: %s",
			      glslang_shader_get_info_log(sh));
		goto out;
	}
	prog = glslang_program_create();
	glslang_program_add_shader(prog, sh);
	if (!glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT)) {
		rc = vkg_fail(st, VKG_ERR_BACKEND, 0, "linking the normalisation shader: %s",
			      glslang_program_get_info_log(prog));
		goto out;
	}
	glslang_program_SPIRV_generate(prog, GLSLANG_STAGE_COMPUTE);
	smci.codeSize = glslang_program_SPIRV_get_size(prog) * sizeof(unsigned int);
	smci.pCode = glslang_program_SPIRV_get_ptr(prog);
	r = vkCreateShaderModule(dev->device, &smci, NULL, &mod);
	if (r != VK_SUCCESS) {
		rc = vkg_vk_fail(st, r, "vkCreateShaderModule");
		goto out;
	}
	cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = mod;
	cpci.stage.pName = "main";
	cpci.layout = dev->scale_layout;
	r = vkCreateComputePipelines(dev->device, dev->pipeline_cache, 1, &cpci, NULL, out);
	vkDestroyShaderModule(dev->device, mod, NULL);
	if (r != VK_SUCCESS)
		rc = vkg_vk_fail(st, r, "vkCreateComputePipelines (normalisation)");
out:
	if (prog)
		glslang_program_delete(prog);
	glslang_shader_delete(sh);
	return rc;
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

int vkg_mem_scale(vkg_device *dev, vkg_mem mem, uint64_t n, int double_precision, double factor, vkg_status *st)
{
	return vkg_mem_scale_on(dev, 0, mem, n, double_precision, factor, st);
}

int vkg_mem_scale_on(vkg_device *dev, uint64_t queue, vkg_mem mem, uint64_t n, int double_precision,
		     double factor, vkg_status *st)
{
	vkg_vk_queue *q = queue_of(dev, queue);
	VkCommandBuffer cb;
	int rc;
	if ((rc = q_op_begin(q, &cb, st)) != VKG_OK)
		return rc;
	rc = vkg_vk_cmd_scale(dev, cb, (VkBuffer)(uintptr_t)mem, n, double_precision, factor, st);
	if (rc) {
		q->nops++;
		pthread_mutex_unlock(&q->mu);
		return rc;
	}
	return q_op_end(q, NULL, st);
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

/* ---- transfer primitives (vkg_xfer.h) ---- */

/* Pinned memory is a host-visible VkBuffer, mapped once; copies to and from it are
 * recorded against the buffer, so no intermediate copy is made. */
int vkg_host_alloc(vkg_device *dev, uint64_t bytes, void **ptr, uint64_t *handle, vkg_status *st)
{
	pinned_range r;
	int rc;
	*ptr = NULL;
	*handle = 0;
	if (bytes == 0)
		return vkg_fail(st, VKG_ERR_INVALID, 0, "zero-byte allocation");
	rc = buffer_create(dev, bytes, 1, &r.buffer, &r.memory, (void **)&r.ptr, st);
	if (rc)
		return rc;
	r.bytes = bytes;
	pthread_mutex_lock(&dev->mu);
	if (dev->npins == dev->pins_cap) {
		size_t cap = dev->pins_cap ? 2 * dev->pins_cap : 16;
		pinned_range *p = realloc(dev->pins, cap * sizeof *p);
		if (!p) {
			pthread_mutex_unlock(&dev->mu);
			vkDestroyBuffer(dev->device, r.buffer, NULL);
			vkFreeMemory(dev->device, r.memory, NULL);
			return vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
		}
		dev->pins = p;
		dev->pins_cap = cap;
	}
	dev->pins[dev->npins++] = r;
	pthread_mutex_unlock(&dev->mu);
	*ptr = r.ptr;
	*handle = (uint64_t)(uintptr_t)r.buffer;
	return VKG_OK;
}

void vkg_host_free(vkg_device *dev, void *ptr, uint64_t handle)
{
	size_t i;
	pinned_range r = {0};
	(void)ptr;
	if (!handle)
		return;
	pthread_mutex_lock(&dev->mu);
	for (i = 0; i < dev->npins; i++)
		if ((uint64_t)(uintptr_t)dev->pins[i].buffer == handle) {
			r = dev->pins[i];
			dev->pins[i] = dev->pins[--dev->npins];
			break;
		}
	pthread_mutex_unlock(&dev->mu);
	if (!r.buffer)
		return;
	sync_all(dev); /* copies into or out of it may still be queued */
	vkDestroyBuffer(dev->device, r.buffer, NULL);
	vkFreeMemory(dev->device, r.memory, NULL);
}

/* An event is a point on one queue's timeline. */
typedef struct vk_event {
	vkg_vk_queue *q;
	uint64_t value;
} vk_event;

int vkg_event_create(vkg_device *dev, uint64_t *ev, vkg_status *st)
{
	vk_event *e = calloc(1, sizeof *e);
	(void)dev;
	*ev = (uint64_t)(uintptr_t)e;
	return e ? VKG_OK : vkg_fail(st, VKG_ERR_OUT_OF_MEMORY, 0, "out of host memory");
}

void vkg_event_destroy(vkg_device *dev, uint64_t ev)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	(void)dev;
	if (!e)
		return;
	queue_release(e->q);
	free(e);
}

/* Submits what the queue holds (a marker must not wait for a batch nobody submits) and
 * remembers the value that batch signals. */
int vkg_event_record(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	vkg_vk_queue *q = queue_of(dev, queue);
	uint64_t value;
	int rc;
	pthread_mutex_lock(&q->mu);
	rc = q_flush(q, st);
	value = q->submitted;
	pthread_mutex_unlock(&q->mu);
	if (rc)
		return rc;
	if (e->q != q) {
		queue_retain(q);
		queue_release(e->q);
		e->q = q;
	}
	e->value = value;
	return VKG_OK;
}

int vkg_queue_wait_event(vkg_device *dev, uint64_t queue, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	vkg_vk_queue *q = queue_of(dev, queue);
	int i, rc = VKG_OK;
	if (!e->q || e->value == 0 || e->q == q || e->q->dead)
		return VKG_OK; /* in order already, or done */
	pthread_mutex_lock(&q->mu);
	for (i = 0; i < q->nwaits; i++)
		if (q->wait_sem[i] == e->q->timeline) {
			if (q->wait_val[i] < e->value)
				q->wait_val[i] = e->value;
			break;
		}
	if (i == q->nwaits) {
		if (q->nwaits == VKG_VK_MAX_WAITS)
			rc = q_flush(q, st); /* submits the waits gathered so far */
		if (rc == VKG_OK) {
			/* waits attach to the next submission: anything recorded before the wait
			 * must not be held back by it, but is ordered before later work anyway */
			q->wait_sem[q->nwaits] = e->q->timeline;
			q->wait_val[q->nwaits] = e->value;
			q->nwaits++;
		}
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int vkg_event_sync(vkg_device *dev, uint64_t ev, vkg_status *st)
{
	vk_event *e = (vk_event *)(uintptr_t)ev;
	if (!e->q || e->value == 0)
		return VKG_OK;
	return wait_value(dev, e->q->timeline, e->value, st);
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
