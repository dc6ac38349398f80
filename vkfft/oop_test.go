package vkfft

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// True out-of-place transforms (oop.go): on every path a C2C transform from one buffer
// into another equals the in-place transform, in both directions and every
// normalisation, runs on the plan's second application (no copy), and leaves its input
// untouched.

type oopCase struct {
	cfg    Config
	double bool
}

var oopCases = []oopCase{
	{Config{Shape: []int{8, 16, 32}, Batch: 2}, false},
	{Config{Shape: []int{64}, Batch: 3, Norm: NormOrtho}, false},
	{Config{Shape: []int{12, 20}, Norm: NormForward}, false},
	{Config{Shape: []int{16, 24}}, true},
	{Config{Shape: []int{31}, Batch: 4}, false}, // a prime: Rader/Bluestein kernels
}

func TestOutOfPlaceEqualsInPlace(t *testing.T) {
	for _, tc := range oopCases {
		name := fmt.Sprintf("%v:%d %v double=%v", tc.cfg.Shape, tc.cfg.Batch, tc.cfg.Norm, tc.double)
		t.Run(name, func(t *testing.T) {
			if tc.double {
				if !testDev.Info().DoublePrecision {
					t.Skip("no double precision on this device")
				}
				oopCheck[complex128](t, tc.cfg)
			} else {
				oopCheck[complex64](t, tc.cfg)
			}
		})
	}
}

func oopCheck[T Complex](t *testing.T, cfg Config) {
	cfg.Tune = TuneOff
	p, err := NewPlan[T](testDev, cfg)
	require.NoError(t, err)
	defer p.Close()
	x, _ := randomComplex[T](rand.New(rand.NewPCG(7, 8)), p.Len())
	a, err := NewBuffer[T](testDev, p.Len())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[T](testDev, p.Len())
	require.NoError(t, err)
	defer b.Close()
	ref, got, src := make([]T, p.Len()), make([]T, p.Len()), make([]T, p.Len())
	paths := map[string]func(inverse bool) error{
		"buffer": func(inverse bool) error {
			if inverse {
				return p.InverseBuffer(b, a)
			}
			return p.ForwardBuffer(b, a)
		},
		"native": func(inverse bool) error {
			if inverse {
				return p.InverseNative(b.Native(), a.Native())
			}
			return p.ForwardNative(b.Native(), a.Native())
		},
	}
	for _, inverse := range []bool{false, true} {
		require.NoError(t, a.Upload(x))
		if inverse {
			require.NoError(t, p.InverseBuffer(a, a))
		} else {
			require.NoError(t, p.ForwardBuffer(a, a))
		}
		require.NoError(t, a.Download(ref))
		for name, run := range paths {
			require.NoError(t, a.Upload(x))
			require.NoError(t, b.Upload(ref)) // stale data in the output must not matter
			require.NoError(t, run(inverse))
			require.NoError(t, b.Download(got))
			require.NoError(t, a.Download(src))
			require.Less(t, relErr(got, toC128(ref)), 1e-6, "%s inverse=%v", name, inverse)
			require.Equal(t, x, src, "%s inverse=%v: the input changed", name, inverse)
		}
		// and the host path, which works in the plan's own buffer
		require.NoError(t, p.run(inverse, got, x))
		require.Less(t, relErr(got, toC128(ref)), 1e-6, "host inverse=%v", inverse)
	}
	require.NotNil(t, p.p.oop, "out-of-place calls ran on the out-of-place application")
	require.False(t, p.p.oopFailed)
}

// Without the second application (it could not be built) an out-of-place call copies
// and transforms in place: slower, the same result.
func TestOutOfPlaceFallbackCopies(t *testing.T) {
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{8, 16}, Tune: TuneOff})
	require.NoError(t, err)
	defer p.Close()
	p.p.oopFailed = true
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(1, 2)), p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))
	a, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Upload(x))
	require.NoError(t, p.ForwardBuffer(b, a))
	got := make([]complex64, p.Len())
	require.NoError(t, b.Download(got))
	require.Equal(t, want, got)
	require.Nil(t, p.p.oop)
}

// A tuned plan's out-of-place application runs with the same tuning, and its kernels are
// kept in the disk cache like the plan's own: a second plan builds it from there.
func TestOutOfPlaceTunedAndCached(t *testing.T) {
	kcDir(t)
	cfg := Config{Shape: []int{16, 16}, Tuning: Tuning{AimThreads: 64}}
	for i := 0; i < 2; i++ {
		before := ReadKernelCacheStats()
		p, err := NewPlan[complex64](testDev, cfg)
		require.NoError(t, err)
		a, err := NewBuffer[complex64](testDev, p.Len())
		require.NoError(t, err)
		b, err := NewBuffer[complex64](testDev, p.Len())
		require.NoError(t, err)
		x, _ := randomComplex[complex64](rand.New(rand.NewPCG(5, 5)), p.Len())
		require.NoError(t, a.Upload(x))
		require.NoError(t, p.ForwardBuffer(b, a))
		got := make([]complex64, p.Len())
		require.NoError(t, b.Download(got))
		want := make([]complex64, p.Len())
		require.NoError(t, p.Forward(want, x))
		require.Less(t, relErr(got, toC128(want)), 1e-6)
		after := ReadKernelCacheStats()
		if i == 0 {
			require.Equal(t, before.Misses+2, after.Misses, "the plan and its out-of-place application compiled")
		} else {
			require.Equal(t, before.Hits+2, after.Hits, "both loaded from the disk cache")
		}
		require.NoError(t, a.Close())
		require.NoError(t, b.Close())
		require.NoError(t, p.Close())
	}
}

// Out-of-place buffer calls allocate nothing once the second application exists (the
// *Native forms likewise: TestOutOfPlaceNative).
func TestOutOfPlaceAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	p := sharedPlan[complex64](t, Config{Shape: []int{64}, Batch: 2})
	a, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, p.ForwardBuffer(b, a)) // builds the out-of-place application
	allocs := testing.AllocsPerRun(50, func() {
		_ = p.ForwardBuffer(b, a)
		_ = p.InverseBuffer(a, b)
	})
	require.Zero(t, allocs)
	require.NoError(t, testDev.Sync())
}
