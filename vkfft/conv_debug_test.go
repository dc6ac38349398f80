package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConvDebug(t *testing.T) {
	for _, shape := range [][]int{{4, 6, 8}, {8, 8, 8}, {2, 2, 4}} {
		cfg := ConvolutionConfig{Config: Config{Shape: shape}}
		g, _ := validateConv(cfg, false)
		src := make([]complex64, g.points)
		for i := range src {
			src[i] = complex(float32(i), 0)
		}
		kern := make([]complex64, g.points)
		kern[0] = 1
		c, err := NewConvolution[complex64](testDev, cfg, kern)
		require.NoError(t, err)
		out := make([]complex64, g.points)
		require.NoError(t, c.Apply(out, src))
		t.Logf("%v: %v", shape, out[:min(16, len(out))])
		c.Close()
	}
}
