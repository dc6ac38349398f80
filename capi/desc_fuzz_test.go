package main

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

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

// The descriptor reader turns any bytes into a plan configuration or an error with a
// specific status: it never panics, never reads past the bytes it is given and never
// builds a configuration the library would not ask vkfft for.
func FuzzParseDesc(f *testing.F) {
	k := int(knownDescSize)
	f.Add(descBytes(k, 0, 0, 0, 0, 3, [3]int64{8, 16, 32}, 1))
	f.Add(descBytes(k, 1, 1, 2, 1, 1, [3]int64{30, 0, 0}, 4))
	f.Add(descBytes(k, 0, 0, 0, 0, 4, [3]int64{1, 1, 1}, 1))
	f.Add(descBytes(k+8, 0, 0, 1, 2, 2, [3]int64{-1, 5, 0}, -3))
	f.Add(descBytes(k-8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		pd, err := parseDesc(b)
		if err != nil {
			require.NotEqual(t, int(statusOf(err)), 17, "error %q maps to VKFFTGO_ERROR_INTERNAL", err)
			require.NotEmpty(t, err.Error())
			return
		}
		require.GreaterOrEqual(t, len(b), k)
		require.NotEmpty(t, pd.cfg.Shape)
		require.LessOrEqual(t, len(pd.cfg.Shape), 3)
		require.Equal(t, int(binary.NativeEndian.Uint32(b)), len(b), "accepted a descriptor whose size field is not its length")
		for _, v := range b[k:] {
			require.Zero(t, v, "accepted a descriptor that sets unknown fields")
		}
	})
}

// Valid descriptors read back exactly; an unknown trailing field is refused.
func TestParseDesc(t *testing.T) {
	k := int(knownDescSize)
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

	_, err = parseDesc(descBytes(k-8, 0, 0, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	require.ErrorContains(t, err, "VKFFTGO_PLAN_DESC_INIT")
	_, err = parseDesc(descBytes(k, 0, 9, 0, 0, 1, [3]int64{16, 0, 0}, 1))
	require.ErrorContains(t, err, "desc->precision is 9")
}
