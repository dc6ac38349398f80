package vkfft

// Native-memory forms of the convolution and spectrometer calls, for bindings that hold
// device memory as the backend's handles (the C API): see Buffer.Native. Native handles
// carry no size; the caller checks it.

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// ApplyNative convolves device memory src (InLen elements) into dst (OutLen elements),
// given as native handles of the convolution's device; dst may equal src. Queued only.
func (c *Convolution[T]) ApplyNative(dst, src uintptr) error {
	return c.c.applyNative(uint64(dst), uint64(src))
}

// ApplyNative is Convolution.ApplyNative for real data.
func (c *RealConvolution[R, C]) ApplyNative(dst, src uintptr) error {
	return c.c.applyNative(uint64(dst), uint64(src))
}

func (c *convolution) applyNative(dst, src uint64) error {
	if dst == 0 || src == 0 {
		return fmt.Errorf("vkfft: apply: %w: native device memory is 0", ErrNilBuffer)
	}
	bd, bs := buffer{dev: c.dev, m: dst}, buffer{dev: c.dev, m: src}
	if dst == src {
		return c.applyBuffers(&bd, &bd)
	}
	return c.applyBuffers(&bd, &bs)
}

// AccumulateNative is AccumulateBuffer for device memory given as a native handle of
// the spectrometer's device, holding one batch of samples. Queued only.
func (sp *Spectrometer) AccumulateNative(native uintptr) error {
	samples := uint64(native)
	const op = "accumulate buffer"
	if samples == 0 {
		return fmt.Errorf("vkfft: %s: %w: native device memory is 0", op, ErrNilBuffer)
	}
	if _, err := sp.dev.use(op); err != nil {
		return err
	}
	defer sp.dev.mu.RUnlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError(op, "spectrometer")
	}
	if err := engine.SpectroDevice(sp.s, sp.st, samples, 0, sp.cfg.Batch); err != nil {
		return opError(op, err)
	}
	return nil
}

// SampleBytes is the size of one batch of samples in bytes (what Accumulate takes).
func (sp *Spectrometer) SampleBytes() int64 {
	return int64(sp.numbers()) * int64(sp.cfg.Input.scalarBytes())
}

// InBytes and OutBytes are the sizes of Apply's src and dst in bytes.
func (c *Convolution[T]) InBytes() int64 { return c.c.inBytes }

// OutBytes is the size of Apply's dst in bytes.
func (c *Convolution[T]) OutBytes() int64 { return c.c.outBytes }

// InBytes is the size of Apply's src in bytes.
func (c *RealConvolution[R, C]) InBytes() int64 { return c.c.inBytes }

// OutBytes is the size of Apply's dst in bytes.
func (c *RealConvolution[R, C]) OutBytes() int64 { return c.c.outBytes }
