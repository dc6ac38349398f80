//go:build vkfftgo_faults && cgo

package vkfft

// Pool calls whose shards fail, stall or panic (go test -tags vkfftgo_faults): a pool
// call returns the failing shard's error once every shard is done, never before and
// never not at all.

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var errInjected = errors.New("injected shard failure")

// failFirst makes the first shard reaching faultPoolShard's error check fail, and
// reports on failed when it has.
func failFirst(t *testing.T) (failed chan struct{}) {
	failed = make(chan struct{})
	var n atomic.Int32
	setFaultError(faultPoolShard, func() error {
		if n.Add(1) == 1 {
			close(failed)
			return errInjected
		}
		return nil
	})
	t.Cleanup(func() { setFaultError(faultPoolShard, nil) })
	return failed
}

func poolFaultPlan(t *testing.T) (*PoolPlan[complex64], []complex64, []complex64) {
	pool := testPool(t, 2)
	cfg := Config{Shape: []int{64}, Batch: 4}
	p, err := NewPoolPlan[complex64](pool, cfg)
	require.NoError(t, err)
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(11, 12)), p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, sharedPlan[complex64](t, cfg).Forward(want, x))
	return p, x, want
}

// One shard fails: the call returns its error alone, wrapped in a ShardError naming
// its device; the next call runs every shard again.
func TestFaultPoolShardError(t *testing.T) {
	p, x, want := poolFaultPlan(t)
	failFirst(t)
	got := make([]complex64, p.Len())
	done := make(chan error, 1)
	go func() { done <- p.Forward(got, x) }()
	err := within(t, done, "a pool call with a failing shard")
	require.ErrorIs(t, err, errInjected)
	var se *ShardError
	require.True(t, errors.As(err, &se))
	require.Equal(t, "forward", se.Op)
	require.Contains(t, []int{0, 1}, se.Shard)
	require.Equal(t, p.core.shards[se.Shard].dev.Info().Index, se.Device)
	require.NotContains(t, err.Error(), "\n", "one shard failed: one error, not a joined list")
	half := p.Len() / 2
	other := 1 - se.Shard
	requireSameBits(t, want[other*half:(other+1)*half], got[other*half:(other+1)*half], "the other shard's part")

	go func() { done <- p.Forward(got, x) }()
	require.NoError(t, within(t, done, "the next call"))
	requireSameBits(t, want, got, "the next call")
	require.NoError(t, p.Close())
}

// A shard that fails while another is still working: the call waits for the slow one
// (which writes into the caller's memory) before it returns the error.
func TestFaultPoolCallWaitsForEveryShard(t *testing.T) {
	p, x, want := poolFaultPlan(t)
	entered, release := pauseOnce(t, faultPoolShard) // the first shard stalls before its error check
	failed := failFirst(t)                           // so the other is the one that fails
	got := make([]complex64, p.Len())
	done := make(chan error, 1)
	go func() { done <- p.Forward(got, x) }()
	within(t, entered, "a shard stalling")
	within(t, failed, "the other shard failing")
	select {
	case err := <-done:
		t.Fatalf("the call returned (%v) while a shard was still running", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	err := within(t, done, "the call after the stalled shard went on")
	var se *ShardError
	require.True(t, errors.As(err, &se))
	require.ErrorIs(t, err, errInjected)
	half := p.Len() / 2
	slow := 1 - se.Shard
	requireSameBits(t, want[slow*half:(slow+1)*half], got[slow*half:(slow+1)*half], "the stalled shard's part")
	require.NoError(t, p.Close())
}

// A shard's panic is raised in the caller once every shard is done; the workers live
// on, and the plan still runs and closes.
func TestFaultPoolShardPanic(t *testing.T) {
	p, x, want := poolFaultPlan(t)
	var once sync.Once
	setFaultPause(faultPoolShard, func() { once.Do(func() { panic("injected shard panic") }) })
	t.Cleanup(func() { setFaultPause(faultPoolShard, nil) })
	got := make([]complex64, p.Len())
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		_ = p.Forward(got, x)
	}()
	require.Equal(t, "injected shard panic", within(t, done, "a pool call with a panicking shard"))
	errc := make(chan error, 1)
	go func() { errc <- p.Forward(got, x) }()
	require.NoError(t, within(t, errc, "the next call"))
	requireSameBits(t, want, got, "the next call")
	go func() { errc <- p.Close() }()
	require.NoError(t, within(t, errc, "Close"))
}
