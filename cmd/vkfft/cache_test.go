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
