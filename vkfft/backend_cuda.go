//go:build cgo && cuda

package vkfft

// The CUDA backend (-tags cuda).
import _ "github.com/vkfftgo/vkfftgo/internal/backend/cuda"
