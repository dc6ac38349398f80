//go:build vulkan

package vkfft

import (
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"
	"github.com/stretchr/testify/require"
)

func TestTmpDump(t *testing.T) {
	for _, n := range []int{256, 4096, 65536, 1 << 20} {
		sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: n, Batch: 2, Input: ComplexInt8, Fusion: FusionPower, BinOrder: BinOrderVkFFT})
		require.NoError(t, err)
		t.Log(n, sp.Fusion(), engine.PlanAxisUploads(sp.plan))
		sp.Close()
	}
}
