package vkfft

import (
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A slice taken from a HostBuffer before its Close: every call of the package given it
// returns ErrClosed (it used to read or write freed memory), touching it directly faults
// instead of reaching other memory, and later HostBuffers never reuse its addresses.
func TestHostBufferSliceAfterClose(t *testing.T) {
	cfg := Config{Shape: []int{128}, Batch: 4}
	p := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(41, 42))
	x, _ := randomComplex[complex64](rng, p.Len())
	hb, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	stale := hb.Slice()
	copy(stale, x)
	require.NoError(t, hb.Close())
	require.Nil(t, hb.Slice())

	y := make([]complex64, p.Len())
	require.ErrorIs(t, p.Forward(y, stale), ErrClosed, "stale src")
	require.ErrorIs(t, p.Inverse(stale, x), ErrClosed, "stale dst")
	buf, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer buf.Close()
	require.ErrorIs(t, buf.Upload(stale), ErrClosed)
	require.ErrorIs(t, buf.Download(stale), ErrClosed)
	pl, err := NewPipeline[complex64](testDev, cfg, 2)
	require.NoError(t, err)
	defer pl.Close()
	require.ErrorIs(t, pl.Forward(stale, x), ErrClosed)

	fresh, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer fresh.Close()
	a, n := uintptr(unsafe.Pointer(&stale[0])), uintptr(len(stale))*8
	b := uintptr(unsafe.Pointer(&fresh.Slice()[0]))
	require.False(t, b < a+n && a < b+n, "a new HostBuffer reuses a closed one's addresses")
	require.NoError(t, p.Forward(fresh.Slice(), x), "ordinary use goes on")

	var faulted any
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { faulted = recover() }()
		faultSink = stale[0]
	}()
	require.NotNil(t, faulted, "reading a closed HostBuffer's memory must fault")
}

// faultSink keeps the compiler from dropping the read that must fault.
var faultSink complex64
