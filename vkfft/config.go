package vkfft

import (
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// Norm selects how transforms are scaled, with numpy's meaning for norm=.
type Norm int

const (
	// NormBackward leaves Forward unscaled and scales Inverse by 1/N (the default).
	NormBackward Norm = iota
	// NormOrtho scales both directions by 1/sqrt(N), making the pair unitary.
	NormOrtho
	// NormForward scales Forward by 1/N and leaves Inverse unscaled.
	NormForward
)

func (n Norm) String() string {
	switch n {
	case NormBackward:
		return "backward"
	case NormOrtho:
		return "ortho"
	case NormForward:
		return "forward"
	}
	return fmt.Sprintf("Norm(%d)", int(n))
}

// LUT selects where VkFFT takes its twiddle factors from.
type LUT int

const (
	// LUTDefault lets the package choose: tables in single precision, where the GPU's
	// fast sin/cos would cost accuracy, and VkFFT's own choice in double precision.
	LUTDefault LUT = iota
	// LUTOn always reads precomputed twiddle tables (most accurate).
	LUTOn
	// LUTOff computes twiddles with sin/cos in the kernels (fastest, least accurate
	// in single precision on GPUs).
	LUTOff
)

// Tuning holds VkFFT's launch-configuration knobs. Zero fields keep VkFFT's defaults.
// They change the generated kernels, so they are part of a plan's identity. Set them
// by hand, or let the autotuner choose them (Config.Tune).
type Tuning struct {
	CoalescedMemory    int // bytes per coalesced access (32 on NVIDIA and AMD, 64 on Intel)
	AimThreads         int // threads per block to aim at (VkFFT's default 128)
	RegisterBoost      int // emulate this many times more shared memory with registers
	RegisterBoost4Step int // the same for axes long enough for the four-step algorithm (> 2^14)
	// GroupedBatch caps how many transforms one thread block does along each of VkFFT's
	// dimensions, fastest first (for a plan of contiguous data: Shape's last axis
	// first); 0 lets VkFFT choose.
	GroupedBatch [maxRank]int
	// BandwidthBoost is VkFFT's performBandwidthBoost: -1 off, 0 VkFFT's choice, N > 0
	// trades coalescing by a factor N for longer sequences per upload on strided axes.
	BandwidthBoost int
	// SwapTo3Stage4Step is the axis length from which the four-step algorithm uses three
	// uploads instead of two (at least 65536); 0 keeps VkFFT's threshold.
	SwapTo3Stage4Step int
	// SharedMemory caps the shared memory (bytes) one thread block may use, below the
	// device's limit: smaller blocks can run more per multiprocessor. 0: the device's.
	SharedMemory int
	// BluesteinSize forces the padded length of Bluestein's algorithm (at least 2n-1 for
	// an axis of length n with a prime factor VkFFT has no kernel for); 0: VkFFT's choice.
	BluesteinSize int
	// LUT overrides the package's default twiddle source when Config.LUT is LUTDefault.
	LUT LUT
}

// Config describes a transform. The zero value of every field but Shape is useful.
type Config struct {
	// Shape of one transform, row-major (last axis contiguous), 1 to 4 axes. For real
	// plans it is the shape of the real data; the spectrum's last axis has n/2+1
	// elements, as numpy's rfftn.
	Shape []int
	// Batch is the number of transforms of Shape laid one after another; 0 means 1.
	Batch int
	// Norm is the normalisation (default NormBackward).
	Norm Norm
	// LUT selects the twiddle source (default LUTDefault).
	LUT LUT
	// Tuning overrides VkFFT's launch configuration. A non-zero Tuning is used as given
	// and the autotuner stays out of the way.
	Tuning Tuning

	// Axes selects the axes of Shape to transform, with numpy's meaning (axes=):
	// negative values count from the end, order does not matter, nil means all. The
	// other axes are batch dimensions wherever they sit: Shape {1024, 4096} with Axes
	// {0} transforms the 4096 columns. Real plans must include the last axis (the one
	// whose spectrum is halved). See layout.go.
	Axes []int
	// InStrides and OutStrides give the distance in elements between neighbours along
	// each axis of Shape (numpy's strides divided by the element size), for device
	// buffers and pointers that are not contiguous; nil means contiguous. For complex
	// and real-to-real plans InStrides describes src and OutStrides dst, in both
	// directions; for real-to-complex plans InStrides describes the real data and
	// OutStrides the half spectrum. Batch copies lie max(stride·extent) apart. Host
	// slices are always contiguous: strided plans run on Buffers and pointers only.
	InStrides, OutStrides []int
	// Storage selects how data is held in device memory (default: the plan's own
	// precision). See Storage.
	Storage Storage
	// RealInPlace makes a real-to-complex plan work in place on one buffer in FFTW's
	// and numpy's padded layout: each real row holds 2·(n/2+1) values, the last one or
	// two being padding, and the spectrum overwrites them (ForwardInPlace).
	RealInPlace bool
	// FullSpectrum makes a real-to-complex plan produce the whole spectrum, as a complex
	// FFT of the real data (numpy's fftn of real input): Shape's points per transform,
	// complex, instead of the last axis halved; the inverse takes a whole spectrum X and
	// returns the real part of its inverse, which is the inverse of the Hermitian part
	// (X + conj(X[-k]))/2. The half is expanded and folded on the device. Axes may leave
	// out the last axis (then the plan is a complex FFT of the widened real data). Not
	// with RealInPlace, strides or StorageHalf.
	FullSpectrum bool

	// Tune says whether the plan uses a stored tuning (TuneCached), measures one when
	// none is stored (TuneMeasure), or keeps VkFFT's defaults (TuneOff). TuneDefault
	// reads VKFFTGO_TUNE (off, cached or measure), which defaults to cached.
	Tune TuneMode
}

// kind distinguishes complex-to-complex from real-to-complex plans.
type kind int

const (
	kindC2C kind = iota
	kindR2C
	kindR2R
)

// layout is a validated Config with the sizes a plan needs.
type layout struct {
	cfg          Config // Shape copied, Batch >= 1
	kind         kind
	double       bool
	n            int // points per transform, prod(Shape)
	complexLen   int // complex elements in all batches
	realLen      int // real elements in all batches (R2C only)
	complexBytes int64
	realBytes    int64
	fwdScale     float64
	invScale     float64

	// FullSpectrum (layout_full.go): how the whole spectrum is made, and the bytes of
	// VkFFT's own buffer (complexBytes is the spectrum a caller sees)
	full     fullMode
	bufBytes int64

	// axes, strides, storage and real-to-real kind (layout.go)
	r2r     R2RKind
	sel     [maxRank]bool // the transformed axes of Shape
	vk      vkLayout      // what VkFFT is told
	strided bool          // explicit strides: device buffers and pointers only
	inSpan  int           // elements a src (real data for R2C) must hold
	outSpan int           // elements a dst (spectrum for R2C) must hold
}

// maxRank is VkFFT 1.3.4's VKFFT_MAX_FFT_DIMENSIONS.
const maxRank = 4

// validate checks cfg and computes the plan's sizes; elemSize is the size of one
// complex element (8 or 16 bytes).
func validate(cfg Config, k kind, complexSize uintptr) (layout, error) {
	return validateKind(cfg, k, complexSize, 0)
}

// validateKind is validate with the real-to-real kind of an R2R plan (0 otherwise).
func validateKind(cfg Config, k kind, complexSize uintptr, r2r R2RKind) (layout, error) {
	l := layout{kind: k, double: complexSize == 16, r2r: r2r}
	if len(cfg.Shape) == 0 {
		return l, fmt.Errorf("%w: no dimensions (Shape is empty)", ErrInvalidShape)
	}
	if len(cfg.Shape) > maxRank {
		return l, fmt.Errorf("%w: %d dimensions %v; at most %d are supported", ErrInvalidShape,
			len(cfg.Shape), cfg.Shape, maxRank)
	}
	for i, d := range cfg.Shape {
		if d <= 0 {
			return l, fmt.Errorf("%w: dimension %d of %v is %d; dimensions must be positive",
				ErrInvalidShape, i, cfg.Shape, d)
		}
	}
	if cfg.Batch < 0 {
		return l, fmt.Errorf("%w: batch %d is negative", ErrInvalidBatch, cfg.Batch)
	}
	if cfg.Norm < NormBackward || cfg.Norm > NormForward {
		return l, fmt.Errorf("%w: unknown normalisation %v", ErrInvalidArgument, cfg.Norm)
	}
	if cfg.LUT < LUTDefault || cfg.LUT > LUTOff {
		return l, fmt.Errorf("%w: unknown LUT mode %d", ErrInvalidArgument, int(cfg.LUT))
	}
	if err := cfg.Tuning.check(len(cfg.Shape)); err != nil {
		return l, err
	}
	if cfg.Tune < TuneDefault || cfg.Tune > TuneRefresh {
		return l, fmt.Errorf("%w: unknown tune mode %d", ErrInvalidArgument, int(cfg.Tune))
	}
	cfg = cloneConfig(cfg)
	if cfg.Batch == 0 {
		cfg.Batch = 1
	}
	l.cfg = cfg
	full, err := checkFull(&l)
	if err != nil {
		return l, err
	}
	if full == fullWiden { // VkFFT sees a complex transform of the widened data
		k, l.kind = kindC2C, kindC2C
	}

	last := cfg.Shape[len(cfg.Shape)-1]
	n, ok := 1, true
	for _, d := range cfg.Shape {
		n, ok = mulCheck(n, d, ok)
	}
	outer, _ := mulCheck(n/last, cfg.Batch, true)
	l.n = n
	if k == kindR2C {
		l.realLen, ok = mulCheck(n, cfg.Batch, ok)
		l.complexLen, ok = mulCheck(outer, last/2+1, ok)
	} else {
		l.complexLen, ok = mulCheck(n, cfg.Batch, ok)
	}
	cb, ok := mulCheck(l.complexLen, int(complexSize), ok)
	rb, ok := mulCheck(l.realLen, int(complexSize/2), ok)
	if !ok {
		return l, fmt.Errorf("%w: shape %v with batch %d overflows 64-bit sizes", ErrTooLarge,
			cfg.Shape, cfg.Batch)
	}
	l.complexBytes, l.realBytes = int64(cb), int64(rb)
	// axes, strides, storage, real-to-real (layout.go); gives the normalisation count
	if err := completeLayout(&l, complexSize); err != nil {
		return l, err
	}
	l.bufBytes = l.complexBytes
	if full != fullNone {
		l.setFull(full, n*cfg.Batch, complexSize)
	}
	// m is the normalisation count of the transform's definition, mvk VkFFT's own
	// (the one its normalize divides by), c a forward factor VkFFT leaves out (layout.go)
	m, mvk, c := l.normCounts()

	switch cfg.Norm {
	case NormOrtho:
		l.fwdScale = c / math.Sqrt(m)
		l.invScale = math.Sqrt(m) / (c * mvk)
	case NormForward:
		l.fwdScale = c / m
		l.invScale = m / (c * mvk)
	default:
		l.fwdScale, l.invScale = c, 1/c
	}
	return l, nil
}

// sizeOf returns the size in bytes of one element of type T.
func sizeOf[T any]() uintptr {
	var z T
	return unsafe.Sizeof(z)
}

// cloneConfig copies c with its own slices.
func cloneConfig(c Config) Config {
	c.Shape = append([]int(nil), c.Shape...)
	c.Axes = slices.Clone(c.Axes)
	c.InStrides = slices.Clone(c.InStrides)
	c.OutStrides = slices.Clone(c.OutStrides)
	return c
}
