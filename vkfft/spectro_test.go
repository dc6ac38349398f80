package vkfft

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/stretchr/testify/require"
)

// refPower is the float64 reference: sum over the batch of |DFT(scale*window*x)|², in
// frequency order (or fftshift order). samples holds the format's numbers as float64
// (offset binary already removed).
func refPower(cfg SpectrometerConfig, samples []float64) []float64 {
	n := cfg.N
	bins := n
	if !cfg.Input.Complex() {
		bins = n/2 + 1
	}
	scale := float64(cfg.Scale)
	if scale == 0 {
		scale = 1
	}
	psd := make([]float64, bins)
	x := make([]complex128, n)
	for b := 0; b < max(cfg.Batch, 1); b++ {
		for i := 0; i < n; i++ {
			w := scale
			if cfg.Window != nil {
				w *= float64(cfg.Window[i])
			}
			if cfg.Input.Complex() {
				x[i] = complex(samples[2*(b*n+i)]*w, samples[2*(b*n+i)+1]*w)
			} else {
				x[i] = complex(samples[b*n+i]*w, 0)
			}
		}
		X := refFFT(x, []int{n}, 1, false)
		for k := 0; k < bins; k++ {
			psd[k] += real(X[k])*real(X[k]) + imag(X[k])*imag(X[k])
		}
	}
	if cfg.FFTShift {
		s := n / 2
		out := make([]float64, n)
		copy(out[s:], psd[:n-s])
		copy(out[:s], psd[n-s:])
		psd = out
	}
	return psd
}

// requireBins reads sp's bins and requires them within 1e-5 (relative L2) of calls times
// the float64 reference of one batch of samples val; it returns the error.
func requireBins(t *testing.T, sp *Spectrometer, val []float64, calls int) float64 {
	t.Helper()
	got := make([]float32, sp.Bins())
	require.NoError(t, sp.Read(got))
	want := refPower(sp.cfg, val)
	for i := range want {
		want[i] *= float64(calls)
	}
	e := relErrReal(got, want)
	require.Less(t, e, 1e-5)
	return e
}

// randomSamples returns one batch of random samples of format f, as the bytes Accumulate
// takes and as float64 values for the reference: integers the format holds exactly.
func randomSamples(rng *rand.Rand, f SampleFormat, numbers int) ([]byte, []float64) {
	fi := f.info()
	raw := make([]byte, numbers*fi.scalarBytes)
	val := make([]float64, numbers)
	for i := range val {
		val[i] = float64(rng.IntN(2*int(fi.exact)+1)) - fi.exact
		fi.encode(raw[i*fi.scalarBytes:], val[i])
	}
	return raw, val
}

// accumulateRaw feeds raw bytes to the Accumulate method of the format's Go type.
func accumulateRaw(sp *Spectrometer, raw []byte) error {
	switch sp.cfg.Input.goType() {
	case "int8":
		return sp.Accumulate(unsafe.Slice((*int8)(unsafe.Pointer(&raw[0])), len(raw)))
	case "uint8":
		return sp.AccumulateUint8(raw)
	case "Float16":
		return sp.AccumulateFloat16(unsafe.Slice((*Float16)(unsafe.Pointer(&raw[0])), len(raw)/2))
	}
	return sp.AccumulateInt16(unsafe.Slice((*int16)(unsafe.Pointer(&raw[0])), len(raw)/2))
}

// Every format and every fusion path against the float64 reference: host and device
// samples, window and scale, fftshift, a chunk smaller than the batch, and transforms
// of several passes (a small SharedMemory makes VkFFT split even short ones), with the
// bins in VkFFT's order or reordered by VkFFT. Relative L2 error ≤ 1e-5 everywhere.
func TestSpectrometerAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	win := make([]float32, 512)
	for i := range win {
		win[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/512))
	}
	cases := []struct {
		name string
		cfg  SpectrometerConfig
	}{
		{"int8-companion", SpectrometerConfig{N: 512, Batch: 6, Input: ComplexInt8, Fusion: FusionCompanion, Chunk: 2}},
		{"int8-load-window", SpectrometerConfig{N: 512, Batch: 4, Input: ComplexInt8, Fusion: FusionLoad, Window: win}},
		{"int8-power-shift", SpectrometerConfig{N: 512, Batch: 4, Input: ComplexInt8, Fusion: FusionPower, FFTShift: true, Chunk: 2}},
		{"int8-atomic-scale", SpectrometerConfig{N: 512, Batch: 4, Input: ComplexInt8, Fusion: FusionAtomic, Scale: 0.01}},
		{"int16-power-window", SpectrometerConfig{N: 512, Batch: 3, Input: ComplexInt16, Fusion: FusionPower, Window: win, Scale: 1e-3}},
		{"uint8-atomic", SpectrometerConfig{N: 512, Batch: 2, Input: ComplexUint8, Fusion: FusionAtomic}},
		{"float16-load-shift", SpectrometerConfig{N: 512, Batch: 2, Input: ComplexFloat16, Fusion: FusionLoad, FFTShift: true}},
		{"real-int8-window", SpectrometerConfig{N: 512, Batch: 4, Input: RealInt8, Window: win, Chunk: 2}},
		{"real-int16", SpectrometerConfig{N: 512, Batch: 2, Input: RealInt16, Scale: 0.5}},
		{"multipass-atomic-vkfft-order", SpectrometerConfig{N: 4096, Batch: 2, Input: ComplexInt8, Fusion: FusionAtomic,
			SharedMemory: 8192, BinOrder: BinOrderOnRead}},
		{"multipass-power-reordered", SpectrometerConfig{N: 4096, Batch: 2, Input: ComplexInt8, Fusion: FusionPower,
			SharedMemory: 8192, BinOrder: BinOrderVkFFT, FFTShift: true}},
		{"multipass-companion-int16", SpectrometerConfig{N: 4096, Batch: 2, Input: ComplexInt16, Fusion: FusionCompanion,
			SharedMemory: 8192}},
		// the bin-order probe's silence is offset binary's zero (128), not zero bytes
		{"multipass-uint8-on-read", SpectrometerConfig{N: 4096, Batch: 2, Input: ComplexUint8, Fusion: FusionLoad,
			SharedMemory: 8192, BinOrder: BinOrderOnRead}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp, err := NewSpectrometer(testDev, c.cfg)
			require.NoError(t, err)
			defer sp.Close()
			if c.cfg.Fusion != FusionCompanion && c.cfg.Input.Complex() {
				require.Equal(t, fusionOnThisBackend(testDev, c.cfg), sp.Fusion(), "VkFFT's kernels for this size are fused")
			}
			numbers := sp.numbers()
			raw, val := randomSamples(rng, c.cfg.Input, numbers)
			require.NoError(t, accumulateRaw(sp, raw)) // from the host
			dev, err := NewBuffer[uint8](testDev, len(raw))
			require.NoError(t, err)
			defer dev.Close()
			require.NoError(t, dev.Upload(raw))
			buf := DeviceBuffer(dev) // the same bytes, as the format's element type
			switch c.cfg.Input.goType() {
			case "int8":
				buf = (*Buffer[int8])(unsafe.Pointer(dev))
			case "int16":
				buf = &Buffer[int16]{b: buffer{dev: dev.b.dev, m: dev.b.m, n: numbers, bytes: dev.b.bytes}}
			case "Float16":
				buf = &Buffer[Float16]{b: buffer{dev: dev.b.dev, m: dev.b.m, n: numbers, bytes: dev.b.bytes}}
			}
			require.NoError(t, sp.AccumulateBuffer(buf)) // and from the device
			e := requireBins(t, sp, val, 2)
			t.Logf("%v, chunk %d, %d passes, VkFFT order %v: relative L2 error %.2e", sp.Fusion(), sp.Chunk(),
				engine.PlanAxisUploads(sp.plan), sp.perm != nil, e)
		})
	}
}

// fusionOnThisBackend is the path a spectrometer of cfg, asking for a fused path, takes
// on d: the one asked for, but the direct kernel where FusionAuto takes it (CUDA), the
// power store where d adds no floats atomically (a Vulkan device without
// VK_EXT_shader_atomic_float), and the companion kernels where fused stages are
// unavailable (a batch beyond one Vulkan binding).
func fusionOnThisBackend(d *Device, cfg SpectrometerConfig) Fusion {
	if takesDirect(d, &cfg) {
		return FusionDirect
	}
	if !fusedStagesAvailable(d, &cfg) {
		return FusionCompanion
	}
	if cfg.Fusion == FusionAuto || cfg.Fusion == FusionDirect || (cfg.Fusion == FusionAtomic && !companionFloatAtomics(d)) {
		return defaultFusion(d)
	}
	return cfg.Fusion
}
