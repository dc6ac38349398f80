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

// openCUDAContext is OpenCUDAContext (opencontext.go) on the cuda backend.
func openCUDAContext(ctx, stream uintptr) (*Device, error) {
	var h *C.vkg_device
	var info DeviceInfo
	err := withStatus(func(st status) C.int {
		r := C.vkg_cuda_device_open_ctx_stream(C.uint64_t(ctx), C.uint64_t(stream), &h, st)
		if r == 0 {
			info = infoFromC(int(C.vkg_cuda_device_ordinal(h)), C.vkg_device_get_info(h))
		}
		return r
	})
	if err != nil {
		return nil, err
	}
	return newDevice(h, info), nil
}

func openCLContext(context, device, queue uintptr) (*Device, error) {
	return nil, backendMissing("opencl")
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
// VkFFT uses src as scratch space: its contents are undefined afterwards (a batch of
// 1-D lines only loses the imaginary parts of bins 0 and n/2; see InverseBuffer).
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

// CUDALibraries names the CUDA libraries a process opened at run time: the driver at the
// first device query, NVRTC (the compiler of VkFFT's kernels) at the first device open.
type CUDALibraries struct {
	Driver                 string // the file libcuda.so.1 resolved to
	NVRTC                  string // the NVRTC library's file ("" until a device was opened)
	NVRTCMajor, NVRTCMinor int    // its version
}

// nvrtcTag is the compiler's identity for the kernel-cache key.
func (l CUDALibraries) nvrtcTag() string {
	return fmt.Sprintf("nvrtc %d.%d", l.NVRTCMajor, l.NVRTCMinor)
}

// LoadedCUDALibraries reports which driver and NVRTC this process uses. NVRTC is chosen
// newest first (libnvrtc.so.13, .12, .11.2, on the library path, in $CUDA_HOME/lib64 or
// /usr/local/cuda/lib64) unless VKFFTGO_NVRTC names one.
func LoadedCUDALibraries() (CUDALibraries, error) {
	var driver, nvrtc *C.char
	var major, minor C.int
	C.vkg_cuda_libraries(&driver, &nvrtc, &major, &minor)
	l := CUDALibraries{Driver: C.GoString(driver), NVRTC: C.GoString(nvrtc), NVRTCMajor: int(major),
		NVRTCMinor: int(minor)}
	if l.Driver == "" {
		return l, fmt.Errorf("vkfft: %w: the CUDA driver is not loaded yet (no device was queried)", ErrNoDevice)
	}
	return l, nil
}
