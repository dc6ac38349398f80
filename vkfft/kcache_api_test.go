package vkfft

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKernelCacheControl: the KernelCache value sets and reads the directory and cap,
// counts what plans did, lists and clears entries; the deprecated package functions see
// the same settings.
func TestKernelCacheControl(t *testing.T) {
	kc := KernelCache()
	require.Same(t, kc, KernelCache())
	dir := t.TempDir()
	kc.SetDir(dir)
	defer kc.SetDir("")
	got, on := kc.Dir()
	require.True(t, on)
	require.Equal(t, dir, got)
	legacy, _ := KernelCacheDir()
	require.Equal(t, dir, legacy)

	kc.SetMaxBytes(1 << 30)
	defer kc.SetMaxBytes(0)
	require.Equal(t, int64(1<<30), kc.MaxBytes())

	before := kc.Stats()
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{24, 10}})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	after := kc.Stats()
	require.Equal(t, before.Stored+1, after.Stored, "the plan's kernels were stored: %+v", after)

	info, entries, err := kc.Info()
	require.NoError(t, err)
	require.Equal(t, dir, info.Dir)
	require.Equal(t, 1, info.Entries)
	require.Len(t, entries, 1)
	require.Positive(t, info.Bytes)

	n, err := kc.Clear()
	require.NoError(t, err)
	require.Equal(t, 1, n)
	info, _, err = kc.Info()
	require.NoError(t, err)
	require.Zero(t, info.Entries)

	kc.SetDir("off")
	_, on = kc.Dir()
	require.False(t, on)
}
