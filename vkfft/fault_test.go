//go:build vkfftgo_faults && cgo

package vkfft

// Tests that need fault injection (go test -tags vkfftgo_faults): they pause goroutines
// at chosen points to force the interleavings that used to deadlock, and make calls fail
// where the device never fails on its own.

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// deadline is how long a call may take before the test calls it a deadlock: far above
// what any of these calls costs on a loaded machine. Objects that a deadlocked goroutine
// may hold locks of are closed at the end of the test, not deferred: a failing test then
// reports instead of hanging in its clean-up.
const deadline = 60 * time.Second

// within waits for ch or fails the test with what.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(deadline):
		t.Fatalf("%s did not finish within %v: deadlock", what, deadline)
		panic("unreachable")
	}
}

// pauseOnce makes the first goroutine reaching site wait until release is closed, and
// closes entered when it gets there.
func pauseOnce(t *testing.T, site faultSite) (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	setFaultPause(site, func() {
		first := false
		once.Do(func() { first = true })
		if first {
			close(entered)
			<-release
		}
	})
	t.Cleanup(func() { setFaultPause(site, nil) })
	return entered, release
}

// Defect 1: Device.Close while a Pipeline call on pageable memory holds its plans'
// locks. Close takes the device's lock and waits for the plans; the pipeline must not
// need the device's lock after taking them (it used to allocate its pinned chunk buffers
// there, and deadlocked).
func TestFaultPipelineCloseDoesNotDeadlock(t *testing.T) {
	d, err := Open(0)
	require.NoError(t, err)
	pl, err := NewPipeline[complex64](d, Config{Shape: []int{64}, Batch: 4}, 2)
	require.NoError(t, err)
	x := make([]complex64, pl.Len())
	entered, release := pauseOnce(t, faultPipelineLocked)

	done := make(chan error, 1)
	go func() { done <- pl.Forward(x, x) }()
	within(t, entered, "the pipeline call reaching its locks")
	closed := make(chan struct{})
	go func() { d.Close(); close(closed) }()
	// Close holds or waits for the device's write lock once a reader can no longer get in
	require.Eventually(t, func() bool {
		if d.mu.TryRLock() {
			d.mu.RUnlock()
			return false
		}
		return true
	}, deadline, time.Millisecond)
	close(release)
	if err := within(t, done, "Pipeline.Forward"); err != nil {
		require.ErrorIs(t, err, ErrClosed)
	}
	within(t, closed, "Device.Close")
	require.ErrorIs(t, pl.Forward(x, x), ErrClosed)
}

// Defect 2: pinned chunk buffers that fail to allocate part-way are made on the next
// call, which then works (it used to skip the set-up and dereference nil).
func TestFaultPipelineAllocationFailureRecovers(t *testing.T) {
	cfg := Config{Shape: []int{64}, Batch: 4}
	pl, err := NewPipeline[complex64](testDev, cfg, 2)
	require.NoError(t, err)
	defer pl.Close()
	var calls int
	var mu sync.Mutex
	setFaultError(faultHostAlloc, func() error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 3 { // two of the four buffers exist by then
			return errors.Join(ErrOutOfMemory, errors.New("injected: pinned allocation failed"))
		}
		return nil
	})
	t.Cleanup(func() { setFaultError(faultHostAlloc, nil) })

	rng := rand.New(rand.NewPCG(21, 22))
	x, _ := randomComplex[complex64](rng, pl.Len())
	got := make([]complex64, pl.Len())
	require.ErrorIs(t, pl.Forward(got, x), ErrOutOfMemory)

	want := make([]complex64, pl.Len())
	require.NoError(t, sharedPlan[complex64](t, cfg).Forward(want, x))
	require.NoError(t, pl.Forward(got, x))
	require.Equal(t, want, got)
}

// Defect 3: large host transfers on independent plans run at the same time: one paused
// while it holds a staging slot pair does not hold up another plan's transfer (the
// device's staging lock used to be held across the whole round trip).
func TestFaultStagedTransfersDoNotSerialise(t *testing.T) {
	withStaging(t, 0)
	cfg := Config{Shape: []int{256}, Batch: 32}
	p1, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	p2 := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(23, 24))
	x, _ := randomComplex[complex64](rng, p1.Len())
	want := make([]complex64, p1.Len())
	require.NoError(t, p2.Forward(want, x)) // also makes the device's first stager
	entered, release := pauseOnce(t, faultStagedRun)

	first := make(chan error, 1)
	got1 := make([]complex64, p1.Len())
	go func() { first <- p1.Forward(got1, x) }()
	within(t, entered, "the first staged call")
	second := make(chan error, 1)
	got2 := make([]complex64, p2.Len())
	go func() { second <- p2.Forward(got2, x) }()
	require.NoError(t, within(t, second, "a staged call while another is paused"))
	close(release)
	require.NoError(t, within(t, first, "the paused staged call"))
	require.Equal(t, want, got1)
	require.Equal(t, want, got2)
	require.NoError(t, p1.Close())
}

// Defect 4: two asynchronous calls naming the same two host buffers the other way round
// (dst of one is src of the other) on different plans and streams. Both reach the point
// between their two buffer locks before either goes on; they used to lock src then dst
// and deadlock.
func TestFaultAsyncSwappedBuffersDoNotDeadlock(t *testing.T) {
	cfg := Config{Shape: []int{32}}
	p1 := sharedPlan[complex64](t, cfg)
	p2, err := NewPlan[complex64](testDev, cfg)
	require.NoError(t, err)
	a, err := NewHostBuffer[complex64](testDev, p1.Len())
	require.NoError(t, err)
	b, err := NewHostBuffer[complex64](testDev, p1.Len())
	require.NoError(t, err)
	s1, err := testDev.NewStream()
	require.NoError(t, err)
	s2, err := testDev.NewStream()
	require.NoError(t, err)

	// a barrier for two, given up after a while: with ordered locking only one caller
	// can be between its locks at a time
	arrived := make(chan struct{}, 2)
	setFaultPause(faultAsyncLocking, func() {
		arrived <- struct{}{}
		deadline := time.After(500 * time.Millisecond)
		for len(arrived) < 2 {
			select {
			case <-deadline:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	t.Cleanup(func() { setFaultPause(faultAsyncLocking, nil) })
	done := make(chan error, 2)
	go func() { done <- p1.ForwardAsync(s1, a, b) }()
	go func() { done <- p2.ForwardAsync(s2, b, a) }()
	require.NoError(t, within(t, done, "an async call"))
	require.NoError(t, within(t, done, "the other async call"))
	require.NoError(t, s1.Wait())
	require.NoError(t, s2.Wait())
	for _, c := range []interface{ Close() error }{s1, s2, a, b, p2} {
		require.NoError(t, c.Close())
	}
}

// Defect 9: when a host round trip fails after its upload was queued, the call still
// waits for the queue before returning: the upload reads the caller's memory.
func TestFaultFailedDownloadWaitsForUpload(t *testing.T) {
	withStaging(t, -1) // the direct path: the upload reads src itself
	p := sharedPlan[complex64](t, Config{Shape: []int{256}, Batch: 64})
	x := make([]complex64, p.Len())
	y := make([]complex64, p.Len())
	armCFault(cFaultDownload, 1)
	t.Cleanup(func() { armCFault(cFaultDownload, 0) })
	err := p.Forward(y, x)
	require.ErrorIs(t, err, ErrBackend)
	require.Contains(t, err.Error(), "injected fault")
	require.Zero(t, pendingUploads(), "returned with an upload from the caller's memory still queued")
	require.NoError(t, p.Forward(y, x), "the plan works again")
}

// Defect 10: everything VkFFT printed while failing reaches the error, not its first KiB.
func TestFaultCompileLogIsWhole(t *testing.T) {
	SetKernelCacheDir("off")
	t.Cleanup(func() { SetKernelCacheDir("") })
	armCFault(cFaultCompileLog, 1)
	t.Cleanup(func() { armCFault(cFaultCompileLog, 0) })
	_, err := NewPlan[complex64](testDev, Config{Shape: []int{48}})
	require.ErrorIs(t, err, ErrVkFFT)
	msg := err.Error()
	require.Greater(t, len(msg), 8<<10)
	require.Contains(t, msg, "injected.cl:200:1: error: line 200")
	require.True(t, strings.HasSuffix(strings.TrimSpace(msg), "END OF THE INJECTED LOG"), "the log's end is missing")
}
