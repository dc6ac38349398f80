//go:build cgo && vulkan

package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

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
		Instance:       uintptr(engine.DeviceHandle(h, engine.HandleInstance)),
		PhysicalDevice: uintptr(engine.DeviceHandle(h, engine.HandlePhysical)),
		Device:         uintptr(engine.DeviceHandle(h, engine.HandleDevice)),
		Queue:          uintptr(engine.DeviceHandle(h, engine.HandleQueue)),
		QueueFamily:    uint32(engine.DeviceHandle(h, engine.HandleQueueFamily)),
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
	return uintptr(engine.QueueNative(s.dev.h, s.q))
}
