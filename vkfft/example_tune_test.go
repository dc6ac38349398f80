package vkfft_test

import (
	"fmt"
	"log"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

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
