package vkfft

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// The direct kernel against the float64 reference at every shape its passes take (one
// butterfly or two per work-item, work-groups of one transform or of several), every
// complex format, window, scale and fftshift, from the host (chunk by chunk) and from
// the device (all at once, from a transform other than the first), and batches that are
// not a multiple of a work-group's transforms; the split kernels beyond 4096 points (with
// -full also at 2^16 and 2^20). Sizes they do not take fall back to FusionAuto's path.
func TestSpectrometerDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		name   string
		cfg    SpectrometerConfig
		direct bool
		turn   int // host streaming's FFTs per upload, with turns of that many FFTs' data (0: the chunk)
	}{
		{"4096-int8", SpectrometerConfig{N: 4096, Batch: 6, Input: ComplexInt8, Chunk: 3}, true, 0},
		{"128-uint8-shift", SpectrometerConfig{N: 128, Batch: 37, Input: ComplexUint8, FFTShift: true}, true, 0},
		{"32-float16-window", SpectrometerConfig{N: 32, Batch: 40, Input: ComplexFloat16, Window: hann(32), Chunk: 20}, true, 0},
		{"16-int16-scale", SpectrometerConfig{N: 16, Batch: 9, Input: ComplexInt16, Scale: 1e-3}, true, 0},
		{"2048-int16", SpectrometerConfig{N: 2048, Batch: 6, Input: ComplexInt16, Chunk: 3}, true, 0},
		{"8192-float16-window-shift-split", SpectrometerConfig{N: 8192, Batch: 6, Input: ComplexFloat16,
			Window: hann(8192), FFTShift: true, Chunk: 3}, true, 0},
		{"524288-int8-split-shared", SpectrometerConfig{N: 1 << 19, Batch: 2, Input: ComplexInt8, Chunk: 1}, true, 0},
		{"8192-int8-split-turns", SpectrometerConfig{N: 8192, Batch: 6, Input: ComplexInt8}, true, 2},
		{"3000-falls-back", SpectrometerConfig{N: 3000, Batch: 2, Input: ComplexInt8}, false, 0},
		{"real-falls-back", SpectrometerConfig{N: 256, Batch: 2, Input: RealInt8}, false, 0},
	}
	if *fullSweep { // the sizes of the split kernels' goals, long on a CPU
		cases = append(cases, []struct {
			name   string
			cfg    SpectrometerConfig
			direct bool
			turn   int
		}{
			{"65536-int8-split", SpectrometerConfig{N: 1 << 16, Batch: 8, Input: ComplexInt8, Chunk: 4}, true, 0},
			{"1048576-int8-window-split", SpectrometerConfig{N: 1 << 20, Batch: 2, Input: ComplexInt8,
				Window: hann(1 << 20), Chunk: 1}, true, 0},
		}...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Fusion = FusionDirect
			if c.turn > 0 {
				saved := hostTurnBytes
				hostTurnBytes = int64(c.turn * c.cfg.N * 8)
				defer func() { hostTurnBytes = saved }()
			}
			sp, err := NewSpectrometer(testDev, c.cfg)
			require.NoError(t, err)
			defer sp.Close()
			direct := c.direct && directFits(testDev, c.cfg.N)
			require.Equal(t, direct, sp.Fusion() == FusionDirect, "path %v", sp.Fusion())
			if c.turn > 0 && direct { // host samples in turns of fewer FFTs than the chunk
				require.Equal(t, [2]int{c.cfg.Batch, c.turn}, [2]int{sp.Chunk(), sp.turn})
			}
			numbers := sp.numbers()
			raw, val := randomSamples(rng, c.cfg.Input, numbers)
			require.NoError(t, accumulateRaw(sp, raw))

			// from the device, one transform in: a transform of other samples leads (the
			// offset Accumulate's C callers pass)
			lead, _ := randomSamples(rng, c.cfg.Input, numbers/c.cfg.Batch)
			dev, err := NewBuffer[uint8](testDev, len(lead)+len(raw))
			require.NoError(t, err)
			defer dev.Close()
			require.NoError(t, dev.Upload(append(lead, raw...)))
			require.NoError(t, engine.SpectroDevice(sp.s, sp.st, dev.b.m, 1, c.cfg.Batch))

			t.Logf("%v: relative L2 error %.2e", sp.Fusion(), requireBins(t, sp, val, 2))
		})
	}
}

// The direct kernel's passes, work-groups and shared memory for the sizes it takes, and
// none for the others; with VKFFTGO_REWRITE_OUT set its CUDA modules (every complex format, with and
// without a window) are written there for NVRTC (make cuda-kernel-check).
func TestDirectShapes(t *testing.T) {
	for _, c := range []struct {
		n                  int
		radices, vkRadices []int // under CUDA and OpenCL, under Vulkan
		t, ty, vkT, vkTy   int
		supported          bool
	}{
		{16, []int{4, 4}, []int{4, 4}, 4, 16, 4, 16, true},
		{32, []int{4, 8}, []int{4, 8}, 4, 16, 4, 16, true},
		{1024, []int{32, 32}, []int{32, 32}, 32, 2, 32, 2, true},
		{2048, []int{32, 64}, []int{8, 16, 16}, 32, 2, 128, 1, true},
		{4096, []int{64, 64}, []int{32, 16, 8}, 64, 1, 128, 1, true},
		{8, nil, nil, 0, 0, 0, 0, false},
		{3072, nil, nil, 0, 0, 0, 0, false},
	} {
		cfg := SpectrometerConfig{N: c.n, Input: ComplexInt8}
		require.Equal(t, c.supported, directSupported(&cfg))
		cfg.Input = RealInt8
		require.False(t, directSupported(&cfg), "real input")
		for _, b := range []Backend{CUDA, OpenCL, Vulkan} {
			want, wantGroup := c.radices, [2]int{c.t, c.ty}
			if b == Vulkan {
				want, wantGroup = c.vkRadices, [2]int{c.vkT, c.vkTy}
			}
			r := directRadices(b, c.n)
			require.Equal(t, want, r, "n %d on %v", c.n, b)
			if r != nil {
				tt, ty := directGroup(c.n, r)
				require.Equal(t, wantGroup, [2]int{tt, ty}, "n %d on %v", c.n, b)
				require.Equal(t, c.n, tt*slices.Max(r), "n %d on %v: every work-item holds the largest radix", c.n, b)
			}
		}
	}
	for _, c := range []struct {
		n, n1, n2      int
		colT, colTy    int // the column kernel's work-group (t 1: one work-item a column)
		rowT, rowTy    int
		vkRowT         int  // under Vulkan (rows of 2048 and 4096 in three passes, one a work-group)
		supported, one bool // by the split kernels, by the direct kernel
	}{
		{4096, 0, 0, 0, 0, 0, 0, 0, false, true},
		{8192, 8, 1024, 1, 64, 32, 2, 32, true, false},
		{1 << 16, 64, 1024, 1, 64, 32, 2, 32, true, false},
		{1 << 18, 64, 4096, 1, 64, 64, 1, 128, true, false},
		{1 << 19, 512, 1024, 16, 8, 32, 2, 32, true, false},
		{1 << 20, 512, 2048, 16, 8, 32, 2, 128, true, false},
		{1 << 22, 1024, 4096, 32, 4, 64, 1, 128, true, false},
		{1 << 23, 0, 0, 0, 0, 0, 0, 0, false, false},
		{3 << 12, 0, 0, 0, 0, 0, 0, 0, false, false},
	} {
		require.Equal(t, c.supported && c.n >= 1<<15, splitByDefault(c.n), "n %d", c.n)
		n1, n2, ok := directSplit(c.n)
		require.Equal(t, [3]any{c.n1, c.n2, c.supported}, [3]any{n1, n2, ok}, "n %d", c.n)
		cfg := SpectrometerConfig{N: c.n, Input: ComplexInt16}
		require.Equal(t, c.supported || c.one, directSupported(&cfg), "n %d", c.n)
		if !ok {
			continue
		}
		colT, colTy := splitColumnGroup(n1)
		require.Equal(t, [2]int{c.colT, c.colTy}, [2]int{colT, colTy}, "n %d", c.n)
		for _, b := range []Backend{CUDA, OpenCL, Vulkan} {
			_, words, _ := splitColumnLayout(b, n1)
			require.LessOrEqual(t, colTy*words*8, 40960, "n %d on %v: the column kernel's shared memory", c.n, b)
		}
		rowT, rowTy := splitRowGroup(CUDA, n1, n2)
		require.Equal(t, [2]int{c.rowT, c.rowTy}, [2]int{rowT, rowTy}, "n %d", c.n)
		require.Zero(t, n1%rowTy, "n %d: the row kernel's work-groups hold whole sets of rows", c.n)
		vkRowT, vkRowTy := splitRowGroup(Vulkan, n1, n2)
		require.Equal(t, [2]int{c.vkRowT, min(c.rowTy, max(1, 64/c.vkRowT))}, [2]int{vkRowT, vkRowTy}, "n %d on Vulkan", c.n)
	}
	// FusionAuto's choice: on a GPU every size the kernels take from 16 to 4096 and from
	// 2^15 (the split sizes only with float atomics, which directFits checks);
	// on a CPU device only under CUDA (which
	// has none)
	gpu := &Device{props: engine.DeviceInfo{FloatAtomics: true}}
	cpu := &Device{props: engine.DeviceInfo{FloatAtomics: true, HostMemory: true}}
	noAtomics := &Device{}
	for _, c := range []struct {
		n    int
		want bool
	}{
		{16, true}, {2048, true}, {4096, true}, {8192, false}, {16384, false}, {1 << 15, true}, {1 << 22, true},
		{3000, false},
	} {
		cfg := SpectrometerConfig{N: c.n, Input: ComplexInt8}
		want := c.want
		require.Equal(t, want, directByDefault(gpu, &cfg), "n %d on a GPU", c.n)
		require.Equal(t, want && compiledBackend == CUDA, directByDefault(cpu, &cfg), "n %d on a CPU", c.n)
		require.Equal(t, want, directByDefault(noAtomics, &cfg), "n %d without float atomics", c.n)
		require.Equal(t, want && c.n <= directMaxN, takesDirect(noAtomics, &cfg), "n %d without float atomics: taken", c.n)
		cfg.GroupSum = GroupSumShared
		require.False(t, directByDefault(gpu, &cfg), "n %d with a group sum asked for", c.n)
	}
	// the direct kernel writes a row of sums per work-group for the sum kernel on OpenCL
	// and on a Vulkan device without float atomics (whose module then takes none); the
	// others add their sums into the bins
	for _, c := range []struct {
		b    Backend
		rows bool
	}{{CUDA, false}, {OpenCL, true}, {Vulkan, false}, {Vulkan, true}} {
		for _, n := range []int{16, 1024, 4096} {
			src := directModuleSource(c.b, loadSpec{format: ComplexInt8, n: n, scale: 1}, c.rows)
			require.Equal(t, c.rows, strings.Contains(src, " * "+strconv.Itoa(n)+"u + vkg_k] = vkg_sre["), "n %d on %v", n, c.b)
			require.Equal(t, !c.rows, strings.Contains(src, "VKG_ATOMIC_ADD(psd, vkg_t + 0u, vkg_p0)"), "n %d on %v", n, c.b)
			if c.b == Vulkan {
				require.Equal(t, !c.rows, strings.Contains(src, "GL_EXT_shader_atomic_float"), "n %d on Vulkan", n)
			}
		}
	}
	// the shared memory the fit check counts is what the kernels declare, in every dialect
	declared := regexp.MustCompile(`(?:vkg_sre|vkg_sv)\[(\d+)\]`)
	for _, n := range []int{16, 1024, 2048, 4096, 8192, 1 << 16, 1 << 17, 1 << 19, 1 << 20, 1 << 22} {
		for _, b := range []Backend{CUDA, OpenCL, Vulkan} {
			most := 0
			for _, rows := range []bool{false, true} {
				for _, m := range declared.FindAllStringSubmatch(directModuleSource(b, loadSpec{format: ComplexInt8, n: n, scale: 1}, rows), -1) {
					words, err := strconv.Atoi(m[1])
					require.NoError(t, err)
					most = max(most, 8*words)
				}
			}
			require.Equal(t, most, directSharedBytes(b, n), "n %d on %v", n, b)
		}
	}
	// every device the tests run on (PoCL, llvmpipe, NVIDIA's) runs the sizes of at most
	// 17 KiB, so TestSpectrometerDirect runs the direct kernels on each (the split ones
	// only with float atomics, which VKFFTGO_VULKAN_FLOAT_ATOMICS=0 hides)
	for _, n := range []int{16, 1024, 8192, 1 << 16} {
		require.LessOrEqual(t, directSharedBytes(compiledBackend, n), 17<<10, "n %d", n)
		_, _, split := directSplit(n)
		require.Equal(t, !split || companionFloatAtomics(testDev), directFits(testDev, n),
			"n %d: %d bytes of shared memory, the device has %d", n, directSharedBytes(compiledBackend, n),
			testDev.props.LocalMemory)
	}
	if dir := os.Getenv("VKFFTGO_REWRITE_OUT"); dir != "" {
		for _, f := range sampleFormatList() {
			if !f.Complex() {
				continue
			}
			for i, n := range []int{4096, 2048, 16, 1 << 16, 1 << 20} {
				spec := loadSpec{format: f, n: n, scale: 3, window: i == 1 || i == 4}
				name := fmt.Sprintf("%s/direct-%d-%d.cu", dir, f, n)
				require.NoError(t, os.WriteFile(name, []byte(directModuleSource(CUDA, spec, false)), 0o644))
			}
		}
	}
}

// What FusionAuto and an automatic chunk come to on devices of each kind: the power store
// where floats are added by compare-and-swap on a GPU (OpenCL), and for the split direct
// kernels on a GPU chunks of a 32nd of its memory, from 256 MiB to 1 GiB, within one
// binding.
func TestDefaultsByDevice(t *testing.T) {
	gpu := func(memory, binding uint64) *Device {
		return &Device{info: DeviceInfo{GlobalMemory: memory}, props: engine.DeviceInfo{FloatAtomics: true, MaxBinding: binding}}
	}
	cpu := &Device{info: DeviceInfo{GlobalMemory: 24 << 30}, props: engine.DeviceInfo{FloatAtomics: true, HostMemory: true}}
	wantFusion := FusionAtomic
	if compiledBackend == OpenCL {
		wantFusion = FusionPower
	}
	require.Equal(t, wantFusion, defaultFusion(gpu(80<<30, 0)))
	require.Equal(t, FusionAtomic, defaultFusion(cpu))
	// the sum kernel's work-groups per chunk: at most 64 adds on a bin where they contend
	for _, c := range []struct{ items, bins, gpu, cpu int }{
		{1 << 20, 16, 16384, 16384}, {4096, 16, 4096, 4096}, {1 << 20, 4096, 64, 64}, {1 << 20, 1 << 20, 1, 1},
	} {
		want := c.gpu
		if compiledBackend == OpenCL {
			want = min(c.gpu, contendedSumGroups)
		}
		require.Equal(t, want, sumGroups(gpu(80<<30, 0), c.items, c.bins), "%d items of %d bins on a GPU", c.items, c.bins)
		require.Equal(t, c.cpu, sumGroups(cpu, c.items, c.bins), "%d items of %d bins on a CPU", c.items, c.bins)
	}
	// without float atomics as many, each writing its row of sums (OpenCL's C adds by
	// compare-and-swap: there they contend)
	require.Equal(t, sumGroups(gpu(80<<30, 0), 1<<20, 16), sumGroups(&Device{}, 1<<20, 16))

	for _, c := range []struct {
		name  string
		d     *Device
		n     int
		fused bool // FusionAtomic asked for: the split kernels are not taken
		want  int64
	}{
		{"H200-sized GPU, 2^16", gpu(141e9, 0), 1 << 16, false, 1 << 30},
		{"24 GiB GPU, 2^20", gpu(24<<30, 0), 1 << 20, false, 768 << 20},
		{"4 GiB GPU, 2^16", gpu(4<<30, 0), 1 << 16, false, defaultChunkBytes},
		{"binding of 512 MiB, 2^16", gpu(141e9, 512<<20), 1 << 16, false, 512 << 20},
		{"binding of 128 MiB, 4096", gpu(141e9, 128<<20), 4096, false, 128 << 20},
		{"one-kernel size, 4096", gpu(141e9, 0), 4096, false, defaultChunkBytes},
		{"not the split kernels' default, 8192", gpu(141e9, 0), 8192, false, defaultChunkBytes},
		{"FusionAtomic, 2^16", gpu(141e9, 0), 1 << 16, true, defaultChunkBytes},
		{"CPU, 2^16", cpu, 1 << 16, false, defaultChunkBytes},
	} {
		cfg := SpectrometerConfig{N: c.n, Batch: 64, Input: ComplexInt8}
		if c.fused {
			cfg.Fusion = FusionAtomic
		}
		require.Equal(t, c.want, chunkBytes(c.d, &cfg), c.name)
	}
	// host streaming uploads the split kernels' large chunks in turns of 256 MiB
	h200 := gpu(141e9, 0)
	for _, c := range []struct{ n, batch, chunk, turn int }{
		{1 << 16, 4096, 2048, 512}, {1 << 20, 256, 128, 32}, {4096, 65536, 8192, 8192}, {8192, 32768, 4096, 4096},
	} {
		cfg := SpectrometerConfig{N: c.n, Batch: c.batch, Input: ComplexInt8}
		cfg.Chunk = autoChunk(c.n, c.batch, chunkBytes(h200, &cfg))
		require.Equal(t, [2]int{c.chunk, c.turn}, [2]int{cfg.Chunk, hostTurn(h200, &cfg)}, "n %d", c.n)
	}
}

// The column kernel's values as pairs (CUDA's layout) on the backend the tests run on,
// against the float64 reference: a size whose columns go through shared memory.
func TestSplitColumnPairs(t *testing.T) {
	saved := splitColumnPairsOn
	splitColumnPairsOn = map[Backend]map[int]bool{compiledBackend: {512: true}}
	defer func() { splitColumnPairsOn = saved }()
	_, ty := splitColumnGroup(512)
	_, words, pairs := splitColumnLayout(compiledBackend, 512)
	require.True(t, pairs)
	runSplit(t, fmt.Sprintf("float2 vkg_sv[%d]", ty*words), "the columns as pairs, 8 a work-group")
}

// The column kernel's layouts: a warp's columns side by side (8 of 512 points, 4 of
// 1024) meet in a bank two or four times an access of each array in the layout of two
// arrays, and not at all as pairs (two wavefronts, half a warp each); pairs where they
// measured faster.
func TestSplitColumnLayout(t *testing.T) {
	for _, c := range []struct{ n1, twoArrays int }{{512, 2}, {1024, 4}} {
		n1 := c.n1
		radices := directTwoPasses(n1)
		ct, ty := splitColumnGroup(n1)
		accesses := 2 * n1 / ct // the first pass's stores and the second's loads
		shift, words, _ := splitColumnLayout(OpenCL, n1)
		require.Equal(t, c.twoArrays*accesses, directWavefronts(n1, radices, ct, ty, shift, words, false, true), "n1 %d in two arrays", n1)
		shift, words, pairs := splitColumnLayout(CUDA, n1)
		require.True(t, pairs, "n1 %d on CUDA", n1)
		require.Equal(t, 2*accesses, directWavefronts(n1, radices, ct, ty, shift, words, true, true), "n1 %d as pairs", n1)
	}
	_, _, pairs := splitColumnLayout(Vulkan, 512)
	require.False(t, pairs, "Vulkan's columns of 512 points: two arrays measured faster")
}

// The choices CUDA and Vulkan make, run on the backend the tests run on against float64
// (one transformation at a time would compile a module each, which PoCL takes seconds
// for): a butterfly's values addressed from one base, in CUDA's two passes of 4096 points
// and Vulkan's shapes (2048 and 4096 points in one kernel, its rows of 4096 run as one
// kernel), and the split rows as pairs from one base, as Vulkan runs them.
func TestDirectChoicesOfOtherBackends(t *testing.T) {
	savedFold, savedPasses, savedPairs := directFoldOn, directPasses, splitRowPairsOn
	defer func() { directFoldOn, directPasses, splitRowPairsOn = savedFold, savedPasses, savedPairs }()
	directFoldOn = map[Backend]bool{compiledBackend: true}
	for _, c := range []struct {
		n       int
		radices []int
	}{
		{4096, directTwoPasses(4096)}, {2048, savedPasses[Vulkan][2048]}, {4096, savedPasses[Vulkan][4096]},
		{4096, splitRowPasses[Vulkan][4096]},
	} {
		directPasses = map[Backend]map[int][]int{compiledBackend: {c.n: c.radices}}
		spec := loadSpec{format: ComplexInt8, n: c.n, scale: 1}
		require.Contains(t, directModuleSource(compiledBackend, spec, directRows(testDev)), "vkg_la1_0 + ",
			"%d points as %v: addressed from one base", c.n, c.radices)
		if !directFits(testDev, c.n) { // llvmpipe's 32 KiB
			t.Logf("%d points as %v: %d bytes of shared memory, the device has %d", c.n, c.radices,
				directSharedBytes(compiledBackend, c.n), testDev.props.LocalMemory)
			continue
		}
		cfg := SpectrometerConfig{N: c.n, Batch: 6, Input: ComplexInt8, Chunk: 3, Fusion: FusionDirect}
		sp, err := NewSpectrometer(testDev, cfg)
		require.NoError(t, err)
		require.Equal(t, FusionDirect, sp.Fusion())
		raw, val := randomSamples(rand.New(rand.NewPCG(17, uint64(c.n))), cfg.Input, sp.numbers())
		require.NoError(t, accumulateRaw(sp, raw))
		t.Logf("%d points as %v: relative L2 error %.2e", c.n, c.radices, requireBins(t, sp, val, 1))
		require.NoError(t, sp.Close())
	}
	directPasses = savedPasses
	splitRowPairsOn = map[Backend]bool{compiledBackend: true}
	runSplit(t, "vkg_sv[vkg_la1_0 + ", "the rows as pairs from one base")
}

// runSplit runs the split kernels of 2^19 points against float64 where the device runs
// them, their module's text containing want.
func runSplit(t *testing.T, want, what string) {
	cfg := SpectrometerConfig{N: 1 << 19, Batch: 2, Input: ComplexInt8, Chunk: 1, Fusion: FusionDirect}
	if !directFits(testDev, cfg.N) { // llvmpipe's 32 KiB of shared memory; no float atomics
		t.Skipf("the split kernels of %d points do not run on this device: float atomics %v, %d bytes of shared memory against their %d",
			cfg.N, companionFloatAtomics(testDev), testDev.props.LocalMemory, directSharedBytes(compiledBackend, cfg.N))
	}
	src := directModuleSource(compiledBackend, loadSpec{format: cfg.Input, n: cfg.N, scale: 1}, false)
	require.Contains(t, src, want, what)
	sp, err := NewSpectrometer(testDev, cfg)
	require.NoError(t, err)
	defer sp.Close()
	require.Equal(t, FusionDirect, sp.Fusion())
	raw, val := randomSamples(rand.New(rand.NewPCG(13, 14)), cfg.Input, sp.numbers())
	require.NoError(t, accumulateRaw(sp, raw))
	t.Logf("relative L2 error %.2e", requireBins(t, sp, val, 1))
}

// The direct kernels' shared-memory layout: every transform's padded values within its
// words (and the rows of sums' layout, directPad), and every access of a warp in one
// wavefront for the two-pass kernels — the 64·64 passes of 4096 points took two for a
// quarter of them with one word of padding per 32, and the sizes with several transforms
// a warp up to four.
func TestDirectLayout(t *testing.T) {
	for n := directMinN; n <= directMaxN; n *= 2 {
		for _, b := range []Backend{CUDA, OpenCL, Vulkan} {
			for _, pairs := range []bool{false, true} {
				r := directRadices(b, n)
				tt, ty := directGroup(n, r)
				shift, words := directLayout(n, r, pairs)
				require.Less(t, (n-1)+(n-1)>>shift, words, "n %d on %v: values overlap the next transform's", n, b)
				require.GreaterOrEqual(t, words, n+n/32, "n %d on %v: the rows of sums", n, b)
				got := directWavefronts(n, r, tt, ty, shift, words, pairs, false)
				require.LessOrEqual(t, got, directWavefronts(n, r, tt, ty, 5, n+n/32, pairs, false), "n %d on %v", n, b)
				if len(r) == 2 {
					// a wavefront an access, two for pairs (half a warp each)
					accesses := (n/r[0]/tt)*r[0] + (n/r[1]/tt)*r[1]
					if pairs {
						accesses *= 2
					}
					require.Equal(t, accesses, got, "n %d on %v, pairs %v: a wavefront an access", n, b, pairs)
				}
			}
		}
	}
	shift, words := directLayout(4096, []int{64, 64}, false)
	require.Equal(t, [2]int{6, 4224}, [2]int{shift, words}, "4096 points: one word per 64")
	require.Equal(t, 3*128, directWavefronts(4096, []int{64, 64}, 64, 1, 5, 4224, true, false),
		"4096 points as pairs, one word per 32: the first pass's stores two wavefronts a half warp")
}
