package vkfft

import (
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// Float16 is an IEEE 754 binary16 value as its bit pattern: the element type of
// StorageHalf plans' device data (complex values are two of them, re then im).
type Float16 uint16

// Float16From rounds f to the nearest binary16 (ties to even); out-of-range values
// become ±Inf, NaN stays NaN.
func Float16From(f float32) Float16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff { // Inf, NaN
		if man != 0 {
			return Float16(sign | 0x7e00)
		}
		return Float16(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return Float16(sign | 0x7c00)
	}
	if e <= 0 { // subnormal or zero
		if e < -10 {
			return Float16(sign)
		}
		man |= 0x800000
		shift := uint(14 - e)
		half := uint32(1) << (shift - 1)
		v := man >> shift
		rem := man & (1<<shift - 1)
		if rem > half || (rem == half && v&1 == 1) {
			v++
		}
		return Float16(sign | uint16(v))
	}
	v := uint32(e)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && v&1 == 1) {
		v++ // may carry into the exponent, up to Inf: still correct
	}
	return Float16(sign | uint16(v))
}

// Float32 is h's exact value.
func (h Float16) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		// subnormal: man·2^-24
		f := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// halfScratch converts host float32 data of a StorageHalf plan to and from fp16 around
// the transform, in a buffer made once with the plan.
type halfScratch struct {
	mu  sync.Mutex
	buf []Float16
}

func newHalfScratch(l *layout) *halfScratch {
	if l.cfg.Storage != StorageHalf {
		return nil
	}
	n := max(l.realLen, 2*l.complexLen)
	return &halfScratch{buf: make([]Float16, n)}
}

// run converts srcReals float32 values at src to fp16, runs the plan on them and
// converts dstReals results back into dst (which may be src).
func (h *halfScratch) run(p *plan, inverse bool, dst, src unsafe.Pointer, dstReals, srcReals int, _ bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := unsafe.Slice((*float32)(src), srcReals)
	for i, v := range s {
		h.buf[i] = Float16From(v)
	}
	hp := unsafe.Pointer(&h.buf[0])
	if err := p.runHost(inverse, hp, int64(2*dstReals), hp, int64(2*srcReals)); err != nil {
		return err
	}
	d := unsafe.Slice((*float32)(dst), dstReals)
	for i := range d {
		d[i] = h.buf[i].Float32()
	}
	return nil
}

// checkHalf refuses the *Half methods on plans that do not store fp16.
func (l *layout) checkHalf(op string) error {
	if l.cfg.Storage != StorageHalf {
		return fmt.Errorf("vkfft: %s: %w: the *Half methods need a plan with Storage: StorageHalf", op, ErrUnsupported)
	}
	return nil
}

// ioReals are the real values a transform reads and writes (fp16 values for StorageHalf).
func (l *layout) ioReals(inverse bool) (out, in int) {
	switch l.kind {
	case kindR2C:
		if inverse {
			return l.realLen, 2 * l.complexLen
		}
		return 2 * l.complexLen, l.realLen
	case kindR2R:
		return l.realLen, l.realLen
	}
	return 2 * l.complexLen, 2 * l.complexLen
}

// runHalfHost runs a transform on fp16 host data.
func (p *plan) runHalfHost(inverse bool, dst, src []Float16) error {
	op := direction(inverse)
	if err := p.l.checkHalf(op); err != nil {
		return err
	}
	out, in := p.l.ioReals(inverse)
	if err := checkLen(op, "src", src == nil, len(src), in); err != nil {
		return err
	}
	if err := checkLen(op, "dst", dst == nil, len(dst), out); err != nil {
		return err
	}
	return p.runHost(inverse, unsafe.Pointer(&dst[0]), int64(2*out), unsafe.Pointer(&src[0]), int64(2*in))
}

// runHalfBuffer runs a transform on fp16 device buffers.
func (p *plan) runHalfBuffer(inverse bool, dst, src *Buffer[Float16]) error {
	op := direction(inverse)
	if err := p.l.checkHalf(op); err != nil {
		return err
	}
	out, in := p.l.ioReals(inverse)
	if err := checkBuffer(op, "src", src, in); err != nil {
		return err
	}
	if err := checkBuffer(op, "dst", dst, out); err != nil {
		return err
	}
	if p.l.kind == kindR2C {
		if inverse {
			return p.runDevice(true, &src.b, &dst.b, nil)
		}
		return p.runDevice(false, &dst.b, &src.b, nil)
	}
	var from *buffer
	if dst != src {
		from = &src.b
	}
	return p.runDevice(inverse, &dst.b, nil, from)
}

// ForwardHalf is Forward on fp16 host data, for StorageHalf plans: src and dst hold
// 2·Len values (re, im interleaved) and are not converted.
func (p *Plan[T]) ForwardHalf(dst, src []Float16) error { return p.p.runHalfHost(false, dst, src) }

// InverseHalf is Inverse on fp16 host data.
func (p *Plan[T]) InverseHalf(dst, src []Float16) error { return p.p.runHalfHost(true, dst, src) }

// ForwardHalfBuffer is ForwardBuffer on fp16 device data (2·Len values each).
func (p *Plan[T]) ForwardHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(false, dst, src)
}

// InverseHalfBuffer is InverseBuffer on fp16 device data.
func (p *Plan[T]) InverseHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(true, dst, src)
}

// ForwardHalf is Forward on fp16 host data: src holds RealLen values, dst 2·ComplexLen.
func (p *RealPlan[R, C]) ForwardHalf(dst, src []Float16) error {
	return p.p.runHalfHost(false, dst, src)
}

// InverseHalf is Inverse on fp16 host data.
func (p *RealPlan[R, C]) InverseHalf(dst, src []Float16) error {
	return p.p.runHalfHost(true, dst, src)
}

// ForwardHalfBuffer is ForwardBuffer on fp16 device data.
func (p *RealPlan[R, C]) ForwardHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(false, dst, src)
}

// InverseHalfBuffer is InverseBuffer on fp16 device data.
func (p *RealPlan[R, C]) InverseHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(true, dst, src)
}

// ForwardHalf is Forward on fp16 host data (Len values each).
func (p *R2RPlan[T]) ForwardHalf(dst, src []Float16) error { return p.p.runHalfHost(false, dst, src) }

// InverseHalf is Inverse on fp16 host data.
func (p *R2RPlan[T]) InverseHalf(dst, src []Float16) error { return p.p.runHalfHost(true, dst, src) }

// ForwardHalfBuffer is ForwardBuffer on fp16 device data.
func (p *R2RPlan[T]) ForwardHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(false, dst, src)
}

// InverseHalfBuffer is InverseBuffer on fp16 device data.
func (p *R2RPlan[T]) InverseHalfBuffer(dst, src *Buffer[Float16]) error {
	return p.p.runHalfBuffer(true, dst, src)
}
