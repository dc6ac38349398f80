package vkfft

import (
	"testing"
	"time"
)

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
				t0 := time.Now()
				if err := fwd(y, x); err != nil {
					b.Fatal(err)
				}
				if err := inv(x, y); err != nil {
					b.Fatal(err)
				}
				return time.Since(t0)
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
