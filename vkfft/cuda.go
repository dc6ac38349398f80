//go:build cgo && cuda && !opencl

package vkfft

/*
#include "vkg_cuda.h"
#include "vkg_xfer.h"
*/
import "C"

import (
	"fmt"
)

// CUDA interop. Handles travel as uintptr (a CUcontext, CUstream or CUdeviceptr), so this
// package needs no CUDA Go bindings; the cuinterop package adapts them to
// gorgonia.org/cu's types.

// OpenContext opens a Device on an existing CUDA context (a CUcontext as uintptr), e.g.
// one made by gorgonia.org/cu, or a primary context that CuPy or PyTorch uses. The Device
// neither retains nor destroys the context: keep it alive until the Device is closed.
// The Device makes its own non-blocking stream in that context; the *Ptr methods take
// another. Open(ordinal) uses the GPU's primary context, which CUDA's runtime API shares.
func OpenContext(ctx uintptr) (*Device, error) {
	var h *C.vkg_device
	var info DeviceInfo
	err := withStatus(func(st status) C.int {
		r := C.vkg_cuda_device_open_ctx(C.uint64_t(ctx), &h, st)
		if r == 0 {
			info = infoFromC(int(C.vkg_cuda_device_ordinal(h)), C.vkg_device_get_info(h))
		}
		return r
	})
	if err != nil {
		return nil, opError("open context", err)
	}
	return newDevice(h, info), nil
}

// CUDAContext returns the CUcontext the device runs in (its primary context when it was
// opened with Open), or 0 once closed.
func (d *Device) CUDAContext() uintptr {
	h, err := d.use("context")
	if err != nil {
		return 0
	}
	defer d.mu.RUnlock()
	return uintptr(C.vkg_cuda_device_context(h))
}

// CUDAStream returns the device's own CUstream, where Forward, Inverse, the Buffer calls
// and the *Ptr calls with stream 0 run; 0 once closed.
func (d *Device) CUDAStream() uintptr {
	h, err := d.use("stream")
	if err != nil {
		return 0
	}
	defer d.mu.RUnlock()
	return uintptr(C.vkg_cuda_device_stream(h))
}

// runPtr enqueues one transform on caller-owned device memory on stream (0: the device's
// own). buf is the complex data (input and output of C2C), real the real data of R2C,
// copyFrom a C2C source copied into buf first.
func (p *plan) runPtr(inverse bool, buf, real, copyFrom, stream uintptr) error {
	op := direction(inverse)
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
	if err := planRunDevice(h, p.st, inverse, uint64(buf), in, from, uint64(stream)); err != nil {
		return opError(op, err)
	}
	return nil
}

// ForwardPtr enqueues the forward transform of device memory src (a CUdeviceptr of Len
// elements, in the plan's context) into dst on stream (a CUstream; 0 for the device's
// own) and returns without waiting: synchronise the stream before reading dst. dst == src
// transforms in place; otherwise src is read and left unchanged, with no copy (see
// ForwardBuffer). Sizes cannot be checked: the memory must hold Len elements.
func (p *Plan[T]) ForwardPtr(dst, src, stream uintptr) error {
	if p.p.l.strided { // src is read through VkFFT's formatted input (strided.go)
		return p.p.runPtr(false, dst, src, 0, stream)
	}
	return p.p.runPtr(false, dst, 0, ptrCopy(dst, src), stream)
}

// InversePtr is the inverse of ForwardPtr, scaled as Config.Norm says.
func (p *Plan[T]) InversePtr(dst, src, stream uintptr) error {
	if p.p.l.strided {
		return p.p.runPtr(true, dst, src, 0, stream)
	}
	return p.p.runPtr(true, dst, 0, ptrCopy(dst, src), stream)
}

func ptrCopy(dst, src uintptr) uintptr {
	if dst == src {
		return 0
	}
	return src
}

// ForwardPtr enqueues the real-to-complex transform of device memory src (RealLen real
// elements) into dst (ComplexLen complex elements) on stream (0: the device's own).
func (p *RealPlan[R, C]) ForwardPtr(dst, src, stream uintptr) error {
	return p.p.runPtr(false, dst, src, 0, stream)
}

// InversePtr enqueues the complex-to-real transform of device memory src (ComplexLen
// complex elements) into dst (RealLen real elements) on stream. For more than one axis
// VkFFT uses src as scratch space: its contents are undefined afterwards.
func (p *RealPlan[R, C]) InversePtr(dst, src, stream uintptr) error {
	return p.p.runPtr(true, src, dst, 0, stream)
}

// Ptr returns the buffer's CUdeviceptr (valid until Close), for use with other CUDA code
// and the *Ptr plan methods; 0 once closed.
func (b *Buffer[T]) Ptr() uintptr {
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return uintptr(b.b.m)
}

// ---- hooks for tests (cuda_test.go and the cuinterop package's tests go through these) ----

// cudaTestHooks plays a C host with contexts and streams of its own.
type cudaTestHooks struct{}

func (cudaTestHooks) createContext(ordinal int) (uintptr, error) {
	var c C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_cuda_ctx_create(C.int(ordinal), &c, st) })
	return uintptr(c), err
}

func (cudaTestHooks) destroyContext(c uintptr)   { C.vkg_cuda_ctx_destroy(C.uint64_t(c)) }
func (cudaTestHooks) currentContext() uintptr    { return uintptr(C.vkg_cuda_ctx_current()) }
func (cudaTestHooks) setCurrent(c uintptr) int   { return int(C.vkg_cuda_ctx_set_current(C.uint64_t(c))) }
func (cudaTestHooks) streamOf(d *Device) uintptr { return d.CUDAStream() }

// streams for the tests come from the backend-neutral stream layer (vkg_stage.c)
func (cudaTestHooks) createStream(d *Device) (uintptr, error) {
	var q C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_stream_create(d.h, &q, nil, st) })
	return uintptr(q), err
}

func (cudaTestHooks) destroyStream(d *Device, s uintptr) { streamDestroy(d.h, uint64(s), 0) }

func (cudaTestHooks) syncStream(d *Device, s uintptr) error {
	return withStatus(func(st status) C.int { return C.vkg_stream_sync(d.h, C.uint64_t(s), st) })
}
