package vkfft

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// Spectrometers are shared across these tests: a plan costs a second or two on PoCL.
var sharedSpectro = map[string]*Spectrometer{}

func sharedSpectrometer(t *testing.T, name string, cfg SpectrometerConfig) *Spectrometer {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sp := sharedSpectro[name]; sp != nil {
		return sp
	}
	sp, err := NewSpectrometer(testDev, cfg)
	require.NoError(t, err)
	sharedSpectro[name] = sp
	return sp
}

// Power adds up across calls until Reset, which zeroes it.
func TestSpectrometerAccumulatesUntilReset(t *testing.T) {
	cfg := SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionAtomic}
	sp := sharedSpectrometer(t, "atomic256", cfg)
	require.NoError(t, sp.Reset())
	rng := rand.New(rand.NewPCG(9, 10))
	raw1, v1 := randomSamples(rng, ComplexInt8, sp.numbers())
	raw2, v2 := randomSamples(rng, ComplexInt8, sp.numbers())
	got := make([]float32, sp.Bins())
	require.NoError(t, accumulateRaw(sp, raw1))
	require.NoError(t, sp.Read(got))
	require.Less(t, relErrReal(got, refPower(cfg, v1)), 1e-5, "one call")
	require.NoError(t, accumulateRaw(sp, raw2))
	require.NoError(t, sp.Read(got))
	want := refPower(cfg, v1)
	for i, v := range refPower(cfg, v2) {
		want[i] += v
	}
	require.Less(t, relErrReal(got, want), 1e-5, "two calls add up")
	require.NoError(t, sp.Reset())
	require.NoError(t, sp.Read(got))
	for _, v := range got {
		require.Zero(t, v)
	}
	require.NoError(t, accumulateRaw(sp, raw2))
	require.NoError(t, sp.Read(got))
	require.Less(t, relErrReal(got, refPower(cfg, v2)), 1e-5, "after Reset, only the new call")
}

// Wrong lengths, types, sizes and states are errors that name the problem.
func TestSpectrometerBadInput(t *testing.T) {
	for name, c := range map[string]struct {
		cfg  SpectrometerConfig
		want error
	}{
		"N 1":              {SpectrometerConfig{N: 1, Batch: 1, Input: ComplexInt8}, ErrUnsupported},
		"N too large":      {SpectrometerConfig{N: 1 << 29, Batch: 1, Input: ComplexInt8}, ErrUnsupported},
		"odd real N":       {SpectrometerConfig{N: 255, Batch: 1, Input: RealInt8}, ErrUnsupported},
		"no format":        {SpectrometerConfig{N: 256, Batch: 1}, ErrInvalidArgument},
		"window length":    {SpectrometerConfig{N: 256, Batch: 1, Input: ComplexInt8, Window: make([]float32, 255)}, ErrLength},
		"negative batch":   {SpectrometerConfig{N: 256, Batch: -1, Input: ComplexInt8}, ErrInvalidBatch},
		"chunk not divide": {SpectrometerConfig{N: 256, Batch: 6, Input: ComplexInt8, Chunk: 4}, ErrInvalidBatch},
		"shift real":       {SpectrometerConfig{N: 256, Batch: 1, Input: RealInt8, FFTShift: true}, ErrInvalidArgument},
		"fusion":           {SpectrometerConfig{N: 256, Batch: 1, Input: ComplexInt8, Fusion: 9}, ErrInvalidArgument},
		"order":            {SpectrometerConfig{N: 256, Batch: 1, Input: ComplexInt8, BinOrder: 7}, ErrInvalidArgument},
	} {
		_, err := NewSpectrometer(testDev, c.cfg)
		require.ErrorIs(t, err, c.want, name)
	}
	_, err := NewSpectrometer(nil, SpectrometerConfig{N: 256, Batch: 1, Input: ComplexInt8})
	require.ErrorIs(t, err, ErrInvalidArgument)

	sp := sharedSpectrometer(t, "atomic256", SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionAtomic})
	require.ErrorIs(t, sp.Accumulate(make([]int8, 2*256*4-1)), ErrLength)
	require.ErrorContains(t, sp.Accumulate(make([]int8, 3)), "samples has 3 elements, the plan needs 2048")
	require.ErrorIs(t, sp.Accumulate(nil), ErrNilBuffer)
	require.ErrorIs(t, sp.AccumulateInt16(make([]int16, 2048)), ErrInvalidArgument, "int16 samples for an int8 format")
	require.ErrorContains(t, sp.AccumulateUint8(make([]uint8, 2048)), "need []int8")
	require.ErrorIs(t, sp.AccumulateBuffer(nil), ErrNilBuffer)
	short, err := NewBuffer[int8](testDev, 100)
	require.NoError(t, err)
	require.ErrorIs(t, sp.AccumulateBuffer(short), ErrLength)
	require.NoError(t, short.Close())
	wrong, err := NewBuffer[int16](testDev, 2048)
	require.NoError(t, err)
	require.ErrorIs(t, sp.AccumulateBuffer(wrong), ErrInvalidArgument)
	require.NoError(t, wrong.Close())
	require.ErrorIs(t, sp.Read(make([]float32, 255)), ErrLength)
	closed, err := NewBuffer[int8](testDev, 2048)
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	require.ErrorIs(t, sp.AccumulateBuffer(closed), ErrClosed)
}

// A closed spectrometer refuses every call; Close is idempotent.
func TestSpectrometerClose(t *testing.T) {
	sp, err := NewSpectrometer(testDev, SpectrometerConfig{N: 64, Batch: 2, Input: RealInt8})
	require.NoError(t, err)
	require.NoError(t, sp.Close())
	require.NoError(t, sp.Close())
	require.ErrorIs(t, sp.Accumulate(make([]int8, 128)), ErrClosed)
	require.ErrorIs(t, sp.Read(make([]float32, 33)), ErrClosed)
	require.ErrorIs(t, sp.Reset(), ErrClosed)
}

// Per call: no Go heap allocation, from host or device samples, nor in Read or Reset.
func TestSpectrometerZeroAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	sp := sharedSpectrometer(t, "atomic256", SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionAtomic})
	host := make([]int8, 2048)
	dev, err := NewBuffer[int8](testDev, 2048)
	require.NoError(t, err)
	defer dev.Close()
	psd := make([]float32, 256)
	for name, f := range map[string]func() error{
		"Accumulate":       func() error { return sp.Accumulate(host) },
		"AccumulateBuffer": func() error { return sp.AccumulateBuffer(dev) },
		"Read":             func() error { return sp.Read(psd) },
		"Reset":            func() error { return sp.Reset() },
	} {
		require.NoError(t, f())
		require.Zero(t, testing.AllocsPerRun(20, func() { _ = f() }), name)
	}
}

// Building and closing spectrometers and convolutions again and again holds no device
// memory, no Go memory beyond noise, and leaves the allocation cache to serve them.
func TestFusedObjectsDoNotLeak(t *testing.T) {
	cfg := SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionPower}
	ccfg := ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, KernelShape: []int{3, 3}}
	kern := make([]float32, 9)
	round := func() {
		sp, err := NewSpectrometer(testDev, cfg)
		require.NoError(t, err)
		require.NoError(t, sp.Accumulate(make([]int8, 2048)))
		require.NoError(t, sp.Close())
		c, err := NewRealConvolution[float32, complex64](testDev, ccfg, kern)
		require.NoError(t, err)
		require.NoError(t, c.Apply(make([]float32, 64), make([]float32, 64)))
		require.NoError(t, c.Close())
	}
	round() // kernels cached, buffers in the allocation cache
	before := testDev.MemStats()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := 0; i < 5; i++ {
		round()
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	after := testDev.MemStats()
	require.Equal(t, before.LiveAllocations, after.LiveAllocations)
	require.Equal(t, before.LiveBytes, after.LiveBytes)
	require.Equal(t, before.Allocations, after.Allocations, "served from the allocation cache")
	require.Less(t, int64(m1.HeapInuse)-int64(m0.HeapInuse), int64(4<<20))
}

// Correlate is ifft(conj(fft(src)) * fft(kernel)): a kernel that is src moved by s peaks
// at out[s] (and not at -s, as it would with the kernel conjugated instead).
func TestCorrelateConjugatesTheInput(t *testing.T) {
	shape := []int{16, 20}
	n := 16 * 20
	rng := rand.New(rand.NewPCG(11, 12))
	src := make([]float32, n)
	for i := range src {
		src[i] = float32(rng.NormFloat64())
	}
	sy, sx := 3, 7 // kernel[y][x] = src[y-3][x-7]
	kern := make([]float32, n)
	for y := 0; y < 16; y++ {
		for x := 0; x < 20; x++ {
			kern[((y+sy)%16)*20+(x+sx)%20] = src[y*20+x]
		}
	}
	for _, mode := range []ConvolutionMode{Correlate, PhaseCorrelate} {
		c, err := NewRealConvolution[float32, complex64](testDev, ConvolutionConfig{Config: Config{Shape: shape}, Mode: mode}, kern)
		require.NoError(t, err)
		out := make([]float32, n)
		require.NoError(t, c.Apply(out, src))
		best := 0
		for i, v := range out {
			if v > out[best] {
				best = i
			}
		}
		require.Equal(t, sy*20+sx, best, "%v peaks at the shift", mode)
		if mode == PhaseCorrelate {
			require.InDelta(t, 1, out[best], 1e-4, "a pure shift correlates to 1")
		}
		require.NoError(t, c.Close())
	}
}

// Device buffers: out of place (src kept) and in place, equal to the host path.
func TestConvolutionBuffers(t *testing.T) {
	cfg := ConvolutionConfig{Config: Config{Shape: []int{12, 16}, Batch: 2}}
	rng := rand.New(rand.NewPCG(13, 14))
	kern, _ := randomComplex[complex64](rng, 12*16)
	src, _ := randomComplex[complex64](rng, 2*12*16)
	c, err := NewConvolution[complex64](testDev, cfg, kern)
	require.NoError(t, err)
	defer c.Close()
	want := make([]complex64, c.OutLen())
	require.NoError(t, c.Apply(want, src))
	a, err := NewBuffer[complex64](testDev, c.InLen())
	require.NoError(t, err)
	defer a.Close()
	b, err := NewBuffer[complex64](testDev, c.OutLen())
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, a.Upload(src))
	require.NoError(t, c.ApplyBuffer(b, a))
	got := make([]complex64, c.OutLen())
	require.NoError(t, b.Download(got))
	require.Equal(t, want, got)
	require.NoError(t, a.Download(got))
	require.Equal(t, src, got, "src is left as it was")
	require.NoError(t, c.ApplyBuffer(a, a))
	require.NoError(t, a.Download(got))
	require.Equal(t, want, got, "in place")
	// zero allocations per call
	if !raceEnabled {
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = c.Apply(got, src) }))
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = c.ApplyBuffer(b, a) }))
	}
	require.NoError(t, c.Close())
	require.ErrorIs(t, c.Apply(got, src), ErrClosed)
	require.ErrorIs(t, c.ApplyBuffer(b, a), ErrClosed)
}

// Kernel shape mismatches and unsupported combinations are clear errors.
func TestConvolutionBadInput(t *testing.T) {
	k64 := make([]complex64, 64)
	for name, c := range map[string]struct {
		cfg  ConvolutionConfig
		kern []complex64
		want error
		msg  string
	}{
		"kernel length":     {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}}, k64[:63], ErrLength, "kernel has 63 elements, the plan needs 64"},
		"kernel shape rank": {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, KernelShape: []int{3}}, k64[:3], ErrInvalidShape, "kernel shape"},
		"kernel shape zero": {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, KernelShape: []int{3, 0}}, k64[:3], ErrInvalidShape, "dimension 0"},
		"norm":              {ConvolutionConfig{Config: Config{Shape: []int{8, 8}, Norm: NormOrtho}}, k64, ErrInvalidArgument, "Norm"},
		"padded correlate":  {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, Mode: Correlate, KernelShape: []int{3, 3}}, k64[:9], ErrInvalidArgument, "Convolve"},
		"matrix size":       {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, Matrix: 4}, k64, ErrInvalidArgument, "Matrix"},
		"matrix features":   {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, Matrix: 2, Features: 3}, k64, ErrInvalidArgument, "features"},
		"mode":              {ConvolutionConfig{Config: Config{Shape: []int{8, 8}}, Mode: 5}, k64, ErrInvalidArgument, "mode"},
		"shape":             {ConvolutionConfig{Config: Config{Shape: []int{8, -8}}}, k64, ErrInvalidShape, "positive"},
		"kernels on 1 axis": {ConvolutionConfig{Config: Config{Shape: []int{32}}, Kernels: 2}, k64, ErrUnsupported, "several kernels"},
	} {
		_, err := NewConvolution[complex64](testDev, c.cfg, c.kern)
		require.ErrorIs(t, err, c.want, name)
		require.ErrorContains(t, err, c.msg, name)
	}
	_, err := NewRealConvolution[float32, complex128](testDev, ConvolutionConfig{Config: Config{Shape: []int{8}}}, make([]float32, 8))
	require.ErrorIs(t, err, ErrPrecision)
	c, err := NewConvolution[complex64](testDev, ConvolutionConfig{Config: Config{Shape: []int{8, 8}}}, k64)
	require.NoError(t, err)
	defer c.Close()
	require.ErrorIs(t, c.Apply(make([]complex64, 64), make([]complex64, 63)), ErrLength)
	require.ErrorIs(t, c.Apply(nil, make([]complex64, 64)), ErrNilBuffer)
}

// A plan's stages are part of its kernel-cache key (buffer handles are not): a fused or
// convolution plan never loads another's kernels.
func TestKernelCacheKeyCoversStages(t *testing.T) {
	l, err := validate(Config{Shape: []int{64}, Batch: 2}, kindC2C, 8)
	require.NoError(t, err)
	id := identFor(&testDev.info)
	key := func(st engine.StageParams) string {
		return string(kernelKey(&id, &planParams{l: l, useLUT: 1, stages: st}))
	}
	base := key(engine.StageParams{})
	seen := map[string]string{base: "none"}
	for name, st := range map[string]engine.StageParams{
		"forward only":  {ForwardOnly: true},
		"no reorder":    {ForwardOnly: true, NoReorder: true},
		"shared memory": {ForwardOnly: true, SharedMemory: 16384},
		"kernel":        {Conv: engine.ConvKernel},
		"convolve":      {Conv: engine.ConvApply},
		"correlate":     {Conv: engine.ConvApply, Conj: true},
		"phase":         {Conv: engine.ConvApply, Conj: true, CrossPower: true},
		"features":      {Conv: engine.ConvApply, Features: 3},
		"fused load":    {ForwardOnly: true, FuseLoad: int(ComplexInt8), Fuse: engine.FuseText{Prelude: "a"}},
		"other prelude": {ForwardOnly: true, FuseLoad: int(ComplexInt8), Fuse: engine.FuseText{Prelude: "b"}},
		"fused store":   {ForwardOnly: true, FuseLoad: int(ComplexInt8), FuseStore: storeAtomic, Fuse: engine.FuseText{Prelude: "b"}},
	} {
		k := key(st)
		prev, dup := seen[k]
		require.False(t, dup, "%s has the key of %s", name, prev)
		seen[k] = name
	}
	handles := engine.StageParams{ForwardOnly: true, InputBuffer: 1, OutputBuffer: 2, KernelBuffer: 3, FuseWindow: 4, FuseOut: 5}
	require.Equal(t, key(engine.StageParams{ForwardOnly: true}), key(handles), "buffer handles do not change kernels")
}

// Calls from many goroutines are serialised: the power of every call is in the sum.
func TestSpectrometerConcurrentUse(t *testing.T) {
	cfg := SpectrometerConfig{N: 256, Batch: 4, Input: ComplexInt8, Fusion: FusionAtomic}
	sp := sharedSpectrometer(t, "atomic256", cfg)
	require.NoError(t, sp.Reset())
	rng := rand.New(rand.NewPCG(15, 16))
	raw, val := randomSamples(rng, ComplexInt8, sp.numbers())
	dev, err := NewBuffer[uint8](testDev, len(raw))
	require.NoError(t, err)
	defer dev.Close()
	require.NoError(t, dev.Upload(raw))
	const workers, calls = 4, 3
	errs := make(chan error, workers*calls)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func(w int) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < calls; i++ {
				if w%2 == 0 {
					errs <- accumulateRaw(sp, raw)
				} else {
					errs <- sp.AccumulateBuffer((*Buffer[int8])(unsafe.Pointer(dev)))
				}
			}
		}(w)
	}
	for w := 0; w < workers; w++ {
		<-done
	}
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got := make([]float32, sp.Bins())
	require.NoError(t, sp.Read(got))
	want := refPower(cfg, val)
	for i := range want {
		want[i] *= workers * calls
	}
	require.Less(t, relErrReal(got, want), 1e-5)
}

// The patches pinned in Go (part of the kernel-cache key) are the ones cvendor/VERSION
// lists, with the checksums of the files in cvendor/patches; headers unpacked by
// cvendor/fetch.sh carry them.
func TestVkFFTPatchesPinned(t *testing.T) {
	version, err := os.ReadFile("../cvendor/VERSION")
	if os.IsNotExist(err) {
		t.Skip("outside the source tree (a GPU bundle): cvendor/ is not here")
	}
	require.NoError(t, err)
	var listed string
	for _, line := range strings.Split(string(version), "\n") {
		if v, ok := strings.CutPrefix(line, "VKFFT_PATCHES="); ok {
			listed = strings.Trim(v, `"`)
		}
	}
	require.Equal(t, engine.VkFFTPatches, listed)
	for _, p := range strings.Fields(listed) {
		name, sum, _ := strings.Cut(p, ":")
		b, err := os.ReadFile("../cvendor/patches/" + name)
		require.NoError(t, err)
		got := sha256.Sum256(b)
		require.Equal(t, sum, hex.EncodeToString(got[:]), name)
	}
	if stamp, err := os.ReadFile("../cvendor/include/.sha256"); err == nil && strings.Contains(string(stamp), listed) {
		require.True(t, engine.VkFFTPatched(), "headers from cvendor/fetch.sh are patched")
	}
}
