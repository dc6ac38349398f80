package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Opening a Device on a context the caller already has: a C++ host, an OpenCV,
// ArrayFire or CuPy program shares its GPU context with vkfftgo instead of making a
// second one. Both functions exist in every build; the one whose backend the build lacks
// returns an error wrapping ErrUnsupported (ErrNoBackend without cgo).

// OpenCUDAContext opens a Device on an existing CUDA context (a CUcontext as uintptr),
// e.g. one made by cuCtxCreate, gorgonia.org/cu, or the primary context CuPy or PyTorch
// use. stream (a CUstream, 0 for none) is where the Device's work runs: Forward, the
// Buffer calls, the *Ptr calls with stream 0; with 0 the Device makes its own
// non-blocking stream. The Device neither retains nor destroys the context or the
// stream: keep both alive until Close, which waits for the stream's work (the caller's
// too, if it shares the stream). The stream must belong to ctx. Builds without the cuda
// tag return an error wrapping ErrUnsupported.
func OpenCUDAContext(ctx, stream uintptr) (*Device, error) {
	if ctx == 0 {
		return nil, opError("open CUDA context", fmt.Errorf("%w: the CUcontext is 0", ErrInvalidArgument))
	}
	d, err := openCUDAContext(ctx, stream)
	if err != nil {
		return nil, opError("open CUDA context", err)
	}
	return d, nil
}

// OpenCLContext opens a Device on an existing OpenCL context, device and command queue
// (cl_context, cl_device_id and cl_command_queue as uintptr), e.g. from pyopencl, ITK's
// GPU module or OpenCV's ocl module. device 0 takes the context's first device; queue 0
// makes a new in-order queue on it. A queue given must be in order and belong to that
// context and device; the Device's work runs on it. The Device retains the context and
// the queue and releases them on Close (clReleaseContext, clReleaseCommandQueue), so the
// caller may release its own references whenever it likes; it never destroys what it
// did not create. Builds with the cuda tag return an error wrapping ErrUnsupported.
func OpenCLContext(context, device, queue uintptr) (*Device, error) {
	if context == 0 {
		return nil, opError("open OpenCL context", fmt.Errorf("%w: the cl_context is 0", ErrInvalidArgument))
	}
	d, err := openCLContext(context, device, queue)
	if err != nil {
		return nil, opError("open OpenCL context", err)
	}
	return d, nil
}

// OpenContext opens a Device on an existing CUDA context with a stream of its own.
//
// Deprecated: use OpenCUDAContext(ctx, 0), which also takes the caller's stream.
// OpenContext will be removed in the release after v1.
func OpenContext(ctx uintptr) (*Device, error) { return OpenCUDAContext(ctx, 0) }

// backendMissing is the error of an interop call for another backend than the build's.
func backendMissing(want string) error {
	if compiledBackend == NoBackend {
		return ErrNoBackend
	}
	return fmt.Errorf("%w: this build has the %v backend, not %s (build with -tags %s)", ErrUnsupported,
		compiledBackend, want, want)
}

// openNative opens a Device on a foreign context of kind (engine.NativeOpenCL or
// engine.NativeCUDA) through the backend, which refuses another API's kind.
func openNative(kind int, want string, handles [3]uint64) (*Device, error) {
	if (kind == engine.NativeCUDA) != (compiledBackend == CUDA) || (kind == engine.NativeOpenCL) != (compiledBackend == OpenCL) {
		return nil, backendMissing(want)
	}
	h, props, ordinal, err := engine.DeviceOpenNative(kind, handles)
	if err != nil {
		return nil, err
	}
	return newDevice(h, ordinal, props), nil
}

func openCUDAContext(ctx, stream uintptr) (*Device, error) {
	return openNative(engine.NativeCUDA, "cuda", [3]uint64{uint64(ctx), uint64(stream), 0})
}

func openCLContext(context, device, queue uintptr) (*Device, error) {
	return openNative(engine.NativeOpenCL, "opencl", [3]uint64{uint64(context), uint64(device), uint64(queue)})
}
