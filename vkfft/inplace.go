package vkfft

import (
	"fmt"
	"unsafe"
)

// In-place real-to-complex transforms (Config.RealInPlace) in FFTW's and numpy's padded
// layout: the real data and its half spectrum share one buffer. Each row along the last
// axis holds 2·(n/2+1) reals — n values and one (n odd) or two (n even) of padding — and
// after ForwardInPlace the same memory holds the row's n/2+1 complex values.

// PaddedLen is the number of reals a RealInPlace plan's data holds:
// 2 · ComplexLen = Batch × prod(Shape[:-1]) × 2·(Shape[-1]/2+1).
func (p *RealPlan[R, C]) PaddedLen() int { return 2 * p.p.l.complexLen }

// ForwardInPlace transforms host data of PaddedLen reals in place: the padded real rows
// become the half spectrum (reinterpret data as ComplexLen values of C).
func (p *RealPlan[R, C]) ForwardInPlace(data []R) error { return p.runInPlaceHost(false, data) }

// InverseInPlace transforms a half spectrum, stored as PaddedLen reals, back into padded
// real rows in place, scaled as Config.Norm says.
func (p *RealPlan[R, C]) InverseInPlace(data []R) error { return p.runInPlaceHost(true, data) }

// ForwardInPlaceBuffer is ForwardInPlace on a device buffer of PaddedLen reals; the work
// is queued.
func (p *RealPlan[R, C]) ForwardInPlaceBuffer(buf *Buffer[R]) error {
	return p.runInPlaceBuffer(false, buf)
}

// InverseInPlaceBuffer is InverseInPlace on a device buffer of PaddedLen reals.
func (p *RealPlan[R, C]) InverseInPlaceBuffer(buf *Buffer[R]) error {
	return p.runInPlaceBuffer(true, buf)
}

func (l *layout) checkInPlace(op string) error {
	if !l.cfg.RealInPlace {
		return fmt.Errorf("vkfft: %s: %w: the *InPlace methods need a plan with RealInPlace set", op, ErrUnsupported)
	}
	return nil
}

func (p *RealPlan[R, C]) runInPlaceHost(inverse bool, data []R) error {
	op := direction(inverse)
	l := &p.p.l
	if err := l.checkInPlace(op); err != nil {
		return err
	}
	if err := checkLen(op, "data", data == nil, len(data), p.PaddedLen()); err != nil {
		return err
	}
	ptr := unsafe.Pointer(&data[0])
	return p.p.runHost(inverse, ptr, l.complexBytes, ptr, l.complexBytes)
}

func (p *RealPlan[R, C]) runInPlaceBuffer(inverse bool, buf *Buffer[R]) error {
	op := direction(inverse)
	if err := p.p.l.checkInPlace(op); err != nil {
		return err
	}
	if err := checkBuffer(op, "buf", buf, p.PaddedLen()); err != nil {
		return err
	}
	return p.p.runDevice(inverse, &buf.b, nil, nil)
}
