//go:build cgo && vulkan && !opencl && !cuda

package vkfft

// Vulkan backend (VKFFT_BACKEND 0), chosen with -tags vulkan: it needs only a GPU's
// Vulkan driver at run time (make setup BACKEND=vulkan installs Mesa's, llvmpipe, for the
// CPU). VkFFT compiles its GLSL kernels with glslang, linked statically (Debian's
// glslang-dev ships static libraries only), so a binary needs no glslang where it runs;
// the Vulkan loader (libvulkan.so.1) is linked dynamically.

// #cgo CFLAGS: -DVKFFT_BACKEND=0 -I${SRCDIR}/../cvendor/include -I/usr/include/glslang/Include
// #cgo LDFLAGS: -lvulkan -Wl,--start-group -lglslang -lMachineIndependent -lGenericCodeGen -lOSDependent
// #cgo LDFLAGS: -lOGLCompiler -lHLSL -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang-default-resource-limits
// #cgo LDFLAGS: -Wl,--end-group -lstdc++ -lm -lpthread
import "C"

const compiledBackend = Vulkan
