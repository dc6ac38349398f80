package vkfft

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// How numpy layouts map onto VkFFT's dimensions, checked without a device: untransformed
// axes become omitted dimensions or fold into the batch, strides order the dimensions.
func TestLayoutMapping(t *testing.T) {
	cases := []struct {
		name      string
		cfg       Config
		kind      kind
		dim       int
		size      []int
		omit      []bool
		batch     int
		inStride  []int
		outStride []int
		strided   bool
	}{
		{name: "all axes", cfg: Config{Shape: []int{4, 6, 10}}, dim: 3, size: []int{10, 6, 4}, omit: []bool{false, false, false}, batch: 1},
		{name: "columns of a matrix", cfg: Config{Shape: []int{1024, 4096}, Axes: []int{0}}, dim: 2,
			size: []int{4096, 1024}, omit: []bool{true, false}, batch: 1},
		{name: "rows fold into the batch", cfg: Config{Shape: []int{1024, 4096}, Axes: []int{-1}, Batch: 3}, dim: 1,
			size: []int{4096}, omit: []bool{false}, batch: 3072},
		{name: "middle axis", cfg: Config{Shape: []int{4, 6, 10}, Axes: []int{1}}, dim: 2, size: []int{10, 6},
			omit: []bool{true, false}, batch: 4},
		{name: "rank 4, outer and inner", cfg: Config{Shape: []int{3, 4, 5, 6}, Axes: []int{0, 3}}, dim: 3,
			size: []int{6, 20, 3}, omit: []bool{false, true, false}, batch: 1},
		{name: "untransformed length-1 axes vanish", cfg: Config{Shape: []int{1, 8, 1, 6}, Axes: []int{1, 3}}, dim: 2,
			size: []int{6, 8}, omit: []bool{false, false}, batch: 1},
		{name: "padded rows", cfg: Config{Shape: []int{5, 6}, InStrides: []int{8, 1}, OutStrides: []int{8, 1}}, dim: 2,
			size: []int{6, 5}, omit: []bool{false, false}, batch: 1, inStride: []int{8, 40}, outStride: []int{8, 40}, strided: true},
		{name: "Fortran order", cfg: Config{Shape: []int{5, 6}, InStrides: []int{1, 5}, OutStrides: []int{1, 5}}, dim: 2,
			size: []int{5, 6}, omit: []bool{false, false}, batch: 1, inStride: []int{5, 30}, outStride: []int{5, 30}, strided: true},
		{name: "every other column, out to contiguous", cfg: Config{Shape: []int{4, 3}, Axes: []int{0}, InStrides: []int{6, 1}},
			dim: 2, size: []int{3, 4}, omit: []bool{true, false}, batch: 1, inStride: []int{6, 24}, outStride: []int{3, 12}, strided: true},
		{name: "R2C halves the last axis", cfg: Config{Shape: []int{4, 6}, OutStrides: []int{5, 1}}, kind: kindR2C, dim: 2,
			size: []int{6, 4}, omit: []bool{false, false}, batch: 1, inStride: []int{6, 24}, outStride: []int{5, 20}, strided: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := validate(c.cfg, c.kind, 8)
			require.NoError(t, err)
			require.Equal(t, c.strided, l.strided)
			require.Equal(t, c.dim, l.vk.dim)
			require.Equal(t, c.size, l.vk.size[:c.dim])
			require.Equal(t, c.omit, l.vk.omit[:c.dim])
			require.Equal(t, c.batch, l.vk.batch)
			if c.strided {
				require.Equal(t, c.inStride, l.vk.inStride[:c.dim])
				require.Equal(t, c.outStride, l.vk.outStride[:c.dim])
			} else {
				require.Equal(t, [maxRank]int{}, l.vk.inStride, "contiguous layouts keep VkFFT's defaults")
			}
		})
	}
}

// Bad layouts are refused before any device work, each with an error naming the problem.
func TestLayoutBadInput(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		kind kind
		r2r  R2RKind
		is   error
		msg  string
	}{
		{"axis out of range", Config{Shape: []int{4, 4}, Axes: []int{2}}, kindC2C, 0, ErrInvalidArgument, "axis 2 is out of range"},
		{"negative axis out of range", Config{Shape: []int{4, 4}, Axes: []int{-3}}, kindC2C, 0, ErrInvalidArgument, "axis -3 is out of range"},
		{"repeated axis", Config{Shape: []int{4, 4}, Axes: []int{1, -1}}, kindC2C, 0, ErrInvalidArgument, "axis 1 is repeated"},
		{"empty axes", Config{Shape: []int{4}, Axes: []int{}}, kindC2C, 0, ErrInvalidArgument, "Axes is empty"},
		{"rank 5", Config{Shape: []int{2, 2, 2, 2, 2}}, kindC2C, 0, ErrInvalidShape, "at most 4"},
		{"R2C without the last axis", Config{Shape: []int{4, 6}, Axes: []int{0}}, kindR2C, 0, ErrInvalidArgument, "must transform the last axis"},
		{"overlapping strides", Config{Shape: []int{4, 4}, InStrides: []int{2, 1}}, kindC2C, 0, ErrInvalidArgument, "overlap"},
		{"zero stride", Config{Shape: []int{4, 4}, OutStrides: []int{0, 1}}, kindC2C, 0, ErrInvalidArgument, "overlap"},
		{"negative stride", Config{Shape: []int{4, 4}, InStrides: []int{-4, 1}}, kindC2C, 0, ErrUnsupported, "negative stride"},
		{"strides of the wrong rank", Config{Shape: []int{4, 4}, InStrides: []int{1}}, kindC2C, 0, ErrInvalidArgument, "InStrides has 1 entries"},
		{"no unit stride", Config{Shape: []int{4, 4}, InStrides: []int{8, 2}, OutStrides: []int{8, 2}}, kindC2C, 0, ErrUnsupported, "unit stride"},
		{"unit strides on different axes", Config{Shape: []int{4, 4}, InStrides: []int{1, 4}}, kindC2C, 0, ErrUnsupported, "unit stride"},
		{"R2C with a faster axis than the last", Config{Shape: []int{4, 6}, InStrides: []int{1, 4}, OutStrides: []int{1, 4}}, kindR2C, 0, ErrUnsupported, "last axis"},
		{"ortho norm with gaps", Config{Shape: []int{4, 4}, Norm: NormOrtho, InStrides: []int{8, 1}, OutStrides: []int{8, 1}}, kindC2C, 0, ErrUnsupported, "gaps"},
		{"R2R kind out of range", Config{Shape: []int{4}}, kindR2R, 9, ErrInvalidArgument, "real-to-real kind"},
		{"DCT-I of one point", Config{Shape: []int{1, 4}}, kindR2R, DCT1, ErrInvalidShape, "DCT-I needs at least 2"},
		{"half storage in double precision", Config{Shape: []int{4}, Storage: StorageHalf}, kindC2C, 0, ErrPrecision, "single-precision"},
		{"half storage with ortho", Config{Shape: []int{4}, Storage: StorageHalf, Norm: NormOrtho}, kindC2C, 0, ErrUnsupported, "NormBackward"},
		{"unknown storage", Config{Shape: []int{4}, Storage: 7}, kindC2C, 0, ErrInvalidArgument, "unknown Storage"},
		{"in-place real on a complex plan", Config{Shape: []int{4}, RealInPlace: true}, kindC2C, 0, ErrInvalidArgument, "RealInPlace applies"},
		{"in-place real with strides", Config{Shape: []int{4}, RealInPlace: true, InStrides: []int{2}}, kindR2C, 0, ErrUnsupported, "RealInPlace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			size := uintptr(8)
			if c.name == "half storage in double precision" {
				size = 16
			}
			_, err := validateKind(c.cfg, c.kind, size, c.r2r)
			require.Error(t, err)
			require.True(t, errors.Is(err, c.is), "%v is not %v", err, c.is)
			require.Contains(t, err.Error(), c.msg)
		})
	}
}

// Norm only moves the normalisation between the directions: forward·inverse scales
// multiply to what VkFFT's own inverse normalisation leaves out.
func TestLayoutScales(t *testing.T) {
	for _, norm := range []Norm{NormBackward, NormOrtho, NormForward} {
		l, err := validateKind(Config{Shape: []int{1, 8}, Norm: norm}, kindR2R, 8, DCT2)
		require.NoError(t, err)
		m, mvk, c := l.normCounts()
		require.Equal(t, 2.0*16, m) // NormLength(1)·NormLength(8)
		require.Equal(t, 16.0, mvk) // VkFFT drops the axis of one point
		require.Equal(t, 2.0, c)    // where DCT-II multiplies by 2
		want := 1.0                 // NormBackward: VkFFT divides by mvk itself
		if norm != NormBackward {
			want = 1 / mvk
		}
		require.InDelta(t, want, l.fwdScale*l.invScale, 1e-15, "norm %v", norm)
	}
}
