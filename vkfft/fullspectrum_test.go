package vkfft

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// fullCases cover both ways a FullSpectrum plan is made: the half spectrum expanded
// (the last axis transformed: even, odd and prime lengths, mirrored axes of every rank,
// an untransformed middle axis, batches) and a complex FFT of widened data (the last axis
// left out).
var fullCases = []struct {
	shape []int
	axes  []int
	batch int
	norm  Norm
	mode  fullMode
}{
	{[]int{16}, nil, 1, NormBackward, fullExpand},
	{[]int{15}, nil, 3, NormBackward, fullExpand},
	{[]int{13}, nil, 1, NormOrtho, fullExpand},
	{[]int{6, 9}, nil, 2, NormBackward, fullExpand},
	{[]int{7, 5, 8}, nil, 1, NormBackward, fullExpand},
	{[]int{5, 6, 7}, nil, 1, NormForward, fullExpand},
	{[]int{4, 3, 5, 6}, nil, 1, NormBackward, fullExpand},
	{[]int{5, 4, 9}, []int{0, 2}, 2, NormBackward, fullExpand},
	{[]int{8, 6}, []int{-1}, 1, NormBackward, fullExpand},
	{[]int{9, 4}, []int{0}, 2, NormBackward, fullWiden},
	{[]int{7, 6, 5}, []int{1}, 1, NormOrtho, fullWiden},
	{[]int{3, 11, 4}, []int{0, 1}, 1, NormBackward, fullWiden},
}

func TestFullSpectrum(t *testing.T) {
	for i, tc := range sweepCases(fullCases) {
		cfg := Config{Shape: tc.shape, Axes: tc.axes, Batch: tc.batch, Norm: tc.norm, FullSpectrum: true}
		name := fmt.Sprintf("%v/axes%v/b%d/%v", tc.shape, tc.axes, tc.batch, tc.norm)
		runPrecisions(t, i,
			"f32/"+name, func(t *testing.T) { checkFullPlan[float32, complex64](t, cfg, tc.mode, tolSingle) },
			"f64/"+name, func(t *testing.T) { checkFullPlan[float64, complex128](t, cfg, tc.mode, tolDouble) })
	}
}

// transformedPoints is the normalisation count: the points of the transformed axes.
func transformedPoints(shape, axes []int) int {
	if axes == nil {
		return prod(shape)
	}
	n := 1
	for _, a := range axes {
		if a < 0 {
			a += len(shape)
		}
		n *= shape[a]
	}
	return n
}

func checkFullPlan[R Real, C Complex](t *testing.T, cfg Config, mode fullMode, tol float64) {
	p, err := NewRealPlan[R, C](testDev, cfg)
	require.NoError(t, err)
	defer p.Close()
	require.Equal(t, mode, p.p.l.full)
	total := prod(cfg.Shape) * max(cfg.Batch, 1)
	require.Equal(t, total, p.ComplexLen(), "the whole spectrum: one complex value per real point")
	require.Equal(t, total, p.RealLen())
	fwd, inv := normScales(cfg.Norm, transformedPoints(cfg.Shape, cfg.Axes))
	rng := rand.New(rand.NewPCG(uint64(total), 11))

	// forward: numpy's fftn of the real data over the axes
	x, ref := randomReal[R](rng, total)
	cref := make([]complex128, total)
	for i, v := range ref {
		cref[i] = complex(v, 0)
	}
	want := scaleAll(fftref.FFTN(cref, cfg.Shape, cfg.Axes, max(cfg.Batch, 1), false), fwd)
	got := make([]C, total)
	require.NoError(t, p.Forward(got, x))
	require.LessOrEqual(t, relErr(got, want), tol, "forward: the whole spectrum")

	// inverse of an arbitrary (not Hermitian) spectrum: the real part of its inverse
	spec, sref := randomComplex[C](rng, total)
	keep := append([]C(nil), spec...)
	inverse := scaleAll(fftref.FFTN(sref, cfg.Shape, cfg.Axes, max(cfg.Batch, 1), true), inv)
	wantReal := make([]float64, total)
	for i, v := range inverse {
		wantReal[i] = real(v)
	}
	back := make([]R, total)
	require.NoError(t, p.Inverse(back, spec))
	require.LessOrEqual(t, relErrReal(back, wantReal), tol, "inverse: the real part of the inverse")
	require.Equal(t, keep, spec, "Inverse must not modify its input")

	// device buffers: the same results
	dr, err := NewBuffer[R](testDev, total)
	require.NoError(t, err)
	defer dr.Close()
	dc, err := NewBuffer[C](testDev, total)
	require.NoError(t, err)
	defer dc.Close()
	require.NoError(t, dr.Upload(x))
	require.NoError(t, p.ForwardBuffer(dc, dr))
	require.NoError(t, dc.Download(got))
	require.LessOrEqual(t, relErr(got, want), tol, "forward on buffers")
	require.NoError(t, dc.Upload(spec))
	require.NoError(t, p.InverseBuffer(dr, dc))
	require.NoError(t, dr.Download(back))
	require.LessOrEqual(t, relErrReal(back, wantReal), tol, "inverse on buffers")
}

// BytePlan and the C API see a FullSpectrum plan's sizes: the whole spectrum.
func TestFullSpectrumBytes(t *testing.T) {
	bp, err := NewBytePlan(testDev, Config{Shape: []int{4, 6}, Batch: 2, FullSpectrum: true}, ByteKind{Real: true})
	require.NoError(t, err)
	defer bp.Close()
	dst, src := bp.ForwardBytes()
	require.Equal(t, [2]int64{2 * 24 * 8, 2 * 24 * 4}, [2]int64{dst, src})
	dst, src = bp.InverseBytes()
	require.Equal(t, [2]int64{2 * 24 * 4, 2 * 24 * 8}, [2]int64{dst, src})
	require.Equal(t, int64(2*24*8), bp.ComplexBytes())
	spec := make([]byte, 2*24*8)
	require.ErrorIs(t, bp.Inverse(spec, spec), ErrLength, "the real side is smaller than the spectrum")
}

func TestFullSpectrumRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		cfg  Config
		kind ByteKind
		want error
	}{
		"complex plan":  {Config{Shape: []int{8}, FullSpectrum: true}, ByteKind{}, ErrInvalidArgument},
		"real in place": {Config{Shape: []int{8}, FullSpectrum: true, RealInPlace: true}, ByteKind{Real: true}, ErrInvalidArgument},
		"strides":       {Config{Shape: []int{4, 8}, FullSpectrum: true, InStrides: []int{16, 1}}, ByteKind{Real: true}, ErrUnsupported},
		"fp16 storage":  {Config{Shape: []int{8}, FullSpectrum: true, Storage: StorageHalf}, ByteKind{Real: true}, ErrUnsupported},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewBytePlan(testDev, tc.cfg, tc.kind)
			require.ErrorIs(t, err, tc.want)
			require.Contains(t, err.Error(), "FullSpectrum")
		})
	}
}
