package engine

// The VkFFT flavour the core compiles: one tag-conditioned line per backend, the
// default (no backend tag, or opencl) being OpenCL. The backends' own directories carry
// their libraries; this file only picks VkFFT's VKFFT_BACKEND and the API headers
// vkFFT.h includes. Headers come from cvendor/include (make vendor) or the system's
// libvkfft-dev.
//
// Exactly one backend per build: two backend tags stop the build here, before cgo needs
// any backend's headers (which may not be installed), with a message naming both.

// #cgo CFLAGS: -I${SRCDIR}/../../cvendor/include
// #cgo !cuda,!vulkan CFLAGS: -DVKFFT_BACKEND=3 -DCL_TARGET_OPENCL_VERSION=120
// #cgo cuda CFLAGS: -DVKFFT_BACKEND=1 -I/usr/local/cuda/include
// #cgo vulkan CFLAGS: -DVKFFT_BACKEND=0 -I/usr/include/glslang/Include
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
