package vkfft_test

import (
	"fmt"
	"math"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// An integrating spectrometer: complex int8 samples of a tone at bin 5, power summed
// over 8 FFTs of 64 points; the strongest bin is the tone's.
func ExampleNewSpectrometer() {
	dev, err := vkfft.Open(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	sp, err := vkfft.NewSpectrometer(dev, vkfft.SpectrometerConfig{N: 64, Batch: 8, Input: vkfft.ComplexInt8})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sp.Close()
	samples := make([]int8, 2*64*8)
	for i := 0; i < 64*8; i++ {
		ph := 2 * math.Pi * 5 * float64(i%64) / 64
		samples[2*i], samples[2*i+1] = int8(math.Round(100*math.Cos(ph))), int8(math.Round(100*math.Sin(ph)))
	}
	if err := sp.Accumulate(samples); err != nil {
		fmt.Println(err)
		return
	}
	psd := make([]float32, sp.Bins())
	if err := sp.Read(psd); err != nil {
		fmt.Println(err)
		return
	}
	peak := 0
	for k, v := range psd {
		if v > psd[peak] {
			peak = k
		}
	}
	fmt.Println("strongest bin:", peak)
	// Output: strongest bin: 5
}

// Linear convolution of a small image with a 3-point kernel, scipy's "same" window.
func ExampleNewRealConvolution() {
	dev, err := vkfft.Open(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	cfg := vkfft.ConvolutionConfig{Config: vkfft.Config{Shape: []int{6}}, KernelShape: []int{3}}
	conv, err := vkfft.NewRealConvolution[float64, complex128](dev, cfg, []float64{1, 2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conv.Close()
	out := make([]float64, 6)
	if err := conv.Apply(out, []float64{1, 0, 0, 0, 0, 1}); err != nil {
		fmt.Println(err)
		return
	}
	for i := range out {
		out[i] = math.Round(out[i]*1e9) / 1e9
	}
	fmt.Println(out)
	// Output: [2 3 0 0 1 2]
}
