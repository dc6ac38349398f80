//go:build cgo && vulkan

package vkfft

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// The spectrometer's power sums without float atomics (a device without
// VK_EXT_shader_atomic_float, forced here on one that has it): the module has no atomic
// add, the chunk's items are split over as many groups as with atomics, each writing its
// row of sums, which a second launch adds, and the spectrum matches the float64
// reference as closely as with atomics (which the shared test device uses where it has
// them).
func TestVulkanSpectrometerWithoutFloatAtomics(t *testing.T) {
	win := make([]float32, 256)
	for i := range win {
		win[i] = float32(0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/256))
	}
	cfg := SpectrometerConfig{N: 256, Batch: 8, Chunk: 4, Input: ComplexInt16, Window: win, Scale: 1e-3, Fusion: FusionPower}
	rng := rand.New(rand.NewPCG(21, 22))
	raw, val := randomSamples(rng, cfg.Input, 2*cfg.N*cfg.Batch)
	run := func(d *Device, atomics bool) {
		require.Equal(t, atomics, companionFloatAtomics(d))
		src := companionSource(Vulkan, loadSpec{format: cfg.Input, n: cfg.N, scale: 1e-3, window: true}, atomics)
		require.Equal(t, atomics, strings.Contains(src, "atomicAdd"))
		sp, err := NewSpectrometer(d, cfg)
		require.NoError(t, err)
		defer sp.Close()
		require.Equal(t, FusionPower, sp.Fusion())
		// the chunk's 4 FFTs in 4 groups: added atomically, or as 4 rows
		require.Equal(t, 4, engine.SpectroSumGroups(sp.s))
		require.NoError(t, accumulateRaw(sp, raw))
		require.NoError(t, accumulateRaw(sp, raw))
		got := make([]float32, sp.Bins())
		require.NoError(t, sp.Read(got))
		want := refPower(sp.cfg, val)
		for i := range want {
			want[i] *= 2
		}
		e := relErrReal(got, want)
		t.Logf("float atomics %v: relative L2 error %.2e", atomics, e)
		require.Less(t, e, 1e-5)
	}
	shared := companionFloatAtomics(testDev)
	if shared {
		run(testDev, true)
	} else {
		t.Log("the test device has no float atomics: only the per-bin path runs")
	}

	t.Setenv("VKFFTGO_VULKAN_FLOAT_ATOMICS", "0")
	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	run(d, false)
}

// iotaModule is a Vulkan module of one kernel writing a[i] = i, for the launch tests.
func iotaModule(t *testing.T) (engine.Module, []byte, string) {
	t.Helper()
	src := moduleSource(Vulkan, []kernelDef{{name: "vkg_iota",
		params: []kernelParam{{name: "a", elem: "uint"}, {name: "n"}},
		body:   "\tvkg_u64 i = VKG_GID;\n\tif (i < n) a[i] = i;\n"}})
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	m, bin, err := engine.ModuleBuild(h, src, nil)
	require.NoError(t, err)
	require.NotEmpty(t, bin, "a build from source returns the binary for the kernel cache")
	return m, bin, src
}

// A module loads from the binary its build returned and runs the same; a damaged binary
// (truncated, wrong magic, not SPIR-V, trailing bytes, no kernels) is an error, never a
// crash, so the kernel cache rebuilds it.
func TestVulkanCompanionBinary(t *testing.T) {
	m, bin, src := iotaModule(t)
	engine.ModuleDestroy(m)
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	m, again, err := engine.ModuleBuild(h, src, bin)
	require.NoError(t, err)
	require.Nil(t, again, "a load returns no binary")
	k, err := engine.ModuleKernel(m, "vkg_iota")
	require.NoError(t, err)
	_, err = engine.ModuleKernel(m, "vkg_other")
	require.ErrorIs(t, err, ErrInvalidArgument)
	buf, err := testDev.alloc(4 * 1000)
	require.NoError(t, err)
	defer testDev.free(buf, 4*1000)
	st := engine.NewStatus()
	defer engine.FreeStatus(st)
	require.NoError(t, engine.LaunchKernel(h, st, k, [2]uint64{4, 1}, 256, buf, 1000))
	got := make([]float32, 1000)
	require.NoError(t, engine.MemDownload(h, st, unsafe.Pointer(&got[0]), buf, int64(4*len(got))))
	for i, v := range got {
		require.Equal(t, uint32(i), math.Float32bits(v), "a[%d]", i)
	}
	engine.ModuleDestroy(m)

	const spirvAt = 8 + 4 + 64 + 32 + 4 + 4 // magic, count, the first kernel's header
	damage := map[string]func([]byte) []byte{
		"truncated":   func(b []byte) []byte { return b[:len(b)-4] },
		"magic":       func(b []byte) []byte { b[0] ^= 0xff; return b },
		"not SPIR-V":  func(b []byte) []byte { b[spirvAt] ^= 0xff; return b },
		"trailing":    func(b []byte) []byte { return append(b, 0, 0, 0, 0) },
		"no kernels":  func(b []byte) []byte { b[8], b[9], b[10], b[11] = 0, 0, 0, 0; return b },
		"header only": func(b []byte) []byte { return b[:12] },
	}
	for name, f := range damage {
		bad := f(append([]byte(nil), bin...))
		_, _, err := engine.ModuleBuild(h, src, bad)
		require.ErrorIs(t, err, ErrInvalidArgument, name)
	}
	_, _, err = engine.ModuleBuild(h, "#version 450\nvoid main() {}\n", nil)
	require.ErrorIs(t, err, ErrInvalidArgument, "source without kernel headers")
	_, _, err = engine.ModuleBuild(h, glslKernelMarker+"vkg_bad b 256\n#version 450\nvoid main() { syntax error }\n", nil)
	require.ErrorIs(t, err, ErrBackend)
	require.ErrorContains(t, err, "vkg_bad", "glslang's complaint names the kernel")
}

// A grid wider than the device's group count in x is folded over z and every index is
// written once; a module destroyed with its launches still queued waits for them; bad
// launches are errors that say what is wrong.
func TestVulkanCompanionLaunch(t *testing.T) {
	m, _, _ := iotaModule(t)
	k, err := engine.ModuleKernel(m, "vkg_iota")
	require.NoError(t, err)
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	st := engine.NewStatus()
	defer engine.FreeStatus(st)

	n := uint64(65535*256 + 300) // more groups than llvmpipe's maxComputeWorkGroupCount[0]
	buf, err := testDev.alloc(int64(4 * n))
	require.NoError(t, err)
	defer testDev.free(buf, int64(4*n))
	require.NoError(t, engine.LaunchKernel(h, st, k, [2]uint64{(n + 255) / 256, 1}, 256, buf, n))

	require.ErrorIs(t, engine.LaunchKernel(h, st, k, [2]uint64{1, 1}, 128, buf, n), ErrInvalidArgument, "local size")
	require.ErrorIs(t, engine.LaunchKernel(h, st, k, [2]uint64{1, 1}, 256, buf), ErrInvalidArgument, "argument count")
	require.ErrorIs(t, engine.LaunchKernel(h, st, k, [2]uint64{1, 1}, 256, 0, n), ErrInvalidArgument, "null buffer")
	err = engine.LaunchKernel(h, st, k, [2]uint64{1, 1}, 256, buf, 1<<33)
	require.ErrorIs(t, err, ErrUnsupported, "a scalar beyond 32 bits")
	require.ErrorContains(t, err, "32-bit")
	engine.ModuleDestroy(m) // the first launch may still be queued

	got := make([]float32, n)
	require.NoError(t, engine.MemDownload(h, st, unsafe.Pointer(&got[0]), buf, int64(4*len(got))))
	for i, v := range got {
		if math.Float32bits(v) != uint32(i) {
			require.Equal(t, uint32(i), math.Float32bits(v), "a[%d]", i)
		}
	}
}
