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
