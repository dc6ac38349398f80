package vkfft

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// pad lays rows of n reals into rows of 2·(n/2+1) (FFTW's in-place layout).
func pad[R Real](x []R, n int) []R {
	w := 2 * (n/2 + 1)
	out := make([]R, len(x)/n*w)
	for r := 0; r < len(x)/n; r++ {
		copy(out[r*w:], x[r*n:(r+1)*n])
	}
	return out
}

func unpad[R Real](x []R, n int) []R {
	w := 2 * (n/2 + 1)
	out := make([]R, 0, len(x)/w*n)
	for r := 0; r < len(x)/w; r++ {
		out = append(out, x[r*w:r*w+n]...)
	}
	return out
}

// asComplex reads padded rows as the half spectrum they hold after the transform.
func asComplex[R Real](x []R) []complex128 {
	out := make([]complex128, len(x)/2)
	for i := range out {
		out[i] = complex(float64(x[2*i]), float64(x[2*i+1]))
	}
	return out
}

// In-place real-to-complex in FFTW's padded layout, even and odd last axes, host slices
// and device buffers, single and double: the spectrum is numpy's rfftn and the inverse
// gives the padded rows back.
func TestRealInPlace(t *testing.T) {
	t.Run("even/float32", func(t *testing.T) { checkRealInPlace[float32, complex64](t, []int{6, 8}, fftref.Single) })
	t.Run("odd/float64", func(t *testing.T) { checkRealInPlace[float64, complex128](t, []int{4, 3, 7}, fftref.Double) })
}

func checkRealInPlace[R Real, C Complex](t *testing.T, shape []int, prec fftref.Precision) {
	cfg := Config{Shape: shape, Batch: 2, RealInPlace: true}
	p := sharedRealPlan[R, C](t, cfg)
	last := shape[len(shape)-1]
	n := prod(shape)
	rng := rand.New(rand.NewPCG(14, uint64(last)))
	x, ref := randomReal[R](rng, 2*n)
	data := pad(x, last)
	require.Len(t, data, p.PaddedLen())
	want := fftref.RFFTN(ref, shape, nil, 2)
	tol := fftref.Tolerance(n, prec, false)

	require.NoError(t, p.ForwardInPlace(data))
	require.Less(t, fftref.LInf(asComplex(data), want), tol, "forward, host")
	require.NoError(t, p.InverseInPlace(data))
	require.Less(t, fftref.LInfReal(toF64(unpad(data, last)), ref), tol, "inverse, host")

	buf, err := NewBuffer[R](testDev, p.PaddedLen())
	require.NoError(t, err)
	defer buf.Close()
	require.NoError(t, buf.Upload(pad(x, last)))
	require.NoError(t, p.ForwardInPlaceBuffer(buf))
	require.NoError(t, buf.Download(data))
	require.Less(t, fftref.LInf(asComplex(data), want), tol, "forward, buffer")
	require.NoError(t, p.InverseInPlaceBuffer(buf))
	require.NoError(t, buf.Download(data))
	require.Less(t, fftref.LInfReal(toF64(unpad(data, last)), ref), tol, "inverse, buffer")

	// the out-of-place methods are refused, and the in-place ones allocate nothing
	err = p.Forward(make([]C, p.ComplexLen()), x)
	require.True(t, errors.Is(err, ErrUnsupported), "%v", err)
	require.Contains(t, err.Error(), "ForwardInPlace")
	require.True(t, errors.Is(p.ForwardInPlace(data[1:]), ErrLength))
	if !raceEnabled {
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.ForwardInPlaceBuffer(buf) }))
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.InverseInPlace(data) }))
	}
}

// The *InPlace methods need a RealInPlace plan.
func TestRealInPlaceNeedsFlag(t *testing.T) {
	p := sharedRealPlan[float32, complex64](t, Config{Shape: []int{16, 16}, Batch: 2})
	err := p.ForwardInPlace(make([]float32, 2*p.ComplexLen()))
	require.True(t, errors.Is(err, ErrUnsupported), "%v", err)
	require.Contains(t, err.Error(), "RealInPlace")
}
