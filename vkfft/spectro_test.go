package vkfft

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// refPower is the float64 reference: sum over the batch of |DFT(scale*window*x)|².
// samples holds the format's numbers as float64 (offset binary already removed).
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
	for b := 0; b < cfg.Batch; b++ {
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
	return psd
}

func randomInt8(rng *rand.Rand, n int) ([]int8, []float64) {
	s := make([]int8, n)
	f := make([]float64, n)
	for i := range s {
		s[i] = int8(rng.IntN(256) - 128)
		f[i] = float64(s[i])
	}
	return s, f
}

func TestSpectrometerQuick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, fu := range []Fusion{FusionCompanion, FusionLoad, FusionPower, FusionAtomic} {
		cfg := SpectrometerConfig{N: 256, Batch: 8, Input: ComplexInt8, Fusion: fu, Chunk: 4, Scale: 0.5}
		sp, err := NewSpectrometer(testDev, cfg)
		require.NoError(t, err)
		t.Logf("%v -> %v", fu, sp.Fusion())
		s, f := randomInt8(rng, 2*cfg.N*cfg.Batch)
		require.NoError(t, sp.Accumulate(s))
		b, err := NewBuffer[int8](testDev, len(s))
		require.NoError(t, err)
		require.NoError(t, b.Upload(s))
		require.NoError(t, sp.AccumulateBuffer(b))
		got := make([]float32, sp.Bins())
		require.NoError(t, sp.Read(got))
		want := refPower(cfg, f)
		for i := range want {
			want[i] *= 2
		}
		require.Less(t, relErrReal(got, want), 1e-5, "%v", fu)
		b.Close()
		sp.Close()
	}
	_ = math.Abs
}
