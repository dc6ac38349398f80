//go:build !(cgo && cuda && !opencl)

package vkfft

// The CUDA pointer calls (cuda.go, r2r_cuda.go) in builds without the cuda backend, so
// that portable code can name them: they return an error wrapping ErrUnsupported
// (ErrNoBackend without cgo) and the accessors return 0. Use the *Native calls for
// memory of any backend.

func ptrMissing() error { return opError("pointer transform", backendMissing("cuda")) }

// ForwardPtr transforms CUDA device memory on a CUstream; see the cuda build's docs.
// This build has no CUDA backend: it returns an error wrapping ErrUnsupported.
func (p *Plan[T]) ForwardPtr(dst, src, stream uintptr) error { return ptrMissing() }

// InversePtr is the inverse of ForwardPtr; without the CUDA backend an error.
func (p *Plan[T]) InversePtr(dst, src, stream uintptr) error { return ptrMissing() }

// ForwardPtr transforms CUDA device memory on a CUstream; without the CUDA backend an error.
func (p *RealPlan[R, C]) ForwardPtr(dst, src, stream uintptr) error { return ptrMissing() }

// InversePtr is the inverse of ForwardPtr; without the CUDA backend an error.
func (p *RealPlan[R, C]) InversePtr(dst, src, stream uintptr) error { return ptrMissing() }

// ForwardPtr transforms CUDA device memory on a CUstream; without the CUDA backend an error.
func (p *R2RPlan[T]) ForwardPtr(dst, src, stream uintptr) error { return ptrMissing() }

// InversePtr is the inverse of ForwardPtr; without the CUDA backend an error.
func (p *R2RPlan[T]) InversePtr(dst, src, stream uintptr) error { return ptrMissing() }

// Ptr returns the buffer's CUdeviceptr in cuda builds; 0 here (use Native).
func (b *Buffer[T]) Ptr() uintptr { return 0 }

// CUDAContext returns the device's CUcontext in cuda builds; 0 here.
func (d *Device) CUDAContext() uintptr { return 0 }

// CUDAStream returns the device's CUstream in cuda builds; 0 here (see NativeQueue).
func (d *Device) CUDAStream() uintptr { return 0 }
