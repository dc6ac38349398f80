//go:build cgo && vulkan

package vkfft

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// vulkanLiveBuffers counts the device-local allocations the backend holds.
func vulkanLiveBuffers(d *Device) int64 { return engine.DeviceStat(d.h, engine.StatLiveBuffers) }

// vulkanPipelineCacheBytes is the size of the device's VkPipelineCache (logged by the
// churn test, which rebuilds the same pipelines and so should not grow it).
func vulkanPipelineCacheBytes(d *Device) uint64 {
	return uint64(engine.DeviceStat(d.h, engine.StatPipelineCacheBytes))
}

// vulkanRecordings counts how often the plan recorded a direction into its command
// buffers (once per direction while the buffers stay the same).
func vulkanRecordings(p *plan) uint64 { return engine.PlanRecordings(p.h) }

// vulkanPinnedCopies counts the copies that went straight between device memory and
// pinned or registered host memory.
func vulkanPinnedCopies(d *Device) int64 { return engine.DeviceStat(d.h, engine.StatPinnedCopies) }

// vulkanRegisterHost imports the pages of non-Go memory [p, p+bytes) for direct copies
// (the C API's registered host memory uses the same backend call).
func vulkanRegisterHost(d *Device, p unsafe.Pointer, bytes int) (uint64, error) {
	return engine.HostRegister(d.h, p, int64(bytes))
}

func vulkanUnregisterHost(d *Device, p unsafe.Pointer, handle uint64) {
	engine.HostUnregister(d.h, p, handle)
}
