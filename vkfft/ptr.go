package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// CUDA interop. Handles travel as uintptr (a CUcontext, CUstream or CUdeviceptr), so this
// package needs no CUDA Go bindings; the cuinterop package adapts them to
// gorgonia.org/cu's types. The calls exist in every build: without the cuda backend the
// transforms return an error wrapping ErrUnsupported (ErrNoBackend without cgo) and the
// accessors return 0. The *Native calls take memory of any backend.

func ptrMissing() error { return opError("pointer transform", backendMissing("cuda")) }

// runPtr enqueues one transform on caller-owned device memory on stream (0: the device's
// own). buf is the complex data (input and output of C2C), real the real data of R2C,
// copyFrom a C2C source copied into buf first.
func (p *plan) runPtr(inverse bool, buf, real, copyFrom, stream uintptr) error {
	if compiledBackend != CUDA {
		return ptrMissing()
	}
	op := direction(inverse)
	if p.l.full != fullNone {
		return fmt.Errorf("vkfft: %s: %w: a FullSpectrum plan runs on host memory, Buffers and native memory (on the device's queue), not on streams",
			op, ErrUnsupported)
	}
	if buf == 0 || (p.uses2Buffers() && real == 0) {
		return fmt.Errorf("vkfft: %s: %w: device pointer is 0", op, ErrNilBuffer)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return closedError(op, "plan")
	}
	// ordered after the plan's own work on other streams (its buffers are shared); a
	// separate source goes to the out-of-place kernels (oop.go)
	h, in, from := p.routeOutOfPlace(uint64(real), uint64(copyFrom))
	if err := engine.PlanRunDevice(h, p.st, inverse, uint64(buf), in, from, uint64(stream)); err != nil {
		return opError(op, err)
	}
	return nil
}

func ptrCopy(dst, src uintptr) uintptr {
	if dst == src {
		return 0
	}
	return src
}

// runPtrPair is a complex or real-to-real plan's transform of src into dst: strided
// plans read src through VkFFT's formatted input (strided.go); otherwise dst == src is in
// place and another src is read and left unchanged, with no copy (see ForwardBuffer).
func (p *plan) runPtrPair(inverse bool, dst, src, stream uintptr) error {
	if compiledBackend != CUDA {
		return ptrMissing()
	}
	if p == nil {
		return closedError(direction(inverse), "plan")
	}
	if p.l.strided {
		return p.runPtr(inverse, dst, src, 0, stream)
	}
	return p.runPtr(inverse, dst, 0, ptrCopy(dst, src), stream)
}

// ForwardPtr enqueues the forward transform of CUDA device memory src (a CUdeviceptr of
// Len elements, in the plan's context) into dst on stream (a CUstream; 0 for the
// device's own) and returns without waiting: synchronise the stream before reading dst.
// dst == src transforms in place; otherwise src is read and left unchanged, with no copy
// (see ForwardBuffer). Sizes cannot be checked: the memory must hold Len elements.
// Without the cuda backend it returns an error wrapping ErrUnsupported.
func (p *Plan[T]) ForwardPtr(dst, src, stream uintptr) error {
	return p.p.runPtrPair(false, dst, src, stream)
}

// InversePtr is the inverse of ForwardPtr, scaled as Config.Norm says.
func (p *Plan[T]) InversePtr(dst, src, stream uintptr) error {
	return p.p.runPtrPair(true, dst, src, stream)
}

// ForwardPtr enqueues the real-to-complex transform of CUDA device memory src (RealLen
// real elements) into dst (ComplexLen complex elements) on stream (0: the device's own).
// Without the cuda backend it returns an error wrapping ErrUnsupported.
func (p *RealPlan[R, C]) ForwardPtr(dst, src, stream uintptr) error {
	return p.p.runPtr(false, dst, src, 0, stream)
}

// InversePtr enqueues the complex-to-real transform of CUDA device memory src
// (ComplexLen complex elements) into dst (RealLen real elements) on stream. For more than
// one axis VkFFT uses src as scratch space: its contents are undefined afterwards.
func (p *RealPlan[R, C]) InversePtr(dst, src, stream uintptr) error {
	return p.p.runPtr(true, src, dst, 0, stream)
}

// ForwardPtr enqueues the transform of CUDA device memory src (a CUdeviceptr of Len
// reals, fp16 for StorageHalf) into dst on stream (0: the device's own) and returns
// without waiting. dst == src transforms in place; otherwise src is copied into dst
// first, or for strided plans read through VkFFT's formatted input. Sizes cannot be
// checked. Without the cuda backend it returns an error wrapping ErrUnsupported.
func (p *R2RPlan[T]) ForwardPtr(dst, src, stream uintptr) error {
	return p.p.runPtrPair(false, dst, src, stream)
}

// InversePtr is the inverse of ForwardPtr.
func (p *R2RPlan[T]) InversePtr(dst, src, stream uintptr) error {
	return p.p.runPtrPair(true, dst, src, stream)
}

// Ptr returns the buffer's CUdeviceptr (valid until Close), for use with other CUDA code
// and the *Ptr plan methods; 0 once closed, and 0 without the cuda backend (use Native).
func (b *Buffer[T]) Ptr() uintptr {
	if compiledBackend != CUDA {
		return 0
	}
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return uintptr(b.b.m)
}

// CUDAContext returns the CUcontext the device runs in (its primary context when it was
// opened with Open), or 0 once closed; 0 without the cuda backend.
func (d *Device) CUDAContext() uintptr { return d.nativeHandle(CUDA, engine.HandleContext) }

// CUDAStream returns the device's own CUstream, where Forward, Inverse, the Buffer calls
// and the *Ptr calls with stream 0 run; 0 once closed, and 0 without the cuda backend
// (see NativeQueue).
func (d *Device) CUDAStream() uintptr { return d.nativeHandle(CUDA, engine.HandleQueue) }

// nativeHandle is one of the device's handles (engine.Handle*) if the build has backend
// b, else 0; 0 once closed.
func (d *Device) nativeHandle(b Backend, which int) uintptr {
	if compiledBackend != b {
		return 0
	}
	h, err := d.use("native handle")
	if err != nil {
		return 0
	}
	defer d.mu.RUnlock()
	return uintptr(engine.DeviceHandle(h, which))
}
