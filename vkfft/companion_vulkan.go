//go:build cgo && vulkan && !opencl && !cuda

package vkfft

/*
#include "vkg_vulkan.h"
*/
import "C"

// On Vulkan, float atomics in the companion kernels are an optional device feature
// (VK_EXT_shader_atomic_float); without it the spectrometer's sums reduce each bin in
// one work-item.
func init() {
	companionFloatAtomics = func(h deviceHandle) bool { return C.vkg_vk_float_atomics(h) != 0 }
}
