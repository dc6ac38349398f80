//go:build opencl || (!cuda && !vulkan)

package main

// #cgo CFLAGS: -DVKFFTGO_BACKEND=3
import "C"
