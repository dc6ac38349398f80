//go:build cgo && !cuda && !vulkan

package vkfft

// The OpenCL backend, the default (no backend tag, or -tags opencl).
import _ "github.com/vkfftgo/vkfftgo/internal/backend/opencl"
