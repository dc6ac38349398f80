package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The hot path allocates nothing on the Go heap: not for host slices, not for device
// buffers, not for real plans.
func TestZeroAllocationsPerCall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	cfg := Config{Shape: []int{16, 16}, Batch: 2}
	p := sharedPlan[complex64](t, cfg)
	rp := sharedRealPlan[float32, complex64](t, cfg)
	x := make([]complex64, p.Len())
	y := make([]complex64, p.Len())
	r := make([]float32, rp.RealLen())
	c := make([]complex64, rp.ComplexLen())
	bx, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer bx.Close()
	by, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer by.Close()
	br, err := NewBuffer[float32](testDev, rp.RealLen())
	require.NoError(t, err)
	defer br.Close()
	bc, err := NewBuffer[complex64](testDev, rp.ComplexLen())
	require.NoError(t, err)
	defer bc.Close()

	calls := []struct {
		name string
		f    func() error
	}{
		{"Forward", func() error { return p.Forward(y, x) }},
		{"Inverse", func() error { return p.Inverse(y, x) }},
		{"Forward in place", func() error { return p.Forward(x, x) }},
		{"RealPlan.Forward", func() error { return rp.Forward(c, r) }},
		{"RealPlan.Inverse", func() error { return rp.Inverse(r, c) }},
		{"ForwardBuffer in place", func() error { return p.ForwardBuffer(bx, bx) }},
		{"InverseBuffer out of place", func() error { return p.InverseBuffer(by, bx) }},
		{"RealPlan.ForwardBuffer", func() error { return rp.ForwardBuffer(bc, br) }},
		{"RealPlan.InverseBuffer", func() error { return rp.InverseBuffer(br, bc) }},
		{"Buffer.Upload", func() error { return bx.Upload(x) }},
		{"Buffer.Download", func() error { return bx.Download(y) }},
	}
	for _, call := range calls {
		t.Run(call.name, func(t *testing.T) {
			require.NoError(t, call.f()) // warm-up
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
	require.NoError(t, testDev.Sync())
}
