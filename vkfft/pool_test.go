package vkfft

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// poolWait bounds every pool call in these tests: a call that takes longer hangs.
const poolWait = 2 * time.Minute

// boundedCall runs f and fails the test if it does not return within poolWait.
func boundedCall(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(poolWait):
		t.Fatalf("%s did not return within %v: it hangs", what, poolWait)
		return nil
	}
}

// isPoCL reports whether the test device is PoCL's CPU device.
func isPoCL() bool { return testDev.Info().Platform == "Portable Computing Language" }

// testPool opens a pool of n devices of testDev's model. On PoCL they are n devices of
// their own (TestMain has PoCL list its CPU driver twice); where the backend lists one
// device only (llvmpipe under -tags vulkan), it is opened n times, each a Device with
// its own context and queue, which is what the pool's mechanics need.
func testPool(t *testing.T, n int) *Pool {
	t.Helper()
	devs, err := Devices()
	require.NoError(t, err)
	me := testDev.Info()
	var same []int
	for _, d := range devs {
		if d.Name == me.Name && d.Driver == me.Driver && d.Platform == me.Platform {
			same = append(same, d.Index)
		}
	}
	var p *Pool
	if len(same) >= n {
		p, err = OpenPool(same[:n]...)
	} else {
		require.False(t, isPoCL(), "PoCL lists %d devices like device 0; TestMain sets POCL_DEVICES for %d", len(same), n)
		t.Logf("%d device(s) like %q: the pool opens device 0 %d times", len(same), me.Name, n)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = me.Index
		}
		p, err = openPool(idx, true)
	}
	require.NoError(t, err)
	require.Equal(t, n, p.Len())
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

func TestPoolSplitBatch(t *testing.T) {
	devs := make([]*Device, 3)
	cases := []struct {
		batch, unit int
		devices     int
		want        [][2]int // first, batch of each shard
	}{
		{batch: 6, unit: 1, devices: 3, want: [][2]int{{0, 2}, {2, 2}, {4, 2}}},
		{batch: 7, unit: 1, devices: 3, want: [][2]int{{0, 3}, {3, 2}, {5, 2}}},
		{batch: 2, unit: 1, devices: 3, want: [][2]int{{0, 1}, {1, 1}}},
		{batch: 1, unit: 1, devices: 2, want: [][2]int{{0, 1}}},
		{batch: 10, unit: 2, devices: 3, want: [][2]int{{0, 4}, {4, 4}, {8, 2}}},
		{batch: 4, unit: 4, devices: 3, want: [][2]int{{0, 4}}},
		{batch: 5, unit: 2, devices: 2, want: [][2]int{{0, 2}, {2, 3}}},
		{batch: 3, unit: 2, devices: 2, want: [][2]int{{0, 3}}},
		{batch: 1, unit: 2, devices: 2, want: [][2]int{{0, 1}}},
		{batch: 9, unit: 2, devices: 3, want: [][2]int{{0, 4}, {4, 2}, {6, 3}}},
	}
	for _, c := range cases {
		shards := splitBatch(devs[:c.devices], c.batch, c.unit)
		got := make([][2]int, len(shards))
		for i, sh := range shards {
			got[i] = [2]int{sh.first, sh.batch}
		}
		require.Equal(t, c.want, got, "batch %d in units of %d on %d devices", c.batch, c.unit, c.devices)
	}
}

// requireSameBits fails unless got and want are identical bit for bit.
func requireSameBits[T any](t *testing.T, want, got []T, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	size := int(unsafe.Sizeof(want[0])) * len(want)
	w := unsafe.Slice((*byte)(unsafe.Pointer(&want[0])), size)
	g := unsafe.Slice((*byte)(unsafe.Pointer(&got[0])), size)
	for i := range w {
		if w[i] != g[i] {
			t.Fatalf("%s: differs from one device's plan at byte %d (element %d)", what, i, i/int(unsafe.Sizeof(want[0])))
		}
	}
}

// tolerance is the agreement a pool's results must have with one device's plan.
func tolerance(double bool) float64 {
	if double {
		return 1e-14
	}
	return 1e-6
}

// A pool plan gives what one device's plan of the same Config gives: within 1e-6
// (single) or 1e-14 (double) relative L2 error, and bit for bit, since the devices are
// of one model and the shards run the same kernels. Batches that split unevenly and a
// batch smaller than the pool.
func TestPoolPlanMatchesOneDevice(t *testing.T) {
	pool := testPool(t, 2)
	cases := []struct {
		name    string
		cfg     Config
		batches []int
	}{
		{"1-D odd batch", Config{Shape: []int{64}, Batch: 5}, []int{3, 2}},
		{"2-D", Config{Shape: []int{16, 8}, Batch: 4}, []int{2, 2}},
		{"batch below the pool", Config{Shape: []int{32}, Batch: 1}, []int{1, 0}},
		{"ortho norm", Config{Shape: []int{8, 8}, Batch: 3, Norm: NormOrtho}, []int{2, 1}},
	}
	for i, c := range sweepCases(cases) {
		runPrecisions(t, i,
			c.name+"/c64", func(t *testing.T) { checkPoolC2C[complex64](t, pool, c.cfg, c.batches) },
			c.name+"/c128", func(t *testing.T) { checkPoolC2C[complex128](t, pool, c.cfg, c.batches) })
	}
	// VkFFT pairs the real lines of a 1-D R2C (realUnit): odd batches split in pairs
	real := []struct {
		name    string
		cfg     Config
		batches []int
	}{
		{"1-D odd batch", Config{Shape: []int{64}, Batch: 5}, []int{2, 3}},
		{"1-D batch 3", Config{Shape: []int{64}, Batch: 3}, []int{3, 0}},
		{"1-D even", Config{Shape: []int{64}, Batch: 4}, []int{2, 2}},
		{"last axis of 2-D, odd lines", Config{Shape: []int{3, 32}, Batch: 5, Axes: []int{-1}}, []int{2, 3}},
		{"2-D", Config{Shape: []int{8, 16}, Batch: 2}, []int{1, 1}},
		{"2-D odd", Config{Shape: []int{8, 16}, Batch: 3}, []int{2, 1}},
	}
	for i, c := range real {
		runPrecisions(t, i,
			"real "+c.name+"/f32", func(t *testing.T) { checkPoolR2C[float32, complex64](t, pool, c.cfg, c.batches) },
			"real "+c.name+"/f64", func(t *testing.T) { checkPoolR2C[float64, complex128](t, pool, c.cfg, c.batches) })
	}
}

func checkPoolC2C[T Complex](t *testing.T, pool *Pool, cfg Config, batches []int) {
	one := sharedPlan[T](t, cfg)
	pp, err := NewPoolPlan[T](pool, cfg)
	require.NoError(t, err)
	defer pp.Close()
	require.Equal(t, batches, pp.Batches())
	require.Equal(t, one.Len(), pp.Len())
	require.Equal(t, one.Config(), pp.Config())
	double := sizeOf[T]() == 16
	x, _ := randomComplex[T](rand.New(rand.NewPCG(1, uint64(pp.Len()))), pp.Len())
	for _, inverse := range []bool{false, true} {
		want, got := make([]T, pp.Len()), make([]T, pp.Len())
		if inverse {
			require.NoError(t, one.Inverse(want, x))
			require.NoError(t, boundedCall(t, "Inverse", func() error { return pp.Inverse(got, x) }))
		} else {
			require.NoError(t, one.Forward(want, x))
			require.NoError(t, boundedCall(t, "Forward", func() error { return pp.Forward(got, x) }))
		}
		ref := make([]complex128, len(want))
		for i, v := range want {
			ref[i] = complex128(v)
		}
		require.LessOrEqual(t, relErr(got, ref), tolerance(double), direction(inverse))
		requireSameBits(t, want, got, direction(inverse))
	}
	// in place, as on one device
	y := append([]T(nil), x...)
	want := make([]T, len(x))
	require.NoError(t, one.Forward(want, x))
	require.NoError(t, pp.Forward(y, y))
	requireSameBits(t, want, y, "forward in place")
}

func checkPoolR2C[R Real, C Complex](t *testing.T, pool *Pool, cfg Config, batches []int) {
	one := sharedRealPlan[R, C](t, cfg)
	pp, err := NewPoolRealPlan[R, C](pool, cfg)
	require.NoError(t, err)
	defer pp.Close()
	require.Equal(t, batches, pp.Batches())
	require.Equal(t, one.RealLen(), pp.RealLen())
	require.Equal(t, one.ComplexLen(), pp.ComplexLen())
	double := sizeOf[C]() == 16
	rng := rand.New(rand.NewPCG(2, uint64(pp.RealLen())))
	x, _ := randomReal[R](rng, pp.RealLen())
	want, got := make([]C, pp.ComplexLen()), make([]C, pp.ComplexLen())
	require.NoError(t, one.Forward(want, x))
	require.NoError(t, boundedCall(t, "Forward", func() error { return pp.Forward(got, x) }))
	ref := make([]complex128, len(want))
	for i, v := range want {
		ref[i] = complex128(v)
	}
	require.LessOrEqual(t, relErr(got, ref), tolerance(double))
	requireSameBits(t, want, got, "forward")

	spec, _ := randomComplex[C](rng, pp.ComplexLen()) // not Hermitian: FFTW's c2r all the same
	rwant, rgot := make([]R, pp.RealLen()), make([]R, pp.RealLen())
	require.NoError(t, one.Inverse(rwant, spec))
	require.NoError(t, boundedCall(t, "Inverse", func() error { return pp.Inverse(rgot, spec) }))
	rref := make([]float64, len(rwant))
	for i, v := range rwant {
		rref[i] = float64(v)
	}
	require.LessOrEqual(t, relErrReal(rgot, rref), tolerance(double))
	requireSameBits(t, rwant, rgot, "inverse")
}

// Bad input gets an error naming the problem, before any device works.
func TestPoolBadInput(t *testing.T) {
	n := len(must(Devices()))
	opens := []struct {
		name    string
		indices []int
		want    error
		words   string
	}{
		{"empty list", []int{}, ErrInvalidArgument, "no device indices"},
		{"duplicate", []int{0, 0}, ErrInvalidArgument, "device 0 is listed twice"},
		{"negative", []int{-1}, ErrNoDevice, "device -1"},
		{"past the last", []int{0, n}, ErrNoDevice, "device"},
	}
	for _, c := range opens {
		t.Run("open "+c.name, func(t *testing.T) {
			p, err := OpenPool(c.indices...)
			require.ErrorIs(t, err, c.want)
			require.ErrorContains(t, err, c.words)
			require.Nil(t, p)
		})
	}

	pool := testPool(t, 2)
	plans := []struct {
		name string
		cfg  Config
		want error
	}{
		{"batch 0", Config{Shape: []int{16}}, ErrInvalidBatch},
		{"negative batch", Config{Shape: []int{16}, Batch: -2}, ErrInvalidBatch},
		{"no shape", Config{Batch: 2}, ErrInvalidShape},
		{"strides", Config{Shape: []int{16}, Batch: 2, InStrides: []int{2}}, ErrUnsupported},
	}
	for _, c := range plans {
		t.Run("plan "+c.name, func(t *testing.T) {
			p, err := NewPoolPlan[complex64](pool, c.cfg)
			require.ErrorIs(t, err, c.want)
			require.Nil(t, p)
		})
	}
	_, err := NewPoolRealPlan[float32, complex64](pool, Config{Shape: []int{16}, Batch: 2, RealInPlace: true})
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = NewPoolRealPlan[float32, complex128](pool, Config{Shape: []int{16}, Batch: 2})
	require.ErrorIs(t, err, ErrPrecision)
	_, err = NewPoolPlan[complex64](nil, Config{Shape: []int{16}, Batch: 2})
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewPoolSpectrometer(pool, SpectrometerConfig{N: 16, Input: ComplexInt8})
	require.ErrorIs(t, err, ErrInvalidBatch)
	_, err = NewPoolSpectrometer(pool, SpectrometerConfig{N: 16, Batch: 6, Chunk: 4, Input: ComplexInt8})
	require.ErrorIs(t, err, ErrInvalidBatch)

	p, err := NewPoolPlan[complex64](pool, Config{Shape: []int{16}, Batch: 3})
	require.NoError(t, err)
	defer p.Close()
	x := make([]complex64, p.Len())
	require.ErrorIs(t, p.Forward(x[:len(x)-1], x), ErrLength)
	require.ErrorIs(t, p.Forward(x, make([]complex64, len(x)+16)), ErrLength)
	require.ErrorIs(t, p.Inverse(nil, x), ErrNilBuffer)
	require.ErrorIs(t, p.Inverse(x, nil), ErrNilBuffer)
	rp, err := NewPoolRealPlan[float32, complex64](pool, Config{Shape: []int{16}, Batch: 3})
	require.NoError(t, err)
	defer rp.Close()
	require.ErrorIs(t, rp.Forward(make([]complex64, rp.ComplexLen()), make([]float32, rp.RealLen()+1)), ErrLength)
	require.ErrorIs(t, rp.Inverse(make([]float32, rp.RealLen()), make([]complex64, 1)), ErrLength)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Close frees every shard's plan and worker exactly once; later calls return ErrClosed.
// Pool.Close closes the objects still open, then the devices.
func TestPoolCloseReleasesEverything(t *testing.T) {
	pool := testPool(t, 2)
	devs := pool.Devices()
	cfg := Config{Shape: []int{32}, Batch: 4}
	p, err := NewPoolPlan[complex64](pool, cfg)
	require.NoError(t, err)
	require.Equal(t, 1, fanWorkers(), "one worker for the second shard")
	for _, d := range devs {
		require.Positive(t, d.MemStats().LiveAllocations, "each device holds its shard's buffers")
	}
	x := make([]complex64, p.Len())
	require.NoError(t, p.Forward(x, x))
	require.NoError(t, p.Close())
	require.NoError(t, p.Close()) // idempotent
	for _, d := range devs {
		require.Zero(t, d.MemStats().LiveAllocations, "the shard's plan freed")
	}
	require.ErrorIs(t, p.Forward(x, x), ErrClosed)
	require.ErrorContains(t, p.Inverse(x, x), "closed pool plan")
	require.Eventually(t, func() bool { return fanWorkers() == 0 }, poolWait, time.Millisecond,
		"the shards' workers end with the plan")

	// objects still open when the pool closes: closed with it, each once
	p2, err := NewPoolPlan[complex64](pool, cfg)
	require.NoError(t, err)
	sp, err := NewPoolSpectrometer(pool, SpectrometerConfig{N: 16, Batch: 2, Input: ComplexInt8})
	require.NoError(t, err)
	require.NoError(t, pool.Close())
	require.NoError(t, pool.Close())
	require.Nil(t, pool.Devices())
	require.ErrorIs(t, p2.Forward(x, x), ErrClosed)
	require.ErrorIs(t, sp.Reset(), ErrClosed)
	require.NoError(t, p2.Close())
	require.NoError(t, sp.Close())
	for _, d := range devs {
		require.ErrorIs(t, d.Sync(), ErrClosed, "the pool's devices closed with it")
	}
	_, err = NewPoolPlan[complex64](pool, cfg)
	require.ErrorIs(t, err, ErrClosed)
	_, err = NewPoolSpectrometer(pool, SpectrometerConfig{N: 16, Batch: 2, Input: ComplexInt8})
	require.ErrorIs(t, err, ErrClosed)
	require.Eventually(t, func() bool { return fanWorkers() == 0 }, poolWait, time.Millisecond)
}

// fanWorkers counts the goroutines of pool objects' shard workers alive in the process.
func fanWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "created by github.com/vkfftgo/vkfftgo/vkfft.newShardFan[")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// A shard that fails makes the call return its error, naming its device, once every
// shard is done — never a hang; the other shards' parts are complete. Here the second
// device is closed under the plan.
func TestPoolFailingShardReturnsItsError(t *testing.T) {
	pool := testPool(t, 2)
	cfg := Config{Shape: []int{64}, Batch: 4}
	one := sharedPlan[complex64](t, cfg)
	p, err := NewPoolPlan[complex64](pool, cfg)
	require.NoError(t, err)
	defer p.Close()
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(3, 4)), p.Len())
	want := make([]complex64, p.Len())
	require.NoError(t, one.Forward(want, x))

	second := pool.Devices()[1]
	require.NoError(t, second.Close())
	got := make([]complex64, p.Len())
	err = boundedCall(t, "Forward with a closed device", func() error { return p.Forward(got, x) })
	require.ErrorIs(t, err, ErrClosed)
	var se *ShardError
	require.True(t, errors.As(err, &se), "%v", err)
	require.Equal(t, 1, se.Shard)
	require.Equal(t, second.Info().Index, se.Device)
	require.Equal(t, "forward", se.Op)
	require.ErrorContains(t, err, "vkfft: pool forward: device ")
	half := p.Len() / 2
	requireSameBits(t, want[:half], got[:half], "the first device's share")
	// and again: the workers live on
	err = boundedCall(t, "Inverse with a closed device", func() error { return p.Inverse(got, x) })
	require.ErrorIs(t, err, ErrClosed)
}

// A shard that cannot be built fails the whole plan, naming its device; the shards
// built meanwhile are freed.
func TestPoolFailingShardBuild(t *testing.T) {
	pool := testPool(t, 2)
	first, second := pool.Devices()[0], pool.Devices()[1]
	require.NoError(t, second.Close())
	before := first.MemStats().LiveAllocations
	for _, build := range []func() error{
		func() error { _, err := NewPoolPlan[complex64](pool, Config{Shape: []int{64}, Batch: 4}); return err },
		func() error {
			_, err := NewPoolRealPlan[float32, complex64](pool, Config{Shape: []int{64}, Batch: 4})
			return err
		},
		func() error {
			_, err := NewPoolSpectrometer(pool, SpectrometerConfig{N: 64, Batch: 4, Input: ComplexInt8})
			return err
		},
	} {
		err := boundedCall(t, "a pool object with a closed device", build)
		require.ErrorIs(t, err, ErrClosed)
		var se *ShardError
		require.True(t, errors.As(err, &se), "%v", err)
		require.Equal(t, 1, se.Shard)
		require.Equal(t, before, first.MemStats().LiveAllocations, "the first device's shard freed")
	}
	require.Zero(t, fanWorkers())
}

// Concurrent calls on one pool plan are serialised; calls on several pool plans of one
// pool run at once. Checked under -race (make test-go).
func TestPoolConcurrentCalls(t *testing.T) {
	pool := testPool(t, 2)
	cfg := Config{Shape: []int{32}, Batch: 4}
	one := sharedPlan[complex64](t, cfg)
	plans := make([]*PoolPlan[complex64], 2)
	for i := range plans {
		p, err := NewPoolPlan[complex64](pool, cfg)
		require.NoError(t, err)
		defer p.Close()
		plans[i] = p
	}
	x, _ := randomComplex[complex64](rand.New(rand.NewPCG(5, 6)), one.Len())
	want := make([]complex64, one.Len())
	require.NoError(t, one.Forward(want, x))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := make([]complex64, len(x))
			for r := 0; r < 5; r++ {
				if err := plans[g%2].Forward(got, x); err != nil {
					errs <- err
					return
				}
				for i := range got {
					if got[i] != want[i] {
						errs <- errors.New("a concurrent call's result differs")
						return
					}
				}
			}
		}()
	}
	require.NoError(t, boundedCall(t, "concurrent calls", func() error { wg.Wait(); return nil }))
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// A pool plan's call starts no goroutine and allocates nothing on the Go heap.
func TestPoolZeroAllocationsPerCall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	pool := testPool(t, 2)
	cfg := Config{Shape: []int{32}, Batch: 4}
	p, err := NewPoolPlan[complex64](pool, cfg)
	require.NoError(t, err)
	defer p.Close()
	rp, err := NewPoolRealPlan[float32, complex64](pool, cfg)
	require.NoError(t, err)
	defer rp.Close()
	x, y := make([]complex64, p.Len()), make([]complex64, p.Len())
	r, c := make([]float32, rp.RealLen()), make([]complex64, rp.ComplexLen())
	calls := []struct {
		name string
		f    func() error
	}{
		{"Forward", func() error { return p.Forward(y, x) }},
		{"Inverse", func() error { return p.Inverse(y, x) }},
		{"PoolRealPlan.Forward", func() error { return rp.Forward(c, r) }},
		{"PoolRealPlan.Inverse", func() error { return rp.Inverse(r, c) }},
	}
	for _, call := range calls {
		t.Run(call.name, func(t *testing.T) {
			require.NoError(t, call.f())
			var err error
			allocs := testing.AllocsPerRun(20, func() {
				if e := call.f(); e != nil {
					err = e
				}
			})
			require.NoError(t, err)
			require.Zero(t, allocs)
		})
	}
}

// feedRaw feeds raw bytes to the Accumulate method of format f's Go type.
func feedRaw(s interface {
	Accumulate([]int8) error
	AccumulateInt16([]int16) error
	AccumulateUint8([]uint8) error
	AccumulateFloat16([]Float16) error
}, f SampleFormat, raw []byte) error {
	switch f.goType() {
	case "int8":
		return s.Accumulate(unsafe.Slice((*int8)(unsafe.Pointer(&raw[0])), len(raw)))
	case "uint8":
		return s.AccumulateUint8(raw)
	case "Float16":
		return s.AccumulateFloat16(unsafe.Slice((*Float16)(unsafe.Pointer(&raw[0])), len(raw)/2))
	}
	return s.AccumulateInt16(unsafe.Slice((*int16)(unsafe.Pointer(&raw[0])), len(raw)/2))
}

// A pool spectrometer integrates what one device's does: each device its share of the
// FFTs, Read adding the devices' bins in float64. Within 1e-6 of one device (the order
// of float32 additions differs), in whole chunks where Chunk is set; Reset zeroes all.
func TestPoolSpectrometerMatchesOneDevice(t *testing.T) {
	pool := testPool(t, 2)
	cases := []struct {
		name    string
		cfg     SpectrometerConfig
		batches []int
	}{
		{"complex int8", SpectrometerConfig{N: 64, Batch: 5, Input: ComplexInt8}, []int{3, 2}},
		{"real int16 in chunks", SpectrometerConfig{N: 32, Batch: 6, Chunk: 2, Input: RealInt16}, []int{4, 2}},
		{"fftshift, window", SpectrometerConfig{N: 16, Batch: 4, Input: ComplexInt16, FFTShift: true,
			Window: hann(16)}, []int{2, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			one, err := NewSpectrometer(testDev, c.cfg)
			require.NoError(t, err)
			defer one.Close()
			ps, err := NewPoolSpectrometer(pool, c.cfg)
			require.NoError(t, err)
			defer ps.Close()
			require.Equal(t, c.batches, ps.Batches())
			require.Equal(t, one.Bins(), ps.Bins())
			require.Equal(t, one.Samples(), ps.Samples())
			rng := rand.New(rand.NewPCG(9, uint64(c.cfg.N)))
			numbers := c.cfg.N * c.cfg.Batch
			if c.cfg.Input.Complex() {
				numbers *= 2
			}
			for round := 0; round < 2; round++ {
				raw, _ := randomSamples(rng, c.cfg.Input, numbers)
				require.NoError(t, feedRaw(one, c.cfg.Input, raw))
				require.NoError(t, boundedCall(t, "Accumulate", func() error { return feedRaw(ps, c.cfg.Input, raw) }))
			}
			want, got := make([]float32, one.Bins()), make([]float32, ps.Bins())
			require.NoError(t, one.Read(want))
			require.NoError(t, boundedCall(t, "Read", func() error { return ps.Read(got) }))
			var num, den float64
			for k := range want {
				d := float64(got[k]) - float64(want[k])
				num += d * d
				den += float64(want[k]) * float64(want[k])
			}
			require.Positive(t, den)
			require.LessOrEqual(t, math.Sqrt(num/den), 1e-6)

			require.NoError(t, ps.Reset())
			require.NoError(t, ps.Read(got))
			for k, v := range got {
				require.Zero(t, v, "bin %d after Reset", k)
			}
		})
	}
	ps, err := NewPoolSpectrometer(pool, SpectrometerConfig{N: 16, Batch: 2, Input: ComplexInt8})
	require.NoError(t, err)
	defer ps.Close()
	require.ErrorIs(t, ps.AccumulateInt16(make([]int16, 64)), ErrInvalidArgument)
	require.ErrorIs(t, ps.Accumulate(make([]int8, 63)), ErrLength)
	require.ErrorIs(t, ps.Accumulate(nil), ErrNilBuffer)
	require.ErrorIs(t, ps.Read(make([]float32, 15)), ErrLength)
}

func hann(n int) []float32 {
	w := make([]float32, n)
	for i := range w {
		w[i] = float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n)))
	}
	return w
}

// timeRoundTrip times a host round trip: fwd of x into y, then inv of y back into x.
func timeRoundTrip(b *testing.B, x, y []complex64, fwd, inv func(dst, src []complex64) error) time.Duration {
	t0 := time.Now()
	if err := fwd(y, x); err != nil {
		b.Fatal(err)
	}
	if err := inv(x, y); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}

// BenchmarkPoolSpeedup: a batch split across a pool of every device against the same
// Config on one device (testDev, device 0): host round trips (Forward then Inverse on
// Go slices), timed alternately in one run. "speedup" is one device's time over the
// pool's; on a machine with one device the pool has that one and it reports about 1.
// The GPU step tests/gpu/steps/pool.sh runs it (goal: 1.8 or more on two H200s).
func BenchmarkPoolSpeedup(b *testing.B) {
	pool, err := OpenPool()
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	shapes := []struct {
		name string
		cfg  Config
	}{
		{"1d-4096x16384", Config{Shape: []int{4096}, Batch: 16384}},
		{"256cube-x8", Config{Shape: []int{256, 256, 256}, Batch: 8}},
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			one, err := NewPlan[complex64](testDev, s.cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer one.Close()
			pp, err := NewPoolPlan[complex64](pool, s.cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer pp.Close()
			x, y := make([]complex64, pp.Len()), make([]complex64, pp.Len())
			roundTrip := func(fwd, inv func(dst, src []complex64) error) time.Duration {
				return timeRoundTrip(b, x, y, fwd, inv)
			}
			roundTrip(one.Forward, one.Inverse) // warm: staging slots, first launches
			roundTrip(pp.Forward, pp.Inverse)
			var single, pooled time.Duration
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				single += roundTrip(one.Forward, one.Inverse)
				pooled += roundTrip(pp.Forward, pp.Inverse)
			}
			devices := pool.Len()
			unit := "devices"
			if devices == 1 {
				unit = "device"
			}
			speedup := float64(single) / float64(pooled)
			b.ReportMetric(speedup, "speedup")
			b.ReportMetric(float64(devices), "devices")
			b.ReportMetric(float64(single.Microseconds())/1e3/float64(b.N), "one-ms/op")
			b.ReportMetric(float64(pooled.Microseconds())/1e3/float64(b.N), "pool-ms/op")
			b.Logf("%s: pool of %d %s (batches %v): %.2f ms, one device %.2f ms: speed-up %.2f×",
				s.name, devices, unit, pp.Batches(), float64(pooled.Microseconds())/1e3/float64(b.N),
				float64(single.Microseconds())/1e3/float64(b.N), speedup)
		})
	}
}
