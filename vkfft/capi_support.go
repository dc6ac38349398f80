package vkfft

// Access to native device handles, for bindings that hand device memory and queues to
// other code (the C API in capi/ exposes them as cl_mem/cl_command_queue or
// CUdeviceptr/CUstream). Nothing here is needed by Go programs that use Buffers.

import "fmt"

// Native returns the buffer's device memory as the backend's handle, as an integer: a
// cl_mem on OpenCL, a CUdeviceptr on CUDA, a VkBuffer on Vulkan; 0 once the buffer is closed. The memory
// stays owned by the Buffer: it is valid until Close.
func (b *Buffer[T]) Native() uint64 {
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return b.b.m
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
	return deviceNativeQueue(h)
}

// ForwardNative transforms device memory given as native handles (see Buffer.Native):
// src holds Len elements and dst receives Len; dst may equal src (in place). The memory
// must belong to the plan's device (its context) and be large enough: native handles
// carry no size, so it cannot be checked. Like ForwardBuffer, the work is only queued.
func (p *Plan[T]) ForwardNative(dst, src uint64) error { return p.p.runNative(false, dst, src) }

// InverseNative is the inverse of ForwardNative.
func (p *Plan[T]) InverseNative(dst, src uint64) error { return p.p.runNative(true, dst, src) }

// ForwardNative transforms real device data src (RealLen elements) into the half
// spectrum dst (ComplexLen elements), both given as native handles; see
// Plan.ForwardNative for the rules.
func (p *RealPlan[R, C]) ForwardNative(dst, src uint64) error { return p.p.runNative(false, dst, src) }

// InverseNative transforms the half spectrum src into real dst, given as native handles.
// As with InverseBuffer, src is scratch space for more than one axis.
func (p *RealPlan[R, C]) InverseNative(dst, src uint64) error { return p.p.runNative(true, dst, src) }

// runNative wraps native memory in transient buffers of the plan's device and runs it
// through runDevice, so the plan's own checks and locking apply.
func (p *plan) runNative(inverse bool, dst, src uint64) error {
	op := direction(inverse)
	if dst == 0 || src == 0 {
		return fmt.Errorf("vkfft: %s: %w: native device memory is 0", op, ErrNilBuffer)
	}
	var bd, bs buffer
	bd.dev, bd.m = p.dev, dst
	bs.dev, bs.m = p.dev, src
	switch {
	case p.l.cfg.RealInPlace:
		if dst != src {
			return fmt.Errorf("vkfft: %s: %w: a RealInPlace plan transforms one buffer (dst == src)", op, ErrInvalidArgument)
		}
		return p.runDevice(inverse, &bd, nil, nil)
	case p.l.strided && p.l.kind != kindR2C:
		if dst == src && !sameStrides(&p.l) {
			return fmt.Errorf("vkfft: %s: %w: in place needs InStrides equal to OutStrides", op, ErrInvalidArgument)
		}
		return p.runDevice(inverse, &bd, &bs, nil) // src through VkFFT's formatted input
	}
	if p.l.kind == kindR2C {
		if inverse {
			return p.runDevice(true, &bs, &bd, nil) // complex src, real dst
		}
		return p.runDevice(false, &bd, &bs, nil)
	}
	if dst == src {
		return p.runDevice(inverse, &bd, nil, nil)
	}
	return p.runDevice(inverse, &bd, nil, &bs)
}
