//go:build cgo && cuda

package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft/internal/cudatest"
)

// TestOpenCUDAContext: a Device on a context and stream that the test (as a C++ host
// would) made through the driver API runs its work on that stream, computes correctly
// through the host, buffer and pointer paths, and on Close destroys neither the stream
// nor the context, which the host then still uses. With stream 0 the Device makes (and
// on Close destroys) its own. The H200 step tests/gpu/steps/abi.sh runs it.
func TestOpenCUDAContext(t *testing.T) {
	ctx, err := cudatest.CreateContext(0)
	require.NoError(t, err)
	defer cudatest.DestroyContext(ctx)
	stream, err := cudatest.CreateStream(ctx)
	require.NoError(t, err)
	defer cudatest.DestroyStream(ctx, stream)

	for _, tc := range []struct {
		name   string
		stream uintptr
	}{{"host stream", stream}, {"own stream", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			before := cudatest.CurrentContext()
			d, err := OpenCUDAContext(ctx, tc.stream)
			require.NoError(t, err)
			require.Equal(t, before, cudatest.CurrentContext(), "the calling thread's context is left as it was")
			require.Equal(t, ctx, d.CUDAContext())
			if tc.stream != 0 {
				require.Equal(t, tc.stream, d.CUDAStream())
				require.Equal(t, tc.stream, d.NativeQueue())
			} else {
				require.NotZero(t, d.CUDAStream())
				require.NotEqual(t, stream, d.CUDAStream())
			}
			const n, batch = 1024, 4
			p, err := NewPlan[complex64](d, Config{Shape: []int{n}, Batch: batch})
			require.NoError(t, err)
			x := cuRandom(11, p.Len())
			want := cuDFT(x, n, false)
			got := make([]complex64, p.Len())
			require.NoError(t, p.Forward(got, x))
			require.Less(t, cuMaxRel(got, want), 2e-6)
			b, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			require.NoError(t, b.Upload(x))
			require.NoError(t, p.ForwardPtr(b.Ptr(), b.Ptr(), 0)) // on the device's stream
			if tc.stream != 0 {
				require.NoError(t, cudatest.SyncStream(ctx, tc.stream)) // the host's own wait suffices
			} else {
				require.NoError(t, d.Sync())
			}
			require.NoError(t, b.Download(got))
			require.Less(t, cuMaxRel(got, want), 2e-6)
			require.NoError(t, d.Close())
			require.NoError(t, cudatest.SyncStream(ctx, stream), "the host's stream survives Close")
			require.Zero(t, cudatest.SetCurrent(ctx), "the host's context survives Close")
			require.Zero(t, cudatest.SetCurrent(before))
			t.Logf("OpenCUDAContext(%#x, %#x): %d-point x%d forward ok, stream and context intact after Close",
				ctx, tc.stream, n, batch)
		})
	}
	_, err = OpenCUDAContext(0, stream)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = OpenCLContext(1, 0, 0)
	require.ErrorIs(t, err, ErrUnsupported)
}
