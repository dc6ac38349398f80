package vkfft

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// convRef is the float64 reference of a ConvolutionConfig on complex data (real data
// passes complex values with zero imaginary parts): direct sums for Convolve and
// Correlate, circular over Shape or linear ("same") with KernelShape; PhaseCorrelate
// through float64 DFTs.
func convRef(cfg ConvolutionConfig, src, kernel []complex128) []complex128 {
	g, err := validateConv(cfg, false)
	if err != nil {
		panic(err)
	}
	shape, rank := cfg.Shape, len(cfg.Shape)
	batch := max(cfg.Batch, 1)
	n, kn := g.points, g.kpoints
	out := make([]complex128, batch*g.kernels*g.features*n)
	coords := func(i int, s []int) []int {
		c := make([]int, len(s))
		for a := len(s) - 1; a >= 0; a-- {
			c[a] = i % s[a]
			i /= s[a]
		}
		return c
	}
	flat := func(c, s []int) int {
		i := 0
		for a := range s {
			i = i*s[a] + c[a]
		}
		return i
	}
	// one scalar convolution or correlation of a Shape array with a kernel array
	one := func(x, k []complex128) []complex128 {
		y := make([]complex128, n)
		if cfg.Mode == PhaseCorrelate {
			X := refFFT(x, shape, 1, false)
			K := refFFT(k, shape, 1, false)
			for i := range X {
				p := cmplx.Conj(X[i]) * K[i]
				if a := cmplx.Abs(p); a > 0 {
					p /= complex(a, 0)
				}
				X[i] = p
			}
			y = refFFT(X, shape, 1, true)
			for i := range y {
				y[i] /= complex(float64(n), 0)
			}
			return y
		}
		if g.linear { // out[i] = Σ_q kernel[q] x[i - q + (K-1)/2], the data extended by cfg.Boundary
			for i := 0; i < n; i++ {
				ci := coords(i, shape)
				var s complex128
			points:
				for q := 0; q < kn; q++ {
					cq := coords(q, g.kshape)
					cj := make([]int, rank)
					for a := 0; a < rank; a++ {
						c, m := ci[a]-cq[a]+(g.kshape[a]-1)/2, shape[a]
						switch {
						case c >= 0 && c < m:
						case cfg.Boundary == BoundaryReplicate:
							c = min(max(c, 0), m-1)
						case cfg.Boundary == BoundaryPeriodic:
							c = (c%m + m) % m
						default:
							continue points
						}
						cj[a] = c
					}
					s += x[flat(cj, shape)] * k[q]
				}
				y[i] = s
			}
			return y
		}
		d := make([]int, rank)
		for i := 0; i < n; i++ {
			ci := coords(i, shape)
			var s complex128
			for j := 0; j < n; j++ {
				cj := coords(j, shape)
				for a := 0; a < rank; a++ {
					if cfg.Mode == Correlate { // kernel[j + i]
						d[a] = (cj[a] + ci[a]) % shape[a]
					} else { // kernel[i - j]
						d[a] = ((ci[a]-cj[a])%shape[a] + shape[a]) % shape[a]
					}
				}
				v := x[j]
				if cfg.Mode == Correlate {
					v = cmplx.Conj(v)
				}
				s += v * k[flat(d, g.kshape)]
			}
			y[i] = s
		}
		return y
	}
	m := max(cfg.Matrix, 1)
	for b := 0; b < batch; b++ {
		for kk := 0; kk < g.kernels; kk++ {
			for j := 0; j < g.features; j++ {
				acc := out[((b*g.kernels+kk)*g.features+j)*n:][:n]
				for l := 0; l < g.features; l++ {
					kc := j // plain: component j with kernel component j
					if m > 1 {
						kc = j*m + l
					} else if l != j {
						continue
					}
					x := src[(b*g.features+l)*n:][:n]
					k := kernel[(kk*g.kf+kc)*kn:][:kn]
					for i, v := range one(x, k) {
						acc[i] += v
					}
				}
			}
		}
	}
	return out
}

// Each mode, kind and precision against the float64 reference, across ranks; vector and
// matrix data, several kernels and zero-padded linear convolution. The worst relative L2
// error of each case is logged.
func TestConvolutionAccuracy(t *testing.T) {
	cases := []struct {
		name   string
		cfg    ConvolutionConfig
		real   bool
		double bool
	}{
		{"c2c-single-convolve-2d", ConvolutionConfig{Config: Config{Shape: []int{12, 16}, Batch: 2}}, false, false},
		{"c2c-single-correlate-1d", ConvolutionConfig{Config: Config{Shape: []int{64}, Batch: 3}, Mode: Correlate}, false, false},
		{"c2c-single-phase-3d", ConvolutionConfig{Config: Config{Shape: []int{6, 8, 8}}, Mode: PhaseCorrelate}, false, false},
		{"c2c-double-convolve-1d", ConvolutionConfig{Config: Config{Shape: []int{48}, Batch: 2}}, false, true},
		{"c2c-double-correlate-3d", ConvolutionConfig{Config: Config{Shape: []int{4, 6, 8}}, Mode: Correlate}, false, true},
		{"c2c-double-phase-2d", ConvolutionConfig{Config: Config{Shape: []int{10, 8}, Batch: 2}, Mode: PhaseCorrelate}, false, true},
		{"r2c-single-convolve-3d", ConvolutionConfig{Config: Config{Shape: []int{6, 8, 10}}}, true, false},
		{"r2c-single-correlate-2d", ConvolutionConfig{Config: Config{Shape: []int{12, 16}, Batch: 2}, Mode: Correlate}, true, false},
		{"r2c-single-phase-1d", ConvolutionConfig{Config: Config{Shape: []int{64}, Batch: 2}, Mode: PhaseCorrelate}, true, false},
		{"r2c-double-convolve-2d", ConvolutionConfig{Config: Config{Shape: []int{8, 12}, Batch: 2}}, true, true},
		{"r2c-double-correlate-1d", ConvolutionConfig{Config: Config{Shape: []int{40}}, Mode: Correlate}, true, true},
		{"r2c-double-phase-3d", ConvolutionConfig{Config: Config{Shape: []int{4, 6, 8}}, Mode: PhaseCorrelate}, true, true},
		{"linear-c2c-single-2d", ConvolutionConfig{Config: Config{Shape: []int{10, 13}, Batch: 2}, KernelShape: []int{3, 4}}, false, false},
		{"linear-r2c-single-1d", ConvolutionConfig{Config: Config{Shape: []int{50}}, KernelShape: []int{7}}, true, false},
		{"linear-r2c-double-3d", ConvolutionConfig{Config: Config{Shape: []int{5, 6, 7}}, KernelShape: []int{3, 2, 3}}, true, true},
		{"replicate-r2c-single-1d", ConvolutionConfig{Config: Config{Shape: []int{9}, Batch: 2}, KernelShape: []int{7}, Boundary: BoundaryReplicate}, true, false},
		{"replicate-r2c-double-3d", ConvolutionConfig{Config: Config{Shape: []int{5, 6, 7}}, KernelShape: []int{3, 5, 4}, Boundary: BoundaryReplicate}, true, true},
		{"periodic-r2c-single-2d", ConvolutionConfig{Config: Config{Shape: []int{4, 11}}, KernelShape: []int{7, 3}, Boundary: BoundaryPeriodic}, true, false},
		{"periodic-c2c-double-3d", ConvolutionConfig{Config: Config{Shape: []int{6, 5, 4}}, KernelShape: []int{3, 3, 5}, Boundary: BoundaryPeriodic}, false, true},
		{"replicate-c2c-single-2d", ConvolutionConfig{Config: Config{Shape: []int{10, 13}}, KernelShape: []int{5, 6}, Boundary: BoundaryReplicate}, false, false},
		{"features-c2c-single", ConvolutionConfig{Config: Config{Shape: []int{32}, Batch: 2}, Features: 2}, false, false},
		{"matrix-r2c-single", ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, Matrix: 2}, true, false},
		{"kernels-c2c-single", ConvolutionConfig{Config: Config{Shape: []int{8, 12}}, Kernels: 3}, false, false},
		{"kernels-c2c-double-batch", ConvolutionConfig{Config: Config{Shape: []int{6, 8, 4}, Batch: 2}, Kernels: 2}, false, true},
		{"matrix-c2c-single-batch", ConvolutionConfig{Config: Config{Shape: []int{8, 6}, Batch: 2}, Matrix: 3}, false, false},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range sweepCases(cases) {
		t.Run(c.name, func(t *testing.T) {
			g, err := validateConv(c.cfg, c.real)
			require.NoError(t, err)
			nin := max(c.cfg.Batch, 1) * g.features * g.points
			nk := g.kernels * g.kf * g.kpoints
			var got []complex128
			src := make([]complex128, nin)
			kern := make([]complex128, nk)
			for i := range src {
				src[i] = complex(rng.Float64()*2-1, rng.Float64()*2-1)
				if c.real {
					src[i] = complex(real(src[i]), 0)
				}
			}
			for i := range kern {
				kern[i] = complex(rng.Float64()*2-1, rng.Float64()*2-1)
				if c.real {
					kern[i] = complex(real(kern[i]), 0)
				}
			}
			if compiledBackend == Vulkan && c.cfg.Kernels > 1 && c.cfg.Batch > 1 {
				_, err := NewConvolution[complex64](testDev, c.cfg, make([]complex64, nk))
				require.ErrorIs(t, err, ErrUnsupported)
				require.ErrorContains(t, err, "Vulkan")
				return
			}
			switch {
			case !c.real && !c.double:
				got = runConv[complex64](t, c.cfg, src, kern)
			case !c.real && c.double:
				got = runConv[complex128](t, c.cfg, src, kern)
			case c.real && !c.double:
				got = runRealConv[float32, complex64](t, c.cfg, src, kern)
			default:
				got = runRealConv[float64, complex128](t, c.cfg, src, kern)
			}
			want := convRef(c.cfg, src, kern)
			require.Len(t, got, len(want))
			e := relErr(got, want)
			t.Logf("relative L2 error %.2e", e)
			tol := 1e-5
			if c.double {
				tol = 1e-12
			}
			require.Less(t, e, tol)
		})
	}
}

func runConv[T Complex](t *testing.T, cfg ConvolutionConfig, src, kern []complex128) []complex128 {
	k := make([]T, len(kern))
	for i, v := range kern {
		k[i] = T(v)
	}
	c, err := NewConvolution[T](testDev, cfg, k)
	require.NoError(t, err)
	defer c.Close()
	x := make([]T, len(src))
	for i, v := range src {
		x[i] = T(v)
		src[i] = complex128(x[i]) // the reference sees the rounded input
	}
	for i := range kern {
		kern[i] = complex128(k[i])
	}
	y := make([]T, c.OutLen())
	require.NoError(t, c.Apply(y, x))
	out := make([]complex128, len(y))
	for i, v := range y {
		out[i] = complex128(v)
	}
	return out
}

func runRealConv[R Real, C Complex](t *testing.T, cfg ConvolutionConfig, src, kern []complex128) []complex128 {
	k := make([]R, len(kern))
	for i, v := range kern {
		k[i] = R(real(v))
		kern[i] = complex(float64(k[i]), 0)
	}
	c, err := NewRealConvolution[R, C](testDev, cfg, k)
	require.NoError(t, err)
	defer c.Close()
	x := make([]R, len(src))
	for i, v := range src {
		x[i] = R(real(v))
		src[i] = complex(float64(x[i]), 0)
	}
	y := make([]R, c.OutLen())
	require.NoError(t, c.Apply(y, x))
	out := make([]complex128, len(y))
	for i, v := range y {
		out[i] = complex(float64(v), 0)
	}
	return out
}

var _ = math.Abs
