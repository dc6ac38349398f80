package vkfft

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestContextVariants: a done context starts nothing; a live one gives the same result
// as the plain call; cancelling during a plan build returns at once with ctx.Err(), and
// the plan built meanwhile is closed in the background (the device's memory returns to
// where it was).
func TestContextVariants(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewPlanContext[complex64](cancelled, testDev, Config{Shape: []int{8}})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, testDev.SyncContext(cancelled), context.Canceled)

	live, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	p, err := NewPlanContext[complex64](live, testDev, Config{Shape: []int{8, 8}})
	require.NoError(t, err)
	require.Equal(t, 64, p.Len())
	require.NoError(t, p.Close())
	rp, err := NewRealPlanContext[float32, complex64](live, testDev, Config{Shape: []int{16}})
	require.NoError(t, err)
	require.NoError(t, rp.Close())
	require.NoError(t, testDev.SyncContext(live))
	s, err := testDev.NewStream()
	require.NoError(t, err)
	require.NoError(t, s.WaitContext(live))
	require.NoError(t, s.Close())
	require.ErrorIs(t, s.WaitContext(context.Background()), ErrClosed) // Wait's own answer

	// cancel while a fresh shape compiles (kernel cache off: it really compiles)
	KernelCache().SetDir("off")
	defer KernelCache().SetDir("")
	before := testDev.MemStats().LiveBytes
	ctx, cancelBuild := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancelBuild() }()
	start := time.Now()
	_, err = NewPlanContext[complex64](ctx, testDev, Config{Shape: []int{3 * 5 * 7 * 11}, Batch: 3})
	if err == nil {
		t.Log("the build finished before the cancellation; nothing to check")
		return
	}
	require.ErrorIs(t, err, context.Canceled)
	t.Logf("returned %v after cancellation", time.Since(start))
	require.Eventually(t, func() bool { return testDev.MemStats().LiveBytes == before }, time.Minute,
		50*time.Millisecond, "the plan built after cancellation is closed")
}
