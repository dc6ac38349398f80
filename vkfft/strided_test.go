package vkfft

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// image lays batch copies of a row-major array (shape) out with strides in a buffer
// image of span elements; gaps hold fill.
func image[T any](x []T, shape, strides []int, batch, span int, fill T) []T {
	img := make([]T, span)
	for i := range img {
		img[i] = fill
	}
	n := prod(shape)
	bs := batchStride(shape, strides)
	for b := 0; b < batch; b++ {
		for i := 0; i < n; i++ {
			img[b*bs+offsetOf(i, shape, strides)] = x[b*n+i]
		}
	}
	return img
}

// unimage gathers a row-major array back out of a strided image.
func unimage[T any](img []T, shape, strides []int, batch int) []T {
	n := prod(shape)
	bs := batchStride(shape, strides)
	out := make([]T, batch*n)
	for b := 0; b < batch; b++ {
		for i := 0; i < n; i++ {
			out[b*n+i] = img[b*bs+offsetOf(i, shape, strides)]
		}
	}
	return out
}

// offsetOf maps a row-major index to its offset under strides.
func offsetOf(i int, shape, strides []int) int {
	off := 0
	for a := len(shape) - 1; a >= 0; a-- {
		off += (i % shape[a]) * strides[a]
		i /= shape[a]
	}
	return off
}

// gapsUntouched checks that every element of img outside the layout still holds fill.
func gapsUntouched[T comparable](t *testing.T, img []T, shape, strides []int, batch int, fill T, what string) {
	t.Helper()
	used := make([]bool, len(img))
	n := prod(shape)
	bs := batchStride(shape, strides)
	for b := 0; b < batch; b++ {
		for i := 0; i < n; i++ {
			used[b*bs+offsetOf(i, shape, strides)] = true
		}
	}
	for i, v := range img {
		if !used[i] {
			require.Equal(t, fill, v, "%s: gap element %d was written", what, i)
		}
	}
}

// Complex transforms on strided device buffers: numpy semantics (a strided view is
// transformed as the array it shows), gaps between elements left alone, out of place
// (src unchanged) and in place, padded rows, Fortran order, and a contiguous output from
// a strided input, in single and double precision.
func TestStridedC2C(t *testing.T) {
	cases := []struct {
		name    string
		cfg     Config
		inPlace bool
	}{
		{"padded rows", Config{Shape: []int{5, 6}, Batch: 2, InStrides: []int{8, 1}, OutStrides: []int{8, 1}}, false},
		{"padded rows in place", Config{Shape: []int{5, 6}, Batch: 2, InStrides: []int{8, 1}, OutStrides: []int{8, 1}}, true},
		{"Fortran order, ortho", Config{Shape: []int{5, 6}, Norm: NormOrtho, InStrides: []int{1, 5}, OutStrides: []int{1, 5}}, false},
		{"strided columns into a contiguous array", Config{Shape: []int{4, 3}, Axes: []int{0}, InStrides: []int{7, 1}}, false},
	}
	for _, c := range cases {
		t.Run(c.name+"/single", func(t *testing.T) { checkStridedC2C[complex64](t, c.cfg, c.inPlace, fftref.Single) })
		t.Run(c.name+"/double", func(t *testing.T) { checkStridedC2C[complex128](t, c.cfg, c.inPlace, fftref.Double) })
	}
}

func checkStridedC2C[T Complex](t *testing.T, cfg Config, inPlace bool, prec fftref.Precision) {
	p := sharedPlan[T](t, cfg)
	l := &p.p.l
	batch := l.cfg.Batch
	inStr, outStr := cfg.InStrides, cfg.OutStrides
	if inStr == nil {
		inStr = contiguousStrides(cfg.Shape)
	}
	if outStr == nil {
		outStr = contiguousStrides(cfg.Shape)
	}
	rng := rand.New(rand.NewPCG(11, uint64(len(inStr))))
	x, ref := randomComplex[T](rng, batch*prod(cfg.Shape))
	fill := T(complex(1234, -5))
	m, _, _ := l.normCounts()
	fwd, _ := normScales(cfg.Norm, int(m))
	want := scaleAll(fftref.FFTN(ref, cfg.Shape, cfg.Axes, batch, false), fwd)
	tol := fftref.Tolerance(int(m), prec, false)

	src, err := NewBuffer[T](testDev, l.inSpan)
	require.NoError(t, err)
	defer src.Close()
	dst := src
	if !inPlace {
		dst, err = NewBuffer[T](testDev, l.outSpan)
		require.NoError(t, err)
		defer dst.Close()
		require.NoError(t, dst.Upload(image(make([]T, len(x)), cfg.Shape, outStr, batch, l.outSpan, fill)))
	}
	srcImg := image(x, cfg.Shape, inStr, batch, l.inSpan, fill)
	require.NoError(t, src.Upload(srcImg))
	require.NoError(t, p.ForwardBuffer(dst, src))
	got := make([]T, dst.Len())
	require.NoError(t, dst.Download(got))
	require.Less(t, fftref.LInf(toC128(unimage(got, cfg.Shape, outStr, batch)), want), tol, "forward")
	gapsUntouched(t, got, cfg.Shape, outStr, batch, fill, "forward")
	if !inPlace {
		after := make([]T, src.Len())
		require.NoError(t, src.Download(after))
		require.Equal(t, srcImg, after, "out of place leaves src alone")
		// back: the inverse reads with InStrides and writes with OutStrides as well, so
		// run it from a copy of the spectrum laid out with InStrides
		require.NoError(t, src.Upload(image(unimage(got, cfg.Shape, outStr, batch), cfg.Shape, inStr, batch, l.inSpan, fill)))
	}
	require.NoError(t, p.InverseBuffer(dst, src))
	require.NoError(t, dst.Download(got))
	back := unimage(got, cfg.Shape, outStr, batch)
	require.Less(t, fftref.LInf(toC128(back), ref), 2*tol, "round trip")
	gapsUntouched(t, got, cfg.Shape, outStr, batch, fill, "inverse")

	if !raceEnabled {
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.ForwardBuffer(dst, src) }))
	}
}

// Real-to-complex on strided buffers: padded real rows in, padded spectrum rows out
// (numpy's rfftn of the view), and back.
func TestStridedR2C(t *testing.T) {
	cfg := Config{Shape: []int{4, 6}, Batch: 2, InStrides: []int{8, 1}, OutStrides: []int{5, 1}}
	p := sharedRealPlan[float64, complex128](t, cfg)
	l := &p.p.l
	cshape := []int{4, 4}
	rng := rand.New(rand.NewPCG(12, 13))
	x, ref := randomReal[float64](rng, 2*24)
	want := fftref.RFFTN(ref, cfg.Shape, nil, 2)
	tol := fftref.Tolerance(24, fftref.Double, false)

	rb, err := NewBuffer[float64](testDev, l.inSpan)
	require.NoError(t, err)
	defer rb.Close()
	cb, err := NewBuffer[complex128](testDev, l.outSpan)
	require.NoError(t, err)
	defer cb.Close()
	require.NoError(t, rb.Upload(image(x, cfg.Shape, cfg.InStrides, 2, l.inSpan, 99)))
	require.NoError(t, cb.Upload(image(make([]complex128, 32), cshape, cfg.OutStrides, 2, l.outSpan, 7i)))
	require.NoError(t, p.ForwardBuffer(cb, rb))
	spec := make([]complex128, cb.Len())
	require.NoError(t, cb.Download(spec))
	require.Less(t, fftref.LInf(unimage(spec, cshape, cfg.OutStrides, 2), want), tol)
	gapsUntouched(t, spec, cshape, cfg.OutStrides, 2, 7i, "spectrum")

	require.NoError(t, rb.Upload(image(make([]float64, 48), cfg.Shape, cfg.InStrides, 2, l.inSpan, 99)))
	require.NoError(t, p.InverseBuffer(rb, cb))
	img := make([]float64, rb.Len())
	require.NoError(t, rb.Download(img))
	require.Less(t, fftref.LInfReal(unimage(img, cfg.Shape, cfg.InStrides, 2), ref), tol)
	gapsUntouched(t, img, cfg.Shape, cfg.InStrides, 2, 99, "real data")
}

// Strided plans refuse what they cannot do, saying why: host slices, short buffers, in
// place with different layouts.
func TestStridedBadCalls(t *testing.T) {
	cfg := Config{Shape: []int{4, 3}, Axes: []int{0}, InStrides: []int{7, 1}}
	p := sharedPlan[complex64](t, cfg)
	x := make([]complex64, p.Len())
	err := p.Forward(x, x)
	require.True(t, errors.Is(err, ErrUnsupported), "%v", err)
	require.Contains(t, err.Error(), "device buffers")

	short, err := NewBuffer[complex64](testDev, p.p.l.inSpan-1)
	require.NoError(t, err)
	defer short.Close()
	ok, err := NewBuffer[complex64](testDev, p.p.l.inSpan)
	require.NoError(t, err)
	defer ok.Close()
	err = p.ForwardBuffer(ok, short)
	require.True(t, errors.Is(err, ErrLength), "%v", err)
	require.Contains(t, err.Error(), "InStrides [7 1] reach 24")
	err = p.ForwardBuffer(ok, ok)
	require.True(t, errors.Is(err, ErrInvalidArgument), "%v", err)
	require.Contains(t, err.Error(), "in place")
	_, err = NewPipeline[complex64](testDev, Config{Shape: cfg.Shape, Axes: cfg.Axes, InStrides: cfg.InStrides, Batch: 2}, 2)
	require.True(t, errors.Is(err, ErrUnsupported), "%v", err)
}
