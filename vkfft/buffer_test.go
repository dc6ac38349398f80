package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Device-resident transforms give the same results as the host path, in place and out
// of place, for complex and real plans.
func TestBufferTransforms(t *testing.T) {
	cfg := Config{Shape: []int{8, 6, 10}}
	p := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(3, 4))
	x, _ := randomComplex[complex64](rng, p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))

	src, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer src.Close()
	dst, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer dst.Close()
	require.Equal(t, testDev, src.Device())

	require.NoError(t, src.Upload(x))
	require.NoError(t, p.ForwardBuffer(dst, src))
	got := make([]complex64, p.Len())
	require.NoError(t, dst.Download(got))
	require.Equal(t, want, got, "out of place")
	require.NoError(t, src.Download(got))
	require.Equal(t, x, got, "out-of-place C2C must leave src alone")

	require.NoError(t, p.ForwardBuffer(src, src))
	require.NoError(t, p.InverseBuffer(src, src))
	require.NoError(t, src.Download(got))
	require.Less(t, relErr(got, toC128(x)), 1e-6, "in-place round trip")

	rp := sharedRealPlan[float32, complex64](t, cfg)
	r, _ := randomReal[float32](rng, rp.RealLen())
	wantSpec := make([]complex64, rp.ComplexLen())
	require.NoError(t, rp.Forward(wantSpec, r))
	rb, err := NewBuffer[float32](testDev, rp.RealLen())
	require.NoError(t, err)
	defer rb.Close()
	cb, err := NewBuffer[complex64](testDev, rp.ComplexLen())
	require.NoError(t, err)
	defer cb.Close()
	require.NoError(t, rb.Upload(r))
	require.NoError(t, rp.ForwardBuffer(cb, rb))
	gotSpec := make([]complex64, rp.ComplexLen())
	require.NoError(t, cb.Download(gotSpec))
	require.Equal(t, wantSpec, gotSpec)
	out, err := NewBuffer[float32](testDev, rp.RealLen())
	require.NoError(t, err)
	defer out.Close()
	require.NoError(t, rp.InverseBuffer(out, cb))
	back := make([]float32, rp.RealLen())
	require.NoError(t, out.Download(back))
	require.Less(t, relErrReal(back, toF64(r)), 1e-6, "real round trip on buffers")
}

func toC128[T Complex](x []T) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = complex128(v)
	}
	return out
}

func toF64[R Real](x []R) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// CopyFrom copies device memory on the device's queue, in order with transforms; it
// refuses buffers of another length or device, nil and closed ones.
func TestBufferCopyFrom(t *testing.T) {
	const n = 4096
	x := make([]complex64, n)
	for i := range x {
		x[i] = complex(float32(i), -float32(i))
	}
	a, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Upload(x))
	require.NoError(t, b.CopyFrom(a))
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{n}})
	require.NoError(t, err)
	defer p.Close()
	require.NoError(t, p.ForwardBuffer(a, a)) // queued after the copy: b keeps x
	got := make([]complex64, n)
	require.NoError(t, b.Download(got))
	require.Equal(t, x, got)
	require.NoError(t, b.CopyFrom(b), "a copy into itself")
	require.NoError(t, b.Download(got))
	require.Equal(t, x, got)

	short, err := NewBuffer[complex64](testDev, n-1)
	require.NoError(t, err)
	defer short.Close()
	require.ErrorIs(t, b.CopyFrom(short), ErrLength)
	require.ErrorIs(t, b.CopyFrom(nil), ErrNilBuffer)
	other, err := Open(0)
	require.NoError(t, err)
	defer other.Close()
	far, err := NewBuffer[complex64](other, n)
	require.NoError(t, err)
	require.ErrorIs(t, b.CopyFrom(far), ErrWrongDevice)
	require.NoError(t, far.Close())
	closed, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	require.ErrorIs(t, b.CopyFrom(closed), ErrClosed)
	require.ErrorIs(t, closed.CopyFrom(b), ErrClosed)
}
