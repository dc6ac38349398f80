//go:build cgo && vulkan && !opencl && !cuda

package vkfft

// The Vulkan backend opens its own devices only: the CUDA and OpenCL context calls
// report ErrUnsupported.

func openCLContext(context, device, queue uintptr) (*Device, error) {
	return nil, backendMissing("opencl")
}

func openCUDAContext(ctx, stream uintptr) (*Device, error) { return nil, backendMissing("cuda") }
