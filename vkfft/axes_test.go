package vkfft

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// Transforms over chosen axes match numpy's fftn(x, axes=...), rank 4 included, in
// single and double precision, both directions, on host slices and device buffers.
func TestAxesC2C(t *testing.T) {
	cases := []struct {
		shape []int
		axes  []int
		batch int
		norm  Norm
	}{
		{[]int{8, 12}, []int{0}, 1, NormBackward},          // the columns: an omitted fastest axis
		{[]int{4, 6, 10}, []int{1}, 2, NormOrtho},          // a middle axis, outer axis folded into the batch
		{[]int{3, 4, 5, 6}, nil, 1, NormBackward},          // rank 4
		{[]int{3, 4, 5, 6}, []int{-1, -3}, 2, NormForward}, // rank 4, two axes, negative numbering
	}
	for _, c := range sweepCases(cases) {
		for _, double := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v axes%v double=%v", c.shape, c.axes, double), func(t *testing.T) {
				cfg := Config{Shape: c.shape, Axes: c.axes, Batch: c.batch, Norm: c.norm}
				if double {
					checkAxesC2C[complex128](t, cfg, fftref.Double)
				} else {
					checkAxesC2C[complex64](t, cfg, fftref.Single)
				}
			})
		}
	}
}

func checkAxesC2C[T Complex](t *testing.T, cfg Config, prec fftref.Precision) {
	p := sharedPlan[T](t, cfg)
	rng := rand.New(rand.NewPCG(uint64(len(cfg.Shape)), uint64(cfg.Batch)))
	x, ref := randomComplex[T](rng, p.Len())
	n := 1
	for i, d := range cfg.Shape {
		if p.p.l.sel[i] {
			n *= d
		}
	}
	fwd, inv := normScales(cfg.Norm, n)
	want := scaleAll(fftref.FFTN(ref, cfg.Shape, cfg.Axes, max(cfg.Batch, 1), false), fwd)
	tol := fftref.Tolerance(n, prec, false)

	y := make([]T, p.Len())
	require.NoError(t, p.Forward(y, x))
	require.Less(t, fftref.LInf(toC128(y), want), tol, "forward")
	back := make([]T, p.Len())
	require.NoError(t, p.Inverse(back, y))
	wantBack := scaleAll(fftref.FFTN(toC128(y), cfg.Shape, cfg.Axes, max(cfg.Batch, 1), true), inv)
	require.Less(t, fftref.LInf(toC128(back), wantBack), tol, "inverse")
	require.Less(t, fftref.LInf(toC128(back), ref), 2*tol, "round trip")

	// the same through device buffers, out of place
	bx, err := NewBuffer[T](testDev, p.Len())
	require.NoError(t, err)
	defer bx.Close()
	by, err := NewBuffer[T](testDev, p.Len())
	require.NoError(t, err)
	defer by.Close()
	require.NoError(t, bx.Upload(x))
	require.NoError(t, p.ForwardBuffer(by, bx))
	require.NoError(t, by.Download(y))
	require.Less(t, fftref.LInf(toC128(y), want), tol, "forward on buffers")
}

// Real-to-complex over chosen axes (the last one included) matches numpy's rfftn.
func TestAxesR2C(t *testing.T) {
	cfg := Config{Shape: []int{6, 4, 10}, Axes: []int{0, 2}}
	p := sharedRealPlan[float64, complex128](t, cfg)
	rng := rand.New(rand.NewPCG(5, 6))
	x, ref := randomReal[float64](rng, p.RealLen())
	y := make([]complex128, p.ComplexLen())
	require.NoError(t, p.Forward(y, x))
	want := fftref.RFFTN(ref, cfg.Shape, cfg.Axes, 1)
	tol := fftref.Tolerance(60, fftref.Double, false)
	require.Less(t, fftref.LInf(y, want), tol)
	back := make([]float64, p.RealLen())
	require.NoError(t, p.Inverse(back, y))
	require.Less(t, fftref.LInfReal(back, ref), tol)
}

// Plans with axes and rank 4 allocate nothing per call either.
func TestAxesZeroAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	p := sharedPlan[complex64](t, Config{Shape: []int{3, 4, 5, 6}, Axes: []int{-1, -3}, Batch: 2, Norm: NormForward})
	x := make([]complex64, p.Len())
	require.Zero(t, testing.AllocsPerRun(20, func() { _ = p.Forward(x, x) }))
}
