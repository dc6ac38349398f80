package vkfft_test

import (
	"fmt"
	"log"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// A 2-D transform distributed across every device of the host in FFTW-MPI's slab
// layout: each device holds some rows of the first axis, and the results are one
// device's.
func ExampleNewSlabPlan() {
	pool, err := vkfft.OpenPool()
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()

	p, err := vkfft.NewSlabPlan[complex64](pool, vkfft.SlabConfig{Shape: []int{8, 4}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	x := make([]complex64, p.Len()) // 8 rows of 4, on the host as for one device
	x[0] = 2                        // an impulse: a flat spectrum of height 2
	spec := make([]complex64, p.Len())
	if err := p.Forward(spec, x); err != nil {
		log.Fatal(err)
	}
	back := make([]complex64, p.Len())
	if err := p.Inverse(back, spec); err != nil {
		log.Fatal(err)
	}
	rows := 0
	for _, s := range p.Slabs() { // each device's rows [Start, Start+Rows)
		rows += s.Rows
	}
	fmt.Println(spec[0], spec[31], back[0], back[1], rows)
	// Output: (2+0i) (2+0i) (2+0i) (0+0i) 8
}
