package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// withStaging forces the staged path for every size on testDev for one test.
func withStaging(t testing.TB, threshold int64) {
	saved := testDev.stageMin.Load()
	testDev.SetStagingThreshold(threshold)
	t.Cleanup(func() { testDev.SetStagingThreshold(saved) })
}

// The staged path (pageable memory through the pinned slots, several chunks) gives the
// same results as the direct one, for complex and real plans, in place too.
func TestStagedHostTransfers(t *testing.T) {
	cfg := Config{Shape: []int{64, 64, 32}} // 1 MiB: eight 8 MiB slots... a chunk each way
	p := sharedPlan[complex64](t, cfg)
	rng := rand.New(rand.NewPCG(5, 6))
	x, _ := randomComplex[complex64](rng, p.Len())
	direct := make([]complex64, p.Len())
	withStaging(t, -1)
	require.NoError(t, p.Forward(direct, x))

	testDev.SetStagingThreshold(0)
	staged := make([]complex64, p.Len())
	before := testDev.staging.staged.Load()
	require.NoError(t, p.Forward(staged, x))
	require.Equal(t, direct, staged)
	require.Equal(t, before+1, testDev.staging.staged.Load(), "the staged path was taken")

	inplace := append([]complex64(nil), x...)
	require.NoError(t, p.Forward(inplace, inplace))
	require.NoError(t, p.Inverse(inplace, inplace))
	require.Less(t, relErr(inplace, toC128(x)), 1e-6)

	rp := sharedRealPlan[float64, complex128](t, Config{Shape: []int{48, 40}, Batch: 3})
	r, _ := randomReal[float64](rng, rp.RealLen())
	spec := make([]complex128, rp.ComplexLen())
	require.NoError(t, rp.Forward(spec, r))
	back := make([]float64, rp.RealLen())
	require.NoError(t, rp.Inverse(back, spec))
	require.Less(t, relErrReal(back, r), 1e-12)
}

// A transfer larger than both slots together goes through them several times.
func TestStagedLargerThanSlots(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 40 MiB")
	}
	withStaging(t, 0)
	p, err := NewPlan[complex64](testDev, Config{Shape: []int{1024}, Batch: 2560}) // 20 MiB
	require.NoError(t, err)
	defer p.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	x, _ := randomComplex[complex64](rng, p.Len())
	y := make([]complex64, p.Len())
	require.NoError(t, p.Forward(y, x))
	require.NoError(t, p.Inverse(y, y))
	require.Less(t, relErr(y, toC128(x)), 1e-6)
}

// Pinned host buffers: usable as slices, transforms from them skip staging, and the
// asynchronous calls queue on streams; results are there after Wait.
func TestHostBuffersAndStreams(t *testing.T) {
	cfg := Config{Shape: []int{32, 32}, Batch: 2}
	p := sharedPlan[complex64](t, cfg)
	in, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer in.Close()
	out, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer out.Close()
	require.Len(t, in.Slice(), p.Len())

	rng := rand.New(rand.NewPCG(9, 10))
	x, _ := randomComplex[complex64](rng, p.Len())
	copy(in.Slice(), x)
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))
	require.NoError(t, p.Forward(out.Slice(), in.Slice())) // synchronous, pinned
	require.Equal(t, want, out.Slice())

	s1, err := testDev.NewStream()
	require.NoError(t, err)
	defer s1.Close()
	s2, err := testDev.NewStream()
	require.NoError(t, err)
	defer s2.Close()
	clear(out.Slice())
	require.NoError(t, p.ForwardAsync(s1, out, in))
	require.NoError(t, s1.Wait())
	require.Equal(t, want, out.Slice())

	// the same plan on another stream waits for its earlier work (its buffers are shared)
	back, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer back.Close()
	require.NoError(t, p.ForwardAsync(s1, out, in))
	require.NoError(t, p.InverseAsync(s2, back, out))
	require.NoError(t, s2.Wait())
	require.NoError(t, s1.Wait())
	require.Less(t, relErr(back.Slice(), toC128(x)), 1e-6)

	// a synchronous call after asynchronous ones sees their results
	require.NoError(t, p.ForwardAsync(s2, out, in))
	got := make([]complex64, p.Len())
	require.NoError(t, p.Inverse(got, want))
	require.Less(t, relErr(got, toC128(x)), 1e-6)
	require.NoError(t, s2.Wait())
	require.Equal(t, want, out.Slice())

	// src may be rewritten once Wait has returned
	copy(in.Slice(), want)
	require.NoError(t, p.InverseAsync(s1, out, in))
	require.NoError(t, s1.Wait())
	require.Less(t, relErr(out.Slice(), toC128(x)), 1e-6)

	// real plans too
	rp := sharedRealPlan[float32, complex64](t, cfg)
	rin, err := NewHostBuffer[float32](testDev, rp.RealLen())
	require.NoError(t, err)
	defer rin.Close()
	cspec, err := NewHostBuffer[complex64](testDev, rp.ComplexLen())
	require.NoError(t, err)
	defer cspec.Close()
	r, _ := randomReal[float32](rng, rp.RealLen())
	copy(rin.Slice(), r)
	require.NoError(t, rp.ForwardAsync(s1, cspec, rin))
	require.NoError(t, s1.Wait())
	clear(rin.Slice()) // only now: until Wait the upload may still read it
	require.NoError(t, rp.InverseAsync(s1, rin, cspec))
	require.NoError(t, s1.Wait())
	require.Less(t, relErrReal(rin.Slice(), toF64(r)), 1e-6)

	// errors: closed stream, nil and wrongly sized buffers
	small, err := NewHostBuffer[complex64](testDev, 10)
	require.NoError(t, err)
	defer small.Close()
	require.ErrorIs(t, p.ForwardAsync(s1, small, in), ErrLength)
	require.ErrorIs(t, p.ForwardAsync(s1, nil, in), ErrNilBuffer)
	require.ErrorIs(t, p.ForwardAsync(nil, out, in), ErrInvalidArgument)
	s3, err := testDev.NewStream()
	require.NoError(t, err)
	require.NoError(t, s3.Close())
	require.ErrorIs(t, p.ForwardAsync(s3, out, in), ErrClosed)
	require.ErrorIs(t, s3.Wait(), ErrClosed)
}

// The pipeline splits a batch into chunks on two streams; results match the one-plan
// transform for pinned and pageable memory.
func TestPipeline(t *testing.T) {
	cfg := Config{Shape: []int{256}, Batch: 64}
	p := sharedPlan[complex64](t, cfg)
	pl, err := NewPipeline[complex64](testDev, cfg, 4)
	require.NoError(t, err)
	defer pl.Close()
	require.Equal(t, p.Len(), pl.Len())
	rng := rand.New(rand.NewPCG(11, 12))
	x, _ := randomComplex[complex64](rng, p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, p.Forward(want, x))

	got := make([]complex64, p.Len())
	require.NoError(t, pl.Forward(got, x)) // pageable: staged
	require.Equal(t, want, got)
	require.NoError(t, pl.Inverse(got, got))
	require.Less(t, relErr(got, toC128(x)), 1e-6)

	in, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer in.Close()
	out, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer out.Close()
	copy(in.Slice(), x)
	require.NoError(t, pl.Forward(out.Slice(), in.Slice())) // pinned: direct
	require.Equal(t, want, out.Slice())

	// other chunk counts: two (each stream once), and an odd number
	for _, chunks := range []int{2, 8} {
		other, err := NewPipeline[complex64](testDev, cfg, chunks)
		require.NoError(t, err)
		clear(got)
		require.NoError(t, other.Forward(got, x))
		require.Equal(t, want, got, "%d chunks", chunks)
		require.NoError(t, other.Close())
	}
	odd, err := NewPipeline[complex64](testDev, Config{Shape: []int{256}, Batch: 48}, 3)
	require.NoError(t, err)
	defer odd.Close()
	p48 := sharedPlan[complex64](t, Config{Shape: []int{256}, Batch: 48})
	want48 := make([]complex64, p48.Len())
	require.NoError(t, p48.Forward(want48, x[:p48.Len()]))
	got48 := make([]complex64, p48.Len())
	require.NoError(t, odd.Forward(got48, x[:p48.Len()]))
	require.Equal(t, want48, got48, "3 chunks")

	_, err = NewPipeline[complex64](testDev, cfg, 3)
	require.ErrorIs(t, err, ErrInvalidBatch)
	require.ErrorIs(t, pl.Forward(got[:10], x), ErrLength)
	require.NoError(t, pl.Close())
	require.ErrorIs(t, pl.Forward(got, x), ErrClosed)
}

// Staged, pinned, asynchronous and pipelined calls allocate nothing on the Go heap.
func TestZeroAllocationsTransfers(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	withStaging(t, 0)
	cfg := Config{Shape: []int{256}, Batch: 64}
	p := sharedPlan[complex64](t, cfg)
	pl, err := NewPipeline[complex64](testDev, cfg, 4)
	require.NoError(t, err)
	defer pl.Close()
	s, err := testDev.NewStream()
	require.NoError(t, err)
	defer s.Close()
	in, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer in.Close()
	out, err := NewHostBuffer[complex64](testDev, p.Len())
	require.NoError(t, err)
	defer out.Close()
	x := make([]complex64, p.Len())
	y := make([]complex64, p.Len())
	calls := map[string]func() error{
		"staged Forward": func() error { return p.Forward(y, x) },
		"pinned Forward": func() error { return p.Forward(out.Slice(), in.Slice()) },
		"ForwardAsync+Wait": func() error {
			if err := p.ForwardAsync(s, out, in); err != nil {
				return err
			}
			return s.Wait()
		},
		"Pipeline staged": func() error { return pl.Forward(y, x) },
		"Pipeline pinned": func() error { return pl.Forward(out.Slice(), in.Slice()) },
	}
	for name, f := range calls {
		require.NoError(t, f(), name)
		var failed error
		allocs := testing.AllocsPerRun(20, func() {
			if err := f(); err != nil && failed == nil {
				failed = err
			}
		})
		require.NoError(t, failed, name)
		require.Zero(t, allocs, "%s allocates %.1f times per call", name, allocs)
	}
}
