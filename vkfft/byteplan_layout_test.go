package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A BytePlan runs every plan a Config and ByteKind describe — real-to-real kinds,
// strided device memory, in-place R2C, storage modes — exactly as the typed plan of the
// same description does, with the byte sizes and in-place rules of that layout.
func TestBytePlanLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	t.Run("r2r dct2 double", func(t *testing.T) {
		cfg := Config{Shape: []int{10}, Batch: 3}
		typed := sharedR2RPlan[float64](t, cfg, DCT2)
		bp, err := NewBytePlan(testDev, cfg, ByteKind{Double: true, R2R: DCT2})
		require.NoError(t, err)
		defer bp.Close()
		n := typed.Len()
		require.Zero(t, bp.ComplexBytes())
		require.Equal(t, int64(8*n), bp.RealBytes())
		dst, src := bp.InverseBytes()
		require.Equal(t, [2]int64{int64(8 * n), int64(8 * n)}, [2]int64{dst, src})
		x, _ := randomReal[float64](rng, n)
		want, got := make([]float64, n), make([]float64, n)
		require.NoError(t, typed.Forward(want, x))
		require.NoError(t, bp.Forward(bytesOf(got), bytesOf(x)))
		require.Equal(t, want, got)
		require.NoError(t, bp.Inverse(bytesOf(got), bytesOf(got))) // in place
		require.Less(t, relErrReal(got, x), 1e-12)
		b, err := NewByteBuffer(testDev, 8*int64(n))
		require.NoError(t, err)
		defer b.Close()
		require.NoError(t, b.Upload(bytesOf(x)))
		require.NoError(t, bp.ForwardBuffer(b, b))
		require.NoError(t, b.Download(bytesOf(got)))
		require.Equal(t, want, got)
	})
	t.Run("strided c2c double", func(t *testing.T) {
		// rows of 5 in rows of 8, along the last axis
		shape, strides := []int{3, 5}, []int{8, 1}
		cfg := Config{Shape: shape, Axes: []int{1}, InStrides: strides, OutStrides: strides}
		bp, err := NewBytePlan(testDev, cfg, ByteKind{Double: true})
		require.NoError(t, err)
		defer bp.Close()
		span := 2*8 + 5
		dst, src := bp.ForwardBytes()
		require.Equal(t, [2]int64{int64(16 * span), int64(16 * span)}, [2]int64{dst, src})
		x, _ := randomComplex[complex128](rng, 15)
		img := image(x, shape, strides, 1, span, complex(7, 7))
		typed := sharedPlan[complex128](t, Config{Shape: shape, Axes: []int{1}})
		want := make([]complex128, 15)
		require.NoError(t, typed.Forward(want, x))

		in, err := NewByteBuffer(testDev, int64(16*span))
		require.NoError(t, err)
		defer in.Close()
		out, err := NewByteBuffer(testDev, int64(16*(span+3))) // larger than needed is fine
		require.NoError(t, err)
		defer out.Close()
		require.NoError(t, in.Upload(bytesOf(img)))
		fill := make([]complex128, span+3)
		for i := range fill {
			fill[i] = complex(7, 7)
		}
		require.NoError(t, out.Upload(bytesOf(fill)))
		require.NoError(t, bp.ForwardBuffer(out, in))
		got := make([]complex128, span+3)
		require.NoError(t, out.Download(bytesOf(got)))
		require.Less(t, relErr(unimage(got[:span], shape, strides, 1), want), 1e-12)
		gapsUntouched(t, got[:span], shape, strides, 1, complex(7, 7), "out")
		// in place: equal strides
		require.NoError(t, bp.ForwardBuffer(in, in))
		require.NoError(t, in.Download(bytesOf(got[:span])))
		require.Less(t, relErr(unimage(got[:span], shape, strides, 1), want), 1e-12)
		// native memory, out of place
		require.NoError(t, in.Upload(bytesOf(img)))
		require.NoError(t, bp.ForwardNative(out.Native(), in.Native()))
		require.NoError(t, out.Download(bytesOf(got)))
		require.Less(t, relErr(unimage(got[:span], shape, strides, 1), want), 1e-12)

		small, err := NewByteBuffer(testDev, int64(16*span-16))
		require.NoError(t, err)
		defer small.Close()
		require.ErrorIs(t, bp.ForwardBuffer(out, small), ErrLength)
		require.ErrorContains(t, bp.ForwardBuffer(out, small), "strides reach")
		host := make([]byte, 16*span)
		require.ErrorIs(t, bp.Forward(host, host), ErrUnsupported)
	})
	t.Run("strided in place needs equal strides", func(t *testing.T) {
		cfg := Config{Shape: []int{3, 5}, Axes: []int{1}, InStrides: []int{8, 1}, OutStrides: []int{5, 1}}
		bp, err := NewBytePlan(testDev, cfg, ByteKind{})
		require.NoError(t, err)
		defer bp.Close()
		dst, src := bp.InverseBytes()
		require.Equal(t, [2]int64{15 * 8, 21 * 8}, [2]int64{dst, src})
		b, err := NewByteBuffer(testDev, 21*8)
		require.NoError(t, err)
		defer b.Close()
		require.ErrorIs(t, bp.ForwardBuffer(b, b), ErrInvalidArgument)
		require.ErrorContains(t, bp.ForwardNative(b.Native(), b.Native()), "InStrides equal to OutStrides")
	})
	t.Run("in-place r2c double", func(t *testing.T) {
		cfg := Config{Shape: []int{7}, Batch: 2, RealInPlace: true}
		typed := sharedRealPlan[float64, complex128](t, cfg)
		bp, err := NewBytePlan(testDev, cfg, ByteKind{Real: true, Double: true})
		require.NoError(t, err)
		defer bp.Close()
		padded := typed.PaddedLen()
		require.Equal(t, int64(8*padded), bp.ComplexBytes())
		require.Zero(t, bp.RealBytes())
		for _, inverse := range []bool{false, true} {
			dst, src := bp.ForwardBytes()
			if inverse {
				dst, src = bp.InverseBytes()
			}
			require.Equal(t, [2]int64{int64(8 * padded), int64(8 * padded)}, [2]int64{dst, src})
		}
		x, _ := randomReal[float64](rng, padded)
		want := append([]float64(nil), x...)
		require.NoError(t, typed.ForwardInPlace(want))
		got := append([]float64(nil), x...)
		require.NoError(t, bp.Forward(bytesOf(got), bytesOf(got)))
		require.Equal(t, want, got)
		other := make([]float64, padded)
		require.ErrorIs(t, bp.Forward(bytesOf(other), bytesOf(got)), ErrInvalidArgument)

		b, err := NewByteBuffer(testDev, int64(8*padded))
		require.NoError(t, err)
		defer b.Close()
		b2, err := NewByteBuffer(testDev, int64(8*padded))
		require.NoError(t, err)
		defer b2.Close()
		require.NoError(t, b.Upload(bytesOf(x)))
		require.NoError(t, bp.ForwardBuffer(b, b))
		require.NoError(t, b.Download(bytesOf(got)))
		require.Equal(t, want, got)
		require.NoError(t, bp.InverseNative(b.Native(), b.Native()))
		require.NoError(t, b.Download(bytesOf(got)))
		for r := 0; r < 2; r++ { // the padding is undefined after the inverse
			require.InDeltaSlice(t, x[r*8:r*8+7], got[r*8:r*8+7], 1e-12)
		}
		require.ErrorContains(t, bp.ForwardBuffer(b2, b), "dst must be src")
		require.ErrorIs(t, bp.ForwardNative(b2.Native(), b.Native()), ErrInvalidArgument)
	})
	t.Run("out-of-place r2c refuses one buffer", func(t *testing.T) {
		bp, err := NewBytePlan(testDev, Config{Shape: []int{16}}, ByteKind{Real: true})
		require.NoError(t, err)
		defer bp.Close()
		b, err := NewByteBuffer(testDev, bp.ComplexBytes())
		require.NoError(t, err)
		defer b.Close()
		require.ErrorIs(t, bp.ForwardNative(b.Native(), b.Native()), ErrInvalidArgument)
	})
	t.Run("storage", func(t *testing.T) {
		cfg := Config{Shape: []int{64}, Storage: StorageFloatComputeDouble}
		typed := sharedPlan[complex64](t, cfg)
		bp, err := NewBytePlan(testDev, cfg, ByteKind{})
		require.NoError(t, err)
		defer bp.Close()
		x, _ := randomComplex[complex64](rng, 64)
		want, got := make([]complex64, 64), make([]complex64, 64)
		require.NoError(t, typed.Forward(want, x))
		require.NoError(t, bp.Forward(bytesOf(got), bytesOf(x)))
		require.Equal(t, want, got)

		half := Config{Shape: []int{64}, Storage: StorageHalf}
		hp, err := NewBytePlan(testDev, half, ByteKind{})
		if !testDev.Info().HalfPrecision {
			require.ErrorIs(t, err, ErrUnsupported)
			return
		}
		require.NoError(t, err)
		defer hp.Close()
		dst, src := hp.ForwardBytes()
		require.Equal(t, [2]int64{4 * 64, 4 * 64}, [2]int64{dst, src}) // fp16 bytes as they are
		typedHalf := sharedPlan[complex64](t, half)
		h := make([]Float16, 128)
		for i, v := range x {
			h[2*i], h[2*i+1] = Float16From(real(v)), Float16From(imag(v))
		}
		wantH, gotH := make([]Float16, 128), make([]Float16, 128)
		require.NoError(t, typedHalf.ForwardHalf(wantH, h))
		require.NoError(t, hp.Forward(bytesOf(gotH), bytesOf(h)))
		require.Equal(t, wantH, gotH)
	})
	t.Run("bad kind", func(t *testing.T) {
		_, err := NewBytePlan(testDev, Config{Shape: []int{8}}, ByteKind{Real: true, R2R: DCT2})
		require.ErrorIs(t, err, ErrInvalidArgument)
	})
}
