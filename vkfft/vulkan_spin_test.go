//go:build cgo && vulkan

package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVulkanWaitsSpinThenBlock runs small transforms with a synchronisation after each,
// with the waits polling first (as on a GPU; llvmpipe is a CPU device, so by default it
// blocks at once) and with polling off: both compute the transform, every time.
func TestVulkanWaitsSpinThenBlock(t *testing.T) {
	for _, spin := range []string{"2000", "0", "not a number"} {
		t.Run("VKFFTGO_VULKAN_SPIN_US="+spin, func(t *testing.T) {
			t.Setenv("VKFFTGO_VULKAN_SPIN_US", spin)
			d, err := Open(testDev.Info().Index)
			require.NoError(t, err)
			defer d.Close()
			p, err := NewPlan[complex64](d, Config{Shape: []int{256}, Batch: 4})
			require.NoError(t, err)
			defer p.Close()
			b, err := NewBuffer[complex64](d, p.Len())
			require.NoError(t, err)
			defer b.Close()
			rng := rand.New(rand.NewPCG(3, 4))
			x, xw := randomComplex[complex64](rng, p.Len())
			want := refFFT(xw, []int{256}, 4, false)
			y := make([]complex64, len(x))
			for i := 0; i < 50; i++ {
				require.NoError(t, b.Upload(x))
				require.NoError(t, p.ForwardBuffer(b, b))
				require.NoError(t, d.Sync())
				require.NoError(t, b.Download(y))
				require.Less(t, relErr(y, want), 1e-5, "round %d", i)
			}
		})
	}
}
