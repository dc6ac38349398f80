package vkfft_test

import (
	"fmt"
	"log"
	"math"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// clean rounds away float noise (and negative zero) for printing.
func clean(x float64) float64 {
	if math.Abs(x) < 1e-6 {
		return 0
	}
	return math.Round(x*1e4) / 1e4
}

func realParts(x []complex64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = clean(float64(real(v)))
	}
	return out
}

// Axes picks the axes to transform, with numpy's meaning: here the columns of a 2×4
// matrix (axis 0); the rows are a batch.
func ExampleConfig_axes() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{2, 4}, Axes: []int{0}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	x := []complex64{1, 2, 3, 4, 5, 6, 7, 8}
	y := make([]complex64, p.Len())
	if err := p.Forward(y, x); err != nil {
		log.Fatal(err)
	}
	fmt.Println(realParts(y)) // per column: the sum, then the difference
	// Output: [6 8 10 12 -4 -4 -4 -4]
}

// Strides describe non-contiguous device data: rows of 3 values stored in rows of 4.
// Only the described elements are read and written; the padding keeps its values.
func ExampleConfig_strides() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	cfg := vkfft.Config{Shape: []int{2, 3}, Axes: []int{1}, InStrides: []int{4, 1}, OutStrides: []int{4, 1}}
	p, err := vkfft.NewPlan[complex64](dev, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	in, out := p.Spans() // elements the buffers must hold: 7 each
	buf, err := vkfft.NewBuffer[complex64](dev, max(in, out))
	if err != nil {
		log.Fatal(err)
	}
	defer buf.Close()
	if err := buf.Upload([]complex64{1, 1, 1, 99, 2, 2, 2}); err != nil {
		log.Fatal(err)
	}
	if err := p.ForwardBuffer(buf, buf); err != nil { // in place: same strides
		log.Fatal(err)
	}
	y := make([]complex64, buf.Len())
	if err := buf.Download(y); err != nil {
		log.Fatal(err)
	}
	fmt.Println(realParts(y))
	// Output: [3 0 0 99 6 0 0]
}

// A DCT-II with scipy's definition (dct(x, type=2), unnormalised), and the inverse
// that undoes it.
func ExampleNewR2RPlan() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewR2RPlan[float64](dev, vkfft.Config{Shape: []int{4}}, vkfft.DCT2)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	x := []float64{1, 1, 1, 1}
	y := make([]float64, p.Len())
	if err := p.Forward(y, x); err != nil {
		log.Fatal(err)
	}
	back := make([]float64, p.Len())
	if err := p.Inverse(back, y); err != nil {
		log.Fatal(err)
	}
	fmt.Println(clean(y[0]), clean(y[1]), clean(y[3]), clean(back[0]), clean(back[3]))
	// Output: 8 0 0 1 1
}

// In-place real-to-complex in FFTW's padded layout: 4 reals in a row of 6, replaced by
// the 3 complex values of their half spectrum.
func ExampleRealPlan_ForwardInPlace() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewRealPlan[float64, complex128](dev, vkfft.Config{Shape: []int{4}, RealInPlace: true})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	data := []float64{1, 2, 3, 4, 0, 0} // PaddedLen: 2·(4/2+1)
	if err := p.ForwardInPlace(data); err != nil {
		log.Fatal(err)
	}
	for i := range data {
		data[i] = clean(data[i])
	}
	fmt.Println(data) // 10, -2+2i, -2
	// Output: [10 0 -2 2 -2 0]
}

// StorageFloatComputeDouble keeps complex64 data and does the arithmetic in double.
func ExampleStorage() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{8}, Storage: vkfft.StorageFloatComputeDouble})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	x := make([]complex64, 8)
	x[1] = 1
	y := make([]complex64, 8)
	if err := p.Forward(y, x); err != nil {
		log.Fatal(err)
	}
	fmt.Println(clean(float64(real(y[0]))), clean(float64(real(y[2]))), clean(float64(imag(y[2]))))
	// Output: 1 0 -1
}

// StorageHalf keeps fp16 on the device (half the memory and bandwidth of complex64) and
// computes in fp32. Float16 data moves without conversion; complex64 host slices are
// converted on the host. Devices without fp16 (PoCL on a CPU) refuse the plan.
func ExampleStorage_half() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{1024}, Storage: vkfft.StorageHalf})
	if err != nil {
		fmt.Println(err) // ErrUnsupported without fp16
		return
	}
	defer p.Close()
	h := make([]vkfft.Float16, 2*p.Len()) // re, im, re, im, ...
	h[0] = vkfft.Float16From(1)
	buf, err := vkfft.NewBuffer[vkfft.Float16](dev, len(h))
	if err != nil {
		log.Fatal(err)
	}
	defer buf.Close()
	if err := buf.Upload(h); err != nil {
		log.Fatal(err)
	}
	if err := p.ForwardHalfBuffer(buf, buf); err != nil {
		log.Fatal(err)
	}
	if err := buf.Download(h); err != nil {
		log.Fatal(err)
	}
	fmt.Println(h[2].Float32()) // the spectrum of an impulse is flat
}
