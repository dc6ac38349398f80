//go:build cgo && cuda

package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// CUDALibraries names the CUDA libraries a process opened at run time: the driver at the
// first device query, NVRTC (the compiler of VkFFT's kernels) at the first device open.
type CUDALibraries struct {
	Driver                 string // the file libcuda.so.1 resolved to
	NVRTC                  string // the NVRTC library's file ("" until a device was opened)
	NVRTCMajor, NVRTCMinor int    // its version
}

// LoadedCUDALibraries reports which driver and NVRTC this process uses. NVRTC is chosen
// newest first (libnvrtc.so.13, .12, .11.2, on the library path, in $CUDA_HOME/lib64 or
// /usr/local/cuda/lib64) unless VKFFTGO_NVRTC names one.
func LoadedCUDALibraries() (CUDALibraries, error) {
	driver, nvrtc, major, minor, _ := engine.RuntimeLibraries()
	l := CUDALibraries{Driver: driver, NVRTC: nvrtc, NVRTCMajor: major, NVRTCMinor: minor}
	if l.Driver == "" {
		return l, fmt.Errorf("vkfft: %w: the CUDA driver is not loaded yet (no device was queried)", ErrNoDevice)
	}
	return l, nil
}
