package vkfft

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// The C API's per-call entry points run in C on the objects behind a BytePlan and a
// Device; internal/ccore hands them over without making them public Go API.
func init() {
	ccore.PlanOf = func(x any) ccore.Plan {
		p := x.(*BytePlan).p
		p.mu.Lock()
		defer p.mu.Unlock()
		// From here on C runs the plan; nothing the Go side queued may still be running.
		_ = p.settle()
		return ccore.Plan{Core: unsafe.Pointer(p.h), FwdScale: p.l.fwdScale, InvScale: p.l.invScale}
	}
	ccore.DeviceOf = func(x any) ccore.Device {
		d := x.(*Device)
		d.mu.RLock()
		defer d.mu.RUnlock()
		slot, threads := stagingSettings()
		return ccore.Device{Core: unsafe.Pointer(d.h), StagingThreshold: d.stageMin.Load(),
			StagingSlotBytes: slot, StagingThreads: threads}
	}
}
