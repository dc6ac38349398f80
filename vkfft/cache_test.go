package vkfft

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// In-memory plan-cache tests. Each opens its own device, so the cache starts empty;
// plans come from the test binary's kernel cache (TestMain's directory) after their
// first compile.

func pcDevice(t *testing.T) *Device {
	t.Helper()
	d, err := Open(0)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

var (
	pcA = Config{Shape: []int{64}, Batch: 2}
	pcB = Config{Shape: []int{32}}
	pcC = Config{Shape: []int{16}}
)

// pcCheck runs a forward transform through the lease and compares it with the naive DFT.
func pcCheck(t *testing.T, l PlanLease[complex64], n int) {
	t.Helper()
	x := kcInput(l.Len())
	got := make([]complex64, len(x))
	require.NoError(t, l.Forward(got, x))
	require.LessOrEqual(t, kcRelErr(got, kcNaiveDFT(x, n)), 1e-5)
}

func TestPlanCacheHitIsSamePlan(t *testing.T) {
	d := pcDevice(t)
	c := d.PlanCache()
	l, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	p := l.Plan()
	require.NotNil(t, p)
	pcCheck(t, l, 64)
	l.Release()

	l2, err := CachedPlan[complex64](d, Config{Shape: []int{64}, Batch: 2})
	require.NoError(t, err)
	require.Same(t, p, l2.Plan(), "a hit must return the cached plan")
	pcCheck(t, l2, 64)
	s := c.Stats()
	require.Equal(t, int64(1), s.Hits)
	require.Equal(t, int64(1), s.Misses)
	require.Equal(t, 1, s.Plans)
	require.Equal(t, 1, s.Leased)
	require.Equal(t, p.p.l.complexBytes, s.Bytes)
	l2.Release()
	require.Zero(t, c.Stats().Leased)

	// another precision, kind or config is another plan
	l3, err := CachedPlan[complex64](d, Config{Shape: []int{64}, Batch: 2, Norm: NormOrtho})
	require.NoError(t, err)
	require.NotSame(t, p, l3.Plan())
	l3.Release()
	require.Equal(t, int64(2), c.Stats().Misses)
}

func TestPlanCacheLeaseIsExclusive(t *testing.T) {
	d := pcDevice(t)
	l1, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	l2, err := CachedPlan[complex64](d, pcA) // l1 still leased: a second plan
	require.NoError(t, err)
	require.NotSame(t, l1.Plan(), l2.Plan())
	p1 := l1.Plan()
	l1.Release()
	l3, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	require.Same(t, p1, l3.Plan())
	require.NotSame(t, l2.Plan(), l3.Plan())
	l2.Release()
	l3.Release()
	require.Equal(t, 2, d.PlanCache().Stats().Plans)
}

func TestPlanCacheStaleLease(t *testing.T) {
	d := pcDevice(t)
	l, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	l.Release()
	l.Release() // harmless
	x := make([]complex64, 128)
	require.ErrorIs(t, l.Forward(x, x), ErrClosed)
	require.ErrorIs(t, l.Inverse(x, x), ErrClosed)
	require.Nil(t, l.Plan())
	require.Zero(t, l.Len())
	// a stale Release does not end someone else's lease of the same plan
	l2, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	l.Release()
	require.Equal(t, 1, d.PlanCache().Stats().Leased)
	pcCheck(t, l2, 64)
	l2.Release()
	var zero PlanLease[complex64]
	zero.Release()
	require.ErrorIs(t, zero.Forward(x, x), ErrClosed)
}

func TestPlanCacheLRUCount(t *testing.T) {
	d := pcDevice(t)
	c := d.PlanCache()
	c.SetLimits(2, 0)
	var plans []*Plan[complex64]
	for _, cfg := range []Config{pcA, pcB, pcC} {
		l, err := CachedPlan[complex64](d, cfg)
		require.NoError(t, err)
		plans = append(plans, l.Plan())
		l.Release()
	}
	s := c.Stats()
	require.Equal(t, 2, s.Plans)
	require.Equal(t, int64(1), s.Evictions)
	// A, the least recently used, was closed; B and C are cached
	x := make([]complex64, 128)
	require.ErrorIs(t, plans[0].Forward(x, x), ErrClosed)
	l, err := CachedPlan[complex64](d, pcB)
	require.NoError(t, err)
	require.Same(t, plans[1], l.Plan())
	l.Release() // B is now the most recent: A comes back and evicts C
	l, err = CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	l.Release()
	require.ErrorIs(t, plans[2].Forward(x[:16], x[:16]), ErrClosed)
	require.Equal(t, int64(2), c.Stats().Evictions)
}

func TestPlanCacheByteLimitAndLeasedNotEvicted(t *testing.T) {
	d := pcDevice(t)
	c := d.PlanCache()
	a, err := CachedPlan[complex64](d, pcA) // 1 KiB of buffers
	require.NoError(t, err)
	c.SetLimits(-1, 300)                    // B fits, A does not, but A is leased
	b, err := CachedPlan[complex64](d, pcB) // 256 bytes
	require.NoError(t, err)
	b.Release() // over the limit with A leased: B, the only idle plan, goes
	require.Equal(t, 1, c.Stats().Plans)
	require.Equal(t, int64(1), c.Stats().Evictions)
	pcCheck(t, a, 64) // A is never evicted while leased
	a.Release()       // still over the limit: now A goes
	s := c.Stats()
	require.Zero(t, s.Plans)
	require.Zero(t, s.Bytes)

	// limit 0 plans: nothing is kept
	c.SetLimits(0, 0)
	a, err = CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	p := a.Plan()
	a.Release()
	require.Zero(t, c.Stats().Plans)
	require.ErrorIs(t, p.Forward(make([]complex64, 128), make([]complex64, 128)), ErrClosed)
}

func TestPlanCacheClear(t *testing.T) {
	d := pcDevice(t)
	c := d.PlanCache()
	idle, err := CachedPlan[complex64](d, pcB)
	require.NoError(t, err)
	pIdle := idle.Plan()
	idle.Release()
	leased, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	c.Clear()
	require.ErrorIs(t, pIdle.Forward(make([]complex64, 32), make([]complex64, 32)), ErrClosed)
	pcCheck(t, leased, 64) // a leased plan survives Clear until released
	pLeased := leased.Plan()
	leased.Release()
	require.ErrorIs(t, pLeased.Forward(make([]complex64, 128), make([]complex64, 128)), ErrClosed)
	require.Zero(t, c.Stats().Plans)
}

func TestPlanCacheDeviceClose(t *testing.T) {
	d := pcDevice(t)
	l, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	idle, err := CachedPlan[complex64](d, pcB)
	require.NoError(t, err)
	idle.Release()
	require.NoError(t, d.Close())
	x := make([]complex64, 128)
	require.ErrorIs(t, l.Forward(x, x), ErrClosed)
	l.Release()
	_, err = CachedPlan[complex64](d, pcB)
	require.ErrorIs(t, err, ErrClosed)
	// a user who closes a leased plan only loses that plan
	d2 := pcDevice(t)
	l, err = CachedPlan[complex64](d2, pcA)
	require.NoError(t, err)
	require.NoError(t, l.Plan().Close())
	l.Release()
	l, err = CachedPlan[complex64](d2, pcA)
	require.NoError(t, err)
	pcCheck(t, l, 64)
	l.Release()
}

func TestPlanCacheRealAndErrors(t *testing.T) {
	d := pcDevice(t)
	cfg := Config{Shape: []int{16, 16}}
	l, err := CachedRealPlan[float32, complex64](d, cfg)
	require.NoError(t, err)
	p := l.Plan()
	src := make([]float32, 256)
	src[0] = 1
	spec := make([]complex64, 16*9)
	require.NoError(t, l.Forward(spec, src))
	for _, v := range spec {
		require.InDelta(t, 1, real(v), 1e-6) // a delta has a flat spectrum
	}
	back := make([]float32, 256)
	require.NoError(t, l.Inverse(back, spec))
	require.InDelta(t, 1, back[0], 1e-6)
	l.Release()
	l, err = CachedRealPlan[float32, complex64](d, cfg)
	require.NoError(t, err)
	require.Same(t, p, l.Plan())
	l.Release()
	require.ErrorIs(t, l.Forward(spec, src), ErrClosed)

	// a C2C plan of the same shape is another entry
	c2c, err := CachedPlan[complex64](d, cfg)
	require.NoError(t, err)
	c2c.Release()
	require.Equal(t, 2, d.PlanCache().Stats().Plans)

	_, err = CachedRealPlan[float64, complex64](d, cfg)
	require.ErrorIs(t, err, ErrPrecision)
	_, err = CachedPlan[complex64](d, Config{})
	require.ErrorIs(t, err, ErrInvalidShape)
	_, err = CachedPlan[complex64](d, Config{Shape: []int{1, 2, 3, 4, 5}})
	require.ErrorIs(t, err, ErrInvalidShape)
	_, err = CachedPlan[complex64](d, Config{Shape: []int{8}, Batch: -1})
	require.ErrorIs(t, err, ErrInvalidBatch)
	_, err = CachedPlan[complex64](nil, pcA)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.Zero(t, d.PlanCache().Stats().Leased)
}

func TestPlanCacheHitAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	d := pcDevice(t)
	l, err := CachedPlan[complex64](d, pcA)
	require.NoError(t, err)
	l.Release()
	cfg := Config{Shape: []int{64}, Batch: 2}
	allocs := testing.AllocsPerRun(1000, func() {
		l, err := CachedPlan[complex64](d, cfg)
		if err != nil {
			panic(err)
		}
		l.Release()
	})
	require.Zero(t, allocs) // its speed is BenchmarkPlanCacheHit's: no wall clock in tests
}

// Many goroutines lease, run and release plans of a few configurations: no plan is
// ever held by two of them (each checks its result), and the counts add up.
func TestPlanCacheConcurrent(t *testing.T) {
	d := pcDevice(t)
	c := d.PlanCache()
	cfgs := []Config{pcA, pcB}
	for _, cfg := range cfgs { // compile once before the stampede
		l, err := CachedPlan[complex64](d, cfg)
		require.NoError(t, err)
		l.Release()
	}
	var mu sync.Mutex
	holders := map[*Plan[complex64]]int{}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 30; i++ {
				cfg := cfgs[(g+i)%len(cfgs)]
				l, err := CachedPlan[complex64](d, cfg)
				if err != nil {
					errs <- err
					return
				}
				p := l.Plan()
				mu.Lock()
				holders[p]++
				n := holders[p]
				mu.Unlock()
				if n != 1 {
					t.Errorf("plan leased %d times at once", n)
				}
				x := kcInput(l.Len())
				got := make([]complex64, len(x))
				if err := l.Forward(got, x); err != nil {
					errs <- err
				} else if e := kcRelErr(got, kcNaiveDFT(x, cfg.Shape[0])); e > 1e-5 {
					t.Errorf("wrong result, rel err %g", e)
				}
				mu.Lock()
				holders[p]--
				mu.Unlock()
				l.Release()
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	s := c.Stats()
	require.Zero(t, s.Leased)
	require.Equal(t, int64(6*30+2), s.Hits+s.Misses)
	require.LessOrEqual(t, s.Plans, DefaultPlanCacheMaxPlans)
}

// BenchmarkPlanCacheHit measures a plan from memory: CachedPlan + Release on a hit.
func BenchmarkPlanCacheHit(b *testing.B) {
	d := testDev
	cfg := Config{Shape: []int{64}, Batch: 2}
	l, err := CachedPlan[complex64](d, cfg)
	if err != nil {
		b.Fatal(err)
	}
	l.Release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := CachedPlan[complex64](d, cfg)
		if err != nil {
			b.Fatal(err)
		}
		l.Release()
	}
}

// Both caches key plans by every Config field: a field added to Config or Tuning must be
// added to the keys too (planCacheKey and the field groups of cachekey.go).
func TestCacheKeysKnowEveryConfigField(t *testing.T) {
	names := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			out = append(out, rt.Field(i).Name)
		}
		return out
	}
	require.Equal(t, []string{"Shape", "Batch", "Norm", "LUT", "Tuning", "Axes", "InStrides", "OutStrides",
		"Storage", "RealInPlace", "FullSpectrum", "Tune"}, names(Config{}),
		"Config changed: update planCacheKey and the disk keys in cachekey.go")
	require.Equal(t, []string{"CoalescedMemory", "AimThreads", "RegisterBoost", "RegisterBoost4Step",
		"GroupedBatch", "BandwidthBoost", "SwapTo3Stage4Step", "SharedMemory", "BluesteinSize", "LUT"}, names(Tuning{}),
		"Tuning changed: update cacheKey.tuning in cachekey.go")
}
