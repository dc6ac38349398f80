package vkfft

import (
	"errors"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// bytesOf views a slice's elements as bytes.
func bytesOf[T any](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// A BytePlan computes exactly what the typed plan of its kind computes, on host memory
// and on device buffers, for each kind and precision.
func TestBytePlanMatchesTypedPlans(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cfg := Config{Shape: []int{12, 20}, Batch: 2}
	t.Run("c2c single", func(t *testing.T) {
		typed := sharedPlan[complex64](t, cfg)
		bp, err := NewBytePlan(testDev, cfg, ByteKind{})
		require.NoError(t, err)
		defer bp.Close()
		x, _ := randomComplex[complex64](rng, typed.Len())
		want, got := make([]complex64, typed.Len()), make([]complex64, typed.Len())
		require.NoError(t, typed.Forward(want, x))
		require.NoError(t, bp.Forward(bytesOf(got), bytesOf(x)))
		require.Equal(t, want, got)
		require.NoError(t, typed.Inverse(want, x))
		require.NoError(t, bp.Inverse(bytesOf(got), bytesOf(x)))
		require.Equal(t, want, got)
		dst, src := bp.ForwardBytes()
		require.Equal(t, [2]int64{int64(8 * typed.Len()), int64(8 * typed.Len())}, [2]int64{dst, src})
		require.Zero(t, bp.RealBytes())
		require.Equal(t, ByteKind{}, bp.Kind())
	})
	t.Run("r2c double", func(t *testing.T) {
		typed := sharedRealPlan[float64, complex128](t, cfg)
		bp, err := NewBytePlan(testDev, cfg, ByteKind{Real: true, Double: true})
		require.NoError(t, err)
		defer bp.Close()
		r, _ := randomReal[float64](rng, typed.RealLen())
		want, got := make([]complex128, typed.ComplexLen()), make([]complex128, typed.ComplexLen())
		require.NoError(t, typed.Forward(want, r))
		require.NoError(t, bp.Forward(bytesOf(got), bytesOf(r)))
		require.Equal(t, want, got)
		back := make([]float64, typed.RealLen())
		require.NoError(t, bp.Inverse(bytesOf(back), bytesOf(got)))
		require.Less(t, relErrReal(back, r), 1e-12)
		dst, src := bp.InverseBytes()
		require.Equal(t, [2]int64{int64(8 * typed.RealLen()), int64(16 * typed.ComplexLen())}, [2]int64{dst, src})
		require.Equal(t, int64(16*typed.ComplexLen()), bp.ComplexBytes())
	})
	t.Run("buffers, r2c single and c2c double", func(t *testing.T) {
		bp, err := NewBytePlan(testDev, cfg, ByteKind{Real: true})
		require.NoError(t, err)
		defer bp.Close()
		typed := sharedRealPlan[float32, complex64](t, cfg)
		r, _ := randomReal[float32](rng, typed.RealLen())
		want := make([]complex64, typed.ComplexLen())
		require.NoError(t, typed.Forward(want, r))
		br, err := NewByteBuffer(testDev, bp.RealBytes())
		require.NoError(t, err)
		defer br.Close()
		bc, err := NewByteBuffer(testDev, bp.ComplexBytes())
		require.NoError(t, err)
		defer bc.Close()
		require.NoError(t, br.Upload(bytesOf(r)))
		require.NoError(t, bp.ForwardBuffer(bc, br))
		got := make([]complex64, typed.ComplexLen())
		require.NoError(t, bc.Download(bytesOf(got)))
		require.Equal(t, want, got)
		require.NoError(t, bp.InverseBuffer(br, bc))
		back := make([]float32, typed.RealLen())
		require.NoError(t, br.Download(bytesOf(back)))
		require.Less(t, relErrReal(back, toF64(r)), 1e-6)
		// the same through native handles
		clear(got)
		require.NoError(t, br.Upload(bytesOf(r)))
		require.NoError(t, bp.ForwardNative(bc.Native(), br.Native()))
		require.NoError(t, bc.Download(bytesOf(got)))
		require.Equal(t, want, got)
		clear(back)
		require.NoError(t, bp.InverseNative(br.Native(), bc.Native()))
		require.NoError(t, br.Download(bytesOf(back)))
		require.Less(t, relErrReal(back, toF64(r)), 1e-6)
		require.ErrorIs(t, bp.ForwardBuffer(bc, bc), ErrLength)

		dp, err := NewBytePlan(testDev, cfg, ByteKind{Double: true})
		require.NoError(t, err)
		defer dp.Close()
		x, _ := randomComplex[complex128](rng, typed.RealLen())
		b1, err := NewByteBuffer(testDev, dp.ComplexBytes())
		require.NoError(t, err)
		defer b1.Close()
		b2, err := NewByteBuffer(testDev, dp.ComplexBytes())
		require.NoError(t, err)
		defer b2.Close()
		require.NoError(t, b1.Upload(bytesOf(x)))
		require.NoError(t, dp.ForwardBuffer(b2, b1)) // out of place
		require.NoError(t, dp.InverseBuffer(b2, b2)) // in place
		y := make([]complex128, len(x))
		require.NoError(t, b2.Download(bytesOf(y)))
		require.Less(t, relErr(y, x), 1e-12)
		require.NoError(t, dp.ForwardNative(b2.Native(), b1.Native())) // out of place, native
		require.NoError(t, dp.InverseNative(b2.Native(), b2.Native()))
		clear(y)
		require.NoError(t, b2.Download(bytesOf(y)))
		require.Less(t, relErr(y, x), 1e-12)
	})
}

// Sizes are checked once, in bytes, and errors name what is wrong.
func TestBytePlanBadInput(t *testing.T) {
	bp, err := NewBytePlan(testDev, Config{Shape: []int{16}}, ByteKind{Real: true})
	require.NoError(t, err)
	defer bp.Close()
	spec, real := make([]byte, bp.ComplexBytes()), make([]byte, bp.RealBytes())
	tests := []struct {
		name string
		err  error
		call func() error
		msg  string
	}{
		{"short src", ErrLength, func() error { return bp.Forward(spec, real[:60]) }, "src has 60 bytes, the plan needs 64"},
		{"long dst", ErrLength, func() error { return bp.Forward(append(spec, 0), real) }, "dst has 73 bytes, the plan needs 72"},
		{"swapped", ErrLength, func() error { return bp.Inverse(spec, real) }, "inverse"},
		{"nil src", ErrNilBuffer, func() error { return bp.Forward(spec, nil) }, "src is nil"},
		{"nil buffer", ErrNilBuffer, func() error { return bp.ForwardBuffer(nil, nil) }, "dst is nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, tc.err)
			require.ErrorContains(t, err, tc.msg)
		})
	}
	_, err = NewBytePlan(testDev, Config{Shape: []int{0}}, ByteKind{})
	require.ErrorIs(t, err, ErrInvalidShape)
	_, err = NewByteBuffer(testDev, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)

	b, err := NewByteBuffer(testDev, 7) // any size, not only whole elements
	require.NoError(t, err)
	require.Equal(t, int64(7), b.Bytes())
	require.NoError(t, b.Upload([]byte{1, 2, 3, 4, 5, 6, 7}))
	got := make([]byte, 7)
	require.NoError(t, b.Download(got))
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7}, got)
	require.NoError(t, b.Close())
	require.NoError(t, b.Close())
	require.ErrorIs(t, b.Upload(got), ErrClosed)
	require.Zero(t, b.Native())

	require.NoError(t, bp.Close())
	require.True(t, errors.Is(bp.Forward(spec, real), ErrClosed))
}

// BytePlan's calls allocate nothing on the Go heap, like the typed plans'.
func TestBytePlanZeroAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	cfg := Config{Shape: []int{16, 16}, Batch: 2}
	bp, err := NewBytePlan(testDev, cfg, ByteKind{})
	require.NoError(t, err)
	defer bp.Close()
	x, y := make([]byte, bp.ComplexBytes()), make([]byte, bp.ComplexBytes())
	bx, err := NewByteBuffer(testDev, bp.ComplexBytes())
	require.NoError(t, err)
	defer bx.Close()
	by, err := NewByteBuffer(testDev, bp.ComplexBytes())
	require.NoError(t, err)
	defer by.Close()
	calls := []struct {
		name string
		f    func() error
	}{
		{"Forward", func() error { return bp.Forward(y, x) }},
		{"Inverse in place", func() error { return bp.Inverse(x, x) }},
		{"ForwardBuffer out of place", func() error { return bp.ForwardBuffer(by, bx) }},
		{"InverseBuffer in place", func() error { return bp.InverseBuffer(bx, bx) }},
		{"ForwardNative", func() error { return bp.ForwardNative(bx.Native(), bx.Native()) }},
		{"ByteBuffer.Upload", func() error { return bx.Upload(x) }},
		{"ByteBuffer.Download", func() error { return bx.Download(y) }},
	}
	for _, call := range calls {
		t.Run(call.name, func(t *testing.T) {
			require.NoError(t, call.f())
			var err error
			allocs := testing.AllocsPerRun(50, func() {
				if e := call.f(); e != nil {
					err = e
				}
			})
			require.NoError(t, err)
			require.Zero(t, allocs, "%s allocates %.1f times per call", call.name, allocs)
		})
	}
}
