package vkfft_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// A CUDA host opens vkfftgo on its own context and stream: the device's work runs on
// that stream, and Close leaves both to their owner. (Not run here: it needs a GPU and
// a context; in an OpenCL build OpenCUDAContext returns ErrUnsupported.)
func ExampleOpenCUDAContext() {
	var ctx, stream uintptr // a CUcontext and CUstream from your own CUDA code (cuCtxCreate, cuStreamCreate)
	dev, err := vkfft.OpenCUDAContext(ctx, stream)
	if errors.Is(err, vkfft.ErrUnsupported) {
		log.Fatal("this build has no CUDA backend (build with -tags cuda)")
	} else if err != nil {
		log.Fatal(err)
	}
	defer dev.Close() // waits for the stream; destroys neither the stream nor the context

	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{1024}})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	var dst, src uintptr                              // CUdeviceptrs of your own, 1024 complex64 each
	if err := p.ForwardPtr(dst, src, 0); err != nil { // 0: the device's stream, i.e. yours
		log.Fatal(err)
	}
}

// Streams run host round trips asynchronously between pinned buffers; Wait (or
// WaitContext, which gives up when its context is done) collects the result.
func ExampleStream() {
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
	s, err := dev.NewStream()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	in, err := vkfft.NewHostBuffer[complex64](dev, p.Len())
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	out, err := vkfft.NewHostBuffer[complex64](dev, p.Len())
	if err != nil {
		log.Fatal(err)
	}
	defer out.Close()
	for i := range in.Slice() {
		in.Slice()[i] = 1 // a constant: all of its spectrum is in bin 0
	}
	if err := p.ForwardAsync(s, out, in); err != nil { // returns at once
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.WaitContext(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Slice()[0], out.Slice()[1])
	// Output: (8+0i) (0+0i)
}

// Leases from the device's plan cache: the second lease of the same configuration is
// the first plan again, built once.
func ExampleCachedPlan() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	cfg := vkfft.Config{Shape: []int{16}}
	x := make([]complex64, 16)
	x[0] = 1
	y := make([]complex64, 16)
	for i := 0; i < 2; i++ {
		l, err := vkfft.CachedPlan[complex64](dev, cfg)
		if err != nil {
			log.Fatal(err)
		}
		if err := l.Forward(y, x); err != nil { // every Plan method is on the lease
			log.Fatal(err)
		}
		l.Release() // back to the cache for the next holder
	}
	st := dev.PlanCache().Stats()
	fmt.Println(y[5], st.Misses, st.Hits, st.Plans)
	// Output: (1+0i) 1 1 1
}

// The kernel cache is configured on a value; the environment gives the defaults.
func ExampleKernelCache() {
	kc := vkfft.KernelCache()
	kc.SetDir("off") // no disk cache for this process (e.g. a read-only home)
	_, on := kc.Dir()
	fmt.Println(on)
	kc.SetDir("") // back to VKFFTGO_CACHE_DIR or the user cache directory
	// Output: false
}
