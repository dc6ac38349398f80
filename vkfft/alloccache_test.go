package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBucketSize(t *testing.T) {
	cases := []struct{ in, want int64 }{
		{1, 4096}, {4096, 4096}, {4097, 8192}, {16 << 10, 16 << 10},
		{16<<10 + 1, 20 << 10}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<18},
		{3 << 20, 3 << 20}, {100 << 20, 112 << 20},
	}
	for _, c := range cases {
		got := bucketSize(c.in)
		require.Equal(t, c.want, got, "bucketSize(%d)", c.in)
		require.GreaterOrEqual(t, got, c.in)
		if c.in > 16<<10 {
			require.LessOrEqual(t, float64(got), 1.25*float64(c.in)+1, "waste over 25%% for %d", c.in)
		}
	}
}

// Buffers and plans created and closed in a loop reuse cached device memory: after the
// first round no device allocation or free happens.
func TestAllocCacheSteadyState(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	c := d.AllocCache()
	round := func() {
		b, err := NewBuffer[complex64](d, 1000)
		require.NoError(t, err)
		b2, err := NewBuffer[float64](d, 33333)
		require.NoError(t, err)
		require.NoError(t, b.Close())
		require.NoError(t, b2.Close())
	}
	round()
	first := d.MemStats()
	for i := 0; i < 200; i++ {
		round()
	}
	after := d.MemStats()
	st := c.Stats()
	t.Logf("200 rounds: %+v, cache %+v", after, st)
	require.Equal(t, first.Allocations, after.Allocations, "device allocations on the steady state")
	require.Equal(t, first.Frees, after.Frees, "device frees on the steady state")
	require.EqualValues(t, 400, st.Hits)
	require.Zero(t, after.LiveAllocations)
	require.Equal(t, st.BytesHeld, after.CachedBytes)
	require.Positive(t, st.BytesHeld)

	// a plan reuses the memory a closed plan of the same shape released
	p, err := NewPlan[complex64](d, Config{Shape: []int{64, 64}})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	allocs := d.MemStats().Allocations
	p, err = NewPlan[complex64](d, Config{Shape: []int{64, 64}})
	require.NoError(t, err)
	require.Equal(t, allocs, d.MemStats().Allocations)
	x := make([]complex64, p.Len())
	x[0] = 1
	require.NoError(t, p.Forward(x, x))
	require.Equal(t, complex64(1), x[len(x)-1], "a plan on reused memory computes correctly")
	require.NoError(t, p.Close())

	c.Trim()
	st = c.Stats()
	require.Zero(t, st.BytesHeld)
	ms := d.MemStats()
	require.Equal(t, ms.Allocations, ms.Frees, "Trim returns everything to the device")
}

// SetLimit bounds what the cache holds; 0 turns it off.
func TestAllocCacheLimit(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	c := d.AllocCache()
	c.SetLimit(64 << 10)
	var bufs []*Buffer[float32]
	for i := 0; i < 8; i++ {
		b, err := NewBuffer[float32](d, 4096) // 16 KiB each
		require.NoError(t, err)
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		require.NoError(t, b.Close())
	}
	st := c.Stats()
	require.LessOrEqual(t, st.BytesHeld, int64(64<<10))
	require.EqualValues(t, 4, st.Evicted)

	c.SetLimit(0)
	st = c.Stats()
	require.Zero(t, st.BytesHeld)
	b, err := NewBuffer[float32](d, 4096)
	require.NoError(t, err)
	frees := d.MemStats().Frees
	require.NoError(t, b.Close())
	require.Equal(t, frees+1, d.MemStats().Frees, "with the cache off, Close frees at once")
}
