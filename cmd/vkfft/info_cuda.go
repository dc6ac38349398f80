//go:build cuda

package main

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cudaLibraries opens device 0 (which opens NVRTC) and names the CUDA libraries in use.
func cudaLibraries() string {
	if d, err := vkfft.Open(0); err == nil {
		d.Close()
	}
	l, err := vkfft.LoadedCUDALibraries()
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("CUDA driver %s; NVRTC %d.%d %s", l.Driver, l.NVRTCMajor, l.NVRTCMinor, l.NVRTC)
}
