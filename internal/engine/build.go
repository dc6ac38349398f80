package engine

// The VkFFT flavour the core compiles: tag-conditioned lines per backend, the default
// (no backend tag, or opencl) being OpenCL. They pick VkFFT's VKFFT_BACKEND, the API
// headers vkFFT.h includes and the libraries VkFFT itself calls (its kernel compiler and
// launches); the backend's directory names what its own code needs. VkFFT's headers
// come from cvendor/include (make vendor) or the system's libvkfft-dev.
//
// Exactly one backend per build: two backend tags stop the build here, before cgo needs
// any backend's headers (which may not be installed), with a message naming both.

// #cgo CFLAGS: -I${SRCDIR}/../../cvendor/include
// #cgo !cuda,!vulkan CFLAGS: -DVKFFT_BACKEND=3 -DCL_TARGET_OPENCL_VERSION=120
// #cgo !cuda,!vulkan LDFLAGS: -lOpenCL
// #cgo cuda CFLAGS: -DVKFFT_BACKEND=1 -I/usr/local/cuda/include
// #cgo cuda LDFLAGS: -L/usr/local/cuda/lib64 -Wl,-Bstatic -lcudart_static -Wl,-Bdynamic -ldl -lrt
// #cgo vulkan CFLAGS: -DVKFFT_BACKEND=0 -I/usr/include/glslang/Include
// #cgo vulkan LDFLAGS: -lvulkan -Wl,--start-group -lglslang -lMachineIndependent -lGenericCodeGen -lOSDependent
// #cgo vulkan LDFLAGS: -lOGLCompiler -lHLSL -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang-default-resource-limits
// #cgo vulkan LDFLAGS: -Wl,--end-group -lstdc++
// #cgo LDFLAGS: -lm -lpthread
// #cgo vkfftgo_faults CFLAGS: -DVKG_FAULTS
// #cgo opencl,cuda CFLAGS: -DVKG_TAG_CONFLICT=1
// #cgo vulkan,cuda CFLAGS: -DVKG_TAG_CONFLICT=2
// #cgo vulkan,opencl CFLAGS: -DVKG_TAG_CONFLICT=3
//
// #if VKG_TAG_CONFLICT == 1
// #error "vkfftgo: build tags opencl and cuda both given: choose one backend"
// #elif VKG_TAG_CONFLICT == 2
// #error "vkfftgo: build tags vulkan and cuda both given: choose one backend"
// #elif VKG_TAG_CONFLICT == 3
// #error "vkfftgo: build tags vulkan and opencl both given: choose one backend"
// #endif
import "C"
