package vkfft_test

import (
	"fmt"
	"log"
	"math"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// A plan is built once and reused: every later call only moves data and runs kernels.
func Example() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()

	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{4, 8}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	x := make([]complex64, p.Len())
	x[0] = 1 // an impulse: its spectrum is flat
	spec := make([]complex64, p.Len())
	for i := 0; i < 3; i++ { // the same transform, many times
		if err := p.Forward(spec, x); err != nil {
			log.Fatal(err)
		}
	}
	back := make([]complex64, p.Len())
	if err := p.Inverse(back, spec); err != nil { // normalised: back == x
		log.Fatal(err)
	}
	fmt.Println(spec[0], spec[31], round(real(back[0])), round(real(back[1])))
	// Output: (1+0i) (1+0i) 1 0
}

// Real input, numpy's rfft layout: n/2+1 complex outputs per line.
func ExampleNewRealPlan() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewRealPlan[float64, complex128](dev, vkfft.Config{Shape: []int{8}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	x := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	spec := make([]complex128, p.ComplexLen())
	if err := p.Forward(spec, x); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(spec), spec[0], math.Abs(real(spec[1])) < 1e-12)
	// Output: 5 (8+0i) true
}

// Device-resident data: upload once, transform many times without host copies.
func ExampleNewBuffer() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex128](dev, vkfft.Config{Shape: []int{16}, Norm: vkfft.NormOrtho})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	buf, err := vkfft.NewBuffer[complex128](dev, p.Len())
	if err != nil {
		log.Fatal(err)
	}
	defer buf.Close()
	x := make([]complex128, p.Len())
	x[0] = 4
	if err := buf.Upload(x); err != nil {
		log.Fatal(err)
	}
	if err := p.ForwardBuffer(buf, buf); err != nil { // in place, on the device
		log.Fatal(err)
	}
	if err := buf.Download(x); err != nil { // waits for the transform
		log.Fatal(err)
	}
	fmt.Println(real(x[0]), real(x[15])) // ortho: 4/sqrt(16)
	// Output: 1 1
}

func round(f float32) float32 { return float32(math.Round(float64(f)*1e4) / 1e4) }

// A batch split across every device of the host: each device transforms its share at
// once, and the results are one device's.
func ExampleNewPoolPlan() {
	pool, err := vkfft.OpenPool() // every device; OpenPool(0, 1) picks
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()

	p, err := vkfft.NewPoolPlan[complex64](pool, vkfft.Config{Shape: []int{8}, Batch: 6})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	x := make([]complex64, p.Len()) // 6 transforms of 8 points
	for b := 0; b < 6; b++ {
		x[8*b] = complex(float32(b+1), 0) // impulses: flat spectra of height b+1
	}
	spec := make([]complex64, p.Len())
	if err := p.Forward(spec, x); err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, b := range p.Batches() { // how many transforms each device ran
		total += b
	}
	fmt.Println(spec[7], spec[47], total)
	// Output: (1+0i) (6+0i) 6
}

// Autotuned launch parameters: TuneMeasure measures them once per device and shape (a
// few seconds), stores them beside the kernel cache, and later plans with TuneCached —
// the default — in any process use them without measuring. Nothing is stored for this
// shape yet and batched 1-D plans have no prior on any device (Tuned().Source would say
// "prior" for one), so a cached plan runs with VkFFT's defaults.
func ExampleConfig_tune() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{60}, Batch: 4, Tune: vkfft.TuneCached})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	r := p.Tuned()
	fmt.Println(r.Source, r.Tuning)
	// Output: defaults defaults
}

// Out of place, src is only read: no copy into dst first, and src keeps its data.
func ExamplePlan_ForwardBuffer() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{8}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	src, _ := vkfft.NewBuffer[complex64](dev, 8)
	defer src.Close()
	dst, _ := vkfft.NewBuffer[complex64](dev, 8)
	defer dst.Close()
	x := []complex64{1, 0, 0, 0, 0, 0, 0, 0}
	if err := src.Upload(x); err != nil {
		log.Fatal(err)
	}
	if err := p.ForwardBuffer(dst, src); err != nil {
		log.Fatal(err)
	}
	spec, in := make([]complex64, 8), make([]complex64, 8)
	if err := dst.Download(spec); err != nil {
		log.Fatal(err)
	}
	if err := src.Download(in); err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec[0], spec[7], in[0], in[1])
	// Output: (1+0i) (1+0i) (1+0i) (0+0i)
}

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
