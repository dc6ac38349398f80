package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Backend identifies the GPU API a build uses; its value is VkFFT's VKFFT_BACKEND number.
type Backend int

const (
	// Vulkan is VKFFT_BACKEND 0, chosen with the vulkan build tag.
	Vulkan Backend = 0
	// CUDA is VKFFT_BACKEND 1, chosen with the cuda build tag.
	CUDA Backend = 1
	// OpenCL is VKFFT_BACKEND 3, the default.
	OpenCL Backend = 3
	// NoBackend is reported by builds without cgo.
	NoBackend Backend = -1
)

func (b Backend) String() string {
	switch b {
	case Vulkan:
		return "vulkan"
	case CUDA:
		return "cuda"
	case OpenCL:
		return "opencl"
	case NoBackend:
		return "none"
	}
	return "unknown"
}

// compiledBackend is the backend a selector file (backend_<name>.go) linked in; its
// package registered with the engine before this package initialises.
var compiledBackend = Backend(engine.BackendID())

// CurrentBackend returns the backend this binary was built with.
func CurrentBackend() Backend { return compiledBackend }

// VersionString is the VkFFT version compiled in, e.g. "1.3.4".
func VersionString() string {
	v := vkfftVersion()
	return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
}

// vkfftVersion is the VkFFT version compiled in; without cgo, the pinned one.
func vkfftVersion() int {
	if compiledBackend == NoBackend {
		return VkFFTVersion
	}
	return engine.CompiledVkFFTVersion()
}
