package vkfft

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// roundTrip runs forward+inverse on p and reports the largest deviation from x.
func roundTrip(p *Plan[complex64], x, spec, back []complex64) (float64, error) {
	if err := p.Forward(spec, x); err != nil {
		return 0, err
	}
	if err := p.Inverse(back, spec); err != nil {
		return 0, err
	}
	var m float64
	for i := range x {
		d := back[i] - x[i]
		m = max(m, float64(real(d)*real(d)+imag(d)*imag(d)))
	}
	return m, nil
}

// hammer runs workers goroutines, each doing rounds checked round trips on planFor(w)
// with data of its own, and fails the test on any error or wrong result.
func hammer(t *testing.T, workers, rounds int, planFor func(w int) *Plan[complex64]) {
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	bad := make(chan float64, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			p := planFor(w)
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			x, _ := randomComplex[complex64](rng, p.Len())
			spec, back := make([]complex64, p.Len()), make([]complex64, p.Len())
			for r := 0; r < rounds; r++ {
				e, err := roundTrip(p, x, spec, back)
				if err != nil {
					errs <- err
					return
				}
				if e > 1e-9 {
					bad <- e
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	close(bad)
	for err := range errs {
		require.NoError(t, err)
	}
	for e := range bad {
		require.Failf(t, "wrong result", "squared error %g", e)
	}
}

// TestConcurrentPlans: 8 goroutines, each with its own plan, all on one device.
func TestConcurrentPlans(t *testing.T) {
	const workers = 8
	plans := make([]*Plan[complex64], workers)
	for i := range plans {
		// distinct shapes, so each goroutine really has its own application
		p, err := NewPlan[complex64](testDev, Config{Shape: []int{64 + 8*i}})
		require.NoError(t, err)
		defer p.Close()
		plans[i] = p
	}
	hammer(t, workers, 15, func(w int) *Plan[complex64] { return plans[w] })
}

// TestConcurrentSharedPlan: goroutines sharing one plan is safe — calls are serialised
// by the plan — and each goroutine gets its own correct result.
func TestConcurrentSharedPlan(t *testing.T) {
	p := sharedPlan[complex64](t, Config{Shape: []int{16, 16}})
	hammer(t, 8, 15, func(int) *Plan[complex64] { return p })
}

// TestConcurrentCloseWhileRunning: closing a plan while other goroutines use it never
// crashes; every call either returns the right result or ErrClosed, and once a goroutine
// has seen ErrClosed every later call returns it too.
func TestConcurrentCloseWhileRunning(t *testing.T) {
	const workers, n = 4, 128
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{n}})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	x, _ := randomComplex[complex64](rng, n)
	want := make([]complex64, n)
	require.NoError(t, p.Forward(want, x))

	var wg sync.WaitGroup
	started := make(chan struct{}, workers)
	results := make([]struct{ ok, closed int }, workers)
	problems := make(chan string, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			y := make([]complex64, n)
			for i := 0; ; i++ {
				err := p.Forward(y, x)
				switch {
				case err == nil && results[w].closed == 0:
					if !slices.Equal(y, want) {
						problems <- "a call returned a wrong result"
						return
					}
					results[w].ok++
					if results[w].ok == 1 {
						started <- struct{}{}
					}
				case errors.Is(err, ErrClosed):
					results[w].closed++
					if results[w].closed == 3 {
						return
					}
				default:
					problems <- fmt.Sprintf("call %d: %v (after %d ErrClosed)", i, err, results[w].closed)
					return
				}
			}
		}(w)
	}
	for w := 0; w < workers; w++ {
		<-started // every goroutine is running transforms
	}
	require.NoError(t, p.Close())
	wg.Wait()
	close(problems)
	for msg := range problems {
		require.Fail(t, msg)
	}
	for w, r := range results {
		require.Positive(t, r.ok, "worker %d", w)
		require.Equal(t, 3, r.closed, "worker %d", w)
	}
	require.ErrorIs(t, p.Forward(want, x), ErrClosed)
}
