//go:build cgo && vulkan && !opencl && !cuda

package vkfft

// #include <glslang/build_info.h>
import "C"

import "fmt"

// VkFFT's saved Vulkan kernels are SPIR-V from the glslang linked into this binary: its
// version belongs in the kernel-cache key beside the driver and device UUIDs (which the
// DeviceInfo's Driver and Platform carry).
func init() {
	kcacheBackendTag = func() string {
		return fmt.Sprintf("glslang %d.%d.%d", int(C.GLSLANG_VERSION_MAJOR), int(C.GLSLANG_VERSION_MINOR),
			int(C.GLSLANG_VERSION_PATCH))
	}
}
