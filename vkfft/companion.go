package vkfft

import "math"

// companionFloatAtomics reports whether companion kernels on d can add floats
// atomically in device memory: always on CUDA and OpenCL (a compare-and-swap loop
// there), a device feature on Vulkan (VK_EXT_shader_atomic_float).
func companionFloatAtomics(d *Device) bool { return d.props.FloatAtomics }

// fusedStagesAvailable reports whether this build can rewrite VkFFT's kernels for the
// spectrometer's fused paths: the rewriter knows VkFFT's CUDA C and OpenCL C, not its
// GLSL, so on Vulkan every spectrometer takes the companion path.
func fusedStagesAvailable() bool { return compiledBackend != Vulkan }

// companionMaxBinding is the largest buffer, in bytes, a companion kernel on d can bind
// (Vulkan's maxStorageBufferRange); unlimited elsewhere.
var companionMaxBinding = func(d *Device) int64 {
	if d.props.MaxBinding == 0 {
		return math.MaxInt64
	}
	return int64(d.props.MaxBinding)
}
