package fftref

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func directDFT(x []complex128, inverse bool) []complex128 {
	n := len(x)
	s := -1.0
	if inverse {
		s = 1
	}
	y := make([]complex128, n)
	for k := range y {
		for j, v := range x {
			y[k] += v * cmplx.Rect(1, s*2*math.Pi*float64((j*k)%n)/float64(n))
		}
	}
	return y
}

// The FFTPACK and Bluestein paths agree with the defining sum, for smooth lengths and
// for primes past the Bluestein threshold.
func TestDFTMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 12, 13, 64, 67, 97, 211, 2 * 101, 1000} {
		for _, inv := range []bool{false, true} {
			x := make([]complex128, n)
			for i := range x {
				x[i] = complex(rng.Float64()-0.5, rng.Float64()-0.5)
			}
			want := directDFT(x, inv)
			got := append([]complex128(nil), x...)
			DFT(got, inv)
			require.Less(t, LInf(got, want), 1e-12, "n=%d inverse=%v", n, inv)
		}
	}
}

// Every DCT/DST type matches its defining sum (scipy's definitions), and applying the
// inverse type scales by NormLength.
func TestR2RMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := DCT1; k <= DST4; k++ {
		for _, n := range []int{1, 2, 3, 8, 15, 67, 100} {
			if k == DCT1 && n < 2 {
				continue
			}
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64() - 0.5
			}
			want := DirectR2R1(x, k)
			got := R2R1(x, k)
			require.Less(t, LInfReal(got, want), 1e-12, "kind %d n=%d", k, n)
			back := R2R1(got, k.Inverse())
			for i := range back {
				back[i] /= float64(k.NormLength(n))
			}
			require.Less(t, LInfReal(back, x), 1e-12, "round trip kind %d n=%d", k, n)
		}
	}
}

// Multi-dimensional transforms over chosen axes equal 1-D transforms along those axes
// only: numpy's fftn(x, axes=(0,)) on a 3x4 array transforms the columns.
func TestFFTNAxes(t *testing.T) {
	shape := []int{3, 4}
	x := make([]complex128, 12)
	for i := range x {
		x[i] = complex(float64(i), float64(i%3))
	}
	got := FFTN(x, shape, []int{0}, 1, false)
	for c := 0; c < 4; c++ {
		col := []complex128{x[c], x[4+c], x[8+c]}
		want := directDFT(col, false)
		for r := 0; r < 3; r++ {
			require.InDelta(t, 0, cmplx.Abs(got[r*4+c]-want[r]), 1e-12)
		}
	}
	// rfftn halves the last axis
	r := RFFTN([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, nil, 1)
	require.Len(t, r, 2*2)
	require.InDelta(t, 21, real(r[0]), 1e-12)
}
