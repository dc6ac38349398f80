//go:build cgo && linux

package vkfft

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"syscall"
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

// waitChild waits for pid to exit, killing it after d: a hung child fails the test.
func waitChild(t *testing.T, pid int, d time.Duration) syscall.WaitStatus {
	t.Helper()
	var ws syscall.WaitStatus
	deadline := time.Now().Add(d)
	for {
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		require.NoError(t, err, "wait4")
		if got == pid {
			return ws
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			syscall.Wait4(pid, &ws, 0, nil)
			t.Fatalf("the forked child did not finish within %v: a call waited for threads it does not have", d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A real child, forked with a raw system call while the device is open: its transforms,
// syncs, opens and closes return ErrForked at once (exit engine.Status 0), where the
// unguarded calls would wait for PoCL's or the GPU driver's threads, which the child
// lacks. The raw fork runs no pthread_atfork handler, so the child runs the engine's
// handler itself, as the C library's fork would. The parent goes on as before.
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

	// The child has one thread: no collection may start there (it would wait for the
	// parent's other threads), and it must stay on this thread until it exits.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.LockOSThread()
	pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
	if errno != 0 {
		runtime.UnlockOSThread()
		t.Fatalf("clone: %v", errno)
	}
	if pid == 0 {
		engine.MarkForkedChild()
		var code uintptr
		checks := []func() error{
			func() error { return p.Forward(dst, src) },
			testDev.Sync,
			func() error { _, err := Open(0); return err },
			own.Close,
		}
		for i, c := range checks {
			err := c()
			if i < 3 && !errors.Is(err, ErrForked) || i == 3 && err != nil {
				code |= 1 << i
			}
		}
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, code, 0, 0)
	}
	runtime.UnlockOSThread()
	ws := waitChild(t, int(pid), 30*time.Second)
	require.True(t, ws.Exited(), "child engine.Status %v", ws)
	require.Zero(t, ws.ExitStatus(),
		"child: bit 0 Forward, 1 Sync, 2 Open did not return ErrForked; bit 3 Close failed")

	require.NoError(t, p.Forward(dst, src))
	require.Less(t, relErr(dst, ref), 1e-5)
	require.NoError(t, own.Forward(make([]complex64, 2*n), make([]complex64, 2*n)))
}
