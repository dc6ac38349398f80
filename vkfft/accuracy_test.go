package vkfft

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// accuracyCases cover 1-, 2- and 3-D shapes whose sizes are powers of two, composite
// (3·5·7 = 105, handled by VkFFT's radix kernels) and prime (1031: Bluestein; 17: Rader),
// batches above one, and every normalisation on a subset.
var accuracyCases = []struct {
	shape []int
	batch int
	norm  Norm
}{
	{[]int{64}, 1, NormBackward},
	{[]int{105}, 3, NormBackward},
	{[]int{1031}, 1, NormBackward},
	{[]int{16, 12}, 2, NormBackward},
	{[]int{17, 105}, 1, NormBackward},
	{[]int{8, 6, 10}, 1, NormBackward},
	{[]int{16, 16, 16}, 2, NormBackward},
	{[]int{64}, 2, NormOrtho},
	{[]int{8, 6, 10}, 1, NormOrtho},
	{[]int{105}, 1, NormForward},
	{[]int{16, 12}, 1, NormForward},
}

// Relative L2 error bounds against the float64 reference.
const (
	tolSingle = 1e-5
	tolDouble = 1e-12
)

// normScales gives numpy's scaling of each direction, written out independently of
// the package's own bookkeeping.
func normScales(norm Norm, n int) (fwd, inv float64) {
	switch norm {
	case NormOrtho:
		return 1 / math.Sqrt(float64(n)), 1 / math.Sqrt(float64(n))
	case NormForward:
		return 1 / float64(n), 1
	}
	return 1, 1 / float64(n)
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func TestAccuracyC2C(t *testing.T) {
	for _, tc := range sweepCases(accuracyCases) {
		cfg := Config{Shape: tc.shape, Batch: tc.batch, Norm: tc.norm}
		t.Run(fmt.Sprintf("c64/%v/b%d/%v", tc.shape, tc.batch, tc.norm), func(t *testing.T) {
			checkC2C[complex64](t, cfg, tolSingle)
		})
		t.Run(fmt.Sprintf("c128/%v/b%d/%v", tc.shape, tc.batch, tc.norm), func(t *testing.T) {
			checkC2C[complex128](t, cfg, tolDouble)
		})
	}
}

func checkC2C[T Complex](t *testing.T, cfg Config, tol float64) {
	p := sharedPlan[T](t, cfg)
	n := prod(cfg.Shape)
	fwd, inv := normScales(cfg.Norm, n)
	rng := rand.New(rand.NewPCG(uint64(n), uint64(cfg.Batch)))
	x, ref := randomComplex[T](rng, p.Len())

	got := make([]T, p.Len())
	require.NoError(t, p.Forward(got, x))
	e := relErr(got, scaleAll(refFFT(ref, cfg.Shape, cfg.Batch, false), fwd))
	require.LessOrEqual(t, e, tol, "forward relative error")

	require.NoError(t, p.Inverse(got, x))
	e = relErr(got, scaleAll(refFFT(ref, cfg.Shape, cfg.Batch, true), inv))
	require.LessOrEqual(t, e, tol, "inverse relative error")

	// in place: dst and src the same slice
	inplace := append([]T(nil), x...)
	require.NoError(t, p.Forward(inplace, inplace))
	require.NoError(t, p.Inverse(inplace, inplace))
	e = relErr(inplace, scaleAll(ref, fwd*inv*float64(n)))
	require.LessOrEqual(t, e, 2*tol, "in-place round trip")
	t.Logf("max bound %.0e, last error %.2e", tol, e)
}

func TestAccuracyR2C(t *testing.T) {
	for _, tc := range sweepCases(accuracyCases) {
		cfg := Config{Shape: tc.shape, Batch: tc.batch, Norm: tc.norm}
		t.Run(fmt.Sprintf("f32/%v/b%d/%v", tc.shape, tc.batch, tc.norm), func(t *testing.T) {
			checkR2C[float32, complex64](t, cfg, tolSingle)
		})
		t.Run(fmt.Sprintf("f64/%v/b%d/%v", tc.shape, tc.batch, tc.norm), func(t *testing.T) {
			checkR2C[float64, complex128](t, cfg, tolDouble)
		})
	}
}

func checkR2C[R Real, C Complex](t *testing.T, cfg Config, tol float64) {
	p := sharedRealPlan[R, C](t, cfg)
	n := prod(cfg.Shape)
	last := cfg.Shape[len(cfg.Shape)-1]
	fwd, inv := normScales(cfg.Norm, n)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	x, ref := randomReal[R](rng, p.RealLen())
	full := make([]complex128, len(ref))
	for i, v := range ref {
		full[i] = complex(v, 0)
	}
	spectrum := refFFT(full, cfg.Shape, cfg.Batch, false)
	half := halfSpectrum(spectrum, last)
	require.Len(t, half, p.ComplexLen())

	got := make([]C, p.ComplexLen())
	require.NoError(t, p.Forward(got, x))
	require.LessOrEqual(t, relErr(got, scaleAll(half, fwd)), tol, "R2C forward relative error")

	// C2R of an exactly Hermitian spectrum gives back N·x scaled by the inverse norm.
	in := make([]C, len(half))
	for i, v := range half {
		in[i] = C(v)
	}
	keep := append([]C(nil), in...)
	back := make([]R, p.RealLen())
	require.NoError(t, p.Inverse(back, in))
	want := make([]float64, len(ref))
	for i, v := range ref {
		want[i] = v * float64(n) * inv
	}
	e := relErrReal(back, want)
	require.LessOrEqual(t, e, tol, "C2R relative error")
	require.Equal(t, keep, in, "Inverse must not modify its input")
	t.Logf("bound %.0e, C2R error %.2e", tol, e)
}
