package vkfft

// Building VkFFT applications and companion modules through the kernel cache: the step
// between a plan's key and the engine, taken by the plan builder (planbuilder.go), the
// tuner's candidates (tune_search.go), convolutions and spectrometers.

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// kernelSource is the kernel cache as one build uses it: the directory, with the
// settings in force when the build began, and the device's identity, which every key
// names.
type kernelSource struct {
	store kernelStore
	id    kcacheIdent
	reuse *kernelReuse // kernels by their source; nil: VkFFT compiles them (kreuse.go)
}

// kernelsFor is the kernel cache for builds on the device of info, as configured now.
func kernelsFor(info *DeviceInfo) kernelSource {
	ks := kernelSource{store: currentKernelStore(), id: identFor(info)}
	ks.reuse = newKernelReuse(ks.store, ks.id)
	return ks
}

// compile builds p from its kernels' sources: those compiled before, by any plan, are
// reused and the others compiled several at once, unless kernel reuse is off.
func (ks *kernelSource) compile(h engine.Device, p *planParams) (engine.Plan, error) {
	ep := p.engineParams()
	if ks.reuse != nil {
		ep.Kernels = ks.reuse
		defer ks.reuse.done()
	}
	return engine.PlanCreate(h, &ep)
}

// plan builds p on h from a verified cache entry when there is one, else compiles it and
// stores its kernels. An entry VkFFT or the driver refuses is counted as rejected and
// the plan compiled afresh.
func (ks *kernelSource) plan(h engine.Device, p *planParams) (engine.Plan, error) {
	if !ks.store.on {
		return ks.compile(h, p)
	}
	key := kernelKey(&ks.id, p)
	if payload, path := ks.store.load(key); payload != nil {
		q := *p
		q.loadBlob = payload
		ph, err := planCreate(h, &q)
		if err == nil {
			kcacheStats.hits.Add(1)
			return ph, nil
		}
		kcacheProblem(&kcacheStats.plans.rejected, fmt.Errorf("%s: %w: refused on load: %v", path, errBadEntry, err))
	}
	kcacheStats.misses.Add(1)
	q := *p
	q.save = true
	ph, err := ks.compile(h, &q)
	if err != nil {
		return nil, err
	}
	ks.store.save(key, engine.PlanBinary(ph))
	return ph, nil
}

// candidate builds p for the tuner: from a verified cache entry when there is one
// (returning its payload), else compiled with its kernels kept in the application for
// engine.PlanBinary. Nothing is stored or counted: of all candidates, only the winner's
// kernels go to the cache (keep).
func (ks *kernelSource) candidate(h engine.Device, p *planParams) (engine.Plan, []byte, error) {
	if payload, _ := ks.store.load(kernelKey(&ks.id, p)); payload != nil {
		q := *p
		q.loadBlob = payload
		if ph, err := planCreate(h, &q); err == nil {
			return ph, payload, nil
		}
	}
	q := *p
	q.save = true
	ph, err := ks.compile(h, &q)
	return ph, nil, err
}

// keep stores bin, the kernels of a candidate the tuner chose, under p's key.
func (ks *kernelSource) keep(p *planParams, bin []byte) {
	ks.store.save(kernelKey(&ks.id, p), bin)
}

// module builds a module of companion kernels from source, from a verified cache entry
// when there is one (as plans are built).
func (ks *kernelSource) module(h engine.Device, source string) (engine.Module, error) {
	if !ks.store.on {
		m, _, err := engine.ModuleBuild(h, source, nil)
		return m, err
	}
	key := moduleKey(&ks.id, source)
	if payload, path := ks.store.load(key); payload != nil {
		m, _, err := engine.ModuleBuild(h, source, payload)
		if err == nil {
			kcacheStats.hits.Add(1)
			return m, nil
		}
		kcacheProblem(&kcacheStats.plans.rejected, fmt.Errorf("%s: %w: refused on load: %v", path, errBadEntry, err))
	}
	kcacheStats.misses.Add(1)
	m, bin, err := engine.ModuleBuild(h, source, nil)
	if err != nil {
		return nil, err
	}
	ks.store.save(key, bin)
	return m, nil
}
