package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

// True out-of-place complex transforms. A plan's own application works in place: it
// reads and writes one buffer. An out-of-place call used to copy the input into the
// output and transform there, one extra pass over memory. Instead, a C2C plan gets a
// second application on its first out-of-place call, built with VkFFT's input-buffer
// mode (isInputFormatted): its first pass reads the input buffer and writes the output,
// every later pass works in the output, in both directions, so the input is only read.
// Buffers are given per call through VkFFT's launch parameters, so one application
// serves every pair of buffers. It is built like any plan (same tuning, kernels from the
// kernel cache: buildOutOfPlace, planbuilder.go) and freed with the plan. R2C plans are
// out of place already (real data in VkFFT's input buffer, the spectrum in its buffer).
// If the second application cannot be built, out-of-place calls keep the copy: slower,
// never wrong.

// outOfPlace returns the out-of-place application, building it on first use, or nil
// when the plan has none (R2C, or it could not be built). The caller holds p.mu and
// has checked that the plan is open, so the device is open too.
func (p *plan) outOfPlace() engine.Plan {
	if p.oop != nil || !p.canOutOfPlace() {
		return p.oop
	}
	h, err := buildOutOfPlace(p.dev, p.l, p.buf, p.realBuf, p.oopTuning)
	if err != nil {
		p.oopFailed = true
		return nil
	}
	p.oop = h
	return h
}

// canOutOfPlace reports whether the plan may still get an out-of-place application: a
// contiguous C2C plan in its precision's own storage whose build has not failed. Strided
// plans read their input buffer already; other storage keeps the copy. The caller holds
// p.mu.
func (p *plan) canOutOfPlace() bool {
	return !p.oopFailed && p.l.kind == kindC2C && !p.l.strided && p.l.cfg.Storage == StorageDefault
}

// routeOutOfPlace picks the application for a device call: a C2C call with a separate
// source (copyFrom) goes to the out-of-place application, reading copyFrom in place of
// a copy. It returns the handle and the run's real/input and copy arguments.
func (p *plan) routeOutOfPlace(real, copyFrom uint64) (engine.Plan, uint64, uint64) {
	if copyFrom != 0 {
		if h := p.outOfPlace(); h != nil {
			return h, copyFrom, 0
		}
	}
	return p.h, real, copyFrom
}
