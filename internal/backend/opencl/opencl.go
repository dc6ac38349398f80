//go:build cgo && !cuda && !vulkan

// Package opencl is the OpenCL backend (VKFFT_BACKEND 3), the default: importing it
// registers it with the engine. OpenCL comes from ocl-icd; PoCL is the CPU device of
// every machine without a GPU.
package opencl

// #cgo CFLAGS: -I${SRCDIR}/../../engine -DCL_TARGET_OPENCL_VERSION=120
// #cgo LDFLAGS: -lOpenCL -lm -lpthread
// #include "vkg_backend.h"
// const vkg_backend *vkg_opencl_backend(void);
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

func init() { engine.Register(unsafe.Pointer(C.vkg_opencl_backend())) }
