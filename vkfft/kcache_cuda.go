//go:build cgo && cuda && !opencl

package vkfft

// #include <nvrtc.h>
import "C"

import "fmt"

// CUBINs are compiled by whichever NVRTC the process loaded: its version belongs in
// the kernel-cache key (the DeviceInfo carries the driver's CUDA version and the
// compute capability, not the compiler's).
func init() {
	kcacheBackendTag = func() string {
		var major, minor C.int
		if C.nvrtcVersion(&major, &minor) != C.NVRTC_SUCCESS {
			return "nvrtc unknown"
		}
		return fmt.Sprintf("nvrtc %d.%d", int(major), int(minor))
	}
}
