package vkfft

// Axes, strides, storage precisions and real-to-real kinds: how a Config's layout is
// turned into what VkFFT is told (vkLayout), checked before anything reaches the device.
//
// VkFFT describes data as up to four dimensions, fastest first, each either
// transformed or omitted (omitDimension), plus a batch count. The first dimension is
// always read and written with unit stride; the others and the batch take a stride each
// (bufferStride, inputBufferStride). A numpy layout is mapped onto that by dropping
// untransformed axes of length 1, ordering the axes by stride (the unit-stride one
// first), merging neighbouring untransformed axes that are contiguous with each other,
// and folding untransformed outer axes into the batch. What does not fit is refused with
// ErrUnsupported and the reason.

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
)

// Storage selects how a plan's data is held in device memory.
type Storage int

const (
	// StorageDefault stores data in the plan's own precision.
	StorageDefault Storage = iota
	// StorageHalf stores data as IEEE fp16 (half the bytes of float32) and computes in
	// fp32; single-precision plans only. On the device the data is Float16 (use the
	// *Half methods and Buffer[Float16]); host calls on float32/complex64 slices convert
	// on the host. Accuracy is fp16's (about 1e-3 relative); needs NormBackward.
	StorageHalf
	// StorageFloatComputeDouble stores float32/complex64 data and computes in fp64
	// (VkFFT's doublePrecisionFloatMemory): the memory traffic of single precision with
	// the arithmetic error of double, on devices with fast fp64.
	StorageFloatComputeDouble
)

func (s Storage) String() string {
	switch s {
	case StorageDefault:
		return "default"
	case StorageHalf:
		return "half"
	case StorageFloatComputeDouble:
		return "float-compute-double"
	}
	return fmt.Sprintf("Storage(%d)", int(s))
}

// R2RKind is a real-to-real transform: a discrete cosine or sine transform of type 1–4,
// defined as scipy.fft's dct/dst with norm="backward" (FFTW's REDFT/RODFT, unnormalised).
type R2RKind int

const (
	DCT1 R2RKind = iota + 1 // y[k] = x[0] + (-1)^k x[n-1] + 2 Σ_{j=1}^{n-2} x[j] cos(πjk/(n-1)); n ≥ 2
	DCT2                    // y[k] = 2 Σ x[j] cos(πk(2j+1)/(2n)) (the "DCT")
	DCT3                    // y[k] = x[0] + 2 Σ_{j≥1} x[j] cos(πj(2k+1)/(2n)) (inverse of DCT2 up to 2n)
	DCT4                    // y[k] = 2 Σ x[j] cos(π(2j+1)(2k+1)/(4n))
	DST1                    // y[k] = 2 Σ x[j] sin(π(j+1)(k+1)/(n+1))
	DST2                    // y[k] = 2 Σ x[j] sin(π(k+1)(2j+1)/(2n))
	DST3                    // y[k] = (-1)^k x[n-1] + 2 Σ_{j=0}^{n-2} x[j] sin(π(j+1)(2k+1)/(2n))
	DST4                    // y[k] = 2 Σ x[j] sin(π(2j+1)(2k+1)/(4n))
)

func (k R2RKind) String() string {
	if k >= DCT1 && k <= DCT4 {
		return fmt.Sprintf("DCT%d", int(k-DCT1)+1)
	}
	if k >= DST1 && k <= DST4 {
		return fmt.Sprintf("DST%d", int(k-DST1)+1)
	}
	return fmt.Sprintf("R2RKind(%d)", int(k))
}

// vkfftType splits k into VkFFT's performDCT/performDST type numbers.
func (k R2RKind) vkfftType() (dct, dst int) {
	if k >= DCT1 && k <= DCT4 {
		return int(k-DCT1) + 1, 0
	}
	return 0, int(k-DST1) + 1
}

// NormLength is the factor by which applying k and then its inverse type (DCT2 after
// DCT3, DCT1 after DCT1, ...) scales a line of n points: 2(n−1) for DCT1, 2(n+1) for
// DST1, 2n otherwise. Inverse divides by the product of NormLength over the
// transformed axes (NormBackward), like scipy's idctn.
func (k R2RKind) NormLength(n int) int {
	switch k {
	case DCT1:
		return 2 * (n - 1)
	case DST1:
		return 2 * (n + 1)
	}
	return 2 * n
}

// vkLayout is a layout in VkFFT's terms.
type vkLayout struct {
	dim   int // FFTdim, 1..4
	size  [maxRank]int
	omit  [maxRank]bool
	batch int // numberBatches
	// VkFFT's inputBufferStride (the input side: src, or the real data of R2C) and
	// bufferStride (the output side): strides of dimensions 1..dim-1, then of the
	// batch. Set only for strided layouts; zero leaves VkFFT's contiguous defaults.
	inStride, outStride [maxRank]int
}

// vkDim is one dimension on its way to VkFFT.
type vkDim struct {
	n, in, out int
	transform  bool
	axis       int // axis of Shape; -1 for the batch
}

// completeLayout checks and resolves the axes, strides, storage and real-to-real kind
// of l.cfg, whose Shape, Batch and basic sizes validate has already checked.
func completeLayout(l *layout, complexSize uintptr) error {
	cfg := &l.cfg
	rank := len(cfg.Shape)
	if err := checkKindAndStorage(l); err != nil {
		return err
	}
	if err := selectAxes(l); err != nil {
		return err
	}
	if l.kind == kindR2R {
		for i, d := range cfg.Shape {
			if l.sel[i] && l.r2r == DCT1 && d < 2 {
				return fmt.Errorf("%w: axis %d of %v has length %d; DCT-I needs at least 2 points (it divides by n-1)",
					ErrInvalidShape, i, cfg.Shape, d)
			}
		}
	}

	// the two sides' extents along each axis: the spectrum's last axis is halved for R2C
	inShape := cfg.Shape
	outShape := cfg.Shape
	if l.kind == kindR2C {
		outShape = slices.Clone(cfg.Shape)
		outShape[rank-1] = cfg.Shape[rank-1]/2 + 1
	}
	inStr, inGiven, err := stridesFor("InStrides", cfg.InStrides, inShape)
	if err != nil {
		return err
	}
	outStr, outGiven, err := stridesFor("OutStrides", cfg.OutStrides, outShape)
	if err != nil {
		return err
	}
	l.strided = inGiven || outGiven
	if l.strided && l.cfg.RealInPlace {
		return fmt.Errorf("%w: RealInPlace fixes the layout (padded rows): it takes no InStrides or OutStrides", ErrUnsupported)
	}
	if l.cfg.RealInPlace && l.cfg.Storage == StorageHalf {
		return fmt.Errorf("%w: RealInPlace with StorageHalf: in-place fp16 real data has no typed Go form here; use an out-of-place plan", ErrUnsupported)
	}
	if l.strided && l.cfg.Storage == StorageHalf {
		return fmt.Errorf("%w: StorageHalf with strides: VkFFT's fp16 storage runs on contiguous data only", ErrUnsupported)
	}

	inBatch, outBatch := batchStride(inShape, inStr), batchStride(outShape, outStr)
	dims := make([]vkDim, 0, rank)
	for i := range cfg.Shape {
		if cfg.Shape[i] == 1 && !l.sel[i] {
			continue // an untransformed axis of one point: its stride does not matter
		}
		dims = append(dims, vkDim{n: cfg.Shape[i], in: inStr[i], out: outStr[i], transform: l.sel[i], axis: i})
	}
	if l.strided {
		// VkFFT's first dimension is read and written with unit stride: order by stride
		sort.SliceStable(dims, func(a, b int) bool { return dims[a].in < dims[b].in })
		first := dims[0]
		if l.kind == kindR2C && first.axis != rank-1 {
			return fmt.Errorf("%w: real-to-complex transforms the last axis first and VkFFT reads it with unit stride, but axis %d has a smaller InStride (%d) than the last axis",
				ErrUnsupported, first.axis, first.in)
		}
		if first.n > 1 && (first.in != 1 || first.out != 1) {
			return fmt.Errorf("%w: VkFFT reads and writes its fastest dimension with unit stride, but the axis with the smallest stride (axis %d) has InStride %d and OutStride %d",
				ErrUnsupported, first.axis, first.in, first.out)
		}
	} else {
		slices.Reverse(dims)
	}
	// neighbouring untransformed dimensions that are contiguous with each other merge
	for i := 0; i+1 < len(dims); {
		a, b := &dims[i], dims[i+1]
		if !a.transform && !b.transform && b.in == a.in*a.n && b.out == a.out*a.n {
			a.n *= b.n
			dims = slices.Delete(dims, i+1, i+2)
			continue
		}
		i++
	}
	// untransformed outer dimensions fold into the batch where they are contiguous with it
	bd := vkDim{n: cfg.Batch, in: inBatch, out: outBatch, axis: -1}
	for len(dims) > 1 {
		t := dims[len(dims)-1]
		if t.transform {
			break
		}
		if bd.n == 1 {
			bd = vkDim{n: t.n, in: t.in, out: t.out, axis: -1}
		} else if bd.in == t.in*t.n && bd.out == t.out*t.n {
			bd.n *= t.n
			bd.in, bd.out = t.in, t.out
		} else {
			break
		}
		dims = dims[:len(dims)-1]
	}
	if len(dims) > maxRank {
		return fmt.Errorf("%w: the layout needs %d VkFFT dimensions (shape %v, axes %v, strides %v/%v); VkFFT 1.3.4 has %d",
			ErrUnsupported, len(dims), cfg.Shape, cfg.Axes, cfg.InStrides, cfg.OutStrides, maxRank)
	}
	vk := vkLayout{dim: len(dims), batch: bd.n}
	for i, d := range dims {
		vk.size[i] = d.n
		vk.omit[i] = !d.transform
		if l.strided && i > 0 {
			vk.inStride[i-1], vk.outStride[i-1] = d.in, d.out
		}
	}
	if l.strided {
		vk.inStride[len(dims)-1], vk.outStride[len(dims)-1] = bd.in, bd.out
	}
	l.vk = vk

	// Sizes of the plan's own buffers, which host calls go through and VkFFT is built
	// on: complexBytes is VkFFT's buffer (the spectrum, or an R2R plan's data; the output
	// side of strided plans), realBytes its inputBuffer (R2C's real data; the input side
	// of strided plans).
	realSize := int(complexSize / 2)
	if l.kind == kindR2R {
		l.realLen, l.complexLen = l.complexLen, 0
	}
	if l.kind == kindR2C && cfg.RealInPlace {
		l.realLen = 0 // the real data lives in the spectrum's buffer, padded
	}
	outSize, inSize := int(complexSize), int(complexSize)
	switch l.kind {
	case kindR2C:
		inSize = realSize
	case kindR2R:
		outSize, inSize = realSize, realSize
	}
	if l.strided {
		l.inSpan = span(inShape, inStr, cfg.Batch, inBatch)
		l.outSpan = span(outShape, outStr, cfg.Batch, outBatch)
	} else {
		switch l.kind {
		case kindR2C:
			l.inSpan, l.outSpan = l.realLen, l.complexLen
		case kindR2R:
			l.inSpan, l.outSpan = l.realLen, l.realLen
		default:
			l.inSpan, l.outSpan = l.complexLen, l.complexLen
		}
	}
	if l.strided && cfg.Norm != NormBackward {
		// the ortho/forward scaling is a pass over the output's memory: gaps in the
		// layout would be scaled too
		count := func(shape []int) int { return prodInts(shape) * cfg.Batch }
		outGapFree := l.outSpan == count(outShape)
		inGapFree := l.inSpan == count(inShape)
		if !outGapFree || (cfg.Norm == NormOrtho && l.kind == kindR2C && !inGapFree) {
			return fmt.Errorf("%w: Norm %v with strides that leave gaps: the scaling pass would touch the elements between them; use NormBackward or gap-free strides",
				ErrUnsupported, cfg.Norm)
		}
	}
	ok := true
	var cb, rb int
	cb, ok = mulCheck(l.outSpan, outSize, ok)
	if l.strided || l.kind == kindR2C {
		rb, ok = mulCheck(l.inSpan, inSize, ok)
	}
	if !ok {
		return fmt.Errorf("%w: shape %v with batch %d and strides %v/%v overflows 64-bit sizes", ErrTooLarge,
			cfg.Shape, cfg.Batch, cfg.InStrides, cfg.OutStrides)
	}
	if cfg.Storage == StorageHalf { // two bytes per real
		cb, rb = cb/2, rb/2
	}
	l.complexBytes, l.realBytes = int64(cb), int64(rb)
	return nil
}

// checkKindAndStorage checks the fields that depend on the kind of plan.
func checkKindAndStorage(l *layout) error {
	cfg := &l.cfg
	switch cfg.Storage {
	case StorageDefault:
	case StorageHalf, StorageFloatComputeDouble:
		if l.double {
			return fmt.Errorf("%w: Storage %v applies to single-precision plans (complex64/float32); this plan is double precision",
				ErrPrecision, cfg.Storage)
		}
		if cfg.Storage == StorageHalf && cfg.Norm != NormBackward {
			return fmt.Errorf("%w: StorageHalf with Norm %v: VkFFT scales only the inverse (NormBackward), and the separate scaling pass has no fp16 form",
				ErrUnsupported, cfg.Norm)
		}
	default:
		return fmt.Errorf("%w: unknown Storage %d", ErrInvalidArgument, int(cfg.Storage))
	}
	if cfg.RealInPlace && l.kind != kindR2C {
		return fmt.Errorf("%w: RealInPlace applies to real-to-complex plans only", ErrInvalidArgument)
	}
	if l.kind == kindR2R && (l.r2r < DCT1 || l.r2r > DST4) {
		return fmt.Errorf("%w: unknown real-to-real kind %d; want DCT1..DCT4 or DST1..DST4", ErrInvalidArgument, int(l.r2r))
	}
	return nil
}

// selectAxes resolves cfg.Axes (numpy's axes=) into l.sel.
func selectAxes(l *layout) error {
	cfg := &l.cfg
	rank := len(cfg.Shape)
	if cfg.Axes == nil {
		for i := 0; i < rank; i++ {
			l.sel[i] = true
		}
	} else {
		if len(cfg.Axes) == 0 {
			return fmt.Errorf("%w: Axes is empty: nothing to transform (nil means all axes)", ErrInvalidArgument)
		}
		for _, a := range cfg.Axes {
			ax := a
			if ax < 0 {
				ax += rank
			}
			if ax < 0 || ax >= rank {
				return fmt.Errorf("%w: axis %d is out of range for %d dimensions (shape %v)", ErrInvalidArgument,
					a, rank, cfg.Shape)
			}
			if l.sel[ax] {
				return fmt.Errorf("%w: axis %d is repeated in Axes %v", ErrInvalidArgument, ax, cfg.Axes)
			}
			l.sel[ax] = true
		}
	}
	if l.kind == kindR2C && !l.sel[rank-1] {
		return fmt.Errorf("%w: real-to-complex plans must transform the last axis (%d), whose spectrum is halved; Axes is %v",
			ErrInvalidArgument, rank-1, cfg.Axes)
	}
	return nil
}

// contiguousStrides are the row-major strides of shape.
func contiguousStrides(shape []int) []int {
	s := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= shape[i]
	}
	return s
}

// stridesFor checks user strides for shape and returns the strides to use, and whether
// they differ from the contiguous ones.
func stridesFor(name string, given, shape []int) ([]int, bool, error) {
	def := contiguousStrides(shape)
	if given == nil {
		return def, false, nil
	}
	if len(given) != len(shape) {
		return nil, false, fmt.Errorf("%w: %s has %d entries; Shape has %d axes", ErrInvalidArgument, name,
			len(given), len(shape))
	}
	for i, s := range given {
		if s < 0 {
			return nil, false, fmt.Errorf("%w: %s %v: axis %d has a negative stride; reverse the data instead",
				ErrUnsupported, name, given, i)
		}
	}
	if overlapping(shape, given) {
		return nil, false, fmt.Errorf("%w: %s %v overlap for shape %v: two elements would share one address",
			ErrInvalidArgument, name, given, shape)
	}
	differs := false
	for i := range shape {
		if shape[i] > 1 && given[i] != def[i] {
			differs = true
		}
	}
	return slices.Clone(given), differs, nil
}

// overlapping reports strides under which two index tuples share an address: taken in
// increasing order, every stride must step past all elements the smaller ones reach.
func overlapping(shape, strides []int) bool {
	type ax struct{ n, s int }
	var axes []ax
	for i, n := range shape {
		if n > 1 {
			axes = append(axes, ax{n, strides[i]})
		}
	}
	sort.Slice(axes, func(i, j int) bool { return axes[i].s < axes[j].s })
	reach := 0 // the largest offset the axes so far reach
	for _, a := range axes {
		if a.s <= reach {
			return true
		}
		reach += (a.n - 1) * a.s
	}
	return false
}

// batchStride is the distance between batch copies: the largest stride·extent.
func batchStride(shape, strides []int) int {
	b := 1
	for i, n := range shape {
		b = max(b, n*strides[i])
	}
	return b
}

// span is the number of elements a layout reaches, batches included.
func span(shape, strides []int, batch, batchStride int) int {
	s := 1 + (batch-1)*batchStride
	for i, n := range shape {
		s += (n - 1) * strides[i]
	}
	return s
}

// normCounts returns the N of the normalisation — the points of the transformed axes,
// or for real-to-real plans the product of their NormLength — and the part of it VkFFT
// normalises itself, with the forward factor it leaves out: VkFFT treats a real-to-real
// axis of one point as the identity, where scipy's definition multiplies by 2 (DCT2,
// DST1, DST2), √2 (DCT4, DST4) or 1 (DCT3, DST3).
func (l *layout) normCounts() (m, mvk, c float64) {
	m, mvk, c = 1, 1, 1
	for i, d := range l.cfg.Shape {
		if !l.sel[i] {
			continue
		}
		if l.kind != kindR2R {
			m *= float64(d)
			mvk *= float64(d)
			continue
		}
		nl := float64(l.r2r.NormLength(d))
		m *= nl
		if d > 1 {
			mvk *= nl
			continue
		}
		switch l.r2r {
		case DCT2, DST1, DST2:
			c *= 2
		case DCT4, DST4:
			c *= math.Sqrt2
		}
	}
	return m, mvk, c
}

// hostable reports whether host slices can be used with the plan: strided plans run
// on device memory only.
func (l *layout) hostable(op string) error {
	if l.strided {
		return fmt.Errorf("vkfft: %s: %w: a plan with InStrides/OutStrides runs on device buffers and pointers; host slices are contiguous (copy them, or drop the strides)",
			op, ErrUnsupported)
	}
	return nil
}

func prodInts(s []int) int {
	n := 1
	for _, v := range s {
		n *= v
	}
	return n
}

// axesOf resolves cfg.Axes into the transformed axes, as selectAxes does, or reports
// false when they cannot be valid (validate then names the problem). It allocates
// nothing: the plan cache keys every lookup by it.
func axesOf(cfg *Config) (sel [maxRank]bool, ok bool) {
	rank := len(cfg.Shape)
	if cfg.Axes == nil {
		for i := 0; i < rank; i++ {
			sel[i] = true
		}
		return sel, true
	}
	if len(cfg.Axes) == 0 {
		return sel, false
	}
	for _, a := range cfg.Axes {
		if a < 0 {
			a += rank
		}
		if a < 0 || a >= rank || sel[a] {
			return sel, false
		}
		sel[a] = true
	}
	return sel, true
}

// mulCheck multiplies non-negative ints, clearing ok on overflow.
func mulCheck(a, b int, ok bool) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int(lo), ok
}
