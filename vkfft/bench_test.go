package vkfft

import (
	"fmt"
	"testing"
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
