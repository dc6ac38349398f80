//go:build !cgo || (!cuda && !vulkan)

// Command bench is the binding's side of the GPU benchmark (make gpu-bundle); it
// measures the CUDA or the Vulkan backend and is built with -tags cuda or -tags vulkan.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench: build with -tags cuda or -tags vulkan (see make gpu-bundle)")
	os.Exit(2)
}
