//go:build cgo && vulkan && !opencl && !cuda

package vkfft

/*
#include "vkg_vulkan.h"
*/
import "C"

import "unsafe"

// Vulkan interop. Handles travel as uintptr (VkInstance, VkPhysicalDevice, VkDevice and
// VkQueue are pointers; VkBuffer is a 64-bit handle), so this package needs no Vulkan Go
// bindings. Buffer.Native returns the buffer's VkBuffer, and Plan.ForwardNative takes
// VkBuffers created on VulkanHandles().Device — with their own memory, bound, and with
// VK_BUFFER_USAGE_STORAGE_BUFFER_BIT and both transfer usage bits.

// VulkanHandles are the Vulkan objects a Device runs on. The Device owns them: they are
// valid until Close, and must not be destroyed by the caller.
type VulkanHandles struct {
	Instance       uintptr // VkInstance, shared by every Device of the process
	PhysicalDevice uintptr // VkPhysicalDevice
	Device         uintptr // VkDevice
	Queue          uintptr // VkQueue where the Device's own work is submitted
	QueueFamily    uint32  // the family of Queue (and of every Stream's queue)
}

// VulkanHandles returns the Vulkan objects of the device (zero once closed). VkQueue is
// externally synchronised: a program that submits to Queue itself must not do so while a
// call on this Device runs, and sees the Device's results after Sync.
func (d *Device) VulkanHandles() VulkanHandles {
	h, err := d.use("vulkan handles")
	if err != nil {
		return VulkanHandles{}
	}
	defer d.mu.RUnlock()
	return VulkanHandles{
		Instance:       uintptr(C.vkg_vk_device_instance(h)),
		PhysicalDevice: uintptr(C.vkg_vk_device_physical(h)),
		Device:         uintptr(C.vkg_vk_device_device(h)),
		Queue:          uintptr(C.vkg_vk_device_queue(h)),
		QueueFamily:    uint32(C.vkg_vk_device_family(h)),
	}
}

// VulkanQueue returns the VkQueue a Stream submits to (0 once closed). Streams take the
// queue family's queues in turn; several may share one.
func (s *Stream) VulkanQueue() uintptr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.q == 0 {
		return 0
	}
	return uintptr(C.vkg_vk_queue_native(s.dev.h, C.uint64_t(s.q)))
}

// vulkanLiveBuffers counts the device-local allocations the backend holds (tests).
func vulkanLiveBuffers(d *Device) int64 { return int64(C.vkg_vk_live_buffers(d.h)) }

// vulkanPipelineCacheBytes is the size of the device's VkPipelineCache (tests: logged by the
// churn test, which rebuilds the same pipelines and so should not grow it).
func vulkanPipelineCacheBytes(d *Device) uint64 { return uint64(C.vkg_vk_pipeline_cache_bytes(d.h)) }

// vulkanRecordings counts how often the plan recorded a direction into its command
// buffers (tests: once per direction while the buffers stay the same).
func vulkanRecordings(p *plan) uint64 { return uint64(C.vkg_vk_plan_recordings(p.h)) }

// vulkanPinnedCopies counts the copies that went straight between device memory and
// pinned or registered host memory (tests).
func vulkanPinnedCopies(d *Device) int64 { return int64(C.vkg_vk_pinned_copies(d.h)) }

// vulkanRegisterHost imports the pages of non-Go memory [p, p+bytes) for direct copies
// (tests; the C API's registered host memory uses the same backend call).
func vulkanRegisterHost(d *Device, p unsafe.Pointer, bytes int) (uint64, error) {
	var handle C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_host_register(d.h, p, C.uint64_t(bytes), &handle, st) })
	return uint64(handle), err
}

func vulkanUnregisterHost(d *Device, p unsafe.Pointer, handle uint64) {
	C.vkg_host_unregister(d.h, p, C.uint64_t(handle))
}
