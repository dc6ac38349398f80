package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Bad configurations are rejected before anything touches the device, each with an
// errors.Is-able sentinel and a message naming the problem.
func TestBadConfig(t *testing.T) {
	cases := []struct {
		name    string
		cfg     Config
		want    error
		message string
	}{
		{"no shape", Config{}, ErrInvalidShape, "no dimensions"},
		{"zero dimension", Config{Shape: []int{16, 0}}, ErrInvalidShape, "dimension 1 of [16 0] is 0"},
		{"negative dimension", Config{Shape: []int{-4}}, ErrInvalidShape, "is -4"},
		{"five dimensions", Config{Shape: []int{2, 2, 2, 2, 2}}, ErrInvalidShape, "5 dimensions"},
		{"negative batch", Config{Shape: []int{8}, Batch: -1}, ErrInvalidBatch, "batch -1"},
		{"unknown norm", Config{Shape: []int{8}, Norm: Norm(9)}, ErrInvalidArgument, "normalisation"},
		{"unknown LUT", Config{Shape: []int{8}, LUT: LUT(-1)}, ErrInvalidArgument, "LUT"},
		{"negative tuning", Config{Shape: []int{8}, Tuning: Tuning{AimThreads: -1}}, ErrInvalidArgument, "tuning"},
		{"overflowing shape", Config{Shape: []int{1 << 40, 1 << 40}}, ErrTooLarge, "overflows"},
		{"larger than the device", Config{Shape: []int{1 << 20, 1 << 20, 1 << 10}}, ErrTooLarge, "bytes in one buffer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPlan[complex64](testDev, tc.cfg)
			require.ErrorIs(t, err, tc.want)
			require.ErrorContains(t, err, tc.message)
			_, err = NewRealPlan[float64, complex128](testDev, tc.cfg)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestBadDevice(t *testing.T) {
	_, err := Open(-1)
	require.ErrorIs(t, err, ErrNoDevice)
	_, err = Open(1 << 20)
	require.ErrorIs(t, err, ErrNoDevice)
	_, err = NewPlan[complex64](nil, Config{Shape: []int{8}})
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewRealPlan[float32, complex128](testDev, Config{Shape: []int{8}})
	require.ErrorIs(t, err, ErrPrecision)
	_, err = NewBuffer[complex64](testDev, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewBuffer[complex64](testDev, -3)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

// Wrong arguments to transforms: nil and wrongly sized slices and buffers, buffers of
// another device, closed buffers.
func TestBadCallArguments(t *testing.T) {
	p := sharedPlan[complex64](t, Config{Shape: []int{16, 16}})
	rp := sharedRealPlan[float32, complex64](t, Config{Shape: []int{16, 16}})
	n := p.Len()
	ok := make([]complex64, n)
	short := make([]complex64, n-1)
	b, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	defer b.Close()
	small, err := NewBuffer[complex64](testDev, n/2)
	require.NoError(t, err)
	defer small.Close()
	closed, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	other, err := Open(0)
	require.NoError(t, err)
	defer other.Close()
	foreign, err := NewBuffer[complex64](other, n)
	require.NoError(t, err)

	cases := []struct {
		name    string
		call    func() error
		want    error
		message string
	}{
		{"nil src", func() error { return p.Forward(ok, nil) }, ErrNilBuffer, "src is nil"},
		{"nil dst", func() error { return p.Inverse(nil, ok) }, ErrNilBuffer, "dst is nil"},
		{"short src", func() error { return p.Forward(ok, short) }, ErrLength, "src has 255 elements, the plan needs 256"},
		{"long dst", func() error { return p.Forward(make([]complex64, n+1), ok) }, ErrLength, "dst has 257"},
		{"real src length", func() error { return rp.Forward(make([]complex64, rp.ComplexLen()), make([]float32, 10)) }, ErrLength, "src has 10"},
		{"real dst length", func() error { return rp.Inverse(make([]float32, 10), make([]complex64, rp.ComplexLen())) }, ErrLength, "dst has 10"},
		{"spectrum length", func() error { return rp.Forward(ok, make([]float32, rp.RealLen())) }, ErrLength, "the plan needs 144"},
		{"nil buffer", func() error { return p.ForwardBuffer(nil, b) }, ErrNilBuffer, "dst is nil"},
		{"small buffer", func() error { return p.ForwardBuffer(b, small) }, ErrLength, "src has 128"},
		{"closed buffer", func() error { return p.ForwardBuffer(closed, closed) }, ErrClosed, "closed buffer"},
		{"foreign buffer", func() error { return p.ForwardBuffer(foreign, foreign) }, ErrWrongDevice, "another device"},
		{"upload length", func() error { return b.Upload(short) }, ErrLength, "src has 255"},
		{"download nil", func() error { return b.Download(nil) }, ErrNilBuffer, "dst is nil"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, tc.want)
			require.ErrorContains(t, err, tc.message)
		})
	}
}
