package vkfft

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// Every DCT and DST type matches scipy.fft's dctn/dstn (norm="backward") on the
// selected axes, and Inverse undoes Forward; double precision for all eight kinds,
// single precision for two of them.
func TestR2RKinds(t *testing.T) {
	cfg := Config{Shape: []int{3, 10}, Axes: []int{1}, Batch: 2}
	for k := DCT1; k <= DST4; k++ {
		t.Run(k.String(), func(t *testing.T) {
			checkR2R[float64](t, sharedR2RPlan[float64](t, cfg, k), fftref.Double)
		})
	}
	for _, k := range []R2RKind{DCT2, DST4} {
		t.Run(k.String()+"/float32", func(t *testing.T) {
			checkR2R[float32](t, sharedR2RPlan[float32](t, Config{Shape: []int{6, 9}}, k), fftref.Single)
		})
	}
}

// checkR2R compares a plan's Forward with the reference and checks Inverse(Forward(x)) = x.
func checkR2R[T Real](t *testing.T, p *R2RPlan[T], prec fftref.Precision) {
	t.Helper()
	cfg := p.Config()
	rng := rand.New(rand.NewPCG(uint64(p.Kind()), 7))
	x, ref := randomReal[T](rng, p.Len())
	m, _, _ := p.p.l.normCounts()
	fwd, _ := normScales(cfg.Norm, int(m))
	want := fftref.R2RN(ref, cfg.Shape, cfg.Axes, cfg.Batch, fftref.Kind(p.Kind()))
	for i := range want {
		want[i] *= fwd
	}
	tol := fftref.Tolerance(int(m), prec, false)
	y := make([]T, p.Len())
	require.NoError(t, p.Forward(y, x))
	require.Less(t, fftref.LInfReal(toF64(y), want), tol, "forward")
	back := make([]T, p.Len())
	require.NoError(t, p.Inverse(back, y))
	require.Less(t, fftref.LInfReal(toF64(back), ref), 2*tol, "inverse undoes forward")
}

// Norm moves the normalisation without changing the transform: under each Norm,
// Forward is scipy's dctn times the Norm's factor and Inverse undoes it exactly.
func TestR2RNorms(t *testing.T) {
	for _, norm := range []Norm{NormOrtho, NormForward} {
		t.Run(norm.String(), func(t *testing.T) {
			checkR2R[float64](t, sharedR2RPlan[float64](t, Config{Shape: []int{12}, Batch: 3, Norm: norm}, DCT2), fftref.Double)
		})
	}
}

// The edges of the supported lengths: DCT-I at its minimum of two points, and one-point
// axes of every other kind, where VkFFT's identity is corrected to scipy's factor.
func TestR2REdges(t *testing.T) {
	checkR2R[float64](t, sharedR2RPlan[float64](t, Config{Shape: []int{2}, Batch: 4}, DCT1), fftref.Double)
	for _, k := range []R2RKind{DCT2, DCT4, DST1, DST3} {
		for _, norm := range []Norm{NormBackward, NormOrtho} {
			t.Run(fmt.Sprintf("%v/n=1/%v", k, norm), func(t *testing.T) {
				checkR2R[float64](t, sharedR2RPlan[float64](t, Config{Shape: []int{1, 5}, Norm: norm}, k), fftref.Double)
			})
		}
	}
	_, err := NewR2RPlan[float64](testDev, Config{Shape: []int{1}}, DCT1)
	require.True(t, errors.Is(err, ErrInvalidShape), "%v", err)
	require.Contains(t, err.Error(), "DCT-I needs at least 2 points")
}

// Device buffers: in place and out of place give the host path's result, and R2R plans
// allocate nothing per call.
func TestR2RBuffers(t *testing.T) {
	p := sharedR2RPlan[float32](t, Config{Shape: []int{6, 9}}, DCT2)
	rng := rand.New(rand.NewPCG(8, 9))
	x, _ := randomReal[float32](rng, p.Len())
	want := make([]float32, p.Len())
	require.NoError(t, p.Forward(want, x))

	a, err := NewBuffer[float32](testDev, p.Len())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[float32](testDev, p.Len())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Upload(x))
	require.NoError(t, p.ForwardBuffer(b, a))
	got := make([]float32, p.Len())
	require.NoError(t, b.Download(got))
	require.Equal(t, want, got, "out of place")
	src := make([]float32, p.Len())
	require.NoError(t, a.Download(src))
	require.Equal(t, x, src, "out of place leaves src alone")
	require.NoError(t, p.ForwardBuffer(a, a))
	require.NoError(t, a.Download(got))
	require.Equal(t, want, got, "in place")

	short, err := NewBuffer[float32](testDev, p.Len()-1)
	require.NoError(t, err)
	defer short.Close()
	require.True(t, errors.Is(p.ForwardBuffer(short, a), ErrLength))
	require.True(t, errors.Is(p.ForwardBuffer(nil, a), ErrNilBuffer))

	if !raceEnabled {
		y := make([]float32, p.Len())
		require.Zero(t, testing.AllocsPerRun(20, func() { _ = p.Forward(y, x) }), "host")
		require.Zero(t, testing.AllocsPerRun(20, func() { _ = p.InverseBuffer(b, a) }), "buffers")
	}
}

// An R2R plan cannot be asked for on complex data: the element type says it, and a
// complex plan has no R2R kind — the error comes from the kind check.
func TestR2RBadKind(t *testing.T) {
	_, err := NewR2RPlan[float32](testDev, Config{Shape: []int{8}}, 0)
	require.True(t, errors.Is(err, ErrInvalidArgument), "%v", err)
	require.Contains(t, err.Error(), "real-to-real kind")
}
