package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

func TestParseShapes(t *testing.T) {
	got, err := parseSpecs(cacheDesignShapes)
	require.NoError(t, err)
	require.Len(t, got, 5)
	require.Equal(t, []int{256, 256, 256}, got[0].shape)
	require.Equal(t, benchSpec{spec: "4096:16384", shape: []int{4096}, batch: 16384}, got[3])
	require.True(t, got[4].double)
	for _, bad := range []string{"0", "8x", "8@c32", "8:0", "8:x", ""} {
		_, err := parseSpecs(bad)
		require.Error(t, err, bad)
	}
}

func cacheCapture(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stdout
	os.Stdout = w
	ferr := f()
	os.Stdout = old
	w.Close()
	b := make([]byte, 1<<16)
	n, _ := r.Read(b)
	r.Close()
	require.NoError(t, ferr)
	return string(b[:n])
}

func TestCacheCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(vkfft.EnvCacheDir, dir)
	for _, name := range []string{"a.vkfk", "b.vkfk", "unrelated.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), make([]byte, 100), 0o600))
	}
	out := cacheCapture(t, func() error { return runCache(nil) })
	require.Contains(t, out, dir)
	require.Contains(t, out, "entries 2")
	out = cacheCapture(t, func() error { return runCache([]string{"list"}) })
	require.Contains(t, out, "a.vkfk")
	require.NotContains(t, out, "unrelated")
	out = cacheCapture(t, func() error { return runCache([]string{"clear"}) })
	require.Contains(t, out, "removed 2 entries")
	require.FileExists(t, filepath.Join(dir, "unrelated.txt"), "clear removes cache entries only")
	out = cacheCapture(t, func() error { return runCache([]string{"info"}) })
	require.Contains(t, out, "entries 0")
	require.Error(t, runCache([]string{"nonsense"}))

	t.Setenv(vkfft.EnvCacheDir, "off")
	out = cacheCapture(t, func() error { return runCache(nil) })
	require.Equal(t, "kernel cache: off", strings.TrimSpace(out))
	require.Contains(t, CacheSummary(nil), "kernel cache off: 0 hits")
}

// vkfft tune measures, stores and prints the table; cache list shows the stored tuning;
// a second run finds it stored.
func TestTuneCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(vkfft.EnvCacheDir, dir)
	out := cacheCapture(t, func() error {
		return runTune([]string{"-shapes", "16x16", "-budget", "1ms", "-q", "-copy-bytes", "4194304"})
	})
	require.Regexp(t, `device copy rate [0-9.]+ GB/s \(device-to-device, 4 MiB read and written\)`, out)
	require.Contains(t, out, "tunings stored in "+dir)
	require.Regexp(t, `\| 16² \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+% \| - \| - \| [0-9.]+ \| .* \| measured \|`, out)
	out = cacheCapture(t, func() error { return runCache([]string{"list"}) })
	require.Contains(t, out, "tuned plans: 1")
	require.Contains(t, out, "c2c [16 16]:1 c64")
	out = cacheCapture(t, func() error { return runTune([]string{"-shapes", "16x16", "-q", "-copy-bytes", "0"}) })
	require.Contains(t, out, "| stored |")
	require.Contains(t, out, "memory floor: off")
	require.Regexp(t, `\| 16² \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| - \|`, out, "no floor without a copy rate")
	require.Error(t, runTune([]string{"-shapes", "0x4"}))
}

func TestReadCuFFT(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cufft.log")
	require.NoError(t, os.WriteFile(path, []byte(`d2d copy: 4240 GB/s (read+write)
shape | cufft_plan_ms | cufft_dev_fwd+inv_ms | cufft_pinned_rt_ms | numpy_1t_fwd+inv_ms | scipy_16t_fwd+inv_ms | maxerr_cufft
c2c 3d 256^3 fp32 | 234.6 | 0.5576 | 5.50 | - | - | 5.49e-07
c2c 2d 4096^2 fp32 | 83.2 | 0.5065 | 5.47 | - | - | 6.28e-07
c2c 1d 4096 x16384 fp32 | 1.3 | 0.8519 | 20.38 | - | - | 4.18e-07
c2c 3d 256^3 fp64 | 100.5 | 0.9850 | 10.79 | - | - | 7.23e-16
c2c 1d 1031 x65536 fp32 (Bluestein) | 311.1 | 2.2531 | 21.95 | - | - | 5.10e-07
`), 0o600))
	m, err := readCuFFT(path)
	require.NoError(t, err)
	require.Equal(t, map[string]float64{
		cufftKey([]int{256, 256, 256}, 1, false): 0.5576,
		cufftKey([]int{4096, 4096}, 1, false):    0.5065,
		cufftKey([]int{4096}, 16384, false):      0.8519,
		cufftKey([]int{256, 256, 256}, 1, true):  0.9850,
		cufftKey([]int{1031}, 65536, false):      2.2531,
	}, m)
}
