package vkfft

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/fftref"
)

// Float16 conversions: every fp16 bit pattern survives Float32 and back, rounding is to
// nearest with ties to even, and out-of-range values saturate to infinity.
func TestFloat16Conversions(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := Float16(b)
		f := h.Float32()
		if f != f { // NaN: stays NaN, sign kept
			require.True(t, Float16From(f)&0x7c00 == 0x7c00 && Float16From(f)&0x3ff != 0)
			continue
		}
		require.Equal(t, h, Float16From(f), "bits %#04x (%g)", b, f)
	}
	require.Equal(t, Float16(0x3c00), Float16From(1))
	require.Equal(t, Float16(0x3c00), Float16From(1+1.0/2048), "tie rounds to even (down)")
	require.Equal(t, Float16(0x3c02), Float16From(1+3.0/2048), "tie rounds to even (up)")
	require.Equal(t, Float16(0x7c00), Float16From(70000), "overflow is +Inf")
	require.Equal(t, Float16(0xfc00), Float16From(float32(math.Inf(-1))))
	require.Equal(t, Float16(0x0001), Float16From(6e-8), "smallest subnormal")
	require.Equal(t, Float16(0), Float16From(2e-8), "underflow to zero")
}

// StorageFloatComputeDouble keeps complex64 data and computes in double: its error
// against the float64 reference is fp32 rounding of the result, below what a
// single-precision plan of a Bluestein length shows.
func TestStorageFloatComputeDouble(t *testing.T) {
	cfg := Config{Shape: []int{1031}, Batch: 2}
	fcd := cfg
	fcd.Storage = StorageFloatComputeDouble
	rng := rand.New(rand.NewPCG(21, 22))
	x, ref := randomComplex[complex64](rng, 2*1031)
	want := fftref.FFTN(ref, cfg.Shape, nil, 2, false)
	errOf := func(p *Plan[complex64]) float64 {
		y := make([]complex64, p.Len())
		require.NoError(t, p.Forward(y, x))
		return fftref.LInf(toC128(y), want)
	}
	single, double := errOf(sharedPlan[complex64](t, cfg)), errOf(sharedPlan[complex64](t, fcd))
	t.Logf("LInf error, n=1031: single %.3g, float memory + double compute %.3g", single, double)
	require.Less(t, double, 2.5e-7, "fp32 rounding of the output")
	require.Less(t, double, single, "double arithmetic beats single")

	r := sharedR2RPlan[float32](t, Config{Shape: []int{12}, Storage: StorageFloatComputeDouble}, DCT2)
	checkR2R[float32](t, r, fftref.Single)
	if !raceEnabled {
		p := sharedPlan[complex64](t, fcd)
		y := make([]complex64, p.Len())
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.Forward(y, x) }))
	}
}

// StorageHalf keeps fp16 on the device and computes in fp32. Devices without fp16
// (PoCL on a CPU) refuse it by name; with fp16 (the H200 run) the results are within
// fp16's tolerance through float32 host slices, Float16 host slices and fp16 buffers.
func TestStorageHalf(t *testing.T) {
	cfg := Config{Shape: []int{8, 24}, Batch: 2, Storage: StorageHalf}
	if !testDev.Info().HalfPrecision {
		_, err := NewPlan[complex64](testDev, cfg)
		require.True(t, errors.Is(err, ErrUnsupported), "%v", err)
		require.Contains(t, err.Error(), "fp16")
		t.Skipf("%s has no fp16: the refusal is all that can be checked here", testDev.Info().Name)
	}
	p := sharedPlan[complex64](t, cfg)
	n := prod(cfg.Shape)
	rng := rand.New(rand.NewPCG(23, 24))
	x, _ := randomComplex[complex64](rng, p.Len())
	// the reference sees the input as fp16 holds it
	ref := make([]complex128, len(x))
	hx := make([]Float16, 2*len(x))
	for i, v := range x {
		hx[2*i], hx[2*i+1] = Float16From(real(v)), Float16From(imag(v))
		ref[i] = complex(float64(hx[2*i].Float32()), float64(hx[2*i+1].Float32()))
	}
	want := fftref.FFTN(ref, cfg.Shape, nil, 2, false)
	tol := fftref.Tolerance(n, fftref.Half, false)

	y := make([]complex64, p.Len())
	require.NoError(t, p.Forward(y, x))
	e := fftref.LInf(toC128(y), want)
	t.Logf("fp16 storage LInf error %.3g (tolerance %.3g)", e, tol)
	require.Less(t, e, tol, "float32 host slices")
	back := make([]complex64, p.Len())
	require.NoError(t, p.Inverse(back, y))
	require.Less(t, fftref.LInf(toC128(back), ref), 2*tol, "round trip")

	hy := make([]Float16, len(hx))
	require.NoError(t, p.ForwardHalf(hy, hx))
	require.Less(t, fftref.LInf(halfToC128(hy), want), tol, "Float16 host slices")

	bx, err := NewBuffer[Float16](testDev, len(hx))
	require.NoError(t, err)
	defer bx.Close()
	require.NoError(t, bx.Upload(hx))
	require.NoError(t, p.ForwardHalfBuffer(bx, bx))
	require.NoError(t, bx.Download(hy))
	require.Less(t, fftref.LInf(halfToC128(hy), want), tol, "fp16 buffer in place")

	// typed complex64 buffers are refused: the device data is fp16
	bc, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer bc.Close()
	err = p.ForwardBuffer(bc, bc)
	require.True(t, errors.Is(err, ErrUnsupported), "%v", err)

	// real-to-complex and real-to-real in fp16 storage
	rp := sharedRealPlan[float32, complex64](t, Config{Shape: []int{16}, Batch: 4, Storage: StorageHalf})
	rx, rref := randomReal[float32](rng, rp.RealLen())
	for i := range rx {
		rx[i] = Float16From(rx[i]).Float32()
		rref[i] = float64(rx[i])
	}
	ry := make([]complex64, rp.ComplexLen())
	require.NoError(t, rp.Forward(ry, rx))
	require.Less(t, fftref.LInf(toC128(ry), fftref.RFFTN(rref, []int{16}, nil, 4)), tol, "R2C")
	dp := sharedR2RPlan[float32](t, Config{Shape: []int{16}, Batch: 4, Storage: StorageHalf}, DCT2)
	dy := make([]float32, dp.Len())
	require.NoError(t, dp.Forward(dy, rx))
	require.Less(t, fftref.LInfReal(toF64(dy), fftref.R2RN(rref, []int{16}, nil, 4, fftref.DCT2)), tol, "DCT2")

	if !raceEnabled {
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.Forward(y, x) }), "converting host path")
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.ForwardHalfBuffer(bx, bx) }), "fp16 buffers")
	}
}

func halfToC128(h []Float16) []complex128 {
	out := make([]complex128, len(h)/2)
	for i := range out {
		out[i] = complex(float64(h[2*i].Float32()), float64(h[2*i+1].Float32()))
	}
	return out
}
