//go:build vulkan

package main

/*
#cgo CFLAGS: -DVKFFTGO_BACKEND=0
#define VKFFTGO_NO_PROTOTYPES
#include <stdint.h>
#include "vkfftgo.h"
struct VkInstance_T;
struct VkPhysicalDevice_T;
struct VkDevice_T;
struct VkQueue_T;
struct VkBuffer_T;
static inline struct VkInstance_T *vkgcapi_vk_instance(uintptr_t h) { return (struct VkInstance_T *)h; }
static inline struct VkPhysicalDevice_T *vkgcapi_vk_physical(uintptr_t h) { return (struct VkPhysicalDevice_T *)h; }
static inline struct VkDevice_T *vkgcapi_vk_device(uintptr_t h) { return (struct VkDevice_T *)h; }
static inline struct VkQueue_T *vkgcapi_vk_queue(uintptr_t h) { return (struct VkQueue_T *)h; }
static inline struct VkBuffer_T *vkgcapi_vk_buffer(uint64_t h) { return (struct VkBuffer_T *)(uintptr_t)h; }
*/
import "C"

// Vulkan interop: the dispatchable handles (VkInstance, VkPhysicalDevice, VkDevice,
// VkQueue) and VkBuffer (a non-dispatchable handle, a pointer type in 64-bit builds) as
// the forward-declared struct pointers vulkan_core.h defines them as (vkfftgo_execute_vk is
// C: backend_vulkan.c).

//export vkgcgo_device_vk_handles
func vkgcgo_device_vk_handles(dh *C.vkfftgo_device, instance **C.struct_VkInstance_T,
	physical **C.struct_VkPhysicalDevice_T, device **C.struct_VkDevice_T, queueFamily *C.uint32_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_vk_handles"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	h := d.d.VulkanHandles()
	if h.Device == 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE, "the device is closed"))
	}
	// every output is optional
	if instance != nil {
		*instance = C.vkgcapi_vk_instance(C.uintptr_t(h.Instance))
	}
	if physical != nil {
		*physical = C.vkgcapi_vk_physical(C.uintptr_t(h.PhysicalDevice))
	}
	if device != nil {
		*device = C.vkgcapi_vk_device(C.uintptr_t(h.Device))
	}
	if queueFamily != nil {
		*queueFamily = C.uint32_t(h.QueueFamily)
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_device_vk_queue
func vkgcgo_device_vk_queue(dh *C.vkfftgo_device, queue **C.struct_VkQueue_T) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_vk_queue"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if queue == nil {
		return fail(fn, errNull("queue"))
	}
	*queue = C.vkgcapi_vk_queue(C.uintptr_t(d.d.NativeQueue()))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_buffer_vk_buffer
func vkgcgo_buffer_vk_buffer(h *C.vkfftgo_buffer, buf **C.struct_VkBuffer_T) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_vk_buffer"
	defer recoverTo(fn, &rc)
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if buf == nil {
		return fail(fn, errNull("buf"))
	}
	*buf = C.vkgcapi_vk_buffer(C.uint64_t(b.b.Native()))
	return C.VKFFTGO_SUCCESS
}
