package vkfft

// Access to native device handles, for bindings that hand device memory and queues to
// other code (the C API in capi/ exposes them as cl_mem/cl_command_queue or
// CUdeviceptr/CUstream). Nothing here is needed by Go programs that use Buffers.

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Native returns the buffer's device memory as the backend's handle, as an integer: a
// cl_mem on OpenCL, a CUdeviceptr on CUDA, a VkBuffer on Vulkan; 0 once the buffer is
// closed. The memory stays owned by the Buffer: it is valid until Close. Native handles
// are uintptr throughout the package (NativeQueue, ForwardNative, OpenCLContext, ...).
func (b *Buffer[T]) Native() uintptr {
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return uintptr(b.b.m)
}

// NativeQueue returns the device's in-order queue, which every transform and copy of
// the device is submitted to: a cl_command_queue on OpenCL, a CUstream on CUDA (the
// legacy default stream is 0), a VkQueue on Vulkan; 0 once the device is closed or without a backend. It is
// owned by the Device and valid until Close.
func (d *Device) NativeQueue() uintptr {
	h, err := d.use("native queue")
	if err != nil {
		return 0
	}
	defer d.mu.RUnlock()
	return engine.NativeQueue(h)
}

// ForwardNative transforms device memory given as native handles (see Buffer.Native):
// src holds Len elements and dst receives Len; dst may equal src (in place), otherwise src
// is only read, with no copy (the out-of-place kernels of ForwardBuffer). The memory
// must belong to the plan's device (its context) and be large enough: native handles
// carry no size, so it cannot be checked. Like ForwardBuffer, the work is only queued.
func (p *Plan[T]) ForwardNative(dst, src uintptr) error {
	return p.p.runNative(false, uint64(dst), uint64(src))
}

// InverseNative is the inverse of ForwardNative.
func (p *Plan[T]) InverseNative(dst, src uintptr) error {
	return p.p.runNative(true, uint64(dst), uint64(src))
}

// ForwardNative transforms real device data src (RealLen elements) into the half
// spectrum dst (ComplexLen elements), both given as native handles; see
// Plan.ForwardNative for the rules.
func (p *RealPlan[R, C]) ForwardNative(dst, src uintptr) error {
	return p.p.runNative(false, uint64(dst), uint64(src))
}

// InverseNative transforms the half spectrum src into real dst, given as native handles.
// As with InverseBuffer, src is scratch space for more than one axis (and loses the
// imaginary parts of bins 0 and n/2 in a batch of 1-D lines).
func (p *RealPlan[R, C]) InverseNative(dst, src uintptr) error {
	return p.p.runNative(true, uint64(dst), uint64(src))
}

// runNative runs a transform on native memory: the plan's own checks and locking apply,
// as for buffers, but there is no Buffer to lock or to check for closing (so nothing is
// allocated per call).
func (p *plan) runNative(inverse bool, dst, src uint64) error {
	op := direction(inverse)
	if dst == 0 || src == 0 {
		return fmt.Errorf("vkfft: %s: %w: native device memory is 0", op, ErrNilBuffer)
	}
	if err := p.l.checkInPlaceRule(op, dst == src); err != nil {
		return err
	}
	// buf is VkFFT's buffer (the complex side, the output of strided plans), real its
	// input buffer (R2C's real side, a strided plan's src), from the copy source (out of
	// place, contiguous)
	buf, real, from := dst, uint64(0), uint64(0)
	switch {
	case p.l.kind == kindR2C && p.l.cfg.RealInPlace:
	case p.l.kind == kindR2C && inverse:
		buf, real = src, dst
	case p.l.kind == kindR2C:
		real = src
	case p.l.strided:
		real = src // through VkFFT's formatted input
	case dst != src:
		from = src
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return closedError(op, "plan")
	}
	if p.l.full != fullNone {
		if err := engine.PlanRunOutIn(p.h, p.st, inverse, dst, src); err != nil {
			return opError(op, err)
		}
		return nil
	}
	// a separate C2C source goes to the out-of-place kernels (oop.go), not through a copy
	h, real, from := p.routeOutOfPlace(real, from)
	if err := engine.PlanRunDevice(h, p.st, inverse, buf, real, from, 0); err != nil {
		return opError(op, err)
	}
	return nil
}
