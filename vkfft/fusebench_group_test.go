package vkfft

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/stretchr/testify/require"
)

// benchGroups is the group-sum part of TestFuseBench for one size, on device-resident
// complex int8 samples (buf, the same as samples): the float64 reference; the tuning
// (TuneSpectrometer), whose sweep of every candidate prints as
//
//	group N B sweep SUM xK ms GS/s err=E       the tuning's time of one call; E, the PSD's
//	                                           relative L2 error against float64, from a build
//	                                           of the candidate again (from the kernel cache)
//
// then the paths a user gets, each timed over iters calls:
//
//	group N B PATH SUM xK (SOURCE) ms GS/s err=E  PATH: default (nothing stored, TuneOff),
//	                                              tuned (the stored choice), off (an atomic
//	                                              add per element: the path before group sums)
func benchGroups(t *testing.T, n, b, iters int, buf *Buffer[int8], samples []int8) {
	if !groupsHere() {
		fmt.Printf("group %d %d: no fused atomic path on this device\n", n, b)
		return
	}
	t0 := time.Now()
	ref := refPowerParallel(n, b, samples)
	fmt.Printf("group %d %d: float64 reference in %.1f s\n", n, b, time.Since(t0).Seconds())
	cfg := SpectrometerConfig{N: n, Batch: b, Input: ComplexInt8, Fusion: FusionAtomic} // the path group sums shape
	total := float64(n) * float64(b)
	errOf := func(sp *Spectrometer) float64 {
		psd := make([]float32, sp.Bins())
		require.NoError(t, sp.Reset())
		require.NoError(t, sp.AccumulateBuffer(buf))
		require.NoError(t, sp.Read(psd))
		return relErrReal(psd, ref)
	}
	g, err := TuneSpectrometer(testDev, cfg)
	if err != nil {
		fmt.Printf("group %d %d: tuning FAILED: %v\n", n, b, err)
		return
	}
	fmt.Printf("group %d %d: tuning chose %v in %.1f s (%d candidates, calls of %d transforms)\n", n, b, g,
		g.Elapsed.Seconds(), len(g.Candidates), g.Batch)
	for _, c := range g.Candidates {
		cc := cfg
		cc.Fusion, cc.GroupSum, cc.GroupTransforms, cc.Tune = FusionAtomic, c.Sum, c.Transforms, TuneOff
		e := math.NaN()
		if sp, err := NewSpectrometer(testDev, cc); err == nil {
			e = errOf(sp)
			sp.Close()
		}
		fmt.Printf("group %d %d sweep %v x%d %.3f ms %.1f GS/s err=%.1e\n", n, b, c.Sum, c.Transforms, c.Ms,
			float64(n)*float64(g.Batch)/c.Ms/1e6, e)
	}
	for _, p := range []struct {
		name string
		mod  func(*SpectrometerConfig)
	}{
		{"default", func(c *SpectrometerConfig) { c.Tune = TuneOff }},
		{"tuned", func(c *SpectrometerConfig) { c.Tune = TuneCached }},
		{"off", func(c *SpectrometerConfig) { c.Fusion, c.GroupTransforms = FusionAtomic, 1 }},
	} {
		pc := cfg
		p.mod(&pc)
		sp, err := NewSpectrometer(testDev, pc)
		if err != nil {
			fmt.Printf("group %d %d %s FAILED: %v\n", n, b, p.name, err)
			continue
		}
		e := errOf(sp)
		require.NoError(t, sp.AccumulateBuffer(buf))
		ms := timeCalls(t, iters, func() error { return sp.AccumulateBuffer(buf) })
		gr := sp.Group()
		fmt.Printf("group %d %d %s %v (%v, fusion %v) %.3f ms %.1f GS/s err=%.1e\n", n, b, p.name, gr, gr.Source,
			sp.Fusion(), ms, total/ms/1e6, e)
		sp.Close()
	}
}

// refPowerParallel is the float64 power spectrum of b transforms of n complex int8
// samples (interleaved), summed over the batch, on every CPU.
func refPowerParallel(n, b int, samples []int8) []float64 {
	workers := min(b, runtime.NumCPU())
	parts := make([][]float64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			f := fourier.NewCmplxFFT(n)
			x, X := make([]complex128, n), make([]complex128, n)
			psd := make([]float64, n)
			for t := w; t < b; t += workers {
				s := samples[2*t*n : 2*(t+1)*n]
				for i := range x {
					x[i] = complex(float64(s[2*i]), float64(s[2*i+1]))
				}
				f.Coefficients(X, x)
				for k, v := range X {
					psd[k] += real(v)*real(v) + imag(v)*imag(v)
				}
			}
			parts[w] = psd
		}(w)
	}
	wg.Wait()
	out := parts[0]
	for _, p := range parts[1:] {
		for k, v := range p {
			out[k] += v
		}
	}
	return out
}
