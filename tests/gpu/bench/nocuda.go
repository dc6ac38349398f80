//go:build !(cgo && cuda && !opencl)

// Command bench is the binding's side of the GPU benchmark (make gpu-bundle); it
// measures the CUDA backend and is built with -tags cuda.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench: build with -tags cuda (see make gpu-bundle)")
	os.Exit(2)
}
