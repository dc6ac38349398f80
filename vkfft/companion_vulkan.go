//go:build cgo && vulkan && !opencl && !cuda

package vkfft

/*
#include "vkg_vulkan.h"
*/
import "C"

// On Vulkan, float atomics in the companion kernels are an optional device feature
// (VK_EXT_shader_atomic_float); without it the spectrometer's sums reduce each bin in
// one work-item. And a companion kernel binds each buffer whole, up to the device's
// maxStorageBufferRange: the spectrometer's automatic chunk stays within it.
func init() {
	companionFloatAtomics = func(h deviceHandle) bool { return C.vkg_vk_float_atomics(h) != 0 }
	companionMaxBinding = func(h deviceHandle) int64 { return int64(C.vkg_vk_max_binding(h)) }
}
