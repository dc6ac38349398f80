//go:build cgo && (opencl || (!cuda && !vulkan))

package vkfft

// OpenCL backend (VKFFT_BACKEND 3): the default. Headers from cvendor/include (make
// vendor) or the system's libvkfft-dev; OpenCL from ocl-icd.

// #cgo CFLAGS: -DVKFFT_BACKEND=3 -DCL_TARGET_OPENCL_VERSION=120 -I${SRCDIR}/../cvendor/include
// #cgo LDFLAGS: -lOpenCL -lm -lpthread
import "C"

const compiledBackend = OpenCL
