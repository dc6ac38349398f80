//go:build !cgo

package vkfft

func openCLContext(context, device, queue uintptr) (*Device, error) { return nil, ErrNoBackend }
func openCUDAContext(ctx, stream uintptr) (*Device, error)          { return nil, ErrNoBackend }
