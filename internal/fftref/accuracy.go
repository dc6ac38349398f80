package fftref

import (
	"math"
	"math/cmplx"
)

// LInf is the relative max-norm error max|got−want| / max|want| that pyvkfft's tests
// use; got may be any complex element type converted by the caller.
func LInf(got, want []complex128) float64 {
	var num, den float64
	for i, w := range want {
		num = math.Max(num, cmplx.Abs(got[i]-w))
		den = math.Max(den, cmplx.Abs(w))
	}
	return num / den
}

// LInfReal is LInf for real data.
func LInfReal(got, want []float64) float64 {
	var num, den float64
	for i, w := range want {
		num = math.Max(num, math.Abs(got[i]-w))
		den = math.Max(den, math.Abs(w))
	}
	return num / den
}

// L2 is ‖got−want‖₂ / ‖want‖₂.
func L2(got, want []complex128) float64 {
	var num, den float64
	for i, w := range want {
		d := got[i] - w
		num += real(d)*real(d) + imag(d)*imag(d)
		den += real(w)*real(w) + imag(w)*imag(w)
	}
	return math.Sqrt(num / den)
}

// L2Real is L2 for real data.
func L2Real(got, want []float64) float64 {
	var num, den float64
	for i, w := range want {
		d := got[i] - w
		num += d * d
		den += w * w
	}
	return math.Sqrt(num / den)
}

// Precision of the data a transform is measured in.
type Precision int

const (
	Single Precision = iota // fp32 data and arithmetic
	Double                  // fp64
	Half                    // fp16 data, fp32 arithmetic
)

// Tolerance is the LInf error a transform of n points (the product of the transformed
// lengths) may show: pyvkfft-test's, growing with log10(n) — 2e-6 + 5e-7·log10(n) in
// single precision, doubled when a length has a prime factor above 13 (Rader and
// Bluestein). Double precision allows 4× pyvkfft's (our reference is float64, not long
// double); fp16 storage allows for its 11-bit mantissa on input and output.
func Tolerance(n int, p Precision, largePrime bool) float64 {
	lg := math.Log10(math.Max(float64(n), 1))
	var tol float64
	switch p {
	case Double:
		tol = 4 * (5e-15 + 5e-16*lg)
	case Half:
		tol = 2e-3 + 5e-4*lg
	default:
		tol = 2e-6 + 5e-7*lg
	}
	if largePrime {
		tol *= 2
	}
	return tol
}
