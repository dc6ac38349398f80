package vkfft

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// checkSpectrometer feeds one random batch from the host and the same from device memory
// and compares the bins with twice the float64 reference (relative L2 ≤ 1e-5).
func checkSpectrometer(t *testing.T, sp *Spectrometer, rng *rand.Rand) float64 {
	t.Helper()
	raw, val := randomSamples(rng, sp.cfg.Input, sp.numbers())
	require.NoError(t, accumulateRaw(sp, raw))
	dev, err := NewBuffer[uint8](testDev, len(raw))
	require.NoError(t, err)
	defer dev.Close()
	require.NoError(t, dev.Upload(raw))
	require.NoError(t, sp.AccumulateNative(uintptr(dev.b.m)))
	return requireBins(t, sp, val, 2)
}

// The group store on PoCL and llvmpipe against the float64 reference: one pass and two (a small
// SharedMemory splits 4096 points), both flavours, 1, 3 (not dividing the chunk, so
// the last work-group runs short) and 16 transforms per work-group, windows, scale,
// fftshift, every complex format, both bin orders.
func TestSpectrometerGroupAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name string
		cfg  SpectrometerConfig
		sum  GroupSum
		k    int
	}{
		{"registers-3-window-shift", SpectrometerConfig{N: 512, Batch: 10, Chunk: 5, Input: ComplexInt8,
			GroupSum: GroupSumRegisters, GroupTransforms: 3, Window: hann(512), FFTShift: true}, GroupSumRegisters, 3},
		{"shared-16-int16-scale", SpectrometerConfig{N: 512, Batch: 40, Chunk: 20, Input: ComplexInt16,
			GroupSum: GroupSumShared, GroupTransforms: 16, Scale: 1e-3}, GroupSumShared, 16},
		{"one-per-group-uint8", SpectrometerConfig{N: 256, Batch: 6, Input: ComplexUint8, Fusion: FusionAtomic,
			GroupTransforms: 1}, GroupSumOff, 1},
		{"shared-3-float16-window", SpectrometerConfig{N: 256, Batch: 7, Input: ComplexFloat16,
			GroupSum: GroupSumShared, GroupTransforms: 3, Window: hann(256)}, GroupSumShared, 3},
		{"multipass-registers-3-read-order", SpectrometerConfig{N: 4096, Batch: 8, Chunk: 4, Input: ComplexInt8,
			GroupSum: GroupSumRegisters, GroupTransforms: 3, SharedMemory: 8192, BinOrder: BinOrderOnRead}, GroupSumRegisters, 3},
		{"multipass-shared-16-vkfft-reorders-shift", SpectrometerConfig{N: 4096, Batch: 20, Input: ComplexInt8,
			GroupTransforms: 16, SharedMemory: 8192, BinOrder: BinOrderVkFFT, FFTShift: true, Window: hann(4096)},
			GroupSumShared, 16},
	}
	if !groupsHere() {
		cases = cases[:1] // the rest would test the same path again
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if compiledBackend == Vulkan && c.cfg.Window != nil && c.cfg.SharedMemory != 0 {
				// GLSL's windowed load finds no window where VkFFT's four-step reordering
				// has the first of several passes write its own buffer (the companion
				// path; TestVulkanFusedFallbacks): the group store is tested without
				c.cfg.Window = nil
			}
			sp, err := NewSpectrometer(testDev, c.cfg)
			require.NoError(t, err)
			defer sp.Close()
			if !groupsHere() { // no fused atomic path here, whatever the group settings
				require.Equal(t, fusionOnThisBackend(testDev, c.cfg), sp.Fusion())
				require.Equal(t, GroupSumOff, sp.Group().Sum)
				checkSpectrometer(t, sp, rng)
				return
			}
			require.Equal(t, FusionAtomic, sp.Fusion())
			g := sp.Group()
			require.Empty(t, g.Refused)
			require.Equal(t, c.sum, g.Sum)
			require.Equal(t, c.k, g.Transforms)
			require.Equal(t, TunedByHand, g.Source)
			e := checkSpectrometer(t, sp, rng)
			t.Logf("%v, chunk %d, %d passes, VkFFT order %v: relative L2 error %.2e", g, sp.Chunk(),
				engine.PlanAxisUploads(sp.plan), sp.perm != nil, e)
		})
	}
}

// A group store the rewriter refuses leaves the fused atomic path, with an atomic add per
// element, and says why; the bins stay right.
func TestSpectrometerGroupFallback(t *testing.T) {
	if !groupsHere() {
		t.Skip("no fused stages in this build")
	}
	groupForbidHook = "shiftX" // every kernel VkFFT writes reads it
	t.Cleanup(func() { groupForbidHook = "" })
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: 512, Batch: 6, Input: ComplexInt8,
		GroupSum: GroupSumRegisters, GroupTransforms: 4})
	require.NoError(t, err)
	defer sp.Close()
	require.Equal(t, FusionAtomic, sp.Fusion())
	g := sp.Group()
	require.Equal(t, GroupSumOff, g.Sum)
	require.Equal(t, 1, g.Transforms)
	require.Contains(t, g.Refused, "reads shiftX")
	checkSpectrometer(t, sp, rng0())
}

// Sums in shared memory that do not fit go to registers over as many transforms.
func TestSpectrometerGroupSharedFallsBackToRegisters(t *testing.T) {
	if !groupsHere() {
		t.Skip("no fused stages in this build")
	}
	groupBuildHook = func(g groupSpec) error {
		if g.sum == GroupSumShared {
			return fmt.Errorf("%w: no room", ErrUnsupported)
		}
		return nil
	}
	t.Cleanup(func() { groupBuildHook = nil })
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: 512, Batch: 8, Input: ComplexInt8,
		GroupSum: GroupSumShared, GroupTransforms: 4})
	require.NoError(t, err)
	defer sp.Close()
	g := sp.Group()
	require.Equal(t, GroupSumRegisters, g.Sum)
	require.Equal(t, 4, g.Transforms)
	require.Equal(t, "shared x4: unsupported: no room", g.Refused)
	checkSpectrometer(t, sp, rng0())
}

func rng0() *rand.Rand { return rand.New(rand.NewPCG(5, 6)) }

// groupsHere says whether spectrometers on the test device take group sums at all: the
// fused atomic path (not on a Vulkan device without float atomics).
func groupsHere() bool {
	cfg := SpectrometerConfig{N: 256, Batch: 1, Input: ComplexInt8, Fusion: FusionAtomic}
	return groupsApply(testDev, &cfg)
}

// TuneSpectrometer measures, stores and is then used by GroupSumAuto: in this process,
// in another (the kernel-cache directory), for the same key only, and not with TuneOff.
func TestSpectrometerGroupTuning(t *testing.T) {
	if !groupsHere() {
		_, err := TuneSpectrometer(testDev, SpectrometerConfig{N: 256, Batch: 8, Input: ComplexInt8})
		require.ErrorIs(t, err, ErrUnsupported)
		return
	}
	kcDir(t)
	storedGroupSums.forget()
	t.Cleanup(storedGroupSums.forget)
	oldList, oldBias := groupCandidateList, groupTuneBias
	t.Cleanup(func() { groupCandidateList, groupTuneBias = oldList, oldBias })
	groupCandidateList = func(n, chunk int) []groupSpec {
		require.Equal(t, 256, n)
		return []groupSpec{{GroupSumOff, 1}, {GroupSumRegisters, 2}, {GroupSumShared, 4}}
	}
	// registers x2 counts as a thousand times faster, whatever the noise of a loaded machine
	groupTuneBias = func(g groupSpec) float64 {
		if g.sum == GroupSumRegisters {
			return 1e-3
		}
		return 1
	}
	cfg := SpectrometerConfig{N: 256, Batch: 16, Chunk: 8, Input: ComplexInt8, GroupSum: GroupSumShared,
		GroupTransforms: 9, Fusion: FusionAtomic} // the sum and transforms are ignored: the tuning measures every candidate
	g, err := TuneSpectrometer(testDev, cfg)
	require.NoError(t, err)
	require.Equal(t, TunedMeasured, g.Source)
	require.Equal(t, GroupSumRegisters, g.Sum)
	require.Equal(t, 2, g.Transforms)
	require.Equal(t, 16, g.Batch, "whole calls of the configuration's batch (it is small)")
	require.Len(t, g.Candidates, 3)
	require.Equal(t, GroupTiming{Sum: GroupSumRegisters, Transforms: 2, Ms: g.Candidates[0].Ms}, g.Candidates[0])
	require.LessOrEqual(t, g.Candidates[1].Ms, g.Candidates[2].Ms, "fastest first")
	require.Positive(t, g.Elapsed)

	auto := cfg
	auto.GroupSum, auto.GroupTransforms = GroupSumAuto, 0
	use := func(c SpectrometerConfig) GroupTuning {
		t.Helper()
		sp, err := NewSpectrometer(testDev, c)
		require.NoError(t, err)
		defer sp.Close()
		checkSpectrometer(t, sp, rng0())
		return sp.Group()
	}
	got := use(auto)
	require.Equal(t, TunedStored, got.Source)
	require.Equal(t, GroupSumRegisters, got.Sum)
	require.Equal(t, 2, got.Transforms)
	require.Len(t, got.Candidates, 3)

	storedGroupSums.forget() // a new process reads it from the directory
	got = use(auto)
	require.Equal(t, TunedStored, got.Source)
	require.Equal(t, "registers x2", got.String())

	off := auto
	off.Tune = TuneOff
	require.Equal(t, TunedNone, use(off).Source, "TuneOff takes the default")
	other := auto
	other.Chunk = 4 // another key
	require.Equal(t, TunedNone, use(other).Source)
	require.Equal(t, GroupSumOff, use(other).Sum, "the default for so small a chunk")

	// TuneMeasure measures only what is not stored
	other.Tune = TuneMeasure
	got = use(other)
	require.Equal(t, TunedMeasured, got.Source)
	require.Equal(t, GroupSumRegisters, got.Sum)
	require.Equal(t, TunedStored, use(other).Source)
}

// Stored spectrometer tunings are parsed strictly: a damaged or foreign payload is
// refused, never used.
func TestGroupTuningPayload(t *testing.T) {
	g := GroupTuning{Sum: GroupSumShared, Transforms: 8, Batch: 64, Elapsed: 1500 * time.Millisecond,
		Candidates: []GroupTiming{{GroupSumShared, 8, 0.25}, {GroupSumOff, 1, 1.5}}}
	back, err := decodeGroupTuning(encodeGroupTuning(g))
	require.NoError(t, err)
	require.Equal(t, g, back)
	good := string(encodeGroupTuning(g))
	for name, payload := range map[string]string{
		"empty":              "",
		"missing field":      "sum=shared\ntransforms=8\nbatch=64\nelapsed_ms=3\n",
		"repeated field":     good + "sum=shared\n",
		"unknown field":      good + "colour=blue\n",
		"auto is no choice":  replaceLine(good, "sum=", "sum=auto"),
		"unknown sum":        replaceLine(good, "sum=", "sum=disk"),
		"zero transforms":    replaceLine(good, "transforms=", "transforms=0"),
		"too many":           replaceLine(good, "transforms=", "transforms=70000"),
		"off with several":   replaceLine(replaceLine(good, "sum=", "sum=off"), "transforms=", "transforms=4"),
		"negative batch":     replaceLine(good, "batch=", "batch=-1"),
		"negative elapsed":   replaceLine(good, "elapsed_ms=", "elapsed_ms=-5"),
		"bad candidate":      replaceLine(good, "candidates=", "candidates=shared:8"),
		"negative time":      replaceLine(good, "candidates=", "candidates=shared:8:-1"),
		"nan time":           replaceLine(good, "candidates=", "candidates=shared:8:NaN"),
		"bad candidate sum":  replaceLine(good, "candidates=", "candidates=auto:8:0.5"),
		"bad candidate size": replaceLine(good, "candidates=", "candidates=off:2:0.5"),
	} {
		_, err := decodeGroupTuning([]byte(payload))
		require.Error(t, err, name)
	}
}

// replaceLine replaces the line of text that starts with prefix by line.
func replaceLine(text, prefix, line string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = line
		}
	}
	return strings.Join(lines, "\n")
}

// The default group sum leaves a chunk's elements spread over enough work-groups:
// nothing for small chunks, up to 8 transforms, in shared memory up to 4096 bins.
func TestDefaultGroup(t *testing.T) {
	for _, c := range []struct {
		n, chunk int
		want     groupSpec
	}{
		{512, 4, groupSpec{GroupSumOff, 1}},
		{4096, 8192, groupSpec{GroupSumShared, 8}},
		{4096, 2048, groupSpec{GroupSumShared, 2}},
		{4096, 1024, groupSpec{GroupSumOff, 1}},
		{65536, 512, groupSpec{GroupSumRegisters, 8}},
		{1 << 20, 8, groupSpec{GroupSumRegisters, 2}},
		{1 << 20, 256, groupSpec{GroupSumRegisters, 8}},
	} {
		require.Equal(t, c.want, defaultGroup(c.n, c.chunk), "N=%d chunk=%d", c.n, c.chunk)
	}
}

// Group settings that cannot be honoured are errors that name them.
func TestSpectrometerGroupBadConfig(t *testing.T) {
	base := SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8}
	for name, c := range map[string]struct {
		mod  func(*SpectrometerConfig)
		err  error
		text string
	}{
		"unknown sum":         {func(c *SpectrometerConfig) { c.GroupSum = 9 }, ErrInvalidArgument, "group sum 9"},
		"negative transforms": {func(c *SpectrometerConfig) { c.GroupTransforms = -1 }, ErrInvalidArgument, "GroupTransforms -1"},
		"too many transforms": {func(c *SpectrometerConfig) { c.GroupTransforms = 1 << 17 }, ErrInvalidArgument, "GroupTransforms"},
		"off with several":    {func(c *SpectrometerConfig) { c.GroupSum, c.GroupTransforms = GroupSumOff, 4 }, ErrInvalidArgument, "GroupSumOff"},
		"shared too large": {func(c *SpectrometerConfig) { c.N, c.GroupSum = 16384, GroupSumShared }, ErrUnsupported,
			"N = 16384"},
		"another fusion": {func(c *SpectrometerConfig) { c.Fusion, c.GroupSum = FusionPower, GroupSumRegisters },
			ErrInvalidArgument, "FusionAtomic"},
		"unknown tune mode": {func(c *SpectrometerConfig) { c.Tune = 9 }, ErrInvalidArgument, "tune mode 9"},
	} {
		cfg := base
		c.mod(&cfg)
		_, err := NewSpectrometer(testDev, cfg)
		require.ErrorIs(t, err, c.err, name)
		require.ErrorContains(t, err, c.text, name)
	}
	_, err := TuneSpectrometer(nil, base)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = ParseGroupSum("disk")
	require.ErrorIs(t, err, ErrInvalidArgument)
	for _, g := range []GroupSum{GroupSumAuto, GroupSumOff, GroupSumRegisters, GroupSumShared} {
		back, err := ParseGroupSum(g.String())
		require.NoError(t, err)
		require.Equal(t, g, back)
	}
}

// The group store stays right where a store statement's bin changes from one transform
// to the next (VkFFT's kernels never do that, so a kernel of the same form written here
// does): the register sums flush on every change, the shared ones are per bin anyway.
// Four work-items per group each store one sample of a 4-point "transform" y into bin
// (5y + i) mod 8, over 10 transforms, 3 per work-group; in OpenCL C on PoCL, in GLSL on
// llvmpipe.
func TestFusedGroupMovingBins(t *testing.T) {
	const clSrc = `__kernel void VkFFT_main (__global float2* inputs, __global float2* outputs) {
__local float2 sdata[4];

unsigned int shiftY = get_group_id(1);
unsigned int i = get_local_id(0);
sdata[i] = inputs[shiftY * 4 + i];
barrier(CLK_LOCAL_MEM_FENCE);
outputs[shiftY * 5 + i] = sdata[3 - i];
}
`
	const glslSrc = `#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer DataIn{
	vec2 inputs[40];
};
layout(std430, binding = 1) buffer DataOut{
	vec2 outputs[4];
};
shared vec2 sdata[4];

void main() {
uint shiftY = gl_WorkGroupID.y;
uint i = gl_LocalInvocationID.x;
sdata[i] = inputs[shiftY * 4 + i];
memoryBarrierShared();
barrier();
outputs[shiftY * 5 + i] = sdata[3 - i];
}
`
	src, sums := clSrc, []GroupSum{GroupSumRegisters, GroupSumShared}
	switch {
	case compiledBackend == Vulkan && groupsHere():
		src = glslSrc
		if !testDev.props.SharedFloatAtomics {
			sums = sums[:1]
		}
	case compiledBackend != OpenCL:
		t.Skip("the kernels below are OpenCL C and GLSL (on a device with float atomics)")
	}
	const groups, n = 10, 8
	in := make([]complex64, 4*groups)
	want := make([]float64, n)
	rng := rng0()
	for i := range in {
		in[i] = complex(float32(rng.IntN(21)-10), float32(rng.IntN(21)-10))
	}
	for y := 0; y < groups; y++ {
		for i := 0; i < 4; i++ {
			v := in[y*4+3-i]
			want[(5*y+i)%n] += float64(real(v)*real(v) + imag(v)*imag(v))
		}
	}
	h, err := testDev.use("test")
	require.NoError(t, err)
	defer testDev.mu.RUnlock()
	st := engine.NewStatus()
	defer engine.FreeStatus(st)
	inBuf, err := testDev.alloc(int64(len(in)) * 8)
	require.NoError(t, err)
	defer testDev.free(inBuf, int64(len(in))*8)
	psd, err := testDev.alloc(n * 4)
	require.NoError(t, err)
	defer testDev.free(psd, n*4)
	require.NoError(t, engine.MemUpload(h, st, inBuf, unsafe.Pointer(&in[0]), int64(len(in))*8))
	for _, sum := range sums {
		text := fusedText(compiledBackend, loadSpec{format: ComplexInt8, n: n, scale: 1, chunk: groups}, storeGroup,
			groupSpec{sum: sum, transforms: 3})
		out, err := engine.FuseRewrite(src, engine.FuseStoreRole|engine.FuseGroupRole, text)
		require.NoError(t, err)
		name, args := "VkFFT_main", []uint64{inBuf, psd, psd, psd} // in, outputs (unused), the window (unused), the bins
		if compiledBackend == Vulkan {
			// a module of one shader: its bindings are inputs and outputs, the bins
			name, args, out = "vkg_fused", []uint64{inBuf, psd}, glslKernelMarker+"vkg_fused bb 4\n"+out
		}
		m, _, err := engine.ModuleBuild(h, out, nil)
		require.NoError(t, err, out)
		k, err := engine.ModuleKernel(m, name)
		require.NoError(t, err)
		zero := make([]float32, n)
		require.NoError(t, engine.MemUpload(h, st, psd, unsafe.Pointer(&zero[0]), n*4))
		require.NoError(t, engine.LaunchKernel(h, st, k, [2]uint64{1, groups}, 4, args...))
		got := make([]float32, n)
		require.NoError(t, engine.MemDownload(h, st, unsafe.Pointer(&got[0]), psd, n*4))
		engine.ModuleDestroy(m)
		require.Less(t, relErrReal(got, want), 1e-6, "%v: got %v, want %v", sum, got, want)
	}
}
