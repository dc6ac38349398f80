//go:build cgo && vulkan && (opencl || cuda)

package vkfft

// Exactly one backend per build. The #error stops cgo before it needs any backend's
// headers (which may not be installed), naming both tags.

// #cgo opencl CFLAGS: -DVKG_TAG_OPENCL
// #if defined(VKG_TAG_OPENCL)
// #error "vkfftgo: build tags vulkan and opencl both given: choose one backend"
// #else
// #error "vkfftgo: build tags vulkan and cuda both given: choose one backend"
// #endif
import "C"
