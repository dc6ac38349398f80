package vkfft

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// keyVariants changes one Config field each, from a base that is valid for every kind,
// in a way that changes the transform. A Config field without an entry fails
// TestCacheKeysCoverEveryField: add one, and the field to planCacheKey and kernelKey
// (cachekey.go).
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
// memory (planCacheKey) or on disk (kernelKey), so no plan is handed the kernels of
// another.
func TestCacheKeysCoverEveryField(t *testing.T) {
	base := Config{Shape: []int{8, 8, 16}}
	id := identFor(&testDev.info)
	diskKey := func(cfg Config, k kind, r2r R2RKind) []byte {
		l, err := validateKind(cfg, k, 8, r2r)
		require.NoError(t, err, "%+v", cfg)
		return kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l)})
	}
	memKey := func(entry string, cfg Config, k kind, r2r R2RKind) string {
		key, ok := planCacheKey(nil, entry, &cfg, k, r2r, false)
		require.True(t, ok, "%+v", cfg)
		return string(key.bytes())
	}
	rt := reflect.TypeOf(Config{})
	for i := 0; i < rt.NumField(); i++ {
		name := rt.Field(i).Name
		mod, ok := keyVariants[name]
		require.True(t, ok, "Config.%s has no entry in keyVariants: make planCacheKey and kernelKey cover it", name)
		cfg := cloneConfig(base)
		mod(&cfg)
		k := kindC2C
		if name == "RealInPlace" || name == "FullSpectrum" {
			k = kindR2C
		}
		require.NotEqual(t, memKey(planEntry, base, k, 0), memKey(planEntry, cfg, k, 0), "planCacheKey ignores Config.%s", name)
		if name == "Tune" || name == "FullSpectrum" {
			require.True(t, bytes.Equal(diskKey(base, k, 0), diskKey(cfg, k, 0)), "the kernels do not depend on Config.%s", name)
			continue
		}
		require.False(t, bytes.Equal(diskKey(base, k, 0), diskKey(cfg, k, 0)), "kernelKey ignores Config.%s", name)
	}
	// the real-to-real kind is part of both identities too, and a BytePlan is not a typed plan
	require.False(t, bytes.Equal(diskKey(base, kindR2R, DCT2), diskKey(base, kindR2R, DST2)))
	require.False(t, bytes.Equal(diskKey(base, kindR2R, DCT2), diskKey(base, kindC2C, 0)))
	require.NotEqual(t, memKey(bytePlanEntry, base, kindR2R, DCT2), memKey(bytePlanEntry, base, kindR2R, DST2))
	require.NotEqual(t, memKey(bytePlanEntry, base, kindC2C, 0), memKey(planEntry, base, kindC2C, 0))
	// equivalent spellings of a configuration share a plan
	require.Equal(t, memKey(planEntry, base, kindC2C, 0), memKey(planEntry, Config{Shape: []int{8, 8, 16}, Batch: 1,
		Axes: []int{-1, 0, 1}}, kindC2C, 0))
}

// A field that both the in-memory and the disk key hold is written the same way in
// both: one name, one rendering.
func TestCacheKeysRenderSharedFieldsAlike(t *testing.T) {
	cfg := Config{Shape: []int{6, 8, 10}, Batch: 3, Axes: []int{0, 2}, InStrides: []int{200, 20, 1},
		OutStrides: []int{100, 10, 1}, Storage: StorageFloatComputeDouble,
		Tuning: Tuning{CoalescedMemory: 64, AimThreads: 128, RegisterBoost: 2, RegisterBoost4Step: 2,
			GroupedBatch: [maxRank]int{4, 2}, BandwidthBoost: -1, SwapTo3Stage4Step: 1 << 17, SharedMemory: 16384,
			BluesteinSize: 64, LUT: LUTOn}}
	l, err := validate(cfg, kindC2C, 8)
	require.NoError(t, err)
	id := identFor(&testDev.info)
	disk := keyFields(kernelKey(&id, &planParams{l: l, useLUT: lutSetting(l)}))
	key, ok := planCacheKey(nil, planEntry, &cfg, kindC2C, 0, false)
	require.True(t, ok)
	mem := keyFields(key.bytes())
	shared := 0
	for name, v := range mem {
		if dv, ok := disk[name]; ok && name != "entry" {
			require.Equal(t, v, dv, "field %s", name)
			shared++
		}
	}
	require.Equal(t, 17, shared, "memory %v, disk %v", mem, disk) // kind, shape, batch, 10 tuning, axes, 2 strides, storage
	require.Equal(t, "[0 2]", mem["axes"])
	require.Equal(t, "[4 2 0 0]", mem["grouped_batch"])
}

// Every field of engine.StageParams that changes the kernels is in the kernel-cache key;
// the buffers bound at creation are not (so a plan on other buffers shares its kernels).
func TestKernelKeyCoversStageParams(t *testing.T) {
	l, err := validate(Config{Shape: []int{64}}, kindC2C, 8)
	require.NoError(t, err)
	id := identFor(&testDev.info)
	key := func(st engine.StageParams) string {
		return string(kernelKey(&id, &planParams{l: l, useLUT: 1, stages: st}))
	}
	handles := map[string]bool{"InputBuffer": true, "OutputBuffer": true, "KernelBuffer": true, "FuseWindow": true,
		"FuseOut": true}
	base := key(engine.StageParams{})
	seen := map[string]string{base: "none"}
	var set func(v reflect.Value, path string, each func(string))
	set = func(v reflect.Value, path string, each func(string)) {
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int64:
			v.SetInt(3)
		case reflect.Uint64:
			v.SetUint(5)
		case reflect.String:
			v.SetString("x")
		case reflect.Array:
			set(v.Index(v.Len()-1), path, each)
			return
		case reflect.Struct: // each field on its own
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				old := reflect.New(f.Type()).Elem()
				old.Set(f)
				set(f, path+"."+v.Type().Field(i).Name, each)
				f.Set(old)
			}
			return
		default:
			t.Fatalf("StageParams%s: a field of kind %v: teach this test to set it", path, v.Kind())
		}
		each(path)
	}
	var st engine.StageParams
	set(reflect.ValueOf(&st).Elem(), "", func(path string) {
		k := key(st)
		name := path[1:]
		if handles[name] {
			require.Equal(t, base, k, "StageParams.%s is a buffer handle: it must not change the key", name)
			return
		}
		prev, dup := seen[k]
		require.False(t, dup, "StageParams.%s: kernelKey ignores it (the key of %s)", name, prev)
		seen[k] = name
	})
	require.Contains(t, seen, key(engine.StageParams{Fuse: engine.FuseText{GroupShared: 3}}), "the last field was visited")
}

// The in-memory key is written into a stack buffer on every lookup: a plan of the most
// axes with strides and a full Tuning still fits, so no key spills to the heap.
func TestPlanCacheKeyFitsItsBuffer(t *testing.T) {
	cfg := Config{Shape: []int{1000, 1000, 1000, 1000}, Batch: 1 << 20, Norm: NormForward, LUT: LUTOff,
		Axes: []int{0, 1, 2, 3}, InStrides: []int{1 << 40, 1 << 30, 1 << 20, 1}, OutStrides: []int{1 << 40, 1 << 30, 1 << 20, 1},
		Storage: StorageFloatComputeDouble, RealInPlace: true, Tune: TuneRefresh,
		Tuning: Tuning{CoalescedMemory: 4096, AimThreads: 4096, RegisterBoost: 16, RegisterBoost4Step: 16,
			GroupedBatch: [maxRank]int{1 << 16, 1 << 16, 1 << 16, 1 << 16}, BandwidthBoost: 64, SwapTo3Stage4Step: 1 << 30,
			SharedMemory: 1 << 24, BluesteinSize: 1 << 24, LUT: LUTOff}}
	key, ok := planCacheKey(nil, bytePlanEntry, &cfg, kindR2R, DST4, true)
	require.True(t, ok)
	require.LessOrEqual(t, len(key.bytes()), len(planKeyBuf{}), "%s", key.bytes())
}

// The in-memory key holds the strides themselves: a lookup with other strides than a
// cached plan's builds its own plan, and each is found again under its own.
func TestPlanCacheKeysHoldStrides(t *testing.T) {
	d := pcDevice(t)
	a := Config{Shape: []int{4, 6}, InStrides: []int{8, 1}}
	b := Config{Shape: []int{4, 6}, InStrides: []int{7, 1}}
	la, err := CachedPlan[complex64](d, a)
	require.NoError(t, err)
	pa := la.Plan()
	la.Release()
	lb, err := CachedPlan[complex64](d, b)
	require.NoError(t, err)
	require.NotSame(t, pa, lb.Plan(), "the plan with other strides was handed out")
	require.Equal(t, []int{7, 1}, lb.Plan().Config().InStrides)
	lb.Release()
	la, err = CachedPlan[complex64](d, a)
	require.NoError(t, err)
	require.Same(t, pa, la.Plan())
	la.Release()
	require.Equal(t, int64(1), d.PlanCache().Stats().Hits)
}
