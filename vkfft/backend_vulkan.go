//go:build cgo && vulkan

package vkfft

// The Vulkan backend (-tags vulkan).
import _ "github.com/vkfftgo/vkfftgo/internal/backend/vulkan"
