package fftref

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// directC2R2 is FFTW's 2-D c2r by its definition: the inverse DFT along the first axis
// as complex sums, then along the last one x[j] = Re X[0] + (-1)^j Re X[n/2] (even n)
// + 2 Re Σ_{0<k<n/2} X[k] e^{2πijk/n}, for a half spectrum of rows × (n/2+1).
func directC2R2(x []complex128, rows, n int) []float64 {
	h := n/2 + 1
	col := make([]complex128, rows*h)
	for c := 0; c < h; c++ {
		line := make([]complex128, rows)
		for r := range line {
			line[r] = x[r*h+c]
		}
		line = directDFT(line, true)
		for r := range line {
			col[r*h+c] = line[r]
		}
	}
	out := make([]float64, rows*n)
	for r := 0; r < rows; r++ {
		X := col[r*h : r*h+h]
		for j := 0; j < n; j++ {
			v := real(X[0])
			if n%2 == 0 {
				v += math.Pow(-1, float64(j)) * real(X[n/2])
			}
			for k := 1; 2*k < n; k++ {
				v += 2 * real(X[k]*cmplx.Rect(1, 2*math.Pi*float64((j*k)%n)/float64(n)))
			}
			out[r*n+j] = v
		}
	}
	return out
}

func randomHalf(rng *rand.Rand, n int) []complex128 {
	x := make([]complex128, n)
	for i := range x {
		x[i] = complex(rng.Float64()-0.5, rng.Float64()-0.5)
	}
	return x
}

// IRFFTN follows FFTW's c2r on spectra that are not Hermitian (the imaginary parts of
// the self-conjugate bins count through the leading axes' transform), for odd and even
// last axes and a batch; on a forward transform's spectrum it is the exact inverse.
func TestIRFFTNMatchesFFTWDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ rows, n int }{{4, 8}, {5, 7}, {3, 2}, {6, 9}, {1, 10}} {
		h := c.n/2 + 1
		for _, batch := range []int{1, 2} {
			x := randomHalf(rng, batch*c.rows*h)
			got := IRFFTN(x, []int{c.rows, c.n}, nil, batch)
			for b := 0; b < batch; b++ {
				want := directC2R2(x[b*c.rows*h:(b+1)*c.rows*h], c.rows, c.n)
				require.Less(t, LInfReal(got[b*c.rows*c.n:(b+1)*c.rows*c.n], want), 1e-12, "%dx%d batch %d", c.rows, c.n, b)
			}
		}
		sig := make([]float64, c.rows*c.n)
		for i := range sig {
			sig[i] = rng.Float64() - 0.5
		}
		back := IRFFTN(RFFTN(sig, []int{c.rows, c.n}, nil, 1), []int{c.rows, c.n}, nil, 1)
		for i := range back {
			back[i] /= float64(c.rows * c.n)
		}
		require.Less(t, LInfReal(back, sig), 1e-12, "round trip %dx%d", c.rows, c.n)
	}
}

// The 4×8 cases users compared with fftw_plan_dft_c2r_2d.
func TestIRFFTNUserCases(t *testing.T) {
	x := make([]complex128, 4*5)
	x[0] = 1 + 1i
	got := IRFFTN(x, []int{4, 8}, nil, 1)
	for _, v := range got {
		require.InDelta(t, 1, v, 1e-15)
	}
	x[0], x[5] = 0, 1
	got = IRFFTN(x, []int{4, 8}, nil, 1)
	for r, want := range []float64{1, 0, -1, 0} {
		for _, v := range got[r*8 : r*8+8] {
			require.InDelta(t, want, v, 1e-15, "row %d", r)
		}
	}
}

// Axes that are not transformed (here the middle one) are not mirrored.
func TestIRFFTNAxesSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shape := []int{3, 4, 6}
	x := randomHalf(rng, 3*4*4)
	got := IRFFTN(x, shape, []int{0, 2}, 1)
	// per middle index m, the 2-D c2r of the (axis 0, axis 2) plane
	for m := 0; m < 4; m++ {
		plane := make([]complex128, 3*4)
		for r := 0; r < 3; r++ {
			copy(plane[r*4:r*4+4], x[(r*4+m)*4:(r*4+m)*4+4])
		}
		want := directC2R2(plane, 3, 6)
		for r := 0; r < 3; r++ {
			require.Less(t, LInfReal(got[(r*4+m)*6:(r*4+m)*6+6], want[r*6:r*6+6]), 1e-12, "m=%d r=%d", m, r)
		}
	}
}
