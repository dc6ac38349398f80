package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

// passes counts the plan's passes over its data per direction; 0, 0 once closed.
func (p *plan) passes() (forward, inverse int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return 0, 0
	}
	return engine.PlanPasses(p.h, false), engine.PlanPasses(p.h, true)
}

// Passes is the number of passes one transform makes over the whole data, forward and
// inverse: the kernels VkFFT launches over every axis (a size that does not fit the
// device's shared memory takes several along its axis), plus the normalisation kernel
// where the plan has one. Each pass reads and writes the data once, so a transform
// moves at least passes × 2 × its bytes through device memory: its memory floor.
// 0, 0 once the plan is closed.
func (p *Plan[T]) Passes() (forward, inverse int) { return p.p.passes() }

// Passes is [Plan.Passes] for a real plan.
func (p *RealPlan[R, C]) Passes() (forward, inverse int) { return p.p.passes() }

// Passes is [Plan.Passes] for a real-to-real plan.
func (p *R2RPlan[T]) Passes() (forward, inverse int) { return p.p.passes() }

// Passes is [Plan.Passes] for a byte plan.
func (p *BytePlan) Passes() (forward, inverse int) { return p.p.passes() }
