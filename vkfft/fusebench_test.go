package vkfft

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// TestFuseBench is the fused-processing benchmark of the GPU run (tests/gpu/steps/fuse.sh),
// off unless VKFFTGO_FUSE_BENCH is set. One line per measurement:
//
//	spectro N B fusion chunk=C ms GS/s ws=MiB psd-diff      device-resident samples, per call
//	group N B ...                                           group sums of the atomic path (benchGroups)
//	spectro-host N B ...                                    host samples (pageable) through Accumulate
//	conv SHAPE what ms                                      256³ R2C convolution and its baselines
//
// VKFFTGO_FUSE_SIZES (N x B list), VKFFTGO_FUSE_CHUNKS (MiB of complex data per chunk; 0 =
// the whole batch), VKFFTGO_FUSE_FUSIONS ("none": no sweep) and VKFFTGO_FUSE_TUNINGS
// (c:a:r triples, with :on or :off for the twiddle source) narrow it;
// VKFFTGO_FUSE_SPLIT_GROUPS sets the split direct kernels' row work-groups a launch; VKFFTGO_FUSE_GROUP=off and VKFFTGO_FUSE_HOST=off leave out the
// group sums and the host samples, VKFFTGO_FUSE_CONV=off the convolution.
//
// Each row is timed over at least iters calls and VKFFTGO_FUSE_MIN_MS (default 300)
// milliseconds, after a second of calls that brings the GPU's clocks up: twenty calls of
// a millisecond each measured the clock ramp, not the kernel (rows of one configuration
// differed up to 4× in one process under Vulkan).
func TestFuseBench(t *testing.T) {
	if os.Getenv("VKFFTGO_FUSE_BENCH") == "" {
		t.Skip("a GPU benchmark: set VKFFTGO_FUSE_BENCH=1 (tests/gpu/steps/fuse.sh)")
	}
	iters := envInt("VKFFTGO_FUSE_ITERS", 20)
	splitRowGroups = envInt("VKFFTGO_FUSE_SPLIT_GROUPS", splitRowGroups)
	t.Logf("split kernels: %d row work-groups a launch", splitRowGroups)
	sizes := envList("VKFFTGO_FUSE_SIZES", "65536x4096,1048576x256,4096x65536")
	sw := sweep{
		chunks:  envList("VKFFTGO_FUSE_CHUNKS", "auto,32,256,whole"),
		fusions: envList("VKFFTGO_FUSE_FUSIONS", "auto,companion,load,power,atomic"),
		tunings: envList("VKFFTGO_FUSE_TUNINGS", "0:0:0"),
		shared:  envList("VKFFTGO_FUSE_SHARED", "0"),
		orders:  envList("VKFFTGO_FUSE_ORDERS", "auto"),
	}
	for _, sz := range sizes {
		if sz == "" || sz == "none" {
			continue
		}
		var n, b int
		_, err := fmt.Sscanf(sz, "%dx%d", &n, &b)
		require.NoError(t, err, sz)
		benchSpectrometer(t, n, b, iters, sw)
	}
	if shape := os.Getenv("VKFFTGO_FUSE_CONV"); shape != "off" {
		for _, lut := range envList("VKFFTGO_FUSE_CONV_LUT", "default") {
			benchConvolution(t, iters, map[string]LUT{"default": LUTDefault, "on": LUTOn, "off": LUTOff}[lut])
		}
	}
}

// timeCalls returns the milliseconds one call of call takes, on the device's clock as the
// host sees it: at least iters calls and VKFFTGO_FUSE_MIN_MS milliseconds, then a sync.
func timeCalls(t *testing.T, iters int, call func() error) float64 {
	minTime := time.Duration(envInt("VKFFTGO_FUSE_MIN_MS", 300)) * time.Millisecond
	require.NoError(t, testDev.Sync())
	start := time.Now()
	calls := 0
	for calls < iters || time.Since(start) < minTime {
		require.NoError(t, call())
		if calls++; calls%iters == 0 {
			require.NoError(t, testDev.Sync()) // the host's clock must not run ahead of the device
		}
	}
	require.NoError(t, testDev.Sync())
	return float64(time.Since(start).Microseconds()) / 1e3 / float64(calls)
}

// warmUp runs the default spectrometer on buf for a second, so that the rows after it
// see the GPU at its working clocks.
func warmUp(t *testing.T, n, b int, buf *Buffer[int8]) {
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: n, Batch: b, Input: ComplexInt8})
	require.NoError(t, err)
	defer sp.Close()
	for start := time.Now(); time.Since(start) < time.Second; {
		require.NoError(t, sp.AccumulateBuffer(buf))
		require.NoError(t, testDev.Sync())
	}
}

// sweep is what benchSpectrometer varies: chunk sizes (MiB of complex data, "auto" or
// "whole"), fusions, tunings (coalesced:aim:boost), shared memory (bytes), bin orders.
type sweep struct{ chunks, fusions, tunings, shared, orders []string }

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envList(name, def string) []string {
	v := os.Getenv(name)
	if v == "" {
		v = def
	}
	return strings.Split(v, ",")
}

func benchSpectrometer(t *testing.T, n, b, iters int, sw sweep) {
	rng := rand.New(rand.NewPCG(1, 2))
	samples := make([]int8, 2*n*b)
	for i := 0; i < len(samples); i += 8 { // noise in [-127, 127], 8 samples per draw
		v := rng.Uint64()
		for j := 0; j < 8 && i+j < len(samples); j++ {
			samples[i+j] = int8(int(byte(v>>(8*j)))%255 - 127)
		}
	}
	buf, err := NewBuffer[int8](testDev, len(samples))
	require.NoError(t, err)
	defer buf.Close()
	require.NoError(t, buf.Upload(samples))
	warmUp(t, n, b, buf)
	var ref []float32
	total := float64(n) * float64(b)
	for _, combo := range sweepCombos(sw) {
		tn, sh, ord, fs, cs := combo[0], combo[1], combo[2], combo[3], combo[4]
		if fs == "none" {
			continue
		}
		{
			var tu Tuning
			fmt.Sscanf(tn, "%d:%d:%d", &tu.CoalescedMemory, &tu.AimThreads, &tu.RegisterBoost)
			lut := LUTDefault // a fourth field, on or off, picks the twiddle source
			if f := strings.Split(tn, ":"); len(f) == 4 {
				lut = map[string]LUT{"on": LUTOn, "off": LUTOff}[f[3]]
			}
			shared, _ := strconv.Atoi(sh)
			order := map[string]BinOrder{"auto": BinOrderAuto, "vkfft": BinOrderVkFFT, "read": BinOrderOnRead}[ord]
			fu, err := ParseFusion(fs)
			require.NoError(t, err)
			{
				chunk := 0 // auto
				switch cs {
				case "whole":
					chunk = b
				case "auto":
				default:
					mib, _ := strconv.Atoi(cs)
					chunk = max(1, mib<<20/(8*n))
					for b%chunk != 0 {
						chunk--
					}
				}
				cfg := SpectrometerConfig{N: n, Batch: b, Input: ComplexInt8, Fusion: fu, Chunk: chunk, Tuning: tu, LUT: lut,
					SharedMemory: shared, BinOrder: order}
				tn = fmt.Sprintf("%s shared=%d order=%s", tn, shared, ord)
				t0 := time.Now()
				sp, err := NewSpectrometer(testDev, cfg)
				if err != nil {
					fmt.Printf("spectro %d %d %v chunk=%s tuning=%s FAILED: %v\n", n, b, fu, cs, tn, err)
					continue
				}
				build := time.Since(t0)
				psd := make([]float32, sp.Bins())
				require.NoError(t, sp.AccumulateBuffer(buf))
				require.NoError(t, sp.Read(psd))
				diff := 0.0
				if ref == nil {
					ref = append([]float32(nil), psd...)
				} else {
					diff = relErrReal(psd, float64s(ref))
				}
				require.NoError(t, sp.AccumulateBuffer(buf))
				ms := timeCalls(t, iters, func() error { return sp.AccumulateBuffer(buf) })
				fmt.Printf("spectro %d %d %v(%s) chunk=%d(%s) tuning=%s vkfft-order=%v %.3f ms %.1f GS/s ws=%.0f MiB psd-diff=%.1e build=%.0fms\n",
					n, b, sp.Fusion(), fs, sp.Chunk(), cs, tn, sp.perm != nil, ms, total/ms/1e6,
					float64(sp.WorkingSet())/(1<<20), diff, float64(build.Microseconds())/1e3)
				sp.Close()
			}
		}
	}
	if os.Getenv("VKFFTGO_FUSE_GROUP") != "off" {
		benchGroups(t, n, b, iters, buf, samples)
	}
	if os.Getenv("VKFFTGO_FUSE_HOST") == "off" {
		return
	}
	// host samples through Accumulate (bounded by the bus), with the default settings
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: n, Batch: b, Input: ComplexInt8})
	require.NoError(t, err)
	defer sp.Close()
	require.NoError(t, sp.Accumulate(samples))
	t0 := time.Now()
	hi := max(2, iters/5)
	for i := 0; i < hi; i++ {
		require.NoError(t, sp.Accumulate(samples))
	}
	ms := float64(time.Since(t0).Microseconds()) / 1e3 / float64(hi)
	fmt.Printf("spectro-host %d %d %v chunk=%d %.3f ms %.1f GS/s (%.1f GB/s of int8)\n", n, b, sp.Fusion(), sp.Chunk(),
		ms, total/ms/1e6, 2*total/ms/1e6)
}

// sweepCombos lists every combination of the sweep: tuning, shared, order, fusion, chunk.
func sweepCombos(sw sweep) [][5]string {
	var out [][5]string
	for _, tn := range sw.tunings {
		for _, sh := range sw.shared {
			for _, o := range sw.orders {
				for _, f := range sw.fusions {
					for _, c := range sw.chunks {
						out = append(out, [5]string{tn, sh, o, f, c})
					}
				}
			}
		}
	}
	return out
}

func float64s(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// benchConvolution: 256³ real convolution with a fixed kernel (VkFFT's fused kernel
// multiplication), against one forward+inverse pair and against forward, a separate
// multiply kernel and inverse.
func benchConvolution(t *testing.T, iters int, lut LUT) {
	shape := []int{256, 256, 256}
	if s := os.Getenv("VKFFTGO_FUSE_CONV"); s != "" {
		shape = shape[:0]
		for _, f := range strings.Split(s, "x") {
			v, err := strconv.Atoi(f)
			require.NoError(t, err)
			shape = append(shape, v)
		}
	}
	cfg := Config{Shape: shape, LUT: lut}
	l, err := validate(cfg, kindR2C, 8)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	kern := make([]float32, l.realLen)
	data := make([]float32, l.realLen)
	for i := range kern {
		kern[i] = float32(rng.NormFloat64())
		data[i] = float32(rng.NormFloat64())
	}
	name := strings.Trim(strings.ReplaceAll(fmt.Sprint(shape), " ", "x"), "[]") + fmt.Sprintf("-lut%d", lut)
	timeIt := func(what string, f func() error) float64 {
		require.NoError(t, f())
		require.NoError(t, testDev.Sync())
		t0 := time.Now()
		for i := 0; i < iters; i++ {
			require.NoError(t, f())
		}
		require.NoError(t, testDev.Sync())
		ms := float64(time.Since(t0).Microseconds()) / 1e3 / float64(iters)
		fmt.Printf("conv %s %s %.3f ms\n", name, what, ms)
		return ms
	}
	real, err := NewBuffer[float32](testDev, l.realLen)
	require.NoError(t, err)
	defer real.Close()
	require.NoError(t, real.Upload(data))
	spec, err := NewBuffer[complex64](testDev, l.complexLen)
	require.NoError(t, err)
	defer spec.Close()

	conv, err := NewRealConvolution[float32, complex64](testDev, ConvolutionConfig{Config: cfg}, kern)
	require.NoError(t, err)
	defer conv.Close()
	fused := timeIt("fused-convolution", func() error { return conv.ApplyBuffer(real, real) })

	p, err := NewRealPlan[float32, complex64](testDev, cfg)
	require.NoError(t, err)
	defer p.Close()
	pair := timeIt("forward+inverse", func() error {
		if err := p.ForwardBuffer(spec, real); err != nil {
			return err
		}
		return p.InverseBuffer(real, spec)
	})
	h, err := testDev.use("bench")
	require.NoError(t, err)
	m, _, err := engine.ModuleBuild(h, moduleSource(compiledBackend, []kernelDef{{name: "vkg_cmul",
		params: []kernelParam{{name: "x", elem: "float2"}, {name: "k", elem: "float2", readOnly: true}, {name: "n"}},
		body: `	vkg_u64 i = VKG_GID;
	if (i < n) { float2 a = x[i], b = k[i]; x[i] = VKG_F2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
`}}), nil)
	testDev.mu.RUnlock()
	require.NoError(t, err)
	defer engine.ModuleDestroy(m)
	kmul, err := engine.ModuleKernel(m, "vkg_cmul")
	require.NoError(t, err)
	kspec, err := NewBuffer[complex64](testDev, l.complexLen)
	require.NoError(t, err)
	defer kspec.Close()
	st := engine.NewStatus()
	defer engine.FreeStatus(st)
	nc := uint64(l.complexLen)
	separate := timeIt("forward+multiply+inverse", func() error {
		if err := p.ForwardBuffer(spec, real); err != nil {
			return err
		}
		if err := engine.LaunchKernel(testDev.h, st, kmul, [2]uint64{(nc + 255) / 256, 1}, 256, spec.b.m, kspec.b.m, nc); err != nil {
			return err
		}
		return p.InverseBuffer(real, spec)
	})
	fmt.Printf("conv %s ratios: fused/pair %.3f, separate/fused %.3f\n", name, fused/pair, separate/fused)
	_ = math.Abs
}
