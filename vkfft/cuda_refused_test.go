//go:build cgo && cuda

package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCUDARefusedKernels: a plan whose kernels the driver refuses (VkFFT generates them;
// the driver will not load one or give it its shared memory) fails with an error and
// never aborts the process. VkFFT 1.3.4 frees such a kernel's CUBIN twice when it keeps
// the kernels for the kernel cache, which the engine's hooks prevent. On the H200, 256³
// in double precision with 32-byte coalescing, 256 threads and some per-axis grouped
// batches are such plans (the tuner's "grouped batch per axis" stage aborted on one);
// every plan of the sweep that builds must compute right, and a plan with VkFFT's
// defaults still builds afterwards.
func TestCUDARefusedKernels(t *testing.T) {
	kcDir(t) // kernels compiled and kept for the cache: the path that freed twice
	shape := []int{256, 256, 256}
	rng := rand.New(rand.NewPCG(5, 6))
	x, ref := randomComplex[complex128](rng, 256*256*256)
	y := make([]complex128, len(x))
	back := make([]complex128, len(x))
	refused := 0
	for ax := 0; ax < 3; ax++ {
		for _, g := range []int{1, 2, 4, 8, 16, 32, 64} {
			tu := Tuning{CoalescedMemory: 32, AimThreads: 256}
			tu.GroupedBatch[ax] = g
			p, err := NewPlan[complex128](testDev, Config{Shape: shape, Tuning: tu, Tune: TuneOff})
			if err != nil {
				refused++
				t.Logf("%s: refused: %v", tu, firstLine(err))
				require.ErrorIs(t, err, ErrVkFFT, "%s", tu)
				continue
			}
			require.NoError(t, p.Forward(y, x))
			require.NoError(t, p.Inverse(back, y))
			require.NoError(t, p.Close())
			e := relErr(back, ref)
			t.Logf("%s: built, round trip %.3g", tu, e)
			require.Less(t, e, 1e-12, "%s", tu)
		}
	}
	t.Logf("%d of 21 configurations refused by the driver", refused)
	p, err := NewPlan[complex128](testDev, Config{Shape: shape, Tune: TuneOff})
	require.NoError(t, err)
	require.NoError(t, p.Close())
}
