package vkfft

// The rest of a plan's methods on its leases (cache.go has the first ones), so that a
// leased plan is used exactly like an owned one: each checks the lease, then calls the
// plan. Value-returning methods return the zero value once the lease is released.

// Config is Plan.Config of the leased plan; Config{} once released.
func (l PlanLease[T]) Config() Config {
	if l.check("config") != nil {
		return Config{}
	}
	return l.p.Config()
}

// Tuned is Plan.Tuned of the leased plan; TuneResult{} once released.
func (l PlanLease[T]) Tuned() TuneResult {
	if l.check("tuned") != nil {
		return TuneResult{}
	}
	return l.p.Tuned()
}

// Spans is Plan.Spans of the leased plan; zeros once released.
func (l PlanLease[T]) Spans() (in, out int) {
	if l.check("spans") != nil {
		return 0, 0
	}
	return l.p.Spans()
}

// ForwardAsync is Plan.ForwardAsync on the leased plan.
func (l PlanLease[T]) ForwardAsync(s *Stream, dst, src *HostBuffer[T]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardAsync(s, dst, src)
}

// ForwardHalf is Plan.ForwardHalf on the leased plan.
func (l PlanLease[T]) ForwardHalf(dst, src []Float16) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardHalf(dst, src)
}

// ForwardHalfBuffer is Plan.ForwardHalfBuffer on the leased plan.
func (l PlanLease[T]) ForwardHalfBuffer(dst, src *Buffer[Float16]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardHalfBuffer(dst, src)
}

// ForwardNative is Plan.ForwardNative on the leased plan.
func (l PlanLease[T]) ForwardNative(dst, src uintptr) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardNative(dst, src)
}

// ForwardPtr is Plan.ForwardPtr on the leased plan.
func (l PlanLease[T]) ForwardPtr(dst, src, stream uintptr) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardPtr(dst, src, stream)
}

// InverseAsync is Plan.InverseAsync on the leased plan.
func (l PlanLease[T]) InverseAsync(s *Stream, dst, src *HostBuffer[T]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseAsync(s, dst, src)
}

// InverseHalf is Plan.InverseHalf on the leased plan.
func (l PlanLease[T]) InverseHalf(dst, src []Float16) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseHalf(dst, src)
}

// InverseHalfBuffer is Plan.InverseHalfBuffer on the leased plan.
func (l PlanLease[T]) InverseHalfBuffer(dst, src *Buffer[Float16]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseHalfBuffer(dst, src)
}

// InverseNative is Plan.InverseNative on the leased plan.
func (l PlanLease[T]) InverseNative(dst, src uintptr) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseNative(dst, src)
}

// InversePtr is Plan.InversePtr on the leased plan.
func (l PlanLease[T]) InversePtr(dst, src, stream uintptr) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InversePtr(dst, src, stream)
}

// Config is RealPlan.Config of the leased plan; Config{} once released.
func (l RealPlanLease[R, C]) Config() Config {
	if l.check("config") != nil {
		return Config{}
	}
	return l.p.Config()
}

// Tuned is RealPlan.Tuned of the leased plan; TuneResult{} once released.
func (l RealPlanLease[R, C]) Tuned() TuneResult {
	if l.check("tuned") != nil {
		return TuneResult{}
	}
	return l.p.Tuned()
}

// ComplexLen is RealPlan.ComplexLen of the leased plan; 0 once released.
func (l RealPlanLease[R, C]) ComplexLen() int {
	if l.check("complexlen") != nil {
		return 0
	}
	return l.p.ComplexLen()
}

// RealLen is RealPlan.RealLen of the leased plan; 0 once released.
func (l RealPlanLease[R, C]) RealLen() int {
	if l.check("reallen") != nil {
		return 0
	}
	return l.p.RealLen()
}

// PaddedLen is RealPlan.PaddedLen of the leased plan; 0 once released.
func (l RealPlanLease[R, C]) PaddedLen() int {
	if l.check("paddedlen") != nil {
		return 0
	}
	return l.p.PaddedLen()
}

// Spans is RealPlan.Spans of the leased plan; zeros once released.
func (l RealPlanLease[R, C]) Spans() (in, out int) {
	if l.check("spans") != nil {
		return 0, 0
	}
	return l.p.Spans()
}

// ForwardAsync is RealPlan.ForwardAsync on the leased plan.
func (l RealPlanLease[R, C]) ForwardAsync(s *Stream, dst *HostBuffer[C], src *HostBuffer[R]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardAsync(s, dst, src)
}

// InverseAsync is RealPlan.InverseAsync on the leased plan.
func (l RealPlanLease[R, C]) InverseAsync(s *Stream, dst *HostBuffer[R], src *HostBuffer[C]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseAsync(s, dst, src)
}

// ForwardHalf is RealPlan.ForwardHalf on the leased plan.
func (l RealPlanLease[R, C]) ForwardHalf(dst, src []Float16) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardHalf(dst, src)
}

// ForwardHalfBuffer is RealPlan.ForwardHalfBuffer on the leased plan.
func (l RealPlanLease[R, C]) ForwardHalfBuffer(dst, src *Buffer[Float16]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardHalfBuffer(dst, src)
}

// ForwardInPlace is RealPlan.ForwardInPlace on the leased plan.
func (l RealPlanLease[R, C]) ForwardInPlace(data []R) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardInPlace(data)
}

// ForwardInPlaceBuffer is RealPlan.ForwardInPlaceBuffer on the leased plan.
func (l RealPlanLease[R, C]) ForwardInPlaceBuffer(buf *Buffer[R]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardInPlaceBuffer(buf)
}

// ForwardNative is RealPlan.ForwardNative on the leased plan.
func (l RealPlanLease[R, C]) ForwardNative(dst, src uintptr) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardNative(dst, src)
}

// ForwardPtr is RealPlan.ForwardPtr on the leased plan.
func (l RealPlanLease[R, C]) ForwardPtr(dst, src, stream uintptr) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardPtr(dst, src, stream)
}

// InverseHalf is RealPlan.InverseHalf on the leased plan.
func (l RealPlanLease[R, C]) InverseHalf(dst, src []Float16) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseHalf(dst, src)
}

// InverseHalfBuffer is RealPlan.InverseHalfBuffer on the leased plan.
func (l RealPlanLease[R, C]) InverseHalfBuffer(dst, src *Buffer[Float16]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseHalfBuffer(dst, src)
}

// InverseInPlace is RealPlan.InverseInPlace on the leased plan.
func (l RealPlanLease[R, C]) InverseInPlace(data []R) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseInPlace(data)
}

// InverseInPlaceBuffer is RealPlan.InverseInPlaceBuffer on the leased plan.
func (l RealPlanLease[R, C]) InverseInPlaceBuffer(buf *Buffer[R]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseInPlaceBuffer(buf)
}

// InverseNative is RealPlan.InverseNative on the leased plan.
func (l RealPlanLease[R, C]) InverseNative(dst, src uintptr) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseNative(dst, src)
}

// InversePtr is RealPlan.InversePtr on the leased plan.
func (l RealPlanLease[R, C]) InversePtr(dst, src, stream uintptr) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InversePtr(dst, src, stream)
}
