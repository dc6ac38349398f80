package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// TestPlanPasses counts a plan's passes over its data: one kernel per axis for sizes
// that fit any device's shared memory, several along an axis that does not, the sum of
// its axes' for a 2-D plan, one more for a normalisation kernel, the same on a lease,
// none once closed.
func TestPlanPasses(t *testing.T) {
	cases := []struct {
		name             string
		cfg              Config
		forward, inverse int // 0: at least 2, as many as VkFFT's uploads of the one axis
	}{
		{"1-D 1024 fits one pass", Config{Shape: []int{1024}}, 1, 1},
		{"a batch does not add passes", Config{Shape: []int{1024}, Batch: 8}, 1, 1},
		{"64³: one pass per axis", Config{Shape: []int{64, 64, 64}}, 3, 3},
		{"ortho: a normalisation pass each way", Config{Shape: []int{1024}, Norm: NormOrtho}, 2, 2},
		{"forward norm: the forward's normalisation pass", Config{Shape: []int{1024}, Norm: NormForward}, 2, 1},
		{"1-D 2^20 needs several", Config{Shape: []int{1 << 20}}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPlan[complex64](testDev, c.cfg)
			require.NoError(t, err)
			defer p.Close()
			fwd, inv := p.Passes()
			if c.forward == 0 {
				uploads := engine.PlanAxisUploads(p.p.h)
				require.GreaterOrEqual(t, uploads, 2)
				require.Equal(t, [2]int{uploads, uploads}, [2]int{fwd, inv})
				return
			}
			require.Equal(t, [2]int{c.forward, c.inverse}, [2]int{fwd, inv})
		})
	}
	t.Run("4096²: the passes of each axis", func(t *testing.T) {
		// how many a strided axis takes depends on the device's shared memory, and in a
		// 2-D plan may be more than alone (under Vulkan on NVIDIA, with the patched
		// radices of 4096 points: 3 passes against 1 + 1)
		var each [2]int
		for axis := range each {
			p, err := NewPlan[complex64](testDev, Config{Shape: []int{4096, 4096}, Axes: []int{axis}})
			require.NoError(t, err)
			each[axis], _ = p.Passes()
			require.NoError(t, p.Close())
			require.Positive(t, each[axis], "axis %d", axis)
		}
		p, err := NewPlan[complex64](testDev, Config{Shape: []int{4096, 4096}})
		require.NoError(t, err)
		defer p.Close()
		fwd, inv := p.Passes()
		require.Equal(t, fwd, inv)
		require.GreaterOrEqual(t, fwd, each[0]+each[1], "axis 0 %d, axis 1 %d", each[0], each[1])
		require.LessOrEqual(t, fwd, 2*(each[0]+each[1]), "axis 0 %d, axis 1 %d", each[0], each[1])
		t.Logf("4096²: %d passes (%d along axis 0, %d along axis 1)", fwd, each[0], each[1])
	})
	t.Run("other plan types and a lease", func(t *testing.T) {
		rp, err := NewRealPlan[float32, complex64](testDev, Config{Shape: []int{64, 64}})
		require.NoError(t, err)
		defer rp.Close()
		fwd, inv := rp.Passes()
		require.GreaterOrEqual(t, fwd, 2, "an R2C pass per axis at least")
		require.GreaterOrEqual(t, inv, 2)
		lease, err := CachedPlan[complex64](testDev, Config{Shape: []int{64, 64, 64}})
		require.NoError(t, err)
		fwd, inv = lease.Passes()
		require.Equal(t, [2]int{3, 3}, [2]int{fwd, inv})
		lease.Release()
		fwd, inv = lease.Passes()
		require.Equal(t, [2]int{0, 0}, [2]int{fwd, inv}, "a released lease")
	})
	t.Run("closed", func(t *testing.T) {
		p, err := NewPlan[complex64](testDev, Config{Shape: []int{1024}})
		require.NoError(t, err)
		require.NoError(t, p.Close())
		fwd, inv := p.Passes()
		require.Equal(t, [2]int{0, 0}, [2]int{fwd, inv})
	})
}
