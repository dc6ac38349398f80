package vkfft

// Fuzz targets for the inputs the package takes from outside: a Config (its shape and
// sizes), and the kernel-cache files it reads back from disk. Their seed corpora are in
// testdata/fuzz/; make test runs each for 30 s. Nothing may panic, hang, or allocate in
// proportion to what a length field announces rather than to the input's real size.

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func FuzzConfig(f *testing.F) {
	f.Add(uint8(1), int64(64), int64(0), int64(0), int64(1), int64(0), int64(0), int64(0), int64(0), int64(0), false, false)
	f.Add(uint8(3), int64(256), int64(256), int64(256), int64(4), int64(1), int64(1), int64(32), int64(128), int64(2), true, true)
	f.Add(uint8(2), int64(4391), int64(8), int64(0), int64(0), int64(2), int64(2), int64(0), int64(0), int64(0), true, false)
	f.Add(uint8(0), int64(1), int64(1), int64(1), int64(1), int64(0), int64(0), int64(0), int64(0), int64(0), false, false)
	f.Add(uint8(4), int64(2), int64(2), int64(2), int64(2), int64(0), int64(0), int64(0), int64(0), int64(0), false, false)
	f.Add(uint8(3), int64(math.MaxInt64), int64(2), int64(3), int64(1), int64(0), int64(0), int64(0), int64(0), int64(0), false, true)
	f.Add(uint8(1), int64(1<<40), int64(0), int64(0), int64(1<<30), int64(0), int64(0), int64(0), int64(0), int64(0), true, true)
	f.Add(uint8(2), int64(-5), int64(0), int64(0), int64(-1), int64(7), int64(-3), int64(-1), int64(0), int64(0), false, false)
	f.Fuzz(func(t *testing.T, rank uint8, d0, d1, d2, batch, norm, lut, coalesced, aim, boost int64, r2c, double bool) {
		dims := []int64{d0, d1, d2, 7}
		cfg := Config{Batch: int(batch), Norm: Norm(norm), LUT: LUT(lut),
			Tuning: Tuning{CoalescedMemory: int(coalesced), AimThreads: int(aim), RegisterBoost: int(boost)}}
		for i := 0; i < int(rank%5); i++ {
			cfg.Shape = append(cfg.Shape, int(dims[i]))
		}
		k, elem := kindC2C, uintptr(8)
		if r2c {
			k = kindR2C
		}
		if double {
			elem = 16
		}
		shape := append([]int(nil), cfg.Shape...)
		l, err := validate(cfg, k, elem)
		require.Equal(t, shape, cfg.Shape, "validate changed the caller's shape")
		_, keyOK := planCacheKey(nil, planEntry, &cfg, k, 0, elem == 16)
		if err != nil {
			require.True(t, errors.Is(err, ErrInvalidShape) || errors.Is(err, ErrInvalidBatch) ||
				errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrTooLarge), "unexpected error %v", err)
			if errors.Is(err, ErrTooLarge) {
				require.True(t, overflowsSizes(cfg, k, elem), "ErrTooLarge for sizes that fit: %v", err)
			}
			return
		}
		require.True(t, keyOK, "a valid Config has no cache key")
		require.False(t, overflowsSizes(cfg, k, elem), "sizes overflow but validate accepted %v", cfg)
		// the layout's sizes are the exact products
		n := big.NewInt(1)
		for _, d := range cfg.Shape {
			require.Positive(t, d)
			n.Mul(n, big.NewInt(int64(d)))
		}
		b := max(cfg.Batch, 1)
		require.Equal(t, b, l.cfg.Batch)
		require.Equal(t, n.Int64(), int64(l.n))
		last := int64(cfg.Shape[len(cfg.Shape)-1])
		if k == kindR2C {
			require.Equal(t, n.Int64()*int64(b), int64(l.realLen))
			require.Equal(t, n.Int64()/last*(last/2+1)*int64(b), int64(l.complexLen))
			require.Equal(t, int64(l.realLen)*int64(elem/2), l.realBytes)
		} else {
			require.Equal(t, n.Int64()*int64(b), int64(l.complexLen))
			require.Zero(t, l.realBytes)
		}
		require.Equal(t, int64(l.complexLen)*int64(elem), l.complexBytes)
		require.False(t, math.IsNaN(l.fwdScale) || math.IsNaN(l.invScale))
		require.Positive(t, l.fwdScale)
		require.Positive(t, l.invScale)
		id := kcacheIdent{name: "fuzz"}
		require.NotEmpty(t, kernelKey(&id, &planParams{l: l}))
	})
}

// overflowsSizes reports whether any element or byte count of cfg passes int64.
func overflowsSizes(cfg Config, k kind, elem uintptr) bool {
	limit := big.NewInt(math.MaxInt64)
	n := big.NewInt(1)
	for _, d := range cfg.Shape {
		n.Mul(n, big.NewInt(int64(d)))
	}
	b := big.NewInt(int64(max(cfg.Batch, 1)))
	last := big.NewInt(int64(cfg.Shape[len(cfg.Shape)-1]))
	var counts []*big.Int
	if k == kindR2C {
		real := new(big.Int).Mul(n, b)
		half := new(big.Int).Add(new(big.Int).Quo(last, big.NewInt(2)), big.NewInt(1))
		cplx := new(big.Int).Mul(new(big.Int).Mul(new(big.Int).Quo(n, last), b), half)
		counts = append(counts, n, real, cplx,
			new(big.Int).Mul(real, big.NewInt(int64(elem/2))), new(big.Int).Mul(cplx, big.NewInt(int64(elem))))
	} else {
		c := new(big.Int).Mul(n, b)
		counts = append(counts, n, c, new(big.Int).Mul(c, big.NewInt(int64(elem))))
	}
	for _, c := range counts {
		if c.Cmp(limit) > 0 {
			return true
		}
	}
	return false
}

func FuzzKernelCacheEntry(f *testing.F) {
	key := []byte("format=1\nvkfft=10304\ndevice=\"fuzz\"\n")
	payload := []byte("kernels")
	entry := append(encodeEntryHeader(key, payload), payload...)
	f.Add(entry, key)
	f.Add(entry[:len(entry)-1], key)
	f.Add(entry[:kcacheHdrSize], key)
	f.Add([]byte(kcacheMagic+"\x01\x00\x00\x00\xff\xff\xff\xff"), key)
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, data, key []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := decodeEntry(data, key)
		runtime.ReadMemStats(&after)
		// what the decoder allocates is its messages', never a length field's
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "decodeEntry allocated in proportion to a length field")
		if err == nil {
			require.NotEmpty(t, got)
			require.Equal(t, data, append(encodeEntryHeader(key, got), got...), "a decoded entry is not canonical")
		} else {
			require.ErrorIs(t, err, errBadEntry)
			require.Nil(t, got)
		}
		// and whatever the key and payload, an entry made of them decodes to them
		if len(data) > 0 && len(key) <= kcacheMaxKey {
			made := append(encodeEntryHeader(key, data), data...)
			back, err := decodeEntry(made, key)
			require.NoError(t, err)
			require.True(t, bytes.Equal(data, back))
		}
	})
}
