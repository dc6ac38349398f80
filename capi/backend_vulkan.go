//go:build vulkan && !opencl && !cuda

package main

// #cgo CFLAGS: -DVKFFTGO_BACKEND=0
import "C"
