package vkfft

import (
	"fmt"
	"unsafe"
)

// R2RPlan is a real-to-real transform: one DCT or DST kind applied along every selected
// axis (Config.Axes), with scipy.fft's dctn/dstn definitions and norm="backward"
// (Forward unnormalised, as FFTW's REDFT/RODFT). Inverse applies the inverse kind (DCT3
// for DCT2, DCT1 for DCT1, ...) and divides by the product of NormLength over the
// transformed axes, so it undoes Forward exactly under every Norm: NormOrtho and
// NormForward only move that factor (1/√M both ways, or 1/M on Forward) — NormOrtho is
// therefore not scipy's orthonormal DCT, which also reweights the first and last terms.
//
// VkFFT computes DCT-I through an FFT of 2(n−1) points, DST-I of 2(n+1), the others of
// n (DCT/DST-II, III) or n/2 and n (IV); lengths whose FFT has a prime factor above 13
// go through Bluestein's algorithm, as for complex plans. DCT-I needs n ≥ 2.
type R2RPlan[T Real] struct {
	p    *plan
	half *halfScratch // StorageHalf: host conversions
}

// NewR2RPlan builds a real-to-real plan of kind on d; float64 runs in double precision.
func NewR2RPlan[T Real](d *Device, cfg Config, kind R2RKind) (*R2RPlan[T], error) {
	l, err := validateKind(cfg, kindR2R, 2*sizeOf[T](), kind)
	if err != nil {
		return nil, opError("new plan", err)
	}
	p, err := newPlan(d, l)
	if err != nil {
		return nil, err
	}
	return &R2RPlan[T]{p: p, half: newHalfScratch(&p.l)}, nil
}

// Len is the number of elements Forward and Inverse take and return: Batch × prod(Shape).
func (p *R2RPlan[T]) Len() int { return p.p.l.realLen }

// Kind is the plan's transform.
func (p *R2RPlan[T]) Kind() R2RKind { return p.p.l.r2r }

// Config returns the plan's configuration, with Batch filled in.
func (p *R2RPlan[T]) Config() Config { return cloneConfig(p.p.l.cfg) }

// Forward computes the transform of src into dst (host slices of Len elements); dst
// may be src.
func (p *R2RPlan[T]) Forward(dst, src []T) error { return p.run(false, dst, src) }

// Inverse undoes Forward: the inverse kind, scaled as Config.Norm says.
func (p *R2RPlan[T]) Inverse(dst, src []T) error { return p.run(true, dst, src) }

func (p *R2RPlan[T]) run(inverse bool, dst, src []T) error {
	op := direction(inverse)
	l := &p.p.l
	if err := l.hostable(op); err != nil {
		return err
	}
	n := l.realLen
	if err := checkLen(op, "src", src == nil, len(src), n); err != nil {
		return err
	}
	if err := checkLen(op, "dst", dst == nil, len(dst), n); err != nil {
		return err
	}
	if p.half != nil {
		return p.half.run(p.p, inverse, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n, n, false)
	}
	return p.p.runHost(inverse, unsafe.Pointer(&dst[0]), l.complexBytes, unsafe.Pointer(&src[0]), l.complexBytes)
}

// ForwardBuffer transforms device buffer src into dst (dst may be src, in place). The
// work is queued: read dst with Download or wait with Device.Sync. With InStrides or
// OutStrides the buffers must hold at least the elements the layout reaches.
func (p *R2RPlan[T]) ForwardBuffer(dst, src *Buffer[T]) error {
	return p.p.runSameKind(false, bufOf(dst), bufOf(src))
}

// InverseBuffer is the inverse of ForwardBuffer.
func (p *R2RPlan[T]) InverseBuffer(dst, src *Buffer[T]) error {
	return p.p.runSameKind(true, bufOf(dst), bufOf(src))
}

// Close frees the plan's kernels and device buffers. It is idempotent.
func (p *R2RPlan[T]) Close() error { return p.p.close() }

// bufOf is b's untyped part, or nil.
func bufOf[T Element](b *Buffer[T]) *buffer {
	if b == nil {
		return nil
	}
	return &b.b
}

// runSameKind runs a transform whose input and output have one element type (C2C, R2R)
// on device buffers: through a copy of src into dst and an in-place transform, or for
// strided plans straight from src (VkFFT's formatted input) into dst.
func (p *plan) runSameKind(inverse bool, dst, src *buffer) error {
	op := direction(inverse)
	if src == nil {
		return fmt.Errorf("vkfft: %s: %w: src is nil", op, ErrNilBuffer)
	}
	if dst == nil {
		return fmt.Errorf("vkfft: %s: %w: dst is nil", op, ErrNilBuffer)
	}
	dstLen, srcLen := dst.n, src.n
	if err := p.l.deviceTypes(op); err != nil {
		return err
	}
	if p.l.strided {
		if err := p.l.checkSpans(op, dst == src, dstLen, srcLen); err != nil {
			return err
		}
		return p.runDevice(inverse, dst, src, nil)
	}
	n := p.l.outSpan
	if err := checkLen(op, "src", false, srcLen, n); err != nil {
		return err
	}
	if err := checkLen(op, "dst", false, dstLen, n); err != nil {
		return err
	}
	var from *buffer
	if dst != src {
		from = src
	}
	return p.runDevice(inverse, dst, nil, from)
}

// ForwardNative transforms device memory given as native handles (see Buffer.Native):
// src and dst hold Len values (fp16 for StorageHalf); dst may equal src. Like
// ForwardBuffer the work is only queued; native handles carry no size to check.
func (p *R2RPlan[T]) ForwardNative(dst, src uintptr) error {
	return p.p.runNative(false, uint64(dst), uint64(src))
}

// InverseNative is the inverse of ForwardNative.
func (p *R2RPlan[T]) InverseNative(dst, src uintptr) error {
	return p.p.runNative(true, uint64(dst), uint64(src))
}
