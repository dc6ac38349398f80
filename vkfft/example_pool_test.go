package vkfft_test

import (
	"fmt"
	"log"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

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
