package vkfft

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSlabChunks(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		name    string
		want, t int
		bytes   int64
		chunks  int
	}{
		{"asked, divides", 4, 12, 64, 4},
		{"asked, the most below that divides", 4, 10, 64, 2},
		{"asked, none divides", 4, 7, 64, 1},
		{"asked, more than transforms", 8, 3, 64, 3},
		{"whole", 1, 64, mib, 1},
		{"automatic, small chunks refused", 0, 64, 64, 1},
		{"automatic, 8 chunks of 4 MiB", 0, 64, mib / 2, 8},
		{"automatic, fewer where chunks would be small", 0, 16, mib, 4},
		{"automatic, the most that divides", 0, 18, 4 * mib, 6},
	}
	for _, c := range cases {
		require.Equal(t, c.chunks, slabChunks(c.want, c.t, c.bytes), c.name)
	}
}

// slabPipes counts a slab plan's pipelined stages.
func slabPipes[C Complex](c *slabCore[C]) int {
	n := 0
	for i := range c.devs {
		for _, p := range []*slabPipe{c.firstPipe[i], c.trailPipe[i]} {
			if p != nil {
				n++
			}
		}
	}
	return n
}

// Pipelined stages give what one device's plan gives, on host slices (where they run in
// chunks) and on per-device buffers, C2C and R2C, in both layouts; the chunks are the most
// up to Chunks that divide each stage, and a stage that none divides runs whole.
func TestSlabPipelinedMatchesOneDevice(t *testing.T) {
	pool := testPool(t, 2)
	c2c := []struct {
		c     slabCase
		pipes int
	}{
		// columns 6 per device in 3 chunks, rows 8 in 2
		{slabCase{"16x12 chunks 3", SlabConfig{Shape: []int{16, 12}, Chunks: 3}, [][2]int{{0, 8}, {8, 8}}}, 4},
		// odd slabs: rows 5 and 4, columns 4 and 3, each its own chunk count
		{slabCase{"9x7 chunks 5", SlabConfig{Shape: []int{9, 7}, Chunks: 5}, [][2]int{{0, 5}, {5, 4}}}, 4},
		{slabCase{"12x10x8 batch 2 transposed chunks 4", SlabConfig{Shape: []int{12, 10, 8}, Batch: 2, Chunks: 4,
			TransposedOut: true, TransposedIn: true, Norm: NormOrtho}, [][2]int{{0, 6}, {6, 6}}}, 4},
	}
	for i, c := range c2c {
		runPrecisions(t, i,
			c.c.name+"/c64", func(t *testing.T) { checkSlabC2C[complex64](t, pool, c.c) },
			c.c.name+"/c128", func(t *testing.T) { checkSlabC2C[complex128](t, pool, c.c) })
		sp, err := NewSlabPlan[complex64](pool, c.c.cfg)
		require.NoError(t, err)
		require.Equal(t, c.pipes, slabPipes(&sp.c), c.c.name)
		require.NoError(t, sp.Close())
	}
	r2c := []struct {
		c     slabCase
		pipes int
	}{
		// rows 6 per device in 3 chunks; the spectrum's 5 columns per device whole
		{slabCase{"12x10x8 real chunks 3 transposed in", SlabConfig{Shape: []int{12, 10, 8}, Chunks: 3, TransposedIn: true},
			[][2]int{{0, 6}, {6, 6}}}, 2},
		// rows 5 whole and 4 in 2; the spectrum's 8 columns 4 per device in 2
		{slabCase{"9x14 real chunks 2 transposed out", SlabConfig{Shape: []int{9, 14}, Chunks: 2, TransposedOut: true},
			[][2]int{{0, 5}, {5, 4}}}, 3},
	}
	for i, c := range r2c {
		runPrecisions(t, i,
			c.c.name+"/f32", func(t *testing.T) { checkSlabR2C[float32, complex64](t, pool, c.c) },
			c.c.name+"/f64", func(t *testing.T) { checkSlabR2C[float64, complex128](t, pool, c.c) })
		sp, err := NewSlabRealPlan[float32, complex64](pool, c.c.cfg)
		require.NoError(t, err)
		require.Equal(t, c.pipes, slabPipes(&sp.c), c.c.name)
		require.NoError(t, sp.Close())
	}
	// the automatic setting leaves stages of small chunks whole
	sp, err := NewSlabPlan[complex64](pool, SlabConfig{Shape: []int{16, 12}})
	require.NoError(t, err)
	require.Zero(t, slabPipes(&sp.c))
	require.NoError(t, sp.Close())
}

// spread covers every transform of its range exactly once, in at most a run per CPU of
// the device's share, and leaves a range below the least spread to one run.
func TestSlabSpread(t *testing.T) {
	c := &slabCore[complex64]{devs: make([]*Device, 1)}
	cases := []struct {
		name      string
		t0, t1    int
		unit      int64
		singleRun bool
	}{
		{"large", 3, 50, 1 << 20, false},
		{"one transform", 7, 8, 1 << 30, true},
		{"below the least", 0, 100, 1 << 10, true},
	}
	for _, tc := range cases {
		var mu sync.Mutex
		seen := map[int]int{}
		runs := 0
		c.spread(tc.t0, tc.t1, tc.unit, func(a, b int) {
			mu.Lock()
			defer mu.Unlock()
			runs++
			for q := a; q < b; q++ {
				seen[q]++
			}
		})
		require.Len(t, seen, tc.t1-tc.t0, tc.name)
		for q := tc.t0; q < tc.t1; q++ {
			require.Equal(t, 1, seen[q], "%s: transform %d", tc.name, q)
		}
		require.LessOrEqual(t, runs, max(1, runtime.GOMAXPROCS(0)), tc.name)
		if tc.singleRun || runtime.GOMAXPROCS(0) == 1 {
			require.Equal(t, 1, runs, tc.name)
		} else {
			require.Greater(t, runs, 1, tc.name)
		}
	}
}

// Host copies spread over the CPUs give what one goroutine's give: on a pool of one
// device, which has every CPU, with the least spread lowered so that small slabs spread,
// whole and pipelined.
func TestSlabSpreadCopiesMatchOneDevice(t *testing.T) {
	old := slabMinSpreadBytes
	slabMinSpreadBytes = 1
	t.Cleanup(func() { slabMinSpreadBytes = old })
	pool := testPool(t, 1)
	checkSlabC2C[complex64](t, pool, slabCase{"16x12 whole", SlabConfig{Shape: []int{16, 12}, Chunks: 1}, [][2]int{{0, 16}}})
	checkSlabC2C[complex64](t, pool, slabCase{"12x10x8 batch 2 transposed chunks 3", SlabConfig{Shape: []int{12, 10, 8},
		Batch: 2, Chunks: 3, TransposedOut: true, TransposedIn: true}, [][2]int{{0, 12}}})
	checkSlabR2C[float32, complex64](t, pool, slabCase{"9x14 real chunks 2", SlabConfig{Shape: []int{9, 14}, Chunks: 2},
		[][2]int{{0, 9}}})
}

// BenchmarkSlabOverlap times a slab plan's host round trip (Forward then Inverse on Go
// slices, complex64) on a pool of every device: its stages whole and on one goroutine a
// device with untiled transposes (the plan before pipelining: Chunks 1), whole with the
// copies spread over the CPUs (Chunks 1), pipelined (Chunks 0), and pipelined untiled —
// beside one device's plan of the same shape, whose host round trip is the bus's alone.
// Read the "slab" lines: each time and the pipelined plan's speed-up over the first.
func BenchmarkSlabOverlap(b *testing.B) {
	pool, err := OpenPool()
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	shapes := []struct {
		name string
		cfg  SlabConfig
	}{
		{"512cube", SlabConfig{Shape: []int{512, 512, 512}}},
		{"256cube-x8", SlabConfig{Shape: []int{256, 256, 256}, Batch: 8}},
		{"8192sq", SlabConfig{Shape: []int{8192, 8192}}},
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			one, err := NewPlan[complex64](testDev, Config{Shape: s.cfg.Shape, Batch: s.cfg.Batch})
			if err != nil {
				b.Fatal(err)
			}
			defer one.Close()
			variants := []struct {
				name   string
				chunks int
				spread bool
				tiled  bool
			}{{"whole, one goroutine, untiled", 1, false, false}, {"whole, spread", 1, true, true},
				{"pipelined", 0, true, true}, {"pipelined, untiled", 0, true, false}}
			plans := make([]*SlabPlan[complex64], len(variants))
			for k, v := range variants {
				cfg := s.cfg
				cfg.Chunks = v.chunks
				if plans[k], err = NewSlabPlan[complex64](pool, cfg); err != nil {
					b.Fatal(err)
				}
				defer plans[k].Close()
			}
			x, y := make([]complex64, one.Len()), make([]complex64, one.Len())
			for i := range x {
				x[i] = complex(float32(i%7), float32(i%5))
			}
			roundTrip := func(fwd, inv func(dst, src []complex64) error) time.Duration {
				return timeRoundTrip(b, x, y, fwd, inv)
			}
			withCopies := func(spread, tiled bool, f func() time.Duration) time.Duration {
				oldSpread, oldTile := slabMinSpreadBytes, slabTileRuns
				if !spread {
					slabMinSpreadBytes = 1 << 62
				}
				if !tiled {
					slabTileRuns = 1 << 30
				}
				defer func() { slabMinSpreadBytes, slabTileRuns = oldSpread, oldTile }()
				return f()
			}
			times := make([]time.Duration, len(variants)+1)
			run := func(warm bool) {
				d := roundTrip(one.Forward, one.Inverse)
				if !warm {
					times[0] += d
				}
				for k, v := range variants {
					d := withCopies(v.spread, v.tiled, func() time.Duration { return roundTrip(plans[k].Forward, plans[k].Inverse) })
					if !warm {
						times[k+1] += d
					}
				}
			}
			run(true) // staging slots, first launches
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				run(false)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 / float64(b.N) }
			pipes := slabPipes(&plans[2].c)
			b.ReportMetric(ms(times[1])/ms(times[3]), "speedup")
			b.Logf("slab %s on %d device(s), GOMAXPROCS %d: one goroutine untiled %.1f ms, spread %.1f ms, pipelined (%d stages in chunks) %.1f ms: %.2f× (spread alone %.2f×); pipelined untiled %.1f ms; one device's plan %.1f ms",
				s.name, pool.Len(), runtime.GOMAXPROCS(0), ms(times[1]), ms(times[2]), pipes, ms(times[3]),
				ms(times[1])/ms(times[3]), ms(times[1])/ms(times[2]), ms(times[4]), ms(times[0]))
		})
	}
}
