// Package fftref is the float64 reference that vkfftgo's tests and `vkfft check`
// measure GPU results against: n-D DFTs over any axes (numpy's fftn/rfftn semantics)
// and the eight DCT/DST types (scipy.fft's dct/dst, norm="backward"), for any length.
//
// Lines are transformed with gonum's FFTPACK port when their length has only small
// prime factors, and with Bluestein's algorithm over a power-of-two FFT otherwise, so
// large primes cost O(n log n) too. Everything is unnormalised; callers scale.
package fftref

import (
	"math"
	"math/cmplx"
	"sync"

	"gonum.org/v1/gonum/dsp/fourier"
)

// bluesteinAbove is the largest prime factor FFTPACK's generic radix handles here; above
// it a line goes through Bluestein (FFTPACK's generic pass is O(n·p)).
const bluesteinAbove = 64

var plans = struct {
	sync.Mutex
	m map[int]*fourier.CmplxFFT
}{m: map[int]*fourier.CmplxFFT{}}

// fftpack returns a cached FFTPACK plan of length n. The caller holds plans.
func fftpack(n int) *fourier.CmplxFFT {
	f := plans.m[n]
	if f == nil {
		f = fourier.NewCmplxFFT(n)
		plans.m[n] = f
	}
	return f
}

// LargestPrimeFactor of n ≥ 1 (1 for n = 1).
func LargestPrimeFactor(n int) int {
	p := 1
	for f := 2; f*f <= n; f++ {
		for n%f == 0 {
			p, n = f, n/f
		}
	}
	if n > 1 {
		p = n
	}
	return p
}

// DFT transforms x in place: X[k] = Σ x[j] e^{∓2πijk/n} (minus for forward), unnormalised.
func DFT(x []complex128, inverse bool) {
	n := len(x)
	if n <= 1 {
		return
	}
	if LargestPrimeFactor(n) > bluesteinAbove {
		bluestein(x, inverse)
		return
	}
	plans.Lock()
	defer plans.Unlock()
	f := fftpack(n)
	tmp := make([]complex128, n)
	if inverse {
		f.Sequence(tmp, x)
	} else {
		f.Coefficients(tmp, x)
	}
	copy(x, tmp)
}

// bluestein computes the DFT of any length as a convolution of power-of-two length.
func bluestein(x []complex128, inverse bool) {
	n := len(x)
	m := 1
	for m < 2*n-1 {
		m <<= 1
	}
	sign := -1.0
	if inverse {
		sign = 1
	}
	// chirp w[k] = e^{sign·iπk²/n}, with k² reduced mod 2n so the angle stays exact
	w := make([]complex128, n)
	for k := range w {
		k2 := (uint64(k) * uint64(k)) % uint64(2*n)
		w[k] = cmplx.Rect(1, sign*math.Pi*float64(k2)/float64(n))
	}
	a := make([]complex128, m)
	b := make([]complex128, m)
	for k := 0; k < n; k++ {
		a[k] = x[k] * w[k]
		b[k] = cmplx.Conj(w[k])
		if k > 0 {
			b[m-k] = cmplx.Conj(w[k])
		}
	}
	plans.Lock()
	f := fftpack(m)
	A := f.Coefficients(nil, a)
	B := f.Coefficients(nil, b)
	for i := range A {
		A[i] *= B[i]
	}
	c := f.Sequence(nil, A)
	plans.Unlock()
	for k := 0; k < n; k++ {
		x[k] = w[k] * c[k] / complex(float64(m), 0)
	}
}

// forLines calls f on every line along axis of a row-major array of shape (batch copies
// one after another), gathering the line into a scratch slice and scattering it back.
func forLines[T any](data []T, shape []int, batch, axis int, f func(line []T)) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	stride := 1
	for i := len(shape) - 1; i > axis; i-- {
		stride *= shape[i]
	}
	d := shape[axis]
	line := make([]T, d)
	outer := n / (stride * d)
	for b := 0; b < batch; b++ {
		for o := 0; o < outer; o++ {
			for in := 0; in < stride; in++ {
				base := b*n + o*stride*d + in
				for i := range line {
					line[i] = data[base+i*stride]
				}
				f(line)
				for i := range line {
					data[base+i*stride] = line[i]
				}
			}
		}
	}
}

// FFTN is numpy's fftn (or unnormalised ifftn) of x over axes (nil: all), for batch
// arrays of shape laid one after another. x is not modified.
func FFTN(x []complex128, shape, axes []int, batch int, inverse bool) []complex128 {
	out := append([]complex128(nil), x...)
	for _, ax := range normAxes(axes, len(shape)) {
		forLines(out, shape, batch, ax, func(line []complex128) { DFT(line, inverse) })
	}
	return out
}

// RFFTN is numpy's rfftn: the half spectrum (last axis n/2+1) of real x; axes must
// include the last axis.
func RFFTN(x []float64, shape, axes []int, batch int) []complex128 {
	c := make([]complex128, len(x))
	for i, v := range x {
		c[i] = complex(v, 0)
	}
	full := FFTN(c, shape, axes, batch, false)
	last := shape[len(shape)-1]
	h := last/2 + 1
	out := make([]complex128, 0, len(full)/last*h)
	for i := 0; i < len(full); i += last {
		out = append(out, full[i:i+h]...)
	}
	return out
}

// normAxes resolves numpy axes (negative from the end; nil: all).
func normAxes(axes []int, rank int) []int {
	if axes == nil {
		out := make([]int, rank)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, len(axes))
	for i, a := range axes {
		if a < 0 {
			a += rank
		}
		out[i] = a
	}
	return out
}
