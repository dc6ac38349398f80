package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// The CLI's spectrometer finds its synthetic tones (reported well above the noise) and
// draws the spectrum as SVG, for formats of every element type, from host and device
// memory; bad flags are errors.
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
	for _, c := range [][]string{
		{"-format", "complex-float16", "-resident", "-tones", "0.125"},
		{"-format", "complex-uint8", "-resident", "-tones", "0.125"},
		{"-format", "real-int16", "-amp", "3000", "-noise", "100", "-tones", "0.25"},
		{"-format", "complex-int16", "-input", "pinned", "-amp", "3000", "-noise", "100", "-tones", "0.125"},
	} {
		out := cacheCapture(t, func() error {
			return runSpectrometer(append([]string{"-n", "256", "-batch", "4", "-calls", "1"}, c...))
		})
		bin := "160" // fftshift order: 0.125*256 + 128
		if c[1] == "real-int16" {
			bin = "64"
		}
		require.Regexp(t, `fs: bin `+bin+`, [1-9][0-9]\.[0-9] dB above the mean`, out, c)
		require.Contains(t, out, strings.ReplaceAll(c[1], "-", " "), "the format is reported")
		if c[2] != "-resident" { // host samples: the bus's rate and the share of it reached
			require.Regexp(t, `host-to-device DMA from pinned memory \([0-9.]+ MiB copies\): [0-9.]+ GB/s`, out, c)
			require.Regexp(t, `samples moved at [0-9.]+ GB/s: [0-9.]+ % of the DMA rate`, out, c)
		}
	}
	formats, names := sampleFormats()
	require.Subset(t, names, []string{"complex-int8", "complex-uint8", "real-int16"}, "String up to \" (\", dashed")
	require.Len(t, formats, len(names))
	for i, name := range names {
		require.Equal(t, vkfft.SampleFormat(i+1), formats[name], name)
	}
	if vkfft.CurrentBackend() != vkfft.Vulkan { // the fused atomic path and its group sums
		out := cacheCapture(t, func() error {
			return runSpectrometer([]string{"-n", "256", "-batch", "6", "-calls", "1", "-tones", "0.125",
				"-fusion", "atomic", "-group-sum", "registers", "-group-transforms", "3"})
		})
		require.Contains(t, out, "group sum: registers x3 (by hand)")
		require.Regexp(t, `fs: bin 160, [1-9][0-9]\.[0-9] dB above the mean`, out)
	}
	require.Error(t, runSpectrometer([]string{"-group-sum", "disk"}))
	require.Error(t, runSpectrometer([]string{"-tune", "sometimes"}))
	err = runSpectrometer([]string{"-format", "complex-int4"})
	require.ErrorContains(t, err, "want one of complex-int8, complex-int16")
	require.Error(t, runSpectrometer([]string{"-tones", "0.7"}))
	require.Error(t, runSpectrometer([]string{"-fusion", "bogus"}))
	require.ErrorContains(t, runSpectrometer([]string{"-input", "mapped"}), "want pageable, pinned or device")
}

// vkfft tune -spectrometer measures a group sum, stores it, and reports it as stored the
// next time (a budget of a millisecond measures only the first candidate).
func TestTuneSpectrometerCommand(t *testing.T) {
	if vkfft.CurrentBackend() == vkfft.Vulkan {
		require.Error(t, runTune([]string{"-spectrometer", "256x8", "-q"}))
		return
	}
	t.Setenv("VKFFTGO_CACHE_DIR", t.TempDir())
	out := cacheCapture(t, func() error {
		return runTune([]string{"-spectrometer", "256x8", "-budget", "1ms", "-refresh", "-q"})
	})
	require.Contains(t, out, "spectrometer 256x8: group sum off (measured, measured in")
	require.Regexp(t, `off +[0-9.]+ ms per 8 transforms +[0-9.]+ GS/s`, out)
	out = cacheCapture(t, func() error { return runTune([]string{"-spectrometer", "256x8", "-q"}) })
	require.Contains(t, out, "spectrometer 256x8: group sum off (stored")
	require.Error(t, runTune([]string{"-spectrometer", "256", "-q"}))
	require.Error(t, runTune([]string{"-spectrometer", "256x8", "-format", "complex-int4", "-q"}))
}
