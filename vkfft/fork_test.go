//go:build cgo && linux

package vkfft

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// returnsWithin runs f and fails the test if it does not return in d: a call that waits for the
// driver threads a forked child lacks would otherwise hang the test binary.
func returnsWithin(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
		return nil
	}
}

// With the engine's fork mark set (what the pthread_atfork handler does in a child),
// every call that would reach the device fails at once with ErrForked, and the same
// objects work again once the mark is cleared.
func TestForkedMarkFailsEveryCall(t *testing.T) {
	const n = 256
	p := sharedPlan[complex64](t, Config{Shape: []int{n}})
	rp := sharedRealPlan[float32, complex64](t, Config{Shape: []int{n}})
	buf, err := NewBuffer[complex64](testDev, n)
	require.NoError(t, err)
	defer buf.Close()
	src, want := randomComplex[complex64](rand.New(rand.NewPCG(1, 2)), n)
	ref := refFFT(want, []int{n}, 1, false)
	dst := make([]complex64, n)
	real := make([]float32, n)
	half := make([]complex64, n/2+1)
	require.NoError(t, buf.Upload(src))
	// a buffer of the size NewBuffer asks for below waits in the allocation cache, which
	// makes no call the engine could refuse: the Go layer must refuse it itself
	cached, err := NewBuffer[complex64](testDev, 1<<16)
	require.NoError(t, err)
	require.NoError(t, cached.Close())

	cases := []struct {
		name string
		call func() error
	}{
		{"Open", func() error { _, err := Open(0); return err }},
		{"Devices", func() error { _, err := Devices(); return err }},
		{"Device.Sync", testDev.Sync},
		{"Plan.Forward", func() error { return p.Forward(dst, src) }},
		{"Plan.Inverse", func() error { return p.Inverse(dst, src) }},
		{"Plan.ForwardBuffer", func() error { return p.ForwardBuffer(buf, buf) }},
		{"RealPlan.Forward", func() error { return rp.Forward(half, real) }},
		{"NewPlan", func() error { _, err := NewPlan[complex64](testDev, Config{Shape: []int{48}}); return err }},
		{"NewBuffer", func() error { _, err := NewBuffer[complex64](testDev, 1<<16); return err }},
		{"Buffer.Upload", func() error { return buf.Upload(src) }},
		{"Buffer.Download", func() error { return buf.Download(dst) }},
	}
	engine.MarkForkedChild()
	defer engine.ClearForkedMark()
	require.True(t, engine.ForkedChild())
	for _, tc := range cases {
		err := returnsWithin(t, 10*time.Second, tc.name, tc.call)
		require.ErrorIs(t, err, ErrForked, tc.name)
		require.ErrorContains(t, err, "fork without exec", tc.name)
	}
	engine.ClearForkedMark()

	require.False(t, engine.ForkedChild())
	require.NoError(t, p.Forward(dst, src))
	require.Less(t, relErr(dst, ref), 1e-5)
	require.NoError(t, buf.Download(dst))
	require.Equal(t, src, dst, "the buffer kept its contents")
	require.NoError(t, testDev.Sync())
}

// A real child, forked with the C library's fork while the device is open: its sync,
// open and transform fail with ErrForked at once, and destroying the plan and closing
// the device return, where the unguarded calls would wait for PoCL's or the GPU driver's
// threads, which the child lacks. The child makes the engine's calls in C: Go code in a
// child of a multi-threaded Go process can deadlock on a runtime lock another thread held
// at the fork (the Go layer's own refusal is TestForkedMarkFailsEveryCall's). The parent
// goes on as before, with the plan the child destroyed.
func TestForkedChildFailsAtOnce(t *testing.T) {
	const n = 256
	p := sharedPlan[complex64](t, Config{Shape: []int{n}})
	own, err := NewPlan[complex64](testDev, Config{Shape: []int{n}, Batch: 2})
	require.NoError(t, err)
	defer own.Close()
	src, want := randomComplex[complex64](rand.New(rand.NewPCG(3, 4)), n)
	ref := refFFT(want, []int{n}, 1, false)
	dst := make([]complex64, n)
	require.NoError(t, p.Forward(dst, src))

	code, err := engine.ProbeForkedChild(testDev.h, own.p.h, 30)
	require.NoError(t, err)
	require.NotEqual(t, -1, code, "the forked child did not finish within 30 s: a call waited for threads it does not have")
	require.Zero(t, code, "child: bit 0 Sync, 1 Open, 2 the transform did not return ErrForked; 128+n: signal n")

	require.NoError(t, p.Forward(dst, src))
	require.Less(t, relErr(dst, ref), 1e-5)
	require.NoError(t, own.Forward(make([]complex64, 2*n), make([]complex64, 2*n)))
}
