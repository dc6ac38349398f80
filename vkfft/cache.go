package vkfft

// The in-memory plan cache: per device, keyed by the full configuration, LRU with
// limits on the number of plans and on their device bytes (like CuPy's plan cache).
//
// A plan comes out of the cache as a lease, owned by one holder until Release: a plan
// is never handed to two holders at once, so it is never run by two goroutines at once
// through the cache. When every cached plan of a configuration is leased, the cache
// builds another one (from the disk cache, usually in milliseconds), so nested or
// concurrent use never waits for a lease. Only idle plans are evicted; a plan evicted
// or cleared while leased is closed when its lease is released.

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// DefaultPlanCacheMaxPlans is the number of plans a device's cache keeps by default.
const DefaultPlanCacheMaxPlans = 16

// planKeyBuf is the stack buffer a lookup writes its key into (planCacheKey): room
// for a plan of four axes with strides and a full Tuning, so that only unusual keys
// spill to the heap.
type planKeyBuf [512]byte

// cacheEntry is one cached plan.
type cacheEntry struct {
	key   string // planCacheKey
	plan  any    // *Plan[T] or *RealPlan[R, C]
	inner *plan  // its untyped part
	bytes int64
	cache *PlanCache

	gen      atomic.Uint64 // bumped by every Release: a stale lease sees a different value
	leased   bool
	clearGen uint64 // the cache's clearGen when built: a Clear since then closes it on release

	lprev, lnext *cacheEntry // the cache's LRU list of idle entries (front = most recent)
	kprev, knext *cacheEntry // the idle entries of the same key
}

// PlanCacheStats describes a device's plan cache.
type PlanCacheStats struct {
	Hits      int64 // leases served by an idle cached plan
	Misses    int64 // leases that built a plan
	Evictions int64 // plans closed to stay within the limits (or by Clear)
	Plans     int   // plans held, leased or idle
	Leased    int   // plans leased out now
	Bytes     int64 // device bytes of the plans' buffers
	MaxPlans  int   // the count limit (see SetLimits)
	MaxBytes  int64 // the byte limit; 0 = none
}

// PlanCache is a device's cache of plans; get it with Device.PlanCache and take plans
// from it with CachedPlan and CachedRealPlan. It is safe for concurrent use.
type PlanCache struct {
	dev      *Device
	mu       sync.Mutex
	idle     map[string]*cacheEntry // head of each key's idle list
	lru      cacheEntry             // sentinel of the idle LRU list
	plans    int
	leased   int
	bytes    int64
	maxPlans int
	maxBytes int64

	hits, misses, evictions int64
	clearGen                uint64 // bumped by Clear
}

// PlanCache returns the device's plan cache, creating it on first use with
// DefaultPlanCacheMaxPlans plans and no byte limit.
func (d *Device) PlanCache() *PlanCache {
	if c := d.pcache.Load(); c != nil {
		return c
	}
	c := &PlanCache{dev: d, idle: make(map[string]*cacheEntry), maxPlans: DefaultPlanCacheMaxPlans}
	c.lru.lprev, c.lru.lnext = &c.lru, &c.lru
	if d.pcache.CompareAndSwap(nil, c) {
		return c
	}
	return d.pcache.Load()
}

// SetLimits sets how much the cache keeps: at most maxPlans plans (0 disables caching,
// so every released plan is closed; negative means no limit) and at most maxBytes of
// their device buffers (0 or negative means no limit). Idle plans beyond the limits are
// closed now, least recently used first; leased plans count but are never closed
// while leased.
func (c *PlanCache) SetLimits(maxPlans int, maxBytes int64) {
	if maxBytes < 0 {
		maxBytes = 0
	}
	c.mu.Lock()
	c.maxPlans, c.maxBytes = maxPlans, maxBytes
	victims := c.trimLocked(nil)
	c.mu.Unlock()
	closeEntries(victims)
}

// Clear closes every idle plan; leased plans are closed when released.
func (c *PlanCache) Clear() {
	c.mu.Lock()
	var victims []*cacheEntry
	for e := c.lru.lprev; e != &c.lru; e = c.lru.lprev {
		c.removeLocked(e)
		victims = append(victims, e)
	}
	c.evictions += int64(len(victims))
	c.clearGen++ // leased plans built before now are closed on release
	c.mu.Unlock()
	closeEntries(victims)
}

// Stats reports the cache's counters and contents.
func (c *PlanCache) Stats() PlanCacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return PlanCacheStats{Hits: c.hits, Misses: c.misses, Evictions: c.evictions, Plans: c.plans,
		Leased: c.leased, Bytes: c.bytes, MaxPlans: c.maxPlans, MaxBytes: c.maxBytes}
}

// acquire leases an idle plan of key, or returns nil (a miss, counted).
func (c *PlanCache) acquire(key []byte) *cacheEntry {
	c.mu.Lock()
	e := c.idle[string(key)]
	if e == nil {
		c.misses++
		c.mu.Unlock()
		return nil
	}
	c.removeIdleLocked(e)
	e.leased = true
	c.leased++
	c.hits++
	c.mu.Unlock()
	return e
}

// insert adds a freshly built plan, leased to the caller.
func (c *PlanCache) insert(key []byte, typed any, inner *plan) *cacheEntry {
	e := &cacheEntry{key: string(key), plan: typed, inner: inner, cache: c, leased: true,
		bytes: inner.l.bufBytes + inner.l.realBytes + inner.l.fullBytes()}
	c.mu.Lock()
	e.clearGen = c.clearGen
	c.plans++
	c.leased++
	c.bytes += e.bytes
	c.mu.Unlock()
	return e
}

// release ends the lease gen of e.
func (c *PlanCache) release(e *cacheEntry, gen uint64) {
	c.mu.Lock()
	if !e.leased || e.gen.Load() != gen {
		c.mu.Unlock()
		return // released already
	}
	e.gen.Add(1)
	e.leased = false
	c.leased--
	var victims []*cacheEntry
	if e.clearGen != c.clearGen || c.maxPlans == 0 || e.inner.closed() {
		c.dropLocked(e)
		victims = append(victims, e)
		c.evictions++
	} else {
		c.pushIdleLocked(e)
		victims = c.trimLocked(nil)
	}
	c.mu.Unlock()
	closeEntries(victims)
}

// trimLocked removes idle entries, least recently used first, until the limits hold
// (or no idle entry is left), and returns them to be closed outside the lock.
func (c *PlanCache) trimLocked(victims []*cacheEntry) []*cacheEntry {
	for c.lru.lprev != &c.lru && c.overLocked() {
		e := c.lru.lprev
		c.removeLocked(e)
		c.evictions++
		victims = append(victims, e)
	}
	return victims
}

func (c *PlanCache) overLocked() bool {
	return (c.maxPlans >= 0 && c.plans > c.maxPlans) || (c.maxBytes > 0 && c.bytes > c.maxBytes)
}

// removeLocked drops an idle entry from the lists and the totals.
func (c *PlanCache) removeLocked(e *cacheEntry) {
	c.removeIdleLocked(e)
	c.dropLocked(e)
}

func (c *PlanCache) dropLocked(e *cacheEntry) {
	c.plans--
	c.bytes -= e.bytes
}

func (c *PlanCache) pushIdleLocked(e *cacheEntry) {
	// LRU front
	e.lprev, e.lnext = &c.lru, c.lru.lnext
	c.lru.lnext.lprev = e
	c.lru.lnext = e
	// head of the key's idle list
	head := c.idle[e.key]
	e.kprev, e.knext = nil, head
	if head != nil {
		head.kprev = e
	}
	c.idle[e.key] = e
}

func (c *PlanCache) removeIdleLocked(e *cacheEntry) {
	e.lprev.lnext = e.lnext
	e.lnext.lprev = e.lprev
	e.lprev, e.lnext = nil, nil
	if e.kprev != nil {
		e.kprev.knext = e.knext
	} else if e.knext != nil {
		c.idle[e.key] = e.knext
	} else {
		delete(c.idle, e.key)
	}
	if e.knext != nil {
		e.knext.kprev = e.kprev
	}
	e.kprev, e.knext = nil, nil
}

func closeEntries(es []*cacheEntry) {
	for _, e := range es {
		e.inner.close()
	}
}

// closed reports whether the plan was closed (by its owner or its device's Close).
func (p *plan) closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.h == nil
}

// deviceOpen reports whether d is usable, without holding its lock afterwards.
func (c *PlanCache) deviceOpen(op string) error {
	if _, err := c.dev.use(op); err != nil {
		return err
	}
	c.dev.mu.RUnlock()
	return nil
}

// lease is the untyped part of a lease.
type lease struct {
	e   *cacheEntry
	gen uint64
}

func (l lease) check(op string) error {
	if l.e == nil || l.e.gen.Load() != l.gen {
		return closedError(op, "lease (released)")
	}
	return nil
}

// Release gives the plan back to the cache. Calling it again, or using the lease
// afterwards, is harmless: the lease's methods then return an error wrapping ErrClosed.
func (l lease) Release() {
	if l.e != nil {
		l.e.cache.release(l.e, l.gen)
	}
}

// cachedGet is the shared part of CachedPlan, CachedRealPlan and CachedBytePlan: it
// returns a leased entry of key, building the plan with build on a miss.
func cachedGet(d *Device, key []byte, build func() (any, *plan, error)) (*cacheEntry, error) {
	if d == nil {
		return nil, opError("cached plan", fmt.Errorf("%w: nil device", ErrInvalidArgument))
	}
	c := d.PlanCache()
	if err := c.deviceOpen("cached plan"); err != nil {
		return nil, err
	}
	for {
		e := c.acquire(key)
		if e == nil {
			break
		}
		if !e.inner.closed() {
			return e, nil
		}
		// closed under the cache (device closed, or the holder closed the plan): drop it
		c.release(e, e.gen.Load())
	}
	typed, inner, err := build()
	if err != nil {
		return nil, err
	}
	return c.insert(key, typed, inner), nil
}

// The lease types' forwarding methods (every method of the plan they hold) are
// generated into lease_methods.go by leasegen; a test fails when that file is stale.
//go:generate go run ./internal/leasegen

// PlanLease is a complex-to-complex plan leased from a device's plan cache: its holder
// owns it exclusively until Release. It is a small value: copy it freely, but release
// it exactly once; after Release its methods return an error wrapping ErrClosed.
type PlanLease[T Complex] struct {
	lease
	p *Plan[T]
}

// CachedPlan leases a plan for cfg from d's plan cache, building it (through the disk
// kernel cache) when no idle one is cached. A hit allocates nothing.
func CachedPlan[T Complex](d *Device, cfg Config) (PlanLease[T], error) {
	var buf planKeyBuf
	key, ok := planCacheKey(buf[:], planEntry, &cfg, kindC2C, 0, sizeOf[T]() == 16)
	if !ok {
		_, err := NewPlan[T](d, cfg) // reports the invalid shape
		return PlanLease[T]{}, err
	}
	e, err := cachedGet(d, key.bytes(), func() (any, *plan, error) {
		p, err := NewPlan[T](d, cfg)
		if err != nil {
			return nil, nil, err
		}
		return p, p.p, nil
	})
	if err != nil {
		return PlanLease[T]{}, err
	}
	p, ok := e.plan.(*Plan[T])
	if !ok { // cannot happen: the key fixes kind and precision
		panic("vkfft: plan cache holds a plan of another type")
	}
	return PlanLease[T]{lease: lease{e: e, gen: e.gen.Load()}, p: p}, nil
}

// Plan returns the leased plan, or nil once released. It must not be used after
// Release, nor closed (Release does what Close would).
func (l PlanLease[T]) Plan() *Plan[T] {
	if l.check("plan") != nil {
		return nil
	}
	return l.p
}

// RealPlanLease is a real-to-complex plan leased from a device's plan cache, with the
// semantics of PlanLease.
type RealPlanLease[R Real, C Complex] struct {
	lease
	p *RealPlan[R, C]
}

// CachedRealPlan leases a real-to-complex plan for cfg from d's plan cache, building it
// when no idle one is cached. A hit allocates nothing.
func CachedRealPlan[R Real, C Complex](d *Device, cfg Config) (RealPlanLease[R, C], error) {
	var buf planKeyBuf
	key, ok := planCacheKey(buf[:], planEntry, &cfg, kindR2C, 0, sizeOf[C]() == 16)
	if !ok || 2*sizeOf[R]() != sizeOf[C]() {
		_, err := NewRealPlan[R, C](d, cfg) // reports the invalid shape or precision
		return RealPlanLease[R, C]{}, err
	}
	e, err := cachedGet(d, key.bytes(), func() (any, *plan, error) {
		p, err := NewRealPlan[R, C](d, cfg)
		if err != nil {
			return nil, nil, err
		}
		return p, p.p, nil
	})
	if err != nil {
		return RealPlanLease[R, C]{}, err
	}
	p, ok := e.plan.(*RealPlan[R, C])
	if !ok {
		panic("vkfft: plan cache holds a plan of another type")
	}
	return RealPlanLease[R, C]{lease: lease{e: e, gen: e.gen.Load()}, p: p}, nil
}

// Plan returns the leased plan, or nil once released.
func (l RealPlanLease[R, C]) Plan() *RealPlan[R, C] {
	if l.check("plan") != nil {
		return nil
	}
	return l.p
}
