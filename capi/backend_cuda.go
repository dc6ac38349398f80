//go:build cuda && !opencl

package main

// #cgo CFLAGS: -DVKFFTGO_BACKEND=1
import "C"
