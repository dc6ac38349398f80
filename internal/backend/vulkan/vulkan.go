//go:build cgo && vulkan

// Package vulkan is the Vulkan backend (VKFFT_BACKEND 0), chosen with -tags vulkan:
// importing it registers it with the engine. It needs only a GPU's Vulkan driver at run
// time (make setup BACKEND=vulkan installs Mesa's llvmpipe for the CPU). VkFFT compiles
// its GLSL kernels with glslang, linked statically (Debian's glslang-dev ships static
// libraries only), so a binary needs no glslang where it runs; the Vulkan loader
// (libvulkan.so.1) is linked dynamically.
package vulkan

// #cgo CFLAGS: -I${SRCDIR}/../../engine -I/usr/include/glslang/Include
// #cgo LDFLAGS: -lvulkan -Wl,--start-group -lglslang -lMachineIndependent -lGenericCodeGen -lOSDependent
// #cgo LDFLAGS: -lOGLCompiler -lHLSL -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang-default-resource-limits
// #cgo LDFLAGS: -Wl,--end-group -lstdc++ -lm -lpthread
// #include "vkg_backend.h"
// const vkg_backend *vkg_vulkan_backend(void);
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

func init() { engine.Register(unsafe.Pointer(C.vkg_vulkan_backend())) }
