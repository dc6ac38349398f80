//go:build cgo && cuda

package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft/internal/cudatest"
)

// TestCUDAPtrOrderedWithAsync: one plan used on a Stream (ForwardAsync) and right after
// on a caller's stream (ForwardPtr), neither waited for in between. The plan's buffers,
// VkFFT's temporary one among them, are shared, so the caller's stream must wait for the
// Stream's work (*Ptr calls used to ignore the plan's ordering); then both results are
// right (bit for bit: the same kernels) every round. And back: a Stream after a caller's stream.
func TestCUDAPtrOrderedWithAsync(t *testing.T) {
	d := testDev
	cfg := Config{Shape: []int{1 << 20}, Batch: 4} // four-step: VkFFT's temporary buffer in use
	p, err := NewPlan[complex64](d, cfg)
	require.NoError(t, err)
	defer p.Close()
	x := cuRandom(13, p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))

	in, out := hostBufferPair[complex64](t, p.Len())
	copy(in.Slice(), x)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	ctx := d.CUDAContext()
	caller, err := cudatest.CreateStream(ctx)
	require.NoError(t, err)
	defer cudatest.DestroyStream(ctx, caller)
	buf, err := NewBuffer[complex64](d, p.Len())
	require.NoError(t, err)
	defer buf.Close()
	got := make([]complex64, p.Len())
	for round := 0; round < 10; round++ {
		require.NoError(t, buf.Upload(x))
		clear(out.Slice())
		require.NoError(t, p.ForwardAsync(s, out, in))
		require.NoError(t, p.ForwardPtr(buf.Ptr(), buf.Ptr(), caller))
		require.NoError(t, cudatest.SyncStream(ctx, caller))
		require.NoError(t, s.Wait())
		require.NoError(t, buf.Download(got))
		require.Equal(t, want, got, "round %d: the caller's stream", round)
		require.Equal(t, want, out.Slice(), "round %d: the Stream", round)

		require.NoError(t, buf.Upload(x))
		clear(out.Slice())
		require.NoError(t, p.ForwardPtr(buf.Ptr(), buf.Ptr(), caller))
		require.NoError(t, p.ForwardAsync(s, out, in))
		require.NoError(t, s.Wait())
		require.NoError(t, cudatest.SyncStream(ctx, caller))
		require.NoError(t, buf.Download(got))
		require.Equal(t, want, got, "round %d: the caller's stream first", round)
		require.Equal(t, want, out.Slice(), "round %d: the Stream second", round)
	}
}
