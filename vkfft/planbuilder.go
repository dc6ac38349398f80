package vkfft

// Plan building. newPlan (plan.go) hands the builder a validated layout; the builder
// makes the plan's VkFFT application and buffers and hands them back. It resolves, in
// this order, calling only down into services that know nothing of plans:
//
//  1. the key: the plan's parameters (planparams.go) and the device's identity
//     (cachekey.go), which name the plan's stored tuning and kernels;
//  2. the tuning (tune.go): by hand, stored, the device's prior or VkFFT's defaults;
//  3. the companion kernel a multi-axis C2R inverse launches (herm.go: the device's,
//     built once through the kernel cache);
//  4. the buffers (alloccache.go), before the kernels because VkFFT binds them when it
//     builds an application, and a measured tuning (tune_search.go) runs on them;
//  5. the kernels: a verified kernel-cache entry, else compiled by VkFFT
//     (kcache_build.go, then engine.PlanCreate) and stored;
//  6. a FullSpectrum plan's expansion and folding kernels, with the whole spectrum they
//     fill (layout_full.go), handed to the application.
//
// A stored tuning or prior that VkFFT refuses is dropped for VkFFT's defaults. A C2C
// plan's out-of-place application (oop.go) is built later, on first use, by the same
// last step on the plan's buffers.

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// builtPlan is what the builder made.
type builtPlan struct {
	l            layout // as validated, with the Tuning the application runs with
	h            engine.Plan
	buf, realBuf uint64
	tuned        TuneResult
	herm         engine.Kernel // the C2R projection kernel (herm.go), or nil and why
	hermWhy      string
	oopTuning    *Tuning  // the out-of-place application's own tuning, when one was measured
	full         *fullExt // FullSpectrum: the companion kernels and the whole spectrum
}

// buildPlan builds the plan of l on d, whose handle h the caller holds (d.mu shared).
func buildPlan(d *Device, h engine.Device, l layout) (builtPlan, error) {
	if l.double && !d.info.DoublePrecision {
		return builtPlan{}, fmt.Errorf("%w: %s has no double precision", ErrUnsupported, d.info.Name)
	}
	if l.cfg.Storage == StorageHalf && !d.info.HalfPrecision {
		return builtPlan{}, fmt.Errorf("%w: StorageHalf: %s has no fp16 support (cl_khr_fp16)", ErrUnsupported,
			d.info.Name)
	}
	// 1, 2: the key names the stored tuning
	ks := kernelsFor(&d.info)
	choice, err := chooseTuning(&d.info, &ks, &l)
	if err != nil {
		return builtPlan{}, err
	}
	// 3: the companion kernel
	b := builtPlan{l: l}
	b.herm, b.hermWhy = d.hermitianKernel(h, &l)
	// 4: the buffers
	if b.buf, b.realBuf, err = allocPlanBuffers(d, &l); err != nil {
		return builtPlan{}, err
	}
	if choice.measure { // on the buffers; the winner is the application
		target := tuneTarget{d: d, h: h, l: &b.l, buf: b.buf, realBuf: b.realBuf, herm: b.herm, hermWhy: b.hermWhy,
			ks: &ks}
		if choice, b.h, err = measureTuning(&target, choice); err != nil {
			freePlanBuffers(d, &l, b.buf, b.realBuf)
			return builtPlan{}, err
		}
	}
	b.l.cfg.Tuning, b.tuned, b.oopTuning = choice.result.Tuning, choice.result, choice.oop
	// 5: the kernels
	if b.h == nil {
		b.h, err = ks.plan(h, b.params())
		if err != nil && (b.tuned.Source == TunedStored || b.tuned.Source == TunedPrior) {
			if b.tuned.Source == TunedStored {
				kcacheProblem(&kcacheStats.plans.rejected, fmt.Errorf("%w: stored tuning %s refused: %v", errBadEntry,
					b.l.cfg.Tuning, err))
			}
			b.l.cfg.Tuning, b.tuned = Tuning{}, TuneResult{}
			b.h, err = ks.plan(h, b.params())
		}
		if err != nil {
			freePlanBuffers(d, &l, b.buf, b.realBuf)
			return builtPlan{}, err
		}
	}
	// 6: the whole spectrum
	if l.full != fullNone {
		if b.full, err = attachFull(d, h, &ks, &b.l, b.h, b.realBuf); err != nil {
			engine.PlanDestroy(b.h)
			freePlanBuffers(d, &l, b.buf, b.realBuf)
			return builtPlan{}, err
		}
	}
	return b, nil
}

// params are the parameters of the plan's own application.
func (b *builtPlan) params() *planParams {
	p := newPlanParams(b.l, b.buf, b.realBuf, false)
	p.herm, p.hermWhy = b.herm, b.hermWhy
	return &p
}

// buildOutOfPlace builds the out-of-place application of a C2C plan of l on its
// buffers, which reads an input buffer (oop.go): with own, the tuning measured for it,
// when there is one and VkFFT takes it, else with the plan's tuning. A C2C plan needs
// no C2R projection kernel. The caller holds the plan open, and so the device.
func buildOutOfPlace(d *Device, l layout, buf, realBuf uint64, own *Tuning) (engine.Plan, error) {
	ks := kernelsFor(&d.info)
	if own != nil {
		ol := l
		ol.cfg.Tuning = *own
		p := newPlanParams(ol, buf, realBuf, true)
		h, err := ks.plan(d.h, &p)
		if err == nil {
			return h, nil
		}
		// VkFFT refused the stored out-of-place tuning: the plan's own
	}
	p := newPlanParams(l, buf, realBuf, true)
	return ks.plan(d.h, &p)
}

// allocPlanBuffers allocates the buffers of a plan of l: VkFFT's complex data, and the
// real data of R2C plans (the input side of strided ones).
func allocPlanBuffers(d *Device, l *layout) (buf, realBuf uint64, err error) {
	if buf, err = d.alloc(l.bufBytes); err != nil {
		return 0, 0, err
	}
	if l.realBytes > 0 {
		if realBuf, err = d.alloc(l.realBytes); err != nil {
			d.free(buf, l.bufBytes)
			return 0, 0, err
		}
	}
	return buf, realBuf, nil
}

// freePlanBuffers frees what allocPlanBuffers allocated.
func freePlanBuffers(d *Device, l *layout, buf, realBuf uint64) {
	d.free(buf, l.bufBytes)
	d.free(realBuf, l.realBytes)
}
