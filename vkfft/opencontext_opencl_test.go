//go:build cgo && !cuda && !vulkan

package vkfft

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft/internal/cltest"
)

// TestOpenCLContext: a Device opened on a context and queue the "host" (cltest) made runs
// transforms on that queue, retains the context and queue while open, releases exactly
// what it retained on Close, and leaves both usable by the host afterwards.
func TestOpenCLContext(t *testing.T) {
	host, err := cltest.Create(false)
	require.NoError(t, err)
	defer host.Release()
	ctxRefs, queueRefs := host.ContextRefs(), host.QueueRefs()
	require.Positive(t, ctxRefs)
	require.Equal(t, 1, queueRefs)

	for _, tc := range []struct {
		name          string
		device, queue uintptr
	}{
		{"device and queue", host.Device, host.Queue},
		{"first device, own queue", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := OpenCLContext(host.Context, tc.device, tc.queue)
			require.NoError(t, err)
			require.Greater(t, host.ContextRefs(), ctxRefs, "the device retains the context")
			if tc.queue != 0 {
				require.Equal(t, tc.queue, d.NativeQueue(), "the device's work runs on the host's queue")
				require.Equal(t, queueRefs+1, host.QueueRefs(), "the device retains the queue")
			} else {
				require.NotZero(t, d.NativeQueue())
				require.NotEqual(t, host.Queue, d.NativeQueue())
			}
			require.NotEmpty(t, d.Info().Name)

			cfg := Config{Shape: []int{8, 12}, Batch: 2}
			p, err := NewPlan[complex64](d, cfg)
			require.NoError(t, err)
			x, x128 := randomComplex[complex64](rand.New(rand.NewPCG(7, 7)), p.Len())
			y := make([]complex64, p.Len())
			require.NoError(t, p.Forward(y, x))
			require.Less(t, relErr(y, refFFT(x128, cfg.Shape, cfg.Batch, false)), 1e-5)
			b, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			require.NoError(t, b.Upload(x))
			require.NoError(t, p.ForwardBuffer(b, b))
			require.NoError(t, b.Download(y))
			require.Less(t, relErr(y, refFFT(x128, cfg.Shape, cfg.Batch, false)), 1e-5)

			require.NoError(t, d.Close())
			// PoCL drops the references of finished commands in its worker threads, shortly after
			require.Eventually(t, func() bool { return host.ContextRefs() == ctxRefs && host.QueueRefs() == queueRefs },
				5*time.Second, 10*time.Millisecond, "Close releases what the device retained, no more (context %d, was %d; queue %d, was %d)",
				host.ContextRefs(), ctxRefs, host.QueueRefs(), queueRefs)
			require.NoError(t, host.Finish(), "the host's queue is still usable")
			_, err = NewPlan[complex64](d, cfg)
			require.ErrorIs(t, err, ErrClosed)
		})
	}
}

// TestOpenCLContextBadArguments: what OpenCLContext refuses, with errors naming it, and
// that a refused open retains nothing.
func TestOpenCLContextBadArguments(t *testing.T) {
	host, err := cltest.Create(false)
	require.NoError(t, err)
	defer host.Release()
	other, err := cltest.Create(false)
	require.NoError(t, err)
	defer other.Release()
	ctxRefs, queueRefs := host.ContextRefs(), other.QueueRefs()

	_, err = OpenCLContext(0, host.Device, host.Queue)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "cl_context is 0")

	_, err = OpenCLContext(host.Context, host.Device, other.Queue)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "another context")
	require.Equal(t, ctxRefs, host.ContextRefs())
	require.Equal(t, queueRefs, other.QueueRefs())

	if ooo, err := cltest.Create(true); err == nil { // PoCL supports out-of-order queues
		defer ooo.Release()
		_, err = OpenCLContext(ooo.Context, ooo.Device, ooo.Queue)
		require.ErrorIs(t, err, ErrInvalidArgument)
		require.ErrorContains(t, err, "out of order")
	}

	// the other backend's interop, in this build
	_, err = OpenCUDAContext(1, 0)
	require.ErrorIs(t, err, ErrUnsupported)
	require.ErrorContains(t, err, "-tags cuda")
	_, err = OpenContext(1)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = OpenCUDAContext(0, 0)
	require.ErrorIs(t, err, ErrInvalidArgument)
}
