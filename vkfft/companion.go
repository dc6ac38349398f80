package vkfft

import "math"

// companionFloatAtomics reports whether companion kernels on the device behind h can add
// floats atomically in device memory: always on CUDA and OpenCL (a compare-and-swap loop
// there); a backend where it is optional sets its own check (companion_vulkan.go).
var companionFloatAtomics = func(deviceHandle) bool { return true }

// fusedStagesAvailable reports whether this build can rewrite VkFFT's kernels for the
// spectrometer's fused paths: the rewriter knows VkFFT's CUDA C and OpenCL C, not its
// GLSL, so on Vulkan every spectrometer takes the companion path.
func fusedStagesAvailable() bool { return compiledBackend != Vulkan }

// companionMaxBinding is the largest buffer, in bytes, a companion kernel on the device
// behind h can bind (Vulkan's maxStorageBufferRange); unlimited elsewhere.
var companionMaxBinding = func(deviceHandle) int64 { return math.MaxInt64 }
