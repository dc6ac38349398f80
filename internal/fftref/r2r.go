package fftref

import (
	"fmt"
	"math"
	"math/cmplx"
)

// Kind numbers the real-to-real transforms as vkfft.R2RKind does: 1–4 DCT-I..IV,
// 5–8 DST-I..IV.
type Kind int

const (
	DCT1 Kind = iota + 1
	DCT2
	DCT3
	DCT4
	DST1
	DST2
	DST3
	DST4
)

// Inverse is the kind that undoes k (up to NormLength): II and III swap, I and IV are
// their own inverses.
func (k Kind) Inverse() Kind {
	switch k {
	case DCT2:
		return DCT3
	case DCT3:
		return DCT2
	case DST2:
		return DST3
	case DST3:
		return DST2
	}
	return k
}

// NormLength is scipy's normalisation length of a line of n points: applying k, then
// k.Inverse(), multiplies by it.
func (k Kind) NormLength(n int) int {
	switch k {
	case DCT1:
		return 2 * (n - 1)
	case DST1:
		return 2 * (n + 1)
	}
	return 2 * n
}

// R2R1 is scipy.fft's dct/dst (norm="backward", unnormalised) of one line, computed
// through a complex DFT of length 2n (2(n−1) for DCT-I, 2(n+1) for DST-I).
func R2R1(x []float64, k Kind) []float64 {
	n := len(x)
	y := make([]float64, n)
	switch k {
	case DCT1: // even extension of period 2(n-1)
		if n == 1 {
			panic("fftref: DCT-I needs n >= 2")
		}
		m := 2 * (n - 1)
		v := make([]complex128, m)
		for j := 0; j < n; j++ {
			v[j] = complex(x[j], 0)
		}
		for j := 1; j < n-1; j++ {
			v[m-j] = complex(x[j], 0)
		}
		DFT(v, false)
		for i := range y {
			y[i] = real(v[i])
		}
	case DST1: // odd extension of period 2(n+1)
		m := 2 * (n + 1)
		v := make([]complex128, m)
		for j := 0; j < n; j++ {
			v[j+1] = complex(x[j], 0)
			v[m-j-1] = complex(-x[j], 0)
		}
		DFT(v, false)
		for i := range y {
			y[i] = -imag(v[i+1])
		}
	case DCT2, DST2: // half-sample symmetric extension of period 2n
		sgn := 1.0
		if k == DST2 {
			sgn = -1
		}
		v := make([]complex128, 2*n)
		for j := 0; j < n; j++ {
			v[j] = complex(x[j], 0)
			v[2*n-1-j] = complex(sgn*x[j], 0)
		}
		DFT(v, false)
		for i := range y {
			if k == DCT2 {
				y[i] = real(cmplx.Rect(1, -math.Pi*float64(i)/float64(2*n)) * v[i])
			} else {
				y[i] = -imag(cmplx.Rect(1, -math.Pi*float64(i+1)/float64(2*n)) * v[i+1])
			}
		}
	case DCT3, DST3: // inverse DFT of length 2n of phase-shifted coefficients
		v := make([]complex128, 2*n)
		for j := 0; j < n; j++ {
			if k == DCT3 {
				c := 2 * x[j]
				if j == 0 {
					c = x[0]
				}
				v[j] = complex(c, 0) * cmplx.Rect(1, math.Pi*float64(j)/float64(2*n))
			} else {
				m := j + 1 // sin(π(2k+1)m/2n), m = 1..n
				c := 2 * x[j]
				if m == n {
					c = x[j]
				}
				v[m] = complex(c, 0) * cmplx.Rect(1, math.Pi*float64(m)/float64(2*n))
			}
		}
		DFT(v, true)
		for i := range y {
			if k == DCT3 {
				y[i] = real(v[i])
			} else {
				y[i] = imag(v[i])
			}
		}
	case DCT4, DST4: // 2n-point DFT with quarter-sample shifts
		v := make([]complex128, 2*n)
		for j := 0; j < n; j++ {
			v[j] = complex(x[j], 0) * cmplx.Rect(1, -math.Pi*float64(j)/float64(2*n))
		}
		DFT(v, false)
		for i := range y {
			z := cmplx.Rect(1, -math.Pi*float64(2*i+1)/float64(4*n)) * v[i]
			if k == DCT4 {
				y[i] = 2 * real(z)
			} else {
				y[i] = -2 * imag(z)
			}
		}
	default:
		panic(fmt.Sprintf("fftref: unknown real-to-real kind %d", int(k)))
	}
	return y
}

// R2RN applies k along each of axes (nil: all) of batch row-major arrays of shape, as
// scipy.fft's dctn/dstn. x is not modified.
func R2RN(x []float64, shape, axes []int, batch int, k Kind) []float64 {
	out := append([]float64(nil), x...)
	for _, ax := range normAxes(axes, len(shape)) {
		forLines(out, shape, batch, ax, func(line []float64) { copy(line, R2R1(line, k)) })
	}
	return out
}

// DirectR2R1 evaluates the defining sums of k in O(n²): the test oracle for R2R1.
func DirectR2R1(x []float64, k Kind) []float64 {
	n := len(x)
	y := make([]float64, n)
	fn := float64(n)
	for i := range y {
		fi := float64(i)
		var s float64
		for j, v := range x {
			fj := float64(j)
			switch k {
			case DCT1:
				switch j {
				case 0:
					s += v
				case n - 1:
					s += v * math.Pow(-1, fi)
				default:
					s += 2 * v * math.Cos(math.Pi*fj*fi/(fn-1))
				}
			case DCT2:
				s += 2 * v * math.Cos(math.Pi*fi*(2*fj+1)/(2*fn))
			case DCT3:
				if j == 0 {
					s += v
				} else {
					s += 2 * v * math.Cos(math.Pi*fj*(2*fi+1)/(2*fn))
				}
			case DCT4:
				s += 2 * v * math.Cos(math.Pi*(2*fj+1)*(2*fi+1)/(4*fn))
			case DST1:
				s += 2 * v * math.Sin(math.Pi*(fj+1)*(fi+1)/(fn+1))
			case DST2:
				s += 2 * v * math.Sin(math.Pi*(fi+1)*(2*fj+1)/(2*fn))
			case DST3:
				if j == n-1 {
					s += v * math.Pow(-1, fi)
				} else {
					s += 2 * v * math.Sin(math.Pi*(fj+1)*(2*fi+1)/(2*fn))
				}
			case DST4:
				s += 2 * v * math.Sin(math.Pi*(2*fj+1)*(2*fi+1)/(4*fn))
			}
		}
		y[i] = s
	}
	return y
}
