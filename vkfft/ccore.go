package vkfft

import (
	"fmt"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// The C API's per-call entry points run in C on the objects behind a BytePlan and a
// Device; internal/ccore hands them over, and the sample-format table's answers,
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
	ccore.AccumulateBytes = func(x any, samples unsafe.Pointer, bytes int) error {
		sp := x.(*Spectrometer)
		w := sp.cfg.Input.scalarBytes()
		if bytes%w != 0 {
			return fmt.Errorf("vkfft: accumulate: %w: %d bytes of %v samples are not whole numbers of %d bytes",
				ErrLength, bytes, sp.cfg.Input, w)
		}
		return sp.accumulateHost(sp.cfg.Input.goType(), samples, bytes/w, samples == nil)
	}
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
