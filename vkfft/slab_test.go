package vkfft

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSlabSplit(t *testing.T) {
	cases := []struct {
		n, devices int
		want       [][2]int // start, rows
	}{
		{n: 16, devices: 2, want: [][2]int{{0, 8}, {8, 8}}},
		{n: 9, devices: 2, want: [][2]int{{0, 5}, {5, 4}}},
		{n: 10, devices: 4, want: [][2]int{{0, 3}, {3, 3}, {6, 3}, {9, 1}}},
		// FFTW-MPI's block rule leaves the last device empty here
		{n: 9, devices: 4, want: [][2]int{{0, 3}, {3, 3}, {6, 3}, {9, 0}}},
		{n: 3, devices: 3, want: [][2]int{{0, 1}, {1, 1}, {2, 1}}},
	}
	for _, c := range cases {
		got := splitSlabs(c.n, c.devices)
		require.Len(t, got, c.devices)
		for i, s := range got {
			require.Equal(t, i, s.Device)
			require.Equal(t, c.want[i], [2]int{s.Start, s.Rows}, "%d rows on %d devices: slab %d", c.n, c.devices, i)
		}
	}
}

// slabCase is one shape of the slab tests.
type slabCase struct {
	name  string
	cfg   SlabConfig
	slabs [][2]int // the first axis' split on two devices
}

var slabCases = []slabCase{
	{"16x12", SlabConfig{Shape: []int{16, 12}}, [][2]int{{0, 8}, {8, 8}}},
	{"9x7 odd rows", SlabConfig{Shape: []int{9, 7}}, [][2]int{{0, 5}, {5, 4}}},
	{"12x10x8", SlabConfig{Shape: []int{12, 10, 8}}, [][2]int{{0, 6}, {6, 6}}},
	{"9x7 transposed out", SlabConfig{Shape: []int{9, 7}, TransposedOut: true, TransposedIn: true}, [][2]int{{0, 5}, {5, 4}}},
	{"5x6x4 batch 2 transposed, ortho", SlabConfig{Shape: []int{5, 6, 4}, Batch: 2, TransposedOut: true, TransposedIn: true,
		Norm: NormOrtho}, [][2]int{{0, 3}, {3, 2}}},
	{"12x10x8 transposed out only", SlabConfig{Shape: []int{12, 10, 8}, TransposedOut: true}, [][2]int{{0, 6}, {6, 6}}},
	{"9x7x3 transposed in only", SlabConfig{Shape: []int{9, 7, 3}, TransposedIn: true, Norm: NormForward},
		[][2]int{{0, 5}, {5, 4}}},
}

// inverseInput is the spectrum want in the layout the plan's inverse takes.
func inverseInput[T any](l *slabLayout, want []T) []T {
	if l.cfg.TransposedIn {
		return transposeWhole(want, l.cfg.Batch, l.n0, l.m1, l.r)
	}
	return want
}

// transposeWhole swaps the first two axes of [batch][n0][m1][r].
func transposeWhole[T any](x []T, batch, n0, m1, r int) []T {
	out := make([]T, len(x))
	for b := 0; b < batch; b++ {
		for i := 0; i < n0; i++ {
			for j := 0; j < m1; j++ {
				copy(out[((b*m1+j)*n0+i)*r:][:r], x[((b*n0+i)*m1+j)*r:][:r])
			}
		}
	}
	return out
}

func asComplex128[T Complex](x []T) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = complex128(v)
	}
	return out
}

func asFloat64[R Real](x []R) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func slabTolerance(double bool) float64 {
	if double {
		return 1e-12
	}
	return 1e-6
}

// A slab plan gives what one device's plan of the same shape gives, on host slices and
// on per-device buffers, in both directions and both layouts.
func TestSlabPlanMatchesOneDevice(t *testing.T) {
	pool := testPool(t, 2)
	for i, c := range sweepCases(slabCases) {
		runPrecisions(t, i,
			c.name+"/c64", func(t *testing.T) { checkSlabC2C[complex64](t, pool, c) },
			c.name+"/c128", func(t *testing.T) { checkSlabC2C[complex128](t, pool, c) })
	}
}

func checkSlabC2C[T Complex](t *testing.T, pool *Pool, c slabCase) {
	cfg := c.cfg
	one := sharedPlan[T](t, Config{Shape: cfg.Shape, Batch: cfg.Batch, Norm: cfg.Norm})
	sp, err := NewSlabPlan[T](pool, cfg)
	require.NoError(t, err)
	defer sp.Close()
	for i, s := range sp.Slabs() {
		require.Equal(t, c.slabs[i], [2]int{s.Start, s.Rows}, "slab %d", i)
	}
	require.Equal(t, one.Len(), sp.Len())
	l := &sp.c.l
	tol := slabTolerance(sizeOf[T]() == 16)
	x, _ := randomComplex[T](rand.New(rand.NewPCG(3, uint64(sp.Len()))), sp.Len())
	want := make([]T, sp.Len())
	require.NoError(t, one.Forward(want, x))
	back := make([]T, sp.Len())
	require.NoError(t, one.Inverse(back, want))
	wantOut := want
	if cfg.TransposedOut {
		wantOut = transposeWhole(want, l.cfg.Batch, l.n0, l.m1, l.r)
	}

	// host slices
	got := make([]T, sp.Len())
	require.NoError(t, boundedCall(t, "Forward", func() error { return sp.Forward(got, x) }))
	require.LessOrEqual(t, relErr(got, asComplex128(wantOut)), tol, "forward")
	inv := make([]T, sp.Len())
	require.NoError(t, boundedCall(t, "Inverse", func() error { return sp.Inverse(inv, inverseInput(l, want)) }))
	require.LessOrEqual(t, relErr(inv, asComplex128(back)), tol, "inverse of the forward")
	require.LessOrEqual(t, relErr(inv, asComplex128(x)), tol, "round trip")
	y := append([]T(nil), x...)
	require.NoError(t, sp.Forward(y, y))
	require.LessOrEqual(t, relErr(y, asComplex128(wantOut)), tol, "forward in place")

	// per-device buffers: each holds its slab of x, then of the spectrum
	devs := pool.Devices()
	bufs := make([]*Buffer[T], len(devs))
	for i, s := range sp.Slabs() {
		if sp.BufferLen(i) == 0 {
			continue // a device that holds nothing takes nil
		}
		b, err := NewBuffer[T](devs[i], sp.BufferLen(i))
		require.NoError(t, err)
		defer b.Close()
		bufs[i] = b
		require.NoError(t, b.Upload(slabOf(x, s, l.cfg.Batch, l.n0, l.m1*l.r, b.Len())))
	}
	require.NoError(t, boundedCall(t, "ForwardSlabs", func() error { return sp.ForwardSlabs(bufs) }))
	out, outN, unit := sp.Slabs(), l.n0, l.m1*l.r
	if cfg.TransposedOut {
		out, outN, unit = sp.TransposedSlabs(), l.m1, l.n0*l.r
	}
	got = gatherSlabs(t, bufs, out, l.cfg.Batch, outN, unit)
	require.LessOrEqual(t, relErr(got, asComplex128(wantOut)), tol, "ForwardSlabs")
	if cfg.TransposedOut != cfg.TransposedIn {
		return
	}
	require.NoError(t, boundedCall(t, "InverseSlabs", func() error { return sp.InverseSlabs(bufs) }))
	got = gatherSlabs(t, bufs, sp.Slabs(), l.cfg.Batch, l.n0, l.m1*l.r)
	require.LessOrEqual(t, relErr(got, asComplex128(x)), tol, "InverseSlabs of ForwardSlabs")
}

// slabOf is slab s of the whole array x ([batch][n][unit]), in a slice of size
// elements (the rest zero).
func slabOf[E any](x []E, s Slab, batch, n, unit, size int) []E {
	out := make([]E, size)
	copySlab(ownView(out, s), wholeView(x, n), s, batch, unit)
	return out
}

// gatherSlabs downloads every device's slab and assembles the whole array.
func gatherSlabs[E Element](t *testing.T, bufs []*Buffer[E], slabs []Slab, batch, n, unit int) []E {
	whole := make([]E, batch*n*unit)
	for i, s := range slabs {
		if s.Rows == 0 {
			continue
		}
		h := make([]E, bufs[i].Len())
		require.NoError(t, bufs[i].Download(h))
		copySlab(wholeView(whole, n), ownView(h, s), s, batch, unit)
	}
	return whole
}

func TestSlabRealPlanMatchesOneDevice(t *testing.T) {
	pool := testPool(t, 2)
	for i, c := range sweepCases(slabCases) {
		runPrecisions(t, i,
			c.name+"/f32", func(t *testing.T) { checkSlabR2C[float32, complex64](t, pool, c) },
			c.name+"/f64", func(t *testing.T) { checkSlabR2C[float64, complex128](t, pool, c) })
	}
}

func checkSlabR2C[R Real, C Complex](t *testing.T, pool *Pool, c slabCase) {
	cfg := c.cfg
	one := sharedRealPlan[R, C](t, Config{Shape: cfg.Shape, Batch: cfg.Batch, Norm: cfg.Norm})
	sp, err := NewSlabRealPlan[R, C](pool, cfg)
	require.NoError(t, err)
	defer sp.Close()
	for i, s := range sp.Slabs() {
		require.Equal(t, c.slabs[i], [2]int{s.Start, s.Rows}, "slab %d", i)
	}
	require.Equal(t, one.RealLen(), sp.RealLen())
	require.Equal(t, one.ComplexLen(), sp.ComplexLen())
	l := &sp.c.l
	tol := slabTolerance(sizeOf[C]() == 16)
	x, _ := randomReal[R](rand.New(rand.NewPCG(4, uint64(sp.RealLen()))), sp.RealLen())
	want := make([]C, sp.ComplexLen())
	require.NoError(t, one.Forward(want, x))
	wantOut := want
	if cfg.TransposedOut {
		wantOut = transposeWhole(want, l.cfg.Batch, l.n0, l.m1, l.r)
	}

	got := make([]C, sp.ComplexLen())
	require.NoError(t, boundedCall(t, "Forward", func() error { return sp.Forward(got, x) }))
	require.LessOrEqual(t, relErr(got, asComplex128(wantOut)), tol, "forward")
	got = inverseInput(l, want)
	kept := append([]C(nil), got...)
	inv := make([]R, sp.RealLen())
	require.NoError(t, boundedCall(t, "Inverse", func() error { return sp.Inverse(inv, got) }))
	require.Equal(t, kept, got, "Inverse modified src")
	require.LessOrEqual(t, relErrReal(inv, asFloat64(x)), tol, "round trip")

	devs := pool.Devices()
	realBufs := make([]*Buffer[R], len(devs))
	specBufs := make([]*Buffer[C], len(devs))
	for i, s := range sp.Slabs() {
		if sp.RealBufferLen(i) > 0 {
			rb, err := NewBuffer[R](devs[i], sp.RealBufferLen(i))
			require.NoError(t, err)
			defer rb.Close()
			realBufs[i] = rb
			require.NoError(t, rb.Upload(slabOf(x, s, l.cfg.Batch, l.n0, l.realRow, rb.Len())))
		}
		if sp.SpectrumBufferLen(i, cfg.TransposedOut) == 0 {
			continue
		}
		sb, err := NewBuffer[C](devs[i], sp.SpectrumBufferLen(i, cfg.TransposedOut))
		require.NoError(t, err)
		defer sb.Close()
		specBufs[i] = sb
	}
	require.NoError(t, boundedCall(t, "ForwardSlabs", func() error { return sp.ForwardSlabs(specBufs, realBufs) }))
	if cfg.TransposedOut {
		got = gatherSlabs(t, specBufs, sp.TransposedSlabs(), l.cfg.Batch, l.m1, l.n0*l.r)
	} else {
		got = gatherSlabs(t, specBufs, sp.Slabs(), l.cfg.Batch, l.n0, l.m1*l.r)
	}
	require.LessOrEqual(t, relErr(got, asComplex128(wantOut)), tol, "ForwardSlabs")
	require.Equal(t, x, gatherSlabs(t, realBufs, sp.Slabs(), l.cfg.Batch, l.n0, l.realRow), "ForwardSlabs modified src")
	if cfg.TransposedOut != cfg.TransposedIn {
		return
	}
	for _, b := range realBufs {
		if b != nil {
			require.NoError(t, b.Upload(make([]R, b.Len())))
		}
	}
	require.NoError(t, boundedCall(t, "InverseSlabs", func() error { return sp.InverseSlabs(realBufs, specBufs) }))
	back := gatherSlabs(t, realBufs, sp.Slabs(), l.cfg.Batch, l.n0, l.realRow)
	require.LessOrEqual(t, relErrReal(back, asFloat64(x)), tol, "InverseSlabs of ForwardSlabs")
}

// On four devices FFTW-MPI's block rule leaves the last device without rows (9 rows:
// 3, 3, 3, 0) while it still holds columns of the transposed layout.
func TestSlabPlanEmptySlab(t *testing.T) {
	idx := []int{0, 1, 0, 1}
	if n, _ := Devices(); len(n) < 2 {
		idx = []int{0, 0, 0, 0}
	}
	pool, err := openPool(idx, true)
	require.NoError(t, err)
	defer pool.Close()
	c := slabCase{"9x8 on 4", SlabConfig{Shape: []int{9, 8}}, [][2]int{{0, 3}, {3, 3}, {6, 3}, {9, 0}}}
	checkSlabC2C[complex64](t, pool, c)
	c.cfg.TransposedOut, c.cfg.TransposedIn = true, true
	checkSlabC2C[complex64](t, pool, c)
	checkSlabR2C[float32, complex64](t, pool, slabCase{"9x14 on 4", SlabConfig{Shape: []int{9, 14}}, c.slabs})
	sp, err := NewSlabPlan[complex64](pool, SlabConfig{Shape: []int{9, 8}})
	require.NoError(t, err)
	defer sp.Close()
	require.Zero(t, sp.BufferLen(3))
	bufs := make([]*Buffer[complex64], 4)
	for i := range 3 {
		bufs[i], err = NewBuffer[complex64](pool.Devices()[i], sp.BufferLen(i))
		require.NoError(t, err)
		defer bufs[i].Close()
	}
	bufs[3] = bufs[2]
	err = sp.ForwardSlabs(bufs)
	require.ErrorIs(t, err, ErrLength)
	require.ErrorContains(t, err, "bufs[3]")
	require.ErrorContains(t, err, "pass nil")
}

// Layouts a slab plan cannot take, and calls with buffers that do not fit it, fail with
// errors that name the problem.
func TestSlabPlanBadInput(t *testing.T) {
	pool := testPool(t, 2)
	bad := []struct {
		name string
		cfg  SlabConfig
		real bool
		want error
		text string
	}{
		{"rank 1", SlabConfig{Shape: []int{16}}, false, ErrInvalidShape, "2-D and 3-D"},
		{"rank 4", SlabConfig{Shape: []int{4, 4, 4, 4}}, false, ErrInvalidShape, "2-D and 3-D"},
		{"one row", SlabConfig{Shape: []int{1, 8}}, false, ErrInvalidShape, "first axis has 1 rows for 2 devices"},
		{"one column", SlabConfig{Shape: []int{8, 1, 4}}, false, ErrInvalidShape, "second axis has 1 columns for 2 devices"},
		{"real 2-D, halved columns", SlabConfig{Shape: []int{8, 1}}, true, ErrInvalidShape, "spectrum's second axis (1/2+1)"},
		{"zero dimension", SlabConfig{Shape: []int{8, 0}}, false, ErrInvalidShape, "dimension 1"},
		{"negative batch", SlabConfig{Shape: []int{8, 8}, Batch: -1}, false, ErrInvalidBatch, "negative"},
		{"norm", SlabConfig{Shape: []int{8, 8}, Norm: 7}, false, ErrInvalidArgument, "normalisation"},
		{"negative chunks", SlabConfig{Shape: []int{8, 8}, Chunks: -1}, false, ErrInvalidArgument, "chunks -1"},
	}
	for _, c := range bad {
		var err error
		if c.real {
			_, err = NewSlabRealPlan[float32, complex64](pool, c.cfg)
		} else {
			_, err = NewSlabPlan[complex64](pool, c.cfg)
		}
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, c.text, c.name)
	}
	_, err := NewSlabRealPlan[float32, complex128](pool, SlabConfig{Shape: []int{8, 8}})
	require.ErrorIs(t, err, ErrPrecision)

	sp, err := NewSlabPlan[complex64](pool, SlabConfig{Shape: []int{8, 6}})
	require.NoError(t, err)
	defer sp.Close()
	x := make([]complex64, sp.Len())
	require.ErrorIs(t, sp.Forward(x[:10], x), ErrLength)
	require.ErrorIs(t, sp.Inverse(x, nil), ErrNilBuffer)
	devs := pool.Devices()
	mk := func(d *Device, n int) *Buffer[complex64] {
		b, err := NewBuffer[complex64](d, n)
		require.NoError(t, err)
		t.Cleanup(func() { b.Close() })
		return b
	}
	good := []*Buffer[complex64]{mk(devs[0], sp.BufferLen(0)), mk(devs[1], sp.BufferLen(1))}
	calls := []struct {
		name string
		bufs []*Buffer[complex64]
		want error
		text string
	}{
		{"one buffer", good[:1], ErrInvalidArgument, "1 bufs buffers for a pool of 2 devices"},
		{"nil", []*Buffer[complex64]{good[0], nil}, ErrNilBuffer, "bufs[1] is nil"},
		{"short", []*Buffer[complex64]{good[0], mk(devs[1], 5)}, ErrLength, "bufs[1] has 5 elements; device 1's slab needs 24"},
		{"swapped devices", []*Buffer[complex64]{good[1], good[0]}, ErrWrongDevice, "bufs[0] is a buffer of device"},
	}
	for _, c := range calls {
		for _, f := range []func([]*Buffer[complex64]) error{sp.ForwardSlabs, sp.InverseSlabs} {
			err := f(c.bufs)
			require.ErrorIs(t, err, c.want, c.name)
			require.ErrorContains(t, err, c.text, c.name)
		}
	}
	rp, err := NewSlabRealPlan[float32, complex64](pool, SlabConfig{Shape: []int{8, 6}})
	require.NoError(t, err)
	defer rp.Close()
	err = rp.ForwardSlabs(good, nil)
	require.ErrorIs(t, err, ErrInvalidArgument)
	require.ErrorContains(t, err, "0 src buffers")
	require.ErrorIs(t, rp.Forward(make([]complex64, rp.ComplexLen()), make([]float32, 3)), ErrLength)
}

// Close frees every device's plans and staging once: the devices' allocations and
// tracked resources return to what they were, repeated use allocates nothing, and
// later calls fail with ErrClosed. Closing the pool closes its slab plans.
func TestSlabPlanCloseAndReuse(t *testing.T) {
	pool := testPool(t, 2)
	devs := pool.Devices()
	type snap struct {
		live, allocs int64
		resources    int
	}
	snapshot := func() []snap {
		out := make([]snap, len(devs))
		for i, d := range devs {
			st := d.MemStats()
			d.resMu.Lock()
			out[i] = snap{st.LiveAllocations, st.Allocations, len(d.resources)}
			d.resMu.Unlock()
		}
		return out
	}
	before := snapshot()
	sp, err := NewSlabRealPlan[float32, complex64](pool, SlabConfig{Shape: []int{12, 10, 8}})
	require.NoError(t, err)
	x, _ := randomReal[float32](rand.New(rand.NewPCG(5, 6)), sp.RealLen())
	spec := make([]complex64, sp.ComplexLen())
	back := make([]float32, sp.RealLen())
	round := func() {
		require.NoError(t, sp.Forward(spec, x))
		require.NoError(t, sp.Inverse(back, spec))
		require.LessOrEqual(t, relErrReal(back, asFloat64(x)), 1e-6)
	}
	round()
	built := snapshot()
	rss0 := rssBytes(t)
	for range 50 {
		round()
	}
	require.Equal(t, built, snapshot(), "repeated transforms allocated device memory or resources")
	require.Less(t, rssBytes(t)-rss0, int64(8<<20), "RSS grew")
	require.NoError(t, sp.Close())
	require.NoError(t, sp.Close())
	after := snapshot()
	for i := range devs {
		require.Equal(t, before[i].live, after[i].live, "device %d: live allocations after Close", i)
		require.Equal(t, before[i].resources, after[i].resources, "device %d: resources after Close", i)
	}
	require.ErrorIs(t, sp.Forward(spec, x), ErrClosed)

	// the pool's Close frees a plan left open
	p2, err := openPool([]int{devs[0].info.Index, devs[1].info.Index}, true)
	require.NoError(t, err)
	cp, err := NewSlabPlan[complex128](p2, SlabConfig{Shape: []int{4, 4}})
	require.NoError(t, err)
	d0 := p2.Devices()[0]
	require.NotZero(t, d0.MemStats().LiveAllocations)
	require.NoError(t, p2.Close())
	require.ErrorIs(t, cp.Forward(make([]complex128, 16), make([]complex128, 16)), ErrClosed)
	require.NoError(t, cp.Close())
	_, err = NewSlabPlan[complex64](p2, SlabConfig{Shape: []int{4, 4}})
	require.ErrorIs(t, err, ErrClosed)
}
