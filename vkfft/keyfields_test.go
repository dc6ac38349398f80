package vkfft

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// keyVariants changes one Config field each, from a base that is valid for every kind,
// in a way that changes the transform. A Config field without an entry fails
// TestCacheKeysCoverEveryField: add one, and the field to planKey and kcacheKey.
var keyVariants = map[string]func(c *Config){
	"Shape":       func(c *Config) { c.Shape = []int{8, 8, 12} },
	"Batch":       func(c *Config) { c.Batch = 3 },
	"Norm":        func(c *Config) { c.Norm = NormForward },
	"LUT":         func(c *Config) { c.LUT = LUTOff },
	"Tuning":      func(c *Config) { c.Tuning.AimThreads = 64 },
	"Axes":        func(c *Config) { c.Axes = []int{0, 2} },
	"InStrides":   func(c *Config) { c.InStrides = []int{160, 20, 1} },
	"OutStrides":  func(c *Config) { c.OutStrides = []int{160, 20, 1} },
	"Storage":     func(c *Config) { c.Storage = StorageFloatComputeDouble },
	"RealInPlace": func(c *Config) { c.RealInPlace = true },
	// a FullSpectrum plan runs the kernels of the plain plan of its VkFFT kind, which it
	// shares on disk; only the in-memory key tells them apart
	"FullSpectrum": func(c *Config) { c.FullSpectrum = true },
	// the tune mode picks the Tuning a plan runs with; that Tuning, not the mode, is what
	// the kernels depend on (tune.go), so only the in-memory key holds the mode
	"Tune": func(c *Config) { c.Tune = TuneOff },
}

// Both plan caches key plans by every Config field and by the plan's kind: two
// configurations that differ in any one field, or an R2R kind, never share an entry in
// memory (planKey) or on disk (kcacheKey), so no plan is handed the kernels of another.
func TestCacheKeysCoverEveryField(t *testing.T) {
	base := Config{Shape: []int{8, 8, 16}}
	id := identFor(&testDev.info)
	diskKey := func(cfg Config, k kind, r2r R2RKind) []byte {
		l, err := validateKind(cfg, k, 8, r2r)
		require.NoError(t, err, "%+v", cfg)
		return kcacheKey(&id, &planParams{l: l, useLUT: lutSetting(l)})
	}
	rt := reflect.TypeOf(Config{})
	for i := 0; i < rt.NumField(); i++ {
		name := rt.Field(i).Name
		mod, ok := keyVariants[name]
		require.True(t, ok, "Config.%s has no entry in keyVariants: make planKey and kcacheKey cover it", name)
		cfg := cloneConfig(base)
		mod(&cfg)
		k := kindC2C
		if name == "RealInPlace" || name == "FullSpectrum" {
			k = kindR2C
		}
		bk, ok1 := keyOf(base, k, 8)
		vk, ok2 := keyOf(cfg, k, 8)
		require.True(t, ok1 && ok2)
		require.NotEqual(t, bk, vk, "planKey ignores Config.%s", name)
		if name == "Tune" || name == "FullSpectrum" {
			require.True(t, bytes.Equal(diskKey(base, k, 0), diskKey(cfg, k, 0)), "the kernels do not depend on Config.%s", name)
			continue
		}
		require.False(t, bytes.Equal(diskKey(base, k, 0), diskKey(cfg, k, 0)), "kcacheKey ignores Config.%s", name)
	}
	// the real-to-real kind is part of both identities too
	require.False(t, bytes.Equal(diskKey(base, kindR2R, DCT2), diskKey(base, kindR2R, DST2)))
	require.False(t, bytes.Equal(diskKey(base, kindR2R, DCT2), diskKey(base, kindC2C, 0)))
}

// planKey stays a map key Go stores inline (128 bytes at most): above that every insert
// into the plan cache allocates, and a cache hit would no longer be allocation-free.
func TestPlanKeyIsSmall(t *testing.T) {
	require.LessOrEqual(t, unsafe.Sizeof(planKey{}), uintptr(128))
}

// The cache key holds a hash of the strides: a lookup whose strides differ from the
// cached plan's (a hash collision, forced here) builds its own plan instead of taking it.
func TestPlanCacheStrideHashCollision(t *testing.T) {
	d := pcDevice(t)
	a := Config{Shape: []int{4, 6}, InStrides: []int{8, 1}}
	b := Config{Shape: []int{4, 6}, InStrides: []int{7, 1}}
	la, err := CachedPlan[complex64](d, a)
	require.NoError(t, err)
	pa := la.Plan()
	la.Release()
	key, ok := keyOf(a, kindC2C, 8)
	require.True(t, ok)
	built := false
	e, err := cachedGet(d, key, &b, func() (any, *plan, error) {
		built = true
		p, err := NewPlan[complex64](d, b)
		if err != nil {
			return nil, nil, err
		}
		return p, p.p, nil
	})
	require.NoError(t, err)
	require.True(t, built, "the plan with other strides was not handed out")
	require.NotSame(t, pa.p, e.inner)
	require.Equal(t, []int{7, 1}, e.inner.l.cfg.InStrides)
	d.PlanCache().release(e, e.gen.Load())
}
