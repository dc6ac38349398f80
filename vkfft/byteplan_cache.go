package vkfft

// BytePlans from a device's plan cache, for bindings (the C API's vkfftgo_plan_acquire)
// that hold plans by kind and precision rather than by Go type. They share the cache's
// limits and statistics with CachedPlan and CachedRealPlan, under keys of their own
// (bytePlanEntry).

// BytePlanLease is a BytePlan leased from a device's plan cache, with the semantics of
// PlanLease: exclusive until Release, released exactly once.
type BytePlanLease struct {
	lease
	p *BytePlan
}

// CachedBytePlan leases a BytePlan for cfg and k from d's plan cache, building it when
// no idle one is cached.
func CachedBytePlan(d *Device, cfg Config, k ByteKind) (BytePlanLease, error) {
	kd, complexSize := kindC2C, uintptr(8)
	switch {
	case k.Real:
		kd = kindR2C
	case k.R2R != 0:
		kd = kindR2R
	}
	if k.Double {
		complexSize = 16
	}
	var buf planKeyBuf
	key, ok := planCacheKey(buf[:], bytePlanEntry, &cfg, kd, k.R2R, complexSize == 16)
	if !ok || k.R2R < 0 || k.R2R > DST4 || (k.Real && k.R2R != 0) {
		_, err := NewBytePlan(d, cfg, k) // reports what is wrong
		return BytePlanLease{}, err
	}
	e, err := cachedGet(d, key.bytes(), func() (any, *plan, error) {
		p, err := NewBytePlan(d, cfg, k)
		if err != nil {
			return nil, nil, err
		}
		return p, p.p, nil
	})
	if err != nil {
		return BytePlanLease{}, err
	}
	p, ok := e.plan.(*BytePlan)
	if !ok {
		panic("vkfft: plan cache holds a plan of another type")
	}
	return BytePlanLease{lease: lease{e: e, gen: e.gen.Load()}, p: p}, nil
}

// Plan returns the leased plan, or nil once released. It must not be used after
// Release, nor closed (Release does what Close would).
func (l BytePlanLease) Plan() *BytePlan {
	if l.check("plan") != nil {
		return nil
	}
	return l.p
}
