//go:build cgo && cuda && !opencl

package vkfft

// CUBINs are compiled by whichever NVRTC the process loaded (vkg_cuda_load.c): its
// version belongs in the kernel-cache key (the DeviceInfo carries the driver's CUDA
// version and the compute capability, not the compiler's).
func init() {
	kcacheBackendTag = func() string {
		libs, err := LoadedCUDALibraries()
		if err != nil || libs.NVRTCMajor == 0 {
			return "nvrtc unknown"
		}
		return libs.nvrtcTag()
	}
}
