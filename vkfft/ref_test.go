package vkfft

import (
	"math"
	"math/cmplx"
	"math/rand/v2"

	"gonum.org/v1/gonum/dsp/fourier"
)

// refFFT is a float64 reference: the unnormalised n-D DFT of x (row-major shape,
// batch transforms one after another), forward (sign -1) or inverse (sign +1), computed
// axis by axis with gonum's FFTPACK port.
func refFFT(x []complex128, shape []int, batch int, inverse bool) []complex128 {
	out := append([]complex128(nil), x...)
	n := 1
	for _, d := range shape {
		n *= d
	}
	stride := n
	for _, d := range shape {
		stride /= d // elements between neighbours along this axis
		f := fourier.NewCmplxFFT(d)
		line := make([]complex128, d)
		res := make([]complex128, d)
		for b := 0; b < batch; b++ {
			base := b * n
			for start := 0; start < n; start++ {
				// visit each line along the axis once: its first element has index 0 on it
				if (start/stride)%d != 0 {
					continue
				}
				for i := 0; i < d; i++ {
					line[i] = out[base+start+i*stride]
				}
				if inverse {
					f.Sequence(res, line)
				} else {
					f.Coefficients(res, line)
				}
				for i := 0; i < d; i++ {
					out[base+start+i*stride] = res[i]
				}
			}
		}
	}
	return out
}

// relErr is ||got-want||₂ / ||want||₂.
func relErr[T Complex](got []T, want []complex128) float64 {
	var num, den float64
	for i := range want {
		d := complex128(got[i]) - want[i]
		num += real(d)*real(d) + imag(d)*imag(d)
		den += real(want[i])*real(want[i]) + imag(want[i])*imag(want[i])
	}
	return math.Sqrt(num / den)
}

func relErrReal[R Real](got []R, want []float64) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i]) - want[i]
		num += d * d
		den += want[i] * want[i]
	}
	return math.Sqrt(num / den)
}

func randomComplex[T Complex](rng *rand.Rand, n int) ([]T, []complex128) {
	x := make([]T, n)
	ref := make([]complex128, n)
	for i := range x {
		x[i] = T(complex(rng.Float64()*2-1, rng.Float64()*2-1))
		ref[i] = complex128(x[i]) // the reference sees exactly the rounded input
	}
	return x, ref
}

func randomReal[R Real](rng *rand.Rand, n int) ([]R, []float64) {
	x := make([]R, n)
	ref := make([]float64, n)
	for i := range x {
		x[i] = R(rng.Float64()*2 - 1)
		ref[i] = float64(x[i])
	}
	return x, ref
}

// halfSpectrum keeps the first n/2+1 elements of each last-axis line (numpy rfftn layout).
func halfSpectrum(full []complex128, last int) []complex128 {
	h := last/2 + 1
	out := make([]complex128, 0, len(full)/last*h)
	for i := 0; i < len(full); i += last {
		out = append(out, full[i:i+h]...)
	}
	return out
}

func scaleAll(x []complex128, s float64) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = v * complex(s, 0)
	}
	return out
}

var _ = cmplx.Abs
