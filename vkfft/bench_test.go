package vkfft

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// benchShapes are sized for a CPU device under PoCL; on a GPU run with larger shapes
// through cmd/vkfft bench.
var benchShapes = []Config{
	{Shape: []int{4096}, Batch: 16},
	{Shape: []int{256, 256}},
	{Shape: []int{64, 64, 64}},
}

// BenchmarkForwardInverse: one host round trip (upload, forward, download, upload,
// inverse, download) per op, reporting allocs/op.
func BenchmarkForwardInverse(b *testing.B) {
	for _, cfg := range benchShapes {
		b.Run(fmt.Sprintf("%v/b%d", cfg.Shape, max(cfg.Batch, 1)), func(b *testing.B) {
			p := sharedPlan[complex64](b, cfg)
			x := make([]complex64, p.Len())
			y := make([]complex64, p.Len())
			for i := range x {
				x[i] = complex(float32(i%7), float32(i%3))
			}
			b.SetBytes(int64(2 * 8 * p.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := p.Forward(y, x); err != nil {
					b.Fatal(err)
				}
				if err := p.Inverse(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkForwardInverseDevice: the same on device-resident buffers, in place.
func BenchmarkForwardInverseDevice(b *testing.B) {
	for _, cfg := range benchShapes {
		b.Run(fmt.Sprintf("%v/b%d", cfg.Shape, max(cfg.Batch, 1)), func(b *testing.B) {
			p := sharedPlan[complex64](b, cfg)
			buf, err := NewBuffer[complex64](testDev, p.Len())
			if err != nil {
				b.Fatal(err)
			}
			defer buf.Close()
			if err := buf.Upload(make([]complex64, p.Len())); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := p.ForwardBuffer(buf, buf); err != nil {
					b.Fatal(err)
				}
				if err := p.InverseBuffer(buf, buf); err != nil {
					b.Fatal(err)
				}
			}
			if err := testDev.Sync(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkParallelStagedTransfers runs large staged host round trips on four
// independent plans, one after another and then from four goroutines at once, and
// reports the ratio of the two times (parallel/serial; 1 would mean the transfers
// serialise, as they did behind one device-wide staging lock). Shapes are small enough
// for PoCL; on a GPU (the GPU bundle) the ratio shows the overlap of copies and DMA.
func BenchmarkParallelStagedTransfers(b *testing.B) {
	const plans = 4
	withStaging(b, 0)
	cfg := Config{Shape: []int{1024}, Batch: 512} // 4 MiB each way
	ps := make([]*Plan[complex64], plans)
	xs := make([][]complex64, plans)
	ys := make([][]complex64, plans)
	for i := range ps {
		p, err := NewPlan[complex64](testDev, cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		ps[i], xs[i], ys[i] = p, make([]complex64, p.Len()), make([]complex64, p.Len())
		if err := p.Forward(ys[i], xs[i]); err != nil { // warm: stagers made
			b.Fatal(err)
		}
	}
	run := func(i int) {
		if err := ps[i].Forward(ys[i], xs[i]); err != nil {
			b.Error(err)
		}
	}
	var serial, parallel time.Duration
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		t0 := time.Now()
		for i := range ps {
			run(i)
		}
		t1 := time.Now()
		var wg sync.WaitGroup
		for i := range ps {
			wg.Add(1)
			go func() { defer wg.Done(); run(i) }()
		}
		wg.Wait()
		serial += t1.Sub(t0)
		parallel += time.Since(t1)
	}
	b.ReportMetric(float64(parallel)/float64(serial), "parallel/serial")
	b.ReportMetric(float64(serial.Microseconds())/float64(b.N), "serial-µs/op")
}
