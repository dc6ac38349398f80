package vkfft

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// One plan used on the device's queue (ForwardBuffer, queued and not waited for) and on a
// stream (ForwardAsync) right after: the plan's buffers, VkFFT's temporary buffer among
// them, are shared, so the stream must wait for the device-queue work. Both results must
// be right every round. The size needs VkFFT's four-step algorithm and its temporary
// buffer on every device.
func TestPlanOrderAcrossQueues(t *testing.T) {
	cfg := Config{Shape: []int{1 << 16}, Batch: 2}
	p := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(31, 32))
	x, _ := randomComplex[complex64](rng, p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))

	buf, err := NewBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer buf.Close()
	in, out := hostBufferPair[complex64](t, p.Len())
	s, err := testDev.NewStream()
	require.NoError(t, err)
	defer s.Close()
	copy(in.Slice(), x)
	got := make([]complex64, p.Len())
	for round := 0; round < 8; round++ {
		require.NoError(t, buf.Upload(x))
		require.NoError(t, p.ForwardBuffer(buf, buf))
		clear(out.Slice())
		require.NoError(t, p.ForwardAsync(s, out, in))
		require.NoError(t, s.Wait())
		require.NoError(t, buf.Download(got))
		require.Equal(t, want, got, "round %d: the device-queue transform", round)
		require.Equal(t, want, out.Slice(), "round %d: the stream transform", round)
		// and back: a device-queue call after the stream's must wait for it
		require.NoError(t, p.ForwardAsync(s, out, in))
		require.NoError(t, buf.Upload(x))
		require.NoError(t, p.ForwardBuffer(buf, buf))
		require.NoError(t, buf.Download(got))
		require.NoError(t, s.Wait())
		require.Equal(t, want, got, "round %d: the device-queue transform after the stream", round)
		require.Equal(t, want, out.Slice(), "round %d: the stream transform before the device", round)
	}
}

// A stream closed while a plan that last ran on it is used on another stream: the plan
// keeps its own record of where it ran (it used to read the closed stream's queue without
// its lock: a data race for -race).
func TestStreamCloseDuringAsync(t *testing.T) {
	cfg := Config{Shape: []int{64}, Batch: 4}
	p := sharedPlan[complex64](t, cfg)
	in, out := hostBufferPair[complex64](t, p.Len())
	rng := rand.New(rand.NewPCG(33, 34))
	x, _ := randomComplex[complex64](rng, p.Len())
	copy(in.Slice(), x)
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))
	for round := 0; round < 20; round++ {
		s1, err := testDev.NewStream()
		require.NoError(t, err)
		s2, err := testDev.NewStream()
		require.NoError(t, err)
		require.NoError(t, p.ForwardAsync(s1, out, in))
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); _ = s1.Close() }()
		require.NoError(t, p.ForwardAsync(s2, out, in))
		wg.Wait()
		require.NoError(t, s2.Wait())
		require.Equal(t, want, out.Slice())
		require.NoError(t, s2.Close())
	}
}

// hostBufferPair makes two pinned buffers of n elements, closed when the test ends.
func hostBufferPair[T Element](t *testing.T, n int) (a, b *HostBuffer[T]) {
	t.Helper()
	a, err := NewHostBuffer[T](testDev, n)
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	b, err = NewHostBuffer[T](testDev, n)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return a, b
}
