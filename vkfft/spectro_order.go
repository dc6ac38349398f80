package vkfft

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// BinOrder says who puts a multi-pass FFT's bins in frequency order.
type BinOrder int

const (
	// BinOrderAuto lets VkFFT leave multi-pass spectra in its own order (no temporary
	// buffer, no reordering pass) when the order it finds at construction is one the
	// spectrometer recognises, and falls back to BinOrderVkFFT otherwise.
	BinOrderAuto BinOrder = iota
	// BinOrderVkFFT has VkFFT reorder every spectrum (it allocates a temporary buffer of
	// one chunk for that).
	BinOrderVkFFT
	// BinOrderOnRead accumulates the bins in VkFFT's order and reorders them in Read;
	// construction fails if the order is not recognised.
	BinOrderOnRead
)

// digitOrder is VkFFT's order of a multi-pass spectrum as a mixed-radix digit
// permutation: bin k = d0 + r0*(d1 + r1*d2) is stored at position
// d[σ0] + r[σ0]*(d[σ1] + r[σ1]*d[σ2]) (the 4-step algorithm's transposition for two
// digits).
type digitOrder struct {
	radix []int
	sigma []int
}

func (o *digitOrder) position(k int) int {
	var d [3]int
	for i, r := range o.radix {
		d[i] = k % r
		k /= r
	}
	p := 0
	for i := len(o.sigma) - 1; i >= 0; i-- {
		j := o.sigma[i]
		p = p*o.radix[j] + d[j]
	}
	return p
}

// candidateOrders lists the identity and every digit permutation of 2 and 3 factors of n.
func candidateOrders(n int) []digitOrder {
	out := []digitOrder{{radix: []int{n}, sigma: []int{0}}}
	for a := 2; a <= n/2; a++ {
		if n%a != 0 {
			continue
		}
		out = append(out, digitOrder{[]int{a, n / a}, []int{1, 0}})
		m := n / a
		for b := 2; b <= m/2; b++ {
			if m%b != 0 {
				continue
			}
			r := []int{a, b, m / b}
			for _, s := range [][]int{{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
				out = append(out, digitOrder{r, s})
			}
		}
	}
	return out
}

// toneSamples fills one FFT of n samples of format f with a tone at bin k (a complex
// exponential, or a cosine for real formats; amplitude 100, or 10000 where the format
// holds that exactly) and returns them as bytes.
func toneSamples(f SampleFormat, n, k int) []byte {
	fi := f.info()
	out := make([]byte, n*f.sampleBytes())
	amp := 100.0
	if fi.exact >= 10000 {
		amp = 10000
	}
	w := f.sampleBytes()
	for i := 0; i < n; i++ {
		ph := 2 * math.Pi * float64(k) * float64(i) / float64(n)
		fi.encode(out[i*w:], math.Round(amp*math.Cos(ph)))
		if fi.complex {
			fi.encode(out[i*w+fi.scalarBytes:], math.Round(amp*math.Sin(ph)))
		}
	}
	return out
}

// silentSamples is n samples of format f that are all zero (offset binary's zero is 128).
func silentSamples(f SampleFormat, n int) []byte {
	fi := f.info()
	out := make([]byte, n*f.sampleBytes())
	for i := 0; i < len(out); i += fi.scalarBytes {
		fi.encode(out[i:], 0)
	}
	return out
}

func putU16(b []byte, v uint16) { b[0], b[1] = byte(v), byte(v>>8) }

// halfBits is the IEEE half-precision encoding of v (exact for integers up to 2048,
// rounded toward zero beyond).
func halfBits(v float32) uint16 {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case v == 0:
		return sign
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		return sign
	}
	return sign | uint16(exp)<<10 | uint16(mant>>13)
}

// probeOrder finds where VkFFT's plan stores the bins: it runs single tones through the
// spectrometer (in the first and the last FFT of a chunk) and keeps the candidate order
// that puts every peak where it was seen. The caller holds the device and sp.mu; the
// bins are zeroed afterwards.
func (sp *Spectrometer) probeOrder(h engine.Device) ([]int32, error) {
	n, c := sp.cfg.N, sp.chunk
	bytes := int64(c * n * sp.cfg.Input.sampleBytes())
	probe, err := sp.dev.alloc(bytes)
	if err != nil {
		return nil, err
	}
	defer sp.dev.free(probe, bytes)
	// silence is the format's zero, not zero bytes (offset binary's 0 is 128)
	in, silence := make([]byte, bytes), silentSamples(sp.cfg.Input, n)
	one := n * sp.cfg.Input.sampleBytes()
	for i := 0; i < c; i++ {
		copy(in[i*one:], silence)
	}
	type seen struct{ bin, pos int }
	var obs []seen
	bins := []int{1, n - 1, n / 3, (n * 5) / 7, n/2 + 1, (n * 13) / 17}
	for i, k := range bins {
		item := 0
		if i == len(bins)-1 {
			item = c - 1 // the last FFT of the chunk must land in the same order
		}
		copy(in, silence)
		copy(in[item*one:], toneSamples(sp.cfg.Input, n, k))
		if err := engine.MemUpload(h, sp.st, probe, unsafe.Pointer(&in[0]), bytes); err != nil {
			return nil, err
		}
		if err := engine.SpectroZero(sp.s, sp.st); err != nil {
			return nil, err
		}
		if err := engine.SpectroDevice(sp.s, sp.st, probe, 0, c); err != nil {
			return nil, err
		}
		if err := engine.MemDownload(h, sp.st, unsafe.Pointer(&sp.scratch[0]), sp.psd, int64(sp.bins)*4); err != nil {
			return nil, err
		}
		best := 0
		for p, v := range sp.scratch[:sp.bins] {
			if v > sp.scratch[best] {
				best = p
			}
		}
		obs = append(obs, seen{k, best})
	}
	if err := engine.SpectroZero(sp.s, sp.st); err != nil {
		return nil, err
	}
	for _, o := range candidateOrders(n) {
		ok := true
		for _, s := range obs {
			if o.position(s.bin) != s.pos {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		perm := make([]int32, n) // perm[position] = bin
		for i := range perm {
			perm[i] = -1
		}
		for k := 0; k < n; k++ {
			p := o.position(k)
			if perm[p] != -1 {
				ok = false
				break
			}
			perm[p] = int32(k)
		}
		if ok {
			return perm, nil
		}
	}
	return nil, fmt.Errorf("%w: VkFFT's bin order for N = %d is not one the spectrometer recognises (peaks %v)",
		ErrUnsupported, n, obs)
}
