package vkfft

import (
	"fmt"
	"slices"
)

// Strided layouts (Config.InStrides/OutStrides) on device memory: the checks a call
// makes before its buffers reach VkFFT.

// checkSpans checks buffer lengths (in elements) against what a strided layout reaches:
// at least inSpan for the input side and outSpan for the output side. In place, the two
// layouts must be the same.
func (l *layout) checkSpans(op string, inPlace bool, outLen, inLen int) error {
	if inPlace && !sameStrides(l) {
		return fmt.Errorf("vkfft: %s: %w: in place (dst == src) needs InStrides equal to OutStrides (%v, %v)",
			op, ErrInvalidArgument, l.cfg.InStrides, l.cfg.OutStrides)
	}
	in, out := "src", "dst"
	if l.kind == kindR2C {
		in, out = "the real data", "the spectrum"
	}
	if inLen < l.inSpan {
		return fmt.Errorf("vkfft: %s: %w: %s has %d elements; InStrides %v reach %d", op, ErrLength, in,
			inLen, l.cfg.InStrides, l.inSpan)
	}
	if outLen < l.outSpan {
		return fmt.Errorf("vkfft: %s: %w: %s has %d elements; OutStrides %v reach %d", op, ErrLength, out,
			outLen, l.cfg.OutStrides, l.outSpan)
	}
	return nil
}

func sameStrides(l *layout) bool {
	in, out := l.cfg.InStrides, l.cfg.OutStrides
	if in == nil {
		in = contiguousStrides(l.cfg.Shape)
	}
	if out == nil {
		out = contiguousStrides(l.cfg.Shape)
	}
	return slices.Equal(in, out)
}

// deviceTypes refuses typed device buffers for plans whose device data is not of the
// plan's element types (StorageHalf keeps fp16) or whose layout needs one buffer.
func (l *layout) deviceTypes(op string) error {
	if l.cfg.Storage == StorageHalf {
		return fmt.Errorf("vkfft: %s: %w: a StorageHalf plan keeps fp16 on the device: use the *Half methods with Buffer[Float16]",
			op, ErrUnsupported)
	}
	if l.cfg.RealInPlace {
		return fmt.Errorf("vkfft: %s: %w: a RealInPlace plan transforms one padded buffer: use ForwardInPlace/InverseInPlace",
			op, ErrUnsupported)
	}
	return nil
}

// realHostable checks that a real plan's host Forward/Inverse can run.
func (l *layout) realHostable(op string) error {
	if l.cfg.RealInPlace {
		return fmt.Errorf("vkfft: %s: %w: a RealInPlace plan transforms one padded slice or buffer: use ForwardInPlace/InverseInPlace",
			op, ErrUnsupported)
	}
	return l.hostable(op)
}

// realBuffers checks the device buffers of a real plan's ForwardBuffer/InverseBuffer
// (spec the spectrum, real the real data); for strided plans it checks their spans.
func (l *layout) realBuffers(op string, spec, real *buffer) error {
	if err := l.deviceTypes(op); err != nil {
		return err
	}
	if !l.strided {
		return nil // the callers check exact lengths
	}
	if spec == nil {
		return fmt.Errorf("vkfft: %s: %w: the spectrum buffer is nil", op, ErrNilBuffer)
	}
	if real == nil {
		return fmt.Errorf("vkfft: %s: %w: the real buffer is nil", op, ErrNilBuffer)
	}
	return l.checkSpans(op, false, spec.n, real.n)
}

// asyncable checks that a plan's asynchronous host calls and pipelines can run: they
// move the plan's own element types through contiguous pinned memory.
func (l *layout) asyncable(op string) error {
	if err := l.hostable(op); err != nil {
		return err
	}
	if err := l.deviceTypes(op); err != nil {
		return fmt.Errorf("%w (asynchronous calls take the plan's element types)", err)
	}
	return nil
}

// uses2Buffers reports whether a launch takes a second buffer (VkFFT's inputBuffer): the
// real data of an out-of-place R2C plan, or src of a strided plan.
func (p *plan) uses2Buffers() bool {
	return (p.l.kind == kindR2C && !p.l.cfg.RealInPlace) || p.l.strided
}

// Spans returns the elements a src (in) and a dst (out) buffer must hold at least: what
// InStrides and OutStrides reach over all batches, or Len for a contiguous plan.
func (p *Plan[T]) Spans() (in, out int) { return p.p.l.inSpan, p.p.l.outSpan }

// Spans returns the elements the real data (in) and the spectrum (out) buffers must hold
// at least: what InStrides and OutStrides reach over all batches, or RealLen and
// ComplexLen for a contiguous plan (ComplexLen both for RealInPlace, whose real data
// lives in the spectrum's buffer).
func (p *RealPlan[R, C]) Spans() (in, out int) {
	if p.p.l.cfg.RealInPlace {
		return p.p.l.outSpan, p.p.l.outSpan
	}
	return p.p.l.inSpan, p.p.l.outSpan
}

// Spans returns the elements a src (in) and a dst (out) buffer must hold at least.
func (p *R2RPlan[T]) Spans() (in, out int) { return p.p.l.inSpan, p.p.l.outSpan }
