package vkfft

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The C API's per-call entry points run in C on the objects behind a BytePlan, a
// Device, a Convolution and a Spectrometer; internal/ccore hands them over, and the sample-format table's answers,
// without making them public Go API.
func init() {
	ccore.PlanOf = func(x any) ccore.Plan {
		p := x.(*BytePlan).p
		p.mu.Lock()
		defer p.mu.Unlock()
		// The plan's order against its work on other queues is kept by the core itself
		// (vkg_plan_run_device, the run descriptors), so C calls need nothing more.
		cp := ccore.Plan{Core: unsafe.Pointer(p.h), InPlace: p.l.inPlaceRule(), Strided: p.l.strided,
			OutOfPlace: unsafe.Pointer(p.oop)}
		if p.oop == nil && p.canOutOfPlace() {
			cp.BuildOutOfPlace = p.buildOutOfPlace
		}
		for inv, op := range [2]string{"forward async", "inverse async"} {
			if err := p.l.asyncable(op); err != nil {
				cp.AsyncRefusal[inv] = err.Error()
			}
		}
		return cp
	}
	ccore.StreamQueue = func(x any) uint64 {
		s := x.(*Stream)
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.q
	}
	ccore.DeviceOf = func(x any) ccore.Device {
		d := x.(*Device)
		d.mu.RLock()
		defer d.mu.RUnlock()
		slot, threads := stagingSettings()
		return ccore.Device{Core: unsafe.Pointer(d.h), StagingThreshold: d.stageMin.Load(),
			StagingSlotBytes: slot, StagingThreads: threads, MaxStagers: maxStagers}
	}
	ccore.SampleFormat = func(c int32) (int, error) {
		f, err := sampleFormatFromC(c)
		return int(f), err
	}
	ccore.ConvolutionOf = func(x any) ccore.Convolution {
		c := x.(interface{ core() *convolution }).core()
		c.mu.Lock()
		defer c.mu.Unlock()
		return ccore.Convolution{Plan: unsafe.Pointer(c.h), Pad: unsafe.Pointer(c.pad), In: c.in, Out: c.out,
			InBytes: c.inBytes, OutBytes: c.outBytes, Items: c.items, InPlace: c.inPlace}
	}
	ccore.SpectrometerOf = func(x any) ccore.Spectrometer {
		sp := x.(*Spectrometer)
		sp.mu.Lock()
		defer sp.mu.Unlock()
		cs := ccore.Spectrometer{Core: unsafe.Pointer(sp.s), Batch: sp.cfg.Batch, SampleBytes: sp.SampleBytes(),
			Bins: sp.bins, FFTShift: sp.cfg.FFTShift, Perm: append([]int32(nil), sp.perm...)}
		if sp.s != nil && !engine.SpectroHostReady(sp.s) {
			cs.PrepareHost = sp.prepareHost
		}
		return cs
	}
}

func (c *Convolution[T]) core() *convolution        { return c.c }
func (c *RealConvolution[R, C]) core() *convolution { return c.c }

// prepareHost is ccore.Spectrometer.PrepareHost: the host-streaming buffers Accumulate
// makes on first use, made for a C caller's first host accumulation.
func (sp *Spectrometer) prepareHost() error {
	const op = "accumulate"
	if _, err := sp.dev.use(op); err != nil {
		return err
	}
	defer sp.dev.mu.RUnlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError(op, "spectrometer")
	}
	if err := sp.hostBuffers(); err != nil {
		return opError(op, err)
	}
	return nil
}

// buildOutOfPlace is ccore.Plan.BuildOutOfPlace: the out-of-place application, built on
// first use as Go's own out-of-place calls build it, or nil (none, or the plan closed).
func (p *plan) buildOutOfPlace() unsafe.Pointer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return nil
	}
	return unsafe.Pointer(p.outOfPlace())
}
