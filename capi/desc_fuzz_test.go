package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzParseDesc from seedDescs")

// descBytes encodes a vkfftgo_plan_desc as a C caller lays it out (x86-64 / arm64):
// size, kind, precision, norm, lut, rank as int32, then shape[3], batch and the three
// tuning knobs as int64; padded to this library's size, or longer (a newer header).
func descBytes(size int, kind, precision, norm, lut, rank int32, shape [3]int64, batch int64) []byte {
	b := make([]byte, max(size, int(knownDescSize)))
	binary.NativeEndian.PutUint32(b[0:], uint32(size))
	for i, v := range []int32{kind, precision, norm, lut, rank} {
		binary.NativeEndian.PutUint32(b[4+4*i:], uint32(v))
	}
	for i, v := range shape {
		binary.NativeEndian.PutUint64(b[24+8*i:], uint64(v))
	}
	binary.NativeEndian.PutUint64(b[48:], uint64(batch))
	return b[:size]
}

// descExt are the 0.2 fields (desc_ext.go).
type descExt struct {
	shape3                        int64
	naxes                         int32
	axes                          [4]int32
	r2rKind, storage, realInPlace int32
	in, out                       [4]int64
	fullSpectrum                  int32 // after the tuning fields
}

// withExt writes e's fields into b (a descriptor of at least the 0.2 size).
func withExt(b []byte, e descExt) []byte {
	o := descExtOffsets
	put32 := func(off uintptr, v int32) { binary.NativeEndian.PutUint32(b[off:], uint32(v)) }
	put64 := func(off uintptr, v int64) { binary.NativeEndian.PutUint64(b[off:], uint64(v)) }
	put64(o[0], e.shape3)
	put32(o[1], e.naxes)
	for i, v := range e.axes {
		put32(o[2]+4*uintptr(i), v)
	}
	put32(o[3], e.r2rKind)
	put32(o[4], e.storage)
	put32(o[5], e.realInPlace)
	for i := range 4 {
		put64(o[6]+8*uintptr(i), e.in[i])
		put64(o[7]+8*uintptr(i), e.out[i])
	}
	put32(descFullOffset, e.fullSpectrum)
	return b
}

// seedDescs are the committed seed corpus (testdata/fuzz/FuzzParseDesc, rewritten by
// -update-corpus): edge cases of the size field, the first version's fields and the 0.2
// fields.
func seedDescs() map[string][]byte {
	k, v1 := int(knownDescSize), int(descV1Size)
	newerSet := descBytes(k+8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1)
	newerSet[k+4] = 1
	huge := descBytes(k, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1)
	binary.NativeEndian.PutUint32(huge, 1<<31)
	short := descBytes(k, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1)
	binary.NativeEndian.PutUint32(short, uint32(k+16))
	big := make([]byte, 4097)
	binary.NativeEndian.PutUint32(big, 4097)
	v1Tail := descBytes(v1+8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1) // between the versions
	binary.NativeEndian.PutUint64(v1Tail[v1:], 99)
	return map[string][]byte{
		"newer-header-set-field": newerSet,
		"newer-header-zero-tail": descBytes(k+8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1),
		"r2c-double-ortho":       descBytes(k, 1, 1, 1, 0, 2, [3]int64{6, 10, 0}, 3),
		"rank-zero":              descBytes(k, 0, 0, 0, 0, 0, [3]int64{16, 0, 0}, 1),
		"shape-negative":         descBytes(k, 0, 0, 0, 0, 2, [3]int64{-4, 4, 0}, 1),
		"size-4097":              big,
		"size-field-huge":        huge,
		"size-short-of-bytes":    short,
		"size-zero":              {0, 0, 0, 0},
		"v1-size":                descBytes(v1, 1, 0, 0, 0, 3, [3]int64{4, 6, 8}, 2),
		"v1-size-rank-4":         descBytes(v1, 0, 0, 0, 0, 4, [3]int64{4, 6, 8}, 1),
		"between-versions":       v1Tail,
		"rank-4-axes": withExt(descBytes(k, 0, 1, 0, 0, 4, [3]int64{2, 3, 4}, 1),
			descExt{shape3: 5, naxes: 2, axes: [4]int32{-1, 1}}),
		"axes-repeated": withExt(descBytes(k, 0, 0, 0, 0, 2, [3]int64{4, 4, 0}, 1),
			descExt{naxes: 2, axes: [4]int32{1, -1}}),
		"naxes-5": withExt(descBytes(k, 0, 0, 0, 0, 2, [3]int64{4, 4, 0}, 1), descExt{naxes: 5}),
		"r2r-dct2": withExt(descBytes(k, 2, 1, 0, 0, 1, [3]int64{10, 0, 0}, 3),
			descExt{r2rKind: 2}),
		"r2r-kind-on-c2c": withExt(descBytes(k, 0, 0, 0, 0, 1, [3]int64{10, 0, 0}, 1),
			descExt{r2rKind: 2}),
		"r2r-kind-9": withExt(descBytes(k, 2, 0, 0, 0, 1, [3]int64{10, 0, 0}, 1), descExt{r2rKind: 9}),
		"storage-half": withExt(descBytes(k, 1, 0, 0, 0, 1, [3]int64{64, 0, 0}, 1),
			descExt{storage: 1}),
		"storage-3": withExt(descBytes(k, 0, 0, 0, 0, 1, [3]int64{64, 0, 0}, 1), descExt{storage: 3}),
		"real-inplace": withExt(descBytes(k, 1, 1, 0, 0, 1, [3]int64{7, 0, 0}, 2),
			descExt{realInPlace: 1}),
		"real-inplace-c2c": withExt(descBytes(k, 0, 0, 0, 0, 1, [3]int64{7, 0, 0}, 1),
			descExt{realInPlace: 1}),
		"strided-rows": withExt(descBytes(k, 0, 1, 0, 0, 2, [3]int64{3, 5, 0}, 1),
			descExt{naxes: 1, axes: [4]int32{1}, in: [4]int64{8, 1}, out: [4]int64{8, 1}}),
		"full-spectrum": withExt(descBytes(k, 1, 0, 0, 0, 3, [3]int64{5, 6, 7}, 1),
			descExt{fullSpectrum: 1}),
		"full-spectrum-c2c": withExt(descBytes(k, 0, 0, 0, 0, 1, [3]int64{7, 0, 0}, 1),
			descExt{fullSpectrum: 1}),
		"stride-past-rank": withExt(descBytes(k, 0, 0, 0, 0, 2, [3]int64{3, 5, 0}, 1),
			descExt{in: [4]int64{5, 1, 0, 7}}),
	}
}

// The committed seed corpus is seedDescs, encoded for this library's descriptor layout.
func TestDescSeedCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParseDesc")
	seeds := seedDescs()
	if *updateCorpus {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		old, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range old {
			require.NoError(t, os.Remove(f))
		}
		for name, b := range seeds {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), corpusFile(b), 0o644))
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	require.Len(t, files, len(seeds), "run go test ./capi/ -run TestDescSeedCorpus -update-corpus")
	for name, b := range seeds {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "run go test ./capi/ -run TestDescSeedCorpus -update-corpus")
		require.Equal(t, string(corpusFile(b)), string(got), "%s is stale: run with -update-corpus", name)
	}
}

// corpusFile is b in go test's corpus encoding.
func corpusFile(b []byte) []byte {
	return fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b)
}

// The descriptor reader turns any bytes into a plan configuration or an error with a
// specific status: it never panics, never reads past the bytes it is given and never
// builds a configuration the library would not ask vkfft for.
func FuzzParseDesc(f *testing.F) {
	k, v1 := int(knownDescSize), int(descV1Size)
	f.Add(descBytes(k, 0, 0, 0, 0, 3, [3]int64{8, 16, 32}, 1))
	f.Add(descBytes(k, 1, 1, 2, 1, 1, [3]int64{30, 0, 0}, 4))
	f.Add(descBytes(k, 0, 0, 0, 0, 4, [3]int64{1, 1, 1}, 1))
	f.Add(descBytes(k+8, 0, 0, 1, 2, 2, [3]int64{-1, 5, 0}, -3))
	f.Add(descBytes(k-8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	f.Add(descBytes(v1, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		pd, err := parseDesc(b)
		if err != nil {
			require.NotEqual(t, int(statusOf(err)), 17, "error %q maps to VKFFTGO_ERROR_INTERNAL", err)
			require.NotEmpty(t, err.Error())
			return
		}
		require.GreaterOrEqual(t, len(b), v1)
		require.NotEmpty(t, pd.cfg.Shape)
		require.LessOrEqual(t, len(pd.cfg.Shape), 4)
		require.Equal(t, int(binary.NativeEndian.Uint32(b)), len(b), "accepted a descriptor whose size field is not its length")
		if len(b) > k {
			for _, v := range b[k:] {
				require.Zero(t, v, "accepted a descriptor that sets unknown fields")
			}
		}
		if uintptr(len(b)) < descV2End { // an older header's: none of the 0.2 fields
			require.LessOrEqual(t, len(pd.cfg.Shape), 3)
			require.Nil(t, pd.cfg.Axes)
			require.Nil(t, pd.cfg.InStrides)
			require.Nil(t, pd.cfg.OutStrides)
			require.Zero(t, pd.r2r)
			require.Equal(t, vkfft.StorageDefault, pd.cfg.Storage)
			require.False(t, pd.cfg.RealInPlace)
		}
		require.LessOrEqual(t, len(pd.cfg.Axes), 4)
		require.False(t, pd.r2c && pd.r2r != 0, "both R2C and R2R")
		require.False(t, pd.cfg.RealInPlace && !pd.r2c, "RealInPlace without R2C")
		require.False(t, pd.cfg.FullSpectrum && !pd.r2c, "FullSpectrum without R2C")
		for _, s := range [][]int{pd.cfg.InStrides, pd.cfg.OutStrides} {
			require.True(t, s == nil || len(s) == len(pd.cfg.Shape), "strides %v for rank %d", s, len(pd.cfg.Shape))
		}
	})
}

// Valid descriptors read back exactly; an unknown trailing field is refused.
func TestParseDesc(t *testing.T) {
	k, v1 := int(knownDescSize), int(descV1Size)
	pd, err := parseDesc(descBytes(k, 1, 1, 2, 1, 2, [3]int64{6, 10, 0}, 3))
	require.NoError(t, err)
	require.True(t, pd.r2c)
	require.True(t, pd.double)
	require.Equal(t, []int{6, 10}, pd.cfg.Shape)
	require.Equal(t, 3, pd.cfg.Batch)

	long := descBytes(k+16, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1)
	_, err = parseDesc(long)
	require.NoError(t, err)
	long[k+3] = 1
	_, err = parseDesc(long)
	require.ErrorContains(t, err, "does not know")
	require.EqualValues(t, 10, statusOf(err)) // VKFFTGO_ERROR_UNSUPPORTED

	_, err = parseDesc(descBytes(v1-8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	require.ErrorContains(t, err, "VKFFTGO_PLAN_DESC_INIT")
	_, err = parseDesc(descBytes(k, 0, 9, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	require.ErrorContains(t, err, "desc->precision is 9")

	// the first version's size: its fields only, rank up to 3
	pd, err = parseDesc(descBytes(v1, 0, 0, 0, 0, 3, [3]int64{4, 6, 8}, 2))
	require.NoError(t, err)
	require.Equal(t, []int{4, 6, 8}, pd.cfg.Shape)
	_, err = parseDesc(descBytes(v1, 0, 0, 0, 0, 4, [3]int64{4, 6, 8}, 2))
	require.ErrorContains(t, err, "want 1 to 3")

	// the 0.2 fields
	pd, err = parseDesc(withExt(descBytes(k, 0, 1, 0, 0, 4, [3]int64{2, 3, 4}, 1),
		descExt{shape3: 5, naxes: 2, axes: [4]int32{-1, 1}, in: [4]int64{60, 20, 5, 1}}))
	require.NoError(t, err)
	require.Equal(t, []int{2, 3, 4, 5}, pd.cfg.Shape)
	require.Equal(t, []int{-1, 1}, pd.cfg.Axes)
	require.Equal(t, []int{60, 20, 5, 1}, pd.cfg.InStrides)
	require.Nil(t, pd.cfg.OutStrides)
	pd, err = parseDesc(withExt(descBytes(k, 2, 0, 0, 0, 1, [3]int64{10, 0, 0}, 1), descExt{r2rKind: 6, storage: 2}))
	require.NoError(t, err)
	require.Equal(t, vkfft.DST2, pd.r2r)
	require.Equal(t, vkfft.StorageFloatComputeDouble, pd.cfg.Storage)
	pd, err = parseDesc(withExt(descBytes(k, 1, 0, 0, 0, 1, [3]int64{7, 0, 0}, 1), descExt{realInPlace: 1}))
	require.NoError(t, err)
	require.True(t, pd.cfg.RealInPlace)
	pd, err = parseDesc(withExt(descBytes(k, 1, 0, 0, 0, 1, [3]int64{7, 0, 0}, 1), descExt{fullSpectrum: 1}))
	require.NoError(t, err)
	require.True(t, pd.cfg.FullSpectrum)
	for _, tc := range []struct {
		name string
		e    descExt
		kind int32
		msg  string
	}{
		{"naxes", descExt{naxes: 5}, 0, "naxes is 5"},
		{"r2r on c2c", descExt{r2rKind: 2}, 0, "r2r_kind is 2 but"},
		{"r2r kind", descExt{r2rKind: 9}, 2, "r2r_kind is 9"},
		{"storage", descExt{storage: 3}, 0, "storage is 3"},
		{"real_inplace on c2c", descExt{realInPlace: 1}, 0, "not VKFFTGO_R2C"},
		{"real_inplace 2", descExt{realInPlace: 2}, 1, "real_inplace is 2"},
		{"stride past rank", descExt{in: [4]int64{5, 1, 0, 7}}, 0, "in_strides[3] is 7"},
		{"full_spectrum on c2c", descExt{fullSpectrum: 1}, 0, "full_spectrum is set on a plan that is not VKFFTGO_R2C"},
		{"full_spectrum 2", descExt{fullSpectrum: 2}, 1, "full_spectrum is 2"},
	} {
		_, err := parseDesc(withExt(descBytes(k, tc.kind, 0, 0, 0, 2, [3]int64{3, 5, 0}, 1), tc.e))
		require.ErrorContains(t, err, tc.msg, tc.name)
		require.EqualValues(t, 1, statusOf(err), tc.name) // VKFFTGO_ERROR_INVALID_ARGUMENT
	}
}
