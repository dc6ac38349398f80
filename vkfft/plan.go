package vkfft

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Complex is the element type of complex data: complex64 runs in single precision,
// complex128 in double.
type Complex interface{ complex64 | complex128 }

// Real is the element type of real data for real-to-complex plans.
type Real interface{ float32 | float64 }

// Element is any type a Buffer can hold.
type Element interface {
	Complex | Real | Float16 | Sample
}

// Sample is the element type of integer sample data (a Spectrometer's input, besides
// Float16): int8, int16, uint8 (offset binary).
type Sample interface{ int8 | int16 | uint8 }

// plan is the part of every plan type that does not depend on the element types: one
// VkFFT application with its own device buffers, built once.
type plan struct {
	mu      sync.Mutex // serialises calls: a VkFFT application is not reentrant
	dev     *Device
	h       engine.Plan   // nil once closed
	st      engine.Status // C memory for the hot path's error reports
	l       layout
	buf     uint64 // complex data, l.bufBytes
	realBuf uint64 // real data (R2C), l.realBytes
	tuned   TuneResult
	// the device's Hermitian projection kernel for a multi-axis C2R (herm.go), or why
	// there is none; C keeps both with the application
	herm    engine.Kernel
	hermWhy string

	// out of place without a copy (C2C): a second application reading an input buffer,
	// built on the first out-of-place call (oop.go)
	oop       engine.Plan
	oopFailed bool
	oopTuning *Tuning // its own tuning when the tuner measured one (else the plan's)

	full *fullExt // FullSpectrum: the companion kernels and the whole spectrum

	// the host round trips, forward and inverse, as the C transfer layer runs them; the
	// C plan also orders its work across queues itself
	runs [2]engine.Run
}

// newPlan builds the plan of l on d (planbuilder.go) and registers it with d.
func newPlan(d *Device, l layout) (*plan, error) {
	h, err := d.use("new plan")
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	b, err := buildPlan(d, h, l)
	if err != nil {
		return nil, opError("new plan", err)
	}
	p := &plan{dev: d, l: b.l, h: b.h, buf: b.buf, realBuf: b.realBuf, tuned: b.tuned, herm: b.herm,
		hermWhy: b.hermWhy, oopTuning: b.oopTuning, full: b.full}
	p.runs = engine.PlanRuns(p.h)
	p.st = engine.NewStatus()
	d.track(p)
	return p, nil
}

func (p *plan) freeBuffers() {
	freePlanBuffers(p.dev, &p.l, p.buf, p.realBuf)
	p.buf, p.realBuf = 0, 0
}

// release frees everything the plan holds; the caller holds p.dev.mu.
func (p *plan) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return
	}
	engine.PlanDestroy(p.h) // waits for the plan's work on every queue
	p.h = nil
	if p.oop != nil {
		engine.PlanDestroy(p.oop)
		p.oop = nil
	}
	p.freeFull()
	p.freeBuffers()
	engine.FreeStatus(p.st)
	p.st = nil
}

func (p *plan) close() error {
	p.dev.closeResource(p)
	return nil
}

// runFor is the plan's host round trip in one direction.
func (p *plan) runFor(inverse bool) engine.Run {
	if inverse {
		return p.runs[1]
	}
	return p.runs[0]
}

// checkLen reports a nil or wrongly sized slice argument.
func checkLen(op, name string, isNil bool, got, want int) error {
	if isNil {
		return fmt.Errorf("vkfft: %s: %w: %s is nil", op, ErrNilBuffer, name)
	}
	if got != want {
		return fmt.Errorf("vkfft: %s: %w: %s has %d elements, the plan needs %d", op, ErrLength, name,
			got, want)
	}
	return nil
}

// runHost is the hot path for host slices: one cgo call that uploads, transforms and
// downloads, through a staging slot pair of the device when the transfer is large.
// Lengths were checked by the caller.
func (p *plan) runHost(inverse bool, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer,
	srcBytes int64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return closedError(direction(inverse), "plan")
	}
	if err := checkNotRetired(direction(inverse), dst, dstBytes, src, srcBytes); err != nil {
		return err
	}
	s := p.dev.takeStager(dst, src, dstBytes, srcBytes)
	if s != nil {
		faultPoint(faultStagedRun)
	}
	err := engine.RunHost(p.runFor(inverse), s, p.st, dst, dstBytes, src, srcBytes)
	if s != nil {
		p.dev.putStager(s)
	}
	if err != nil {
		return opError(direction(inverse), err)
	}
	return nil
}

// runDevice transforms device buffers. For C2C, buf is both input and output unless
// copyFrom is given; for R2C, buf holds the spectrum and realBuf the real data.
func (p *plan) runDevice(inverse bool, buf, realBuf, copyFrom *buffer) error {
	op := direction(inverse)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return closedError(op, "plan")
	}
	bufs := [...]*buffer{buf, realBuf, copyFrom}
	var mem [3]uint64
	var err error
	locked := 0
	for i, b := range bufs {
		if b == nil {
			continue
		}
		b.mu.RLock()
		locked = i + 1
		if b.m == 0 {
			err = closedError(op, "buffer")
			break
		}
		if b.dev != p.dev {
			err = opError(op, ErrWrongDevice)
			break
		}
		mem[i] = b.m
	}
	if err == nil {
		if p.l.full != fullNone { // real and whole-spectrum sides, as the direction says
			out, in := mem[0], mem[1]
			if inverse {
				out, in = in, out
			}
			err = engine.PlanRunOutIn(p.h, p.st, inverse, out, in)
		} else {
			h, real, from := p.routeOutOfPlace(mem[1], mem[2])
			err = engine.PlanRunDevice(h, p.st, inverse, mem[0], real, from, 0)
		}
		if err != nil {
			err = opError(op, err)
		}
	}
	for _, b := range bufs[:locked] {
		if b != nil {
			b.mu.RUnlock()
		}
	}
	return err
}

// Plan is a complex-to-complex transform of one shape, batch and precision, built once
// and run any number of times.
type Plan[T Complex] struct {
	p    *plan
	half *halfScratch // StorageHalf: host conversions
}

// NewPlan builds a complex-to-complex plan on d: it compiles the kernels and allocates
// the device buffers every later call reuses.
func NewPlan[T Complex](d *Device, cfg Config) (*Plan[T], error) {
	l, err := validate(cfg, kindC2C, sizeOf[T]())
	if err != nil {
		return nil, opError("new plan", err)
	}
	p, err := newPlan(d, l)
	if err != nil {
		return nil, err
	}
	return &Plan[T]{p: p, half: newHalfScratch(&p.l)}, nil
}

// Len is the number of elements Forward and Inverse take and return: Batch × prod(Shape).
func (p *Plan[T]) Len() int { return p.p.l.complexLen }

// Config returns the plan's configuration, with Batch filled in.
func (p *Plan[T]) Config() Config { return cloneConfig(p.p.l.cfg) }

// Forward computes the forward transform of src into dst (host slices of Len
// elements). dst and src may be the same slice.
func (p *Plan[T]) Forward(dst, src []T) error { return p.run(false, dst, src) }

// Inverse computes the inverse transform of src into dst, scaled as Config.Norm says.
func (p *Plan[T]) Inverse(dst, src []T) error { return p.run(true, dst, src) }

func (p *Plan[T]) run(inverse bool, dst, src []T) error {
	if err := p.p.l.hostable(direction(inverse)); err != nil {
		return err
	}
	n := p.p.l.complexLen
	if err := checkLen(direction(inverse), "src", src == nil, len(src), n); err != nil {
		return err
	}
	if err := checkLen(direction(inverse), "dst", dst == nil, len(dst), n); err != nil {
		return err
	}
	if p.half != nil {
		return p.half.run(p.p, inverse, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), 2*n, 2*n, false)
	}
	bytes := p.p.l.complexBytes
	return p.p.runHost(inverse, unsafe.Pointer(&dst[0]), bytes, unsafe.Pointer(&src[0]), bytes)
}

// ForwardBuffer transforms device buffer src into dst without host copies; dst may be
// src (in place). Out of place, src is only read: the plan's first out-of-place call
// builds a second set of kernels that read src and write dst (no copy, as fast as in
// place). The work is queued on the device: read results with dst.Download or wait
// with Device.Sync.
func (p *Plan[T]) ForwardBuffer(dst, src *Buffer[T]) error { return p.runBuffers(false, dst, src) }

// InverseBuffer is the inverse of ForwardBuffer.
func (p *Plan[T]) InverseBuffer(dst, src *Buffer[T]) error { return p.runBuffers(true, dst, src) }

func (p *Plan[T]) runBuffers(inverse bool, dst, src *Buffer[T]) error {
	return p.p.runSameKind(inverse, bufOf(dst), bufOf(src))
}

// Close frees the plan's kernels and device buffers. It is idempotent.
func (p *Plan[T]) Close() error { return p.p.close() }

// RealPlan is a real-to-complex (Forward) and complex-to-real (Inverse) transform in
// numpy's rfftn layout: the last axis of the spectrum has Shape[-1]/2+1 elements. R and
// C must have the same precision: float32 with complex64, float64 with complex128.
type RealPlan[R Real, C Complex] struct {
	p    *plan
	half *halfScratch // StorageHalf: host conversions
}

// NewRealPlan builds a real-to-complex plan on d; cfg.Shape is the real data's shape.
func NewRealPlan[R Real, C Complex](d *Device, cfg Config) (*RealPlan[R, C], error) {
	if 2*sizeOf[R]() != sizeOf[C]() {
		var r R
		var c C
		return nil, opError("new plan", fmt.Errorf("%w: real %T with complex %T", ErrPrecision, r, c))
	}
	l, err := validate(cfg, kindR2C, sizeOf[C]())
	if err != nil {
		return nil, opError("new plan", err)
	}
	p, err := newPlan(d, l)
	if err != nil {
		return nil, err
	}
	return &RealPlan[R, C]{p: p, half: newHalfScratch(&p.l)}, nil
}

// RealLen is the number of real elements: Batch × prod(Shape).
func (p *RealPlan[R, C]) RealLen() int { return p.p.l.realLen }

// ComplexLen is the number of spectrum elements: Batch × prod(Shape[:-1]) × (Shape[-1]/2+1).
func (p *RealPlan[R, C]) ComplexLen() int { return p.p.l.complexLen }

// Config returns the plan's configuration, with Batch filled in.
func (p *RealPlan[R, C]) Config() Config { return cloneConfig(p.p.l.cfg) }

// Forward computes the half spectrum of real src into dst.
func (p *RealPlan[R, C]) Forward(dst []C, src []R) error {
	l := &p.p.l
	if err := l.realHostable("forward"); err != nil {
		return err
	}
	if err := checkLen("forward", "src", src == nil, len(src), l.realLen); err != nil {
		return err
	}
	if err := checkLen("forward", "dst", dst == nil, len(dst), l.complexLen); err != nil {
		return err
	}
	if p.half != nil {
		return p.half.run(p.p, false, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), 2*l.complexLen, l.realLen, false)
	}
	return p.p.runHost(false, unsafe.Pointer(&dst[0]), l.complexBytes, unsafe.Pointer(&src[0]), l.realBytes)
}

// Inverse computes the real signal of half spectrum src into dst, scaled as Config.Norm
// says: FFTW's c2r (numpy's irfftn) of any src, Hermitian or not (see InverseBuffer).
// src is not modified.
func (p *RealPlan[R, C]) Inverse(dst []R, src []C) error {
	l := &p.p.l
	if err := l.realHostable("inverse"); err != nil {
		return err
	}
	if err := checkLen("inverse", "src", src == nil, len(src), l.complexLen); err != nil {
		return err
	}
	if err := checkLen("inverse", "dst", dst == nil, len(dst), l.realLen); err != nil {
		return err
	}
	if p.half != nil {
		return p.half.run(p.p, true, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), l.realLen, 2*l.complexLen, false)
	}
	return p.p.runHost(true, unsafe.Pointer(&dst[0]), l.realBytes, unsafe.Pointer(&src[0]), l.complexBytes)
}

// ForwardBuffer transforms real device data src into the half spectrum dst.
func (p *RealPlan[R, C]) ForwardBuffer(dst *Buffer[C], src *Buffer[R]) error {
	l := &p.p.l
	if err := l.realBuffers("forward", bufOf(dst), bufOf(src)); err != nil || l.strided {
		if err != nil {
			return err
		}
		return p.p.runDevice(false, &dst.b, &src.b, nil)
	}
	if err := checkBuffer("forward", "src", src, l.realLen); err != nil {
		return err
	}
	if err := checkBuffer("forward", "dst", dst, l.complexLen); err != nil {
		return err
	}
	return p.p.runDevice(false, &dst.b, &src.b, nil)
}

// InverseBuffer transforms the half spectrum src into real dst. For more than one
// axis VkFFT uses src as scratch space: its contents are undefined afterwards. A batch
// of 1-D lines (Batch > 1, or axes besides the last not transformed) keeps src but for
// the imaginary parts of bins 0 and n/2 along the last axis, which are cleared.
//
// Like FFTW's c2r and numpy's irfftn, the inverse is defined for any src, Hermitian or
// not: the leading axes' inverse is complex, then each last-axis line's bins 0 and n/2
// count with their real parts only. Inverse and the other inverse calls of real plans
// give the same answer.
func (p *RealPlan[R, C]) InverseBuffer(dst *Buffer[R], src *Buffer[C]) error {
	l := &p.p.l
	if err := l.realBuffers("inverse", bufOf(src), bufOf(dst)); err != nil || l.strided {
		if err != nil {
			return err
		}
		return p.p.runDevice(true, &src.b, &dst.b, nil)
	}
	if err := checkBuffer("inverse", "src", src, l.complexLen); err != nil {
		return err
	}
	if err := checkBuffer("inverse", "dst", dst, l.realLen); err != nil {
		return err
	}
	return p.p.runDevice(true, &src.b, &dst.b, nil)
}

// Close frees the plan's kernels and device buffers. It is idempotent.
func (p *RealPlan[R, C]) Close() error { return p.p.close() }
