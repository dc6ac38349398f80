package fftref

import "math/cmplx"

// IRFFTN is numpy's irfftn without the 1/N (norm="forward"'s inverse), which is also
// FFTW's c2r: x is the half spectrum (last axis shape[-1]/2+1) of batch real arrays of
// shape, laid one after another; axes (nil: all) must include the last axis. The leading
// selected axes are inverse-transformed as complex data, then each line along the last
// axis as a real signal whose bins 0 and n/2 (n even) keep only their real parts — so
// the answer is defined for any x, Hermitian or not, and is that of x with its
// self-conjugate planes projected onto Hermitian symmetry. x is not modified.
func IRFFTN(x []complex128, shape, axes []int, batch int) []float64 {
	rank := len(shape)
	last := shape[rank-1]
	half := last/2 + 1
	hshape := append([]int(nil), shape...)
	hshape[rank-1] = half
	spec := append([]complex128(nil), x...)
	for _, ax := range normAxes(axes, rank) {
		if ax != rank-1 {
			forLines(spec, hshape, batch, ax, func(line []complex128) { DFT(line, true) })
		}
	}
	out := make([]float64, 0, len(spec)/half*last)
	line := make([]complex128, last)
	for i := 0; i < len(spec); i += half {
		h := spec[i : i+half]
		line[0] = complex(real(h[0]), 0)
		for k := 1; k < half; k++ {
			line[k] = h[k]
			line[last-k] = cmplx.Conj(h[k])
		}
		if last%2 == 0 {
			line[last/2] = complex(real(h[last/2]), 0)
		}
		DFT(line, true)
		for _, v := range line {
			out = append(out, real(v))
		}
	}
	return out
}
