//go:build cgo && cuda

package vkfft

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCUDAOutOfMemory fills the device with buffers until allocation fails, then asks
// for plans: each fails with ErrOutOfMemory (no crash, no other error, nothing leaked),
// and once AllocCache().Trim() and closing some buffers gave memory back, new plans are
// built and compute right. At the end free device memory is what it was at the start.
// The GPU step oom (tests/gpu/steps/oom.sh) runs it; its log is the recovery log.
func TestCUDAOutOfMemory(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	free0, total, err := d.MemInfo()
	require.NoError(t, err)
	t.Logf("device: %s, %d MiB total, %d MiB free", d.Info().Name, total>>20, free0>>20)

	var bufs []*Buffer[complex64]
	var held int64
	for _, chunk := range []int64{4 << 30, 256 << 20, 16 << 20, 1 << 20} {
		for {
			b, err := NewBuffer[complex64](d, int(chunk/8))
			if err != nil {
				require.ErrorIs(t, err, ErrOutOfMemory, "filling with %d MiB buffers", chunk>>20)
				break
			}
			bufs = append(bufs, b)
			held += chunk
		}
	}
	free, _, err := d.MemInfo()
	require.NoError(t, err)
	t.Logf("filled: %d buffers, %d MiB; the driver reports %d MiB free", len(bufs), held>>20, free>>20)
	require.Greater(t, held, int64(total/2), "the fill stopped early")

	cfg := Config{Shape: []int{256, 256, 256}} // 128 MiB of buffers, and VkFFT's own
	for i := 0; i < 3; i++ {
		_, err := NewPlan[complex64](d, cfg)
		require.Error(t, err)
		require.True(t, errors.Is(err, ErrOutOfMemory), "NewPlan on a full device: %v", err)
		if i == 0 {
			t.Logf("NewPlan on the full device: %v", err)
		}
	}
	_, err = NewBuffer[complex64](d, 1<<27)
	require.ErrorIs(t, err, ErrOutOfMemory)

	// give back two of the large buffers (through the allocation cache) and trim it
	for _, b := range bufs[:2] {
		require.NoError(t, b.Close())
	}
	bufs = bufs[2:]
	d.AllocCache().Trim()
	require.Zero(t, d.AllocCache().Stats().BytesHeld)
	freeMid, _, err := d.MemInfo()
	require.NoError(t, err)
	t.Logf("after closing 2 buffers and Trim: %d MiB free", freeMid>>20)

	// a plan too big for what is free fails, repeatedly, without leaking
	huge := Config{Shape: []int{2048, 1024, 1024}} // 16 GiB of buffers, twice what is free
	for i := 0; i < 3; i++ {
		_, err := NewPlan[complex64](d, huge)
		require.ErrorIs(t, err, ErrOutOfMemory)
	}
	d.AllocCache().Trim()
	freeAfterFailures, _, err := d.MemInfo()
	require.NoError(t, err)
	require.InDelta(t, float64(freeMid), float64(freeAfterFailures), float64(16<<20),
		"failed plan creations leaked %d bytes", int64(freeMid)-int64(freeAfterFailures))

	p, err := NewPlan[complex64](d, cfg)
	require.NoError(t, err, "a plan once memory was given back")
	x := cuRandom(11, p.Len())
	y := make([]complex64, len(x))
	require.NoError(t, p.Forward(y, x))
	require.NoError(t, p.Inverse(y, y))
	require.Less(t, cuMaxDiff(x, y), 1e-5)
	t.Logf("NewPlan %v after recovery: round trip ok", cfg.Shape)

	require.NoError(t, p.Close())
	for _, b := range bufs {
		require.NoError(t, b.Close())
	}
	d.AllocCache().Trim()
	require.Zero(t, d.MemStats().LiveAllocations)
	free1, _, err := d.MemInfo()
	require.NoError(t, err)
	t.Logf("all closed and trimmed: %d MiB free (start %d MiB, drift %d bytes)", free1>>20, free0>>20,
		int64(free0)-int64(free1))
	require.InDelta(t, float64(free0), float64(free1), float64(64<<20), "device memory not given back")
}
