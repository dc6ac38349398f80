package vkfft

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// Companion kernels go through the disk kernel cache like plans, on every backend (SPIR-V
// on Vulkan): a cold build stores the module's binary, the next build loads it, a damaged
// entry is rejected and rebuilt — and each module's pad kernel pads right.
func TestCompanionModuleFromKernelCache(t *testing.T) {
	dir := t.TempDir()
	SetKernelCacheDir(dir)
	defer SetKernelCacheDir("")
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	src := padCropSource(compiledBackend, "float2")
	st := engine.NewStatus()
	defer engine.FreeStatus(st)
	in, err := NewBuffer[complex64](testDev, 3)
	require.NoError(t, err)
	defer in.Close()
	out, err := NewBuffer[complex64](testDev, 5)
	require.NoError(t, err)
	defer out.Close()
	require.NoError(t, in.Upload([]complex64{1 + 2i, 3 + 4i, 5 + 6i}))

	build := func(what string) {
		ks := kernelsFor(&testDev.info)
		m, err := ks.module(h, src)
		require.NoError(t, err, what)
		defer engine.ModuleDestroy(m)
		pad, err := engine.ModuleKernel(m, "vkg_pad")
		require.NoError(t, err, what)
		require.NoError(t, out.Upload([]complex64{9, 9, 9, 9, 9}))
		require.NoError(t, engine.LaunchKernel(h, st, pad, [2]uint64{1, 1}, 256, in.b.m, out.b.m, 1, 1, 1, 3, 1, 1, 5, engine.BoundaryZero))
		got := make([]complex64, 5)
		require.NoError(t, out.Download(got))
		require.Equal(t, []complex64{1 + 2i, 3 + 4i, 5 + 6i, 0, 0}, got, what)
	}
	s0 := ReadKernelCacheStats()
	build("cold")
	s1 := ReadKernelCacheStats()
	require.Equal(t, s0.Misses+1, s1.Misses)
	require.Equal(t, s0.Stored+1, s1.Stored)
	build("from the cache")
	s2 := ReadKernelCacheStats()
	require.Equal(t, s1.Hits+1, s2.Hits)

	id := identFor(&testDev.info)
	path := filepath.Join(dir, kcacheFileName(moduleKey(&id, src)))
	entry, err := os.ReadFile(path)
	require.NoError(t, err)
	entry[len(entry)/2] ^= 0x5a
	require.NoError(t, os.WriteFile(path, entry, 0o644))
	build("damaged entry")
	s3 := ReadKernelCacheStats()
	require.Equal(t, s2.Rejected+1, s3.Rejected)
	require.Equal(t, s2.Misses+1, s3.Misses)
}

// The automatic chunk is the largest divisor of the batch within the byte budget; where
// companion kernels bind buffers whole up to a limit (Vulkan's maxStorageBufferRange,
// stood in for here by a small one), within that limit too. A chunk that is set stays.
func TestSpectrometerAutoChunk(t *testing.T) {
	require.Equal(t, 8, autoChunk(1024, 8, 256<<20))
	require.Equal(t, 6, autoChunk(1024, 12, 8*1024*7), "7 FFTs fit; 6 divides 12")
	require.Equal(t, 1, autoChunk(1<<20, 7, 4<<20), "not one FFT fits: one anyway")
	require.Equal(t, 1, autoChunk(64, 7, 8*64*5), "a prime batch")

	saved := companionMaxBinding
	defer func() { companionMaxBinding = saved }()
	companionMaxBinding = func(*Device) int64 { return 1 << 20 }
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: 4096, Batch: 64, Input: ComplexInt8})
	require.NoError(t, err)
	defer sp.Close()
	require.Equal(t, 32, sp.Chunk(), "32 FFTs of 4096 complex floats are 1 MiB")
	require.Equal(t, 32, sp.Config().Chunk)
}
