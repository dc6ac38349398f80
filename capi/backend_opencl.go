//go:build opencl || !cuda

package main

// #cgo CFLAGS: -DVKFFTGO_BACKEND=3
import "C"
