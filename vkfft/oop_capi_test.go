package vkfft

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// The C API's per-call path gets a plan's out-of-place application through ccore
// (ccore.go): a builder for the plans that can have one, the application itself once it
// exists, nothing for the others; and ForwardNative, like ForwardBuffer, reads its
// source through that application instead of copying it.

func TestOutOfPlaceCcoreHooks(t *testing.T) {
	cfg := Config{Shape: []int{8, 12}, Batch: 2, Tune: TuneOff}
	bp, err := NewBytePlan(testDev, cfg, ByteKind{})
	require.NoError(t, err)
	defer bp.Close()
	cp := ccore.PlanOf(bp)
	require.Nil(t, cp.OutOfPlace, "not built before the first out-of-place call")
	require.NotNil(t, cp.BuildOutOfPlace, "a contiguous C2C plan can have one")

	oop := cp.BuildOutOfPlace()
	require.NotNil(t, oop)
	require.Equal(t, unsafe.Pointer(bp.p.oop), oop, "the plan's own, which Go's calls use too")
	require.Equal(t, oop, cp.BuildOutOfPlace(), "built once")
	again := ccore.PlanOf(bp) // a C record made later (a plan leased again) has it at once
	require.Equal(t, oop, again.OutOfPlace)
	require.Nil(t, again.BuildOutOfPlace)

	noOOP := []struct {
		name string
		cfg  Config
		kind ByteKind
	}{
		{"R2C", Config{Shape: []int{8, 12}, Tune: TuneOff}, ByteKind{Real: true}},
		{"R2R", Config{Shape: []int{16}, Tune: TuneOff}, ByteKind{R2R: DCT2}},
		{"strided", Config{Shape: []int{2, 6}, Axes: []int{1}, InStrides: []int{8, 1}, OutStrides: []int{8, 1},
			Tune: TuneOff}, ByteKind{}},
	}
	for _, tc := range noOOP {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewBytePlan(testDev, tc.cfg, tc.kind)
			require.NoError(t, err)
			defer p.Close()
			cp := ccore.PlanOf(p)
			require.Nil(t, cp.OutOfPlace)
			require.Nil(t, cp.BuildOutOfPlace, "out-of-place calls of %s need no second application", tc.name)
		})
	}

	// a builder kept past the plan's Close builds nothing
	late, err := NewBytePlan(testDev, cfg, ByteKind{})
	require.NoError(t, err)
	build := ccore.PlanOf(late).BuildOutOfPlace
	require.NotNil(t, build)
	require.NoError(t, late.Close())
	require.Nil(t, build())
}

// ForwardNative out of place runs the out-of-place application (no copy), gives the
// in-place result, leaves src alone, and once it exists neither allocates on the Go heap
// nor makes a device allocation.
func TestOutOfPlaceNative(t *testing.T) {
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{32}, Batch: 3, Tune: TuneOff})
	require.NoError(t, err)
	defer p.Close()
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(3, 4)), p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))
	a, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Upload(x))
	require.NoError(t, p.ForwardNative(b.Native(), a.Native()))
	require.NotNil(t, p.p.oop, "the native call built the out-of-place application")
	got, src := make([]complex64, p.Len()), make([]complex64, p.Len())
	require.NoError(t, b.Download(got))
	require.NoError(t, a.Download(src))
	require.Less(t, relErr(got, toC128(want)), 1e-6)
	require.Equal(t, x, src, "the input changed")

	na, nb := a.Native(), b.Native()
	before := testDev.MemStats()
	if !raceEnabled {
		allocs := testing.AllocsPerRun(50, func() {
			_ = p.ForwardNative(nb, na)
			_ = p.InverseNative(na, nb)
		})
		require.Zero(t, allocs)
	} else {
		for range 50 {
			require.NoError(t, p.ForwardNative(nb, na))
			require.NoError(t, p.InverseNative(na, nb))
		}
	}
	require.NoError(t, testDev.Sync())
	after := testDev.MemStats()
	require.Equal(t, before.Allocations, after.Allocations, "device allocations per out-of-place call")
	require.Equal(t, before.LiveBytes, after.LiveBytes)
	require.NoError(t, a.Download(got))
	require.Less(t, relErr(got, toC128(x)), 1e-5, "not x after the round trips")
}
