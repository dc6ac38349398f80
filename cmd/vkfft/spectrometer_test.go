package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The CLI's spectrometer finds its synthetic tones (reported well above the noise) and
// draws the spectrum as SVG; bad flags are errors.
func TestSpectrometerCommand(t *testing.T) {
	t.Setenv("VKFFTGO_CACHE_DIR", t.TempDir())
	svg := filepath.Join(t.TempDir(), "psd.svg")
	out := cacheCapture(t, func() error {
		return runSpectrometer([]string{"-n", "1024", "-batch", "8", "-calls", "2", "-tones", "0.125", "-svg", svg})
	})
	require.Contains(t, out, "GS/s")
	require.Regexp(t, `tone at \+0\.1250 fs: bin 640, [1-9][0-9]\.[0-9] dB above the mean`, out)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(b), "<svg")
	require.Error(t, runSpectrometer([]string{"-format", "complex-float16"}))
	require.Error(t, runSpectrometer([]string{"-tones", "0.7"}))
	require.Error(t, runSpectrometer([]string{"-fusion", "bogus"}))
}
