//go:build cgo && vulkan

package vkfft

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// The fused paths on Vulkan against the float64 reference: VkFFT's GLSL rewritten for
// one pass (256, 4096), two (65536) and three (2^20 on llvmpipe), every complex format,
// with and without a window, FFTShift, chunks smaller than the batch (so the fused first
// pass reads each chunk at an offset into the caller's whole batch, through the widened
// binding), from host and from device memory. The first pass's output binding holds the
// window after the chunk's data, or after the powers or the bins where it is also the
// last: both are covered.
func TestVulkanFusedSpectrometer(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	type tc struct {
		n      int
		format SampleFormat
		window bool
		shift  bool
		batch  int
		chunk  int
	}
	var cases []tc
	formats := []SampleFormat{ComplexInt8, ComplexInt16, ComplexUint8, ComplexFloat16}
	for i, n := range []int{256, 4096, 65536, 1 << 20} {
		batch, chunk := 4, 2
		if n == 1<<20 {
			batch, chunk = 2, 1
		}
		for j := range 2 {
			cases = append(cases, tc{n: n, format: formats[(i+2*j)%len(formats)], window: j == 0, shift: j == 1,
				batch: batch, chunk: chunk})
		}
	}
	for _, c := range cases {
		for _, f := range []Fusion{FusionLoad, FusionPower, FusionAtomic} {
			name := fmt.Sprintf("%d-%v-%v-window%v-shift%v", c.n, c.format, f, c.window, c.shift)
			t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
				cfg := SpectrometerConfig{N: c.n, Batch: c.batch, Chunk: c.chunk, Input: c.format, Fusion: f,
					FFTShift: c.shift, Scale: 0.5}
				if c.window {
					cfg.Window = hann(c.n)
				}
				sp, err := NewSpectrometer(testDev, cfg)
				require.NoError(t, err)
				defer sp.Close()
				require.Equal(t, fusionOnThisBackend(testDev, cfg), sp.Fusion())
				passes := engine.PlanAxisUploads(sp.plan)
				want := 1 // kernels rewritten: the first pass, and the last where it stores
				if sp.Fusion() != FusionLoad && passes > 1 {
					want = 2
				}
				require.Equal(t, want, engine.PlanFusedKernels(sp.plan), "%d passes", passes)
				checkVulkanSpectrometer(t, sp, rng)
			})
		}
	}
}

// checkVulkanSpectrometer feeds one batch of random samples from the host and the same
// from a typed device buffer (AccumulateBuffer), and compares the bins with the float64
// reference (relative L2 ≤ 1e-5).
func checkVulkanSpectrometer(t *testing.T, sp *Spectrometer, rng *rand.Rand) {
	t.Helper()
	raw, val := randomSamples(rng, sp.cfg.Input, sp.numbers())
	require.NoError(t, accumulateRaw(sp, raw))
	dev, err := NewBuffer[uint8](testDev, len(raw))
	require.NoError(t, err)
	defer dev.Close()
	require.NoError(t, dev.Upload(raw))
	require.NoError(t, sp.AccumulateBuffer(sameBytes(dev, sp.cfg.Input, sp.numbers())))
	got := make([]float32, sp.Bins())
	require.NoError(t, sp.Read(got))
	want := refPower(sp.cfg, val)
	for i := range want {
		want[i] *= 2
	}
	e := relErrReal(got, want)
	t.Logf("%v, chunk %d, %d passes: relative L2 error %.2e", sp.Fusion(), sp.Chunk(), engine.PlanAxisUploads(sp.plan), e)
	require.Less(t, e, 1e-5)
}

// sameBytes is dev's bytes as a buffer of the numbers of format f.
func sameBytes(dev *Buffer[uint8], f SampleFormat, numbers int) DeviceBuffer {
	switch f.goType() {
	case "int8":
		return (*Buffer[int8])(unsafe.Pointer(dev))
	case "int16":
		return &Buffer[int16]{b: buffer{dev: dev.b.dev, m: dev.b.m, n: numbers, bytes: dev.b.bytes}}
	case "Float16":
		return &Buffer[Float16]{b: buffer{dev: dev.b.dev, m: dev.b.m, n: numbers, bytes: dev.b.bytes}}
	}
	return dev
}

// Where a fused path cannot run, the spectrometer takes another that gives the same
// answer: FusionAtomic, FusionDirect and FusionAuto on a device without float atomics store powers
// that a companion kernel sums; a batch beyond one storage buffer binding, and a size
// whose kernels the rewriter refuses (Bluestein's, where glslang is handed a source that
// stops it, so VkFFT's initialisation fails and the plan is rebuilt plainly), take the
// companion kernels, as does a windowed load where VkFFT's four-step reordering has its
// first pass write a buffer of VkFFT's own.
func TestVulkanFusedFallbacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	win := make([]float32, 1031)
	for i := range win {
		win[i] = float32(1 + i%7)
	}
	t.Run("bluestein", func(t *testing.T) {
		for _, f := range []Fusion{FusionLoad, FusionAtomic} {
			sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: 1031, Batch: 2, Input: ComplexInt16, Fusion: f,
				Window: win})
			require.NoError(t, err)
			require.Equal(t, FusionCompanion, sp.Fusion(), "%v", f)
			checkVulkanSpectrometer(t, sp, rng)
			require.NoError(t, sp.Close())
		}
	})
	t.Run("window and VkFFT's reordering", func(t *testing.T) {
		// the first of two passes writes VkFFT's temporary buffer, which holds no window
		w := make([]float32, 65536)
		for i := range w {
			w[i] = float32(i%5) + 0.5
		}
		for _, window := range [][]float32{w, nil} {
			cfg := SpectrometerConfig{N: 65536, Batch: 2, Input: ComplexInt8, Fusion: FusionAtomic, Window: window,
				BinOrder: BinOrderVkFFT}
			sp, err := NewSpectrometer(testDev, cfg)
			require.NoError(t, err)
			require.Greater(t, engine.PlanAxisUploads(sp.plan), 1)
			if window != nil {
				require.Equal(t, FusionCompanion, sp.Fusion())
			} else {
				require.Equal(t, fusionOnThisBackend(testDev, cfg), sp.Fusion())
			}
			checkVulkanSpectrometer(t, sp, rng)
			require.NoError(t, sp.Close())
		}
	})
	t.Run("beyond one binding", func(t *testing.T) {
		cfg := SpectrometerConfig{N: 1024, Batch: 8, Chunk: 2, Input: ComplexInt8, Fusion: FusionAtomic}
		bytes := int64(cfg.N * cfg.Batch * cfg.Input.sampleBytes())
		old := companionMaxBinding
		companionMaxBinding = func(*Device) int64 { return bytes - 1 }
		defer func() { companionMaxBinding = old }()
		require.False(t, fusedStagesAvailable(testDev, &cfg))
		sp, err := NewSpectrometer(testDev, cfg)
		require.NoError(t, err)
		defer sp.Close()
		require.Equal(t, FusionCompanion, sp.Fusion())
		checkVulkanSpectrometer(t, sp, rng) // the device's real limit is far above: both calls run
	})
	t.Run("without float atomics", func(t *testing.T) {
		t.Setenv("VKFFTGO_VULKAN_FLOAT_ATOMICS", "0")
		d, err := Open(0)
		require.NoError(t, err)
		defer d.Close()
		require.False(t, companionFloatAtomics(d))
		// the one-kernel path writes rows of sums that the sum kernel adds (1024; 4096
		// where it fits the device's shared memory: not llvmpipe's 32 KiB), asked for
		// or, on a GPU, by default; the split kernels add into the bins atomically, so
		// they refuse the device (65536), and the power store's sum kernel writes rows
		require.True(t, directFits(d, 1024))
		require.False(t, directFits(d, 65536))
		for _, f := range []Fusion{FusionAuto, FusionAtomic, FusionDirect} {
			for _, n := range []int{1024, 4096, 65536} {
				sp, err := NewSpectrometer(d, SpectrometerConfig{N: n, Batch: 64, Chunk: 32, Input: ComplexInt8, Fusion: f})
				require.NoError(t, err)
				want := FusionPower
				asked := f == FusionDirect || f == FusionAuto && !d.props.HostMemory
				if asked && n <= directMaxN && directFits(d, n) {
					want = FusionDirect
				}
				require.Equal(t, want, sp.Fusion(), "%v at %d", f, n)
				checkSpectrometerOn(t, sp, rng)
				require.NoError(t, sp.Close())
			}
		}
	})
}

// checkSpectrometerOn is checkVulkanSpectrometer for a spectrometer on another device than the
// shared one, from host samples.
func checkSpectrometerOn(t *testing.T, sp *Spectrometer, rng *rand.Rand) {
	t.Helper()
	raw, val := randomSamples(rng, sp.cfg.Input, sp.numbers())
	require.NoError(t, accumulateRaw(sp, raw))
	got := make([]float32, sp.Bins())
	require.NoError(t, sp.Read(got))
	e := relErrReal(got, refPower(sp.cfg, val))
	t.Logf("%v, N %d: relative L2 error %.2e", sp.Fusion(), sp.cfg.N, e)
	require.Less(t, e, 1e-5)
}

// The rewritten GLSL of every sample kernel VkFFT generated (testdata/vkfft-src), for
// every complex format, store mode and window, and the group stores of the last passes
// (register sums, and shared sums where they fit beside VkFFT's shared memory), compiles
// with glslang and makes a pipeline on this device (a companion module whose one kernel
// binds VkFFT's buffers).
func TestVulkanFusedKernelsBuild(t *testing.T) {
	files, err := filepath.Glob("testdata/vkfft-src/vk_*.comp.gz")
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skip("outside the source tree (a GPU bundle): testdata/ is not here")
	}
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	type store struct {
		mode  int
		group groupSpec
	}
	stores := []store{{storeNone, groupSpec{}}, {storePower, groupSpec{}}}
	if companionFloatAtomics(testDev) {
		stores = append(stores, store{storeAtomic, groupSpec{}}, store{storeGroup, groupSpec{GroupSumRegisters, 3}})
		if testDev.props.SharedFloatAtomics {
			stores = append(stores, store{storeGroup, groupSpec{GroupSumShared, 4}})
		}
	}
	sdata := regexp.MustCompile(`shared vec2 sdata\[(\d+)\]`)
	built := map[GroupSum]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gz")
		src := gunzip(t, f)
		roles := vkfftSampleRoles(name)
		m := sdata.FindStringSubmatch(src)
		require.NotNil(t, m, "%s: VkFFT's shared memory", name)
		vkfftShared, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		// VkFFT's bindings, then its two offsets as push constants
		sig := strings.Repeat("b", strings.Count(src, "binding =")) + "ss"
		for i, format := range []SampleFormat{ComplexInt8, ComplexInt16, ComplexUint8, ComplexFloat16} {
			for _, st := range stores {
				r := roles
				if st.mode == storeNone { // a plan that stores nothing has no store pass
					r &^= engine.FuseStoreRole
				}
				if r == 0 || (r == engine.FuseStoreRole && i > 0) { // a store pass reads no samples
					continue
				}
				spec := loadSpec{format: format, n: 4096, scale: 0.5, window: (i+st.mode)%2 == 0, chunk: 2}
				if st.mode == storeGroup {
					spec.n = 256 // the shared sums' bins
					if r&engine.FuseStoreRole == 0 || i > 0 || (st.group.sum == GroupSumShared &&
						uint64(8*vkfftShared+groupShared(spec.n, st.group)) > testDev.props.LocalMemory) {
						continue
					}
					r |= engine.FuseGroupRole
					built[st.group.sum]++
				}
				what := fmt.Sprintf("%s %v store %d %v", name, format, st.mode, st.group)
				out, err := engine.FuseRewrite(src, r, fusedText(Vulkan, spec, st.mode, st.group))
				require.NoError(t, err, what)
				mod, _, err := engine.ModuleBuild(h, glslKernelMarker+"vkg_fused "+sig+" 64\n"+out, nil)
				require.NoError(t, err, what)
				engine.ModuleDestroy(mod)
			}
		}
	}
	if companionFloatAtomics(testDev) {
		require.Positive(t, built[GroupSumRegisters], "group stores with register sums built")
		if testDev.props.SharedFloatAtomics {
			require.Positive(t, built[GroupSumShared], "group stores with shared sums built")
		}
	}
}

// Group sums on Vulkan take the GLSL group store (TestSpectrometerGroupAccuracy runs it
// against the float64 reference); shared sums that cannot run fall back to registers
// over as many transforms, saying why, and the bins stay right: where they do not fit
// beside VkFFT's shared memory (4096 points in one pass fill llvmpipe's 32 KiB), and on
// a device without shaderSharedFloat32AtomicAdd.
func TestVulkanFusedGroupSums(t *testing.T) {
	if !groupsHere() {
		t.Skip("no fused atomic path on this device (no float atomics)")
	}
	rng := rand.New(rand.NewPCG(35, 36))
	cfg := SpectrometerConfig{N: 4096, Batch: 8, Chunk: 4, Input: ComplexInt8, GroupSum: GroupSumShared,
		GroupTransforms: 3}
	sp, err := NewSpectrometer(testDev, cfg)
	require.NoError(t, err)
	g := sp.Group()
	t.Logf("4096 points, shared x3 asked: %v, refused %q", g, g.Refused)
	if engine.PlanAxisUploads(sp.plan) == 1 && testDev.props.LocalMemory < 8*4096+4*4096 {
		require.Equal(t, GroupSumRegisters, g.Sum)
		require.Equal(t, 3, g.Transforms)
		require.Contains(t, g.Refused, "shared memory")
		require.Contains(t, g.Refused, "exceed the device's")
	}
	require.Equal(t, FusionAtomic, sp.Fusion())
	checkVulkanSpectrometer(t, sp, rng)
	require.NoError(t, sp.Close())

	d, err := Open(0)
	require.NoError(t, err)
	defer d.Close()
	d.props.SharedFloatAtomics = false // what this device would report without the feature
	sp, err = NewSpectrometer(d, SpectrometerConfig{N: 512, Batch: 8, Input: ComplexInt8, GroupSum: GroupSumShared,
		GroupTransforms: 4})
	require.NoError(t, err)
	defer sp.Close()
	g = sp.Group()
	require.Equal(t, GroupSumRegisters, g.Sum)
	require.Equal(t, 4, g.Transforms)
	require.Contains(t, g.Refused, "shaderSharedFloat32AtomicAdd")
	checkSpectrometerOn(t, sp, rng)
}
