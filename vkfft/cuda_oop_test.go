//go:build cgo && cuda

package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft/internal/cudatest"
)

// Out of place on raw device pointers and a caller's stream: the out-of-place kernels
// (oop.go) give what in place gives, in both directions, and leave the source alone.
func TestCUDAOutOfPlacePointers(t *testing.T) {
	d := testDev
	s, err := cudatest.CreateStream(d.CUDAContext())
	require.NoError(t, err)
	defer cudatest.DestroyStream(d.CUDAContext(), s)
	for _, shape := range [][]int{{16, 32, 64}, {1031}} {
		p, err := NewPlan[complex64](d, Config{Shape: shape, Batch: 2, Tune: TuneOff})
		require.NoError(t, err)
		x := cuRandom(9, p.Len())
		a, err := NewBuffer[complex64](d, p.Len())
		require.NoError(t, err)
		b, err := NewBuffer[complex64](d, p.Len())
		require.NoError(t, err)
		ref, got, src := make([]complex64, p.Len()), make([]complex64, p.Len()), make([]complex64, p.Len())
		for _, inverse := range []bool{false, true} {
			run := p.ForwardPtr
			if inverse {
				run = p.InversePtr
			}
			require.NoError(t, a.Upload(x))
			require.NoError(t, run(a.Ptr(), a.Ptr(), s))
			require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
			require.NoError(t, a.Download(ref))
			require.NoError(t, a.Upload(x))
			require.NoError(t, run(b.Ptr(), a.Ptr(), s))
			require.NoError(t, cudatest.SyncStream(d.CUDAContext(), s))
			require.NoError(t, b.Download(got))
			require.NoError(t, a.Download(src))
			require.Less(t, cuMaxDiff(got, ref), 1e-4, "%v inverse=%v", shape, inverse)
			require.Equal(t, x, src, "%v inverse=%v: the source changed", shape, inverse)
		}
		require.NotNil(t, p.p.oop, "%v: ran on the out-of-place kernels", shape)
		require.NoError(t, a.Close())
		require.NoError(t, b.Close())
		require.NoError(t, p.Close())
	}
}
