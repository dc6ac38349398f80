package vkfft

// BytePlan's methods on its lease (see lease_methods.go).

// ComplexBytes is BytePlan.ComplexBytes of the leased plan; 0 once released.
func (l BytePlanLease) ComplexBytes() int64 {
	if l.check("complexbytes") != nil {
		return 0
	}
	return l.p.ComplexBytes()
}

// RealBytes is BytePlan.RealBytes of the leased plan; 0 once released.
func (l BytePlanLease) RealBytes() int64 {
	if l.check("realbytes") != nil {
		return 0
	}
	return l.p.RealBytes()
}

// Config is BytePlan.Config of the leased plan; Config{} once released.
func (l BytePlanLease) Config() Config {
	if l.check("config") != nil {
		return Config{}
	}
	return l.p.Config()
}

// Device is BytePlan.Device of the leased plan; nil once released.
func (l BytePlanLease) Device() *Device {
	if l.check("device") != nil {
		return nil
	}
	return l.p.Device()
}

// Kind is BytePlan.Kind of the leased plan; ByteKind{} once released.
func (l BytePlanLease) Kind() ByteKind {
	if l.check("kind") != nil {
		return ByteKind{}
	}
	return l.p.Kind()
}

// Tuned is BytePlan.Tuned of the leased plan; TuneResult{} once released.
func (l BytePlanLease) Tuned() TuneResult {
	if l.check("tuned") != nil {
		return TuneResult{}
	}
	return l.p.Tuned()
}

// ForwardBytes is BytePlan.ForwardBytes of the leased plan; zeros once released.
func (l BytePlanLease) ForwardBytes() (dst, src int64) {
	if l.check("bytes") != nil {
		return 0, 0
	}
	return l.p.ForwardBytes()
}

// Forward is BytePlan.Forward on the leased plan.
func (l BytePlanLease) Forward(dst, src []byte) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.Forward(dst, src)
}

// ForwardBuffer is BytePlan.ForwardBuffer on the leased plan.
func (l BytePlanLease) ForwardBuffer(dst, src *ByteBuffer) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardBuffer(dst, src)
}

// ForwardNative is BytePlan.ForwardNative on the leased plan.
func (l BytePlanLease) ForwardNative(dst, src uintptr) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardNative(dst, src)
}

// ForwardAsync is BytePlan.ForwardAsync on the leased plan.
func (l BytePlanLease) ForwardAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	if err := l.check("forward"); err != nil {
		return err
	}
	return l.p.ForwardAsync(s, dst, src)
}

// InverseBytes is BytePlan.InverseBytes of the leased plan; zeros once released.
func (l BytePlanLease) InverseBytes() (dst, src int64) {
	if l.check("bytes") != nil {
		return 0, 0
	}
	return l.p.InverseBytes()
}

// Inverse is BytePlan.Inverse on the leased plan.
func (l BytePlanLease) Inverse(dst, src []byte) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.Inverse(dst, src)
}

// InverseBuffer is BytePlan.InverseBuffer on the leased plan.
func (l BytePlanLease) InverseBuffer(dst, src *ByteBuffer) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseBuffer(dst, src)
}

// InverseNative is BytePlan.InverseNative on the leased plan.
func (l BytePlanLease) InverseNative(dst, src uintptr) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseNative(dst, src)
}

// InverseAsync is BytePlan.InverseAsync on the leased plan.
func (l BytePlanLease) InverseAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	if err := l.check("inverse"); err != nil {
		return err
	}
	return l.p.InverseAsync(s, dst, src)
}
