package vkfft

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// ConvolutionMode is what a Convolution computes.
type ConvolutionMode int

const (
	// Convolve: ifft(fft(src) * fft(kernel)), circular over Shape (or linear, see
	// ConvolutionConfig.KernelShape).
	Convolve ConvolutionMode = iota
	// Correlate: ifft(conj(fft(src)) * fft(kernel)), i.e. out[s] = Σ_j conj(src[j]) kernel[j+s]
	// (indices modulo Shape): the kernel found at shift s of src peaks at out[s].
	Correlate
	// PhaseCorrelate: Correlate with every product divided by its magnitude, so a shifted
	// copy gives a peak of 1 at its shift whatever the spectra's magnitudes.
	PhaseCorrelate
)

func (m ConvolutionMode) String() string {
	switch m {
	case Convolve:
		return "convolve"
	case Correlate:
		return "correlate"
	case PhaseCorrelate:
		return "phase correlate"
	}
	return fmt.Sprintf("ConvolutionMode(%d)", int(m))
}

// ConvolutionConfig describes a convolution with a fixed kernel, run through VkFFT's own
// kernel multiplication: one call does the forward transform, the product with the
// kernel's spectrum (computed once, at construction) and the inverse transform.
//
// Data layout: src has Batch items of Features components of prod(Shape) points each
// (component after component, as VkFFT stores vectors); dst has Batch items of Kernels
// results of Features components. The kernel has Kernels × KF components of
// prod(KernelShape or Shape) points, KF = Features, or Matrix² for matrix convolutions
// (component j*Matrix+l maps input component l into output component j).
type ConvolutionConfig struct {
	// Config: Shape is the data's shape (1 to 3 axes), Batch the number of items. Norm
	// must be NormBackward (results are exact convolutions); LUT and Tuning as for plans.
	Config
	// Mode is Convolve (default), Correlate or PhaseCorrelate.
	Mode ConvolutionMode
	// KernelShape, when set, asks for linear convolution of a Shape image with a
	// KernelShape kernel (same rank), as scipy.signal.fftconvolve(src, kernel, "same"):
	// out[i] = Σ_j src[j] kernel[i - j + (K-1)/2] per axis, zero outside. The transform is
	// zero-padded to at least Shape+KernelShape-1 internally; the padding is never read.
	// Convolve only.
	KernelShape []int
	// Features is the number of components per point (0 means 1); each is convolved
	// with its own kernel component.
	Features int
	// Matrix, 2 or 3, makes a matrix-vector convolution of Matrix-component data.
	Matrix int
	// Kernels applies every item to this many kernels (0 means 1).
	Kernels int
	// Boundary is what a linear convolution (KernelShape) takes for the points beyond
	// the data: zeros (BoundaryZero, scipy's "same"), the nearest edge point
	// (BoundaryReplicate, ITK's ZeroFluxNeumannBoundaryCondition) or the data repeated
	// (BoundaryPeriodic, ITK's PeriodicBoundaryCondition). The padding is filled on the
	// device.
	Boundary Boundary
}

// Boundary is what a linear convolution sees beyond the edges of the data.
type Boundary int

const (
	// BoundaryZero: zeros beyond the data.
	BoundaryZero Boundary = iota
	// BoundaryReplicate: the nearest edge point (a zero-flux Neumann condition).
	BoundaryReplicate
	// BoundaryPeriodic: the data repeated along each axis.
	BoundaryPeriodic
)

// The boundaries are the engine's pad kernel modes (and the C API's VKFFTGO_BOUNDARY_*).
var (
	_ = [1]int{}[int(BoundaryZero)-engine.BoundaryZero]
	_ = [1]int{}[int(BoundaryReplicate)-engine.BoundaryReplicate]
	_ = [1]int{}[int(BoundaryPeriodic)-engine.BoundaryPeriodic]
)

func (b Boundary) String() string {
	switch b {
	case BoundaryZero:
		return "zero"
	case BoundaryReplicate:
		return "replicate"
	case BoundaryPeriodic:
		return "periodic"
	}
	return fmt.Sprintf("Boundary(%d)", int(b))
}

// convolution is the untyped part of Convolution and RealConvolution.
type convolution struct {
	mu       sync.Mutex
	dev      *Device
	h        engine.Plan // nil once closed
	st       engine.Status
	inLen    int   // elements of src
	outLen   int   // elements of dst
	inBytes  int64 // of src
	outBytes int64
	mem      []devMem // kernel spectrum, scratch, input, output
	in, out  uint64
	// VkFFT's convolution takes one kernel per batch item, or several kernels for one
	// item: with several kernels (or a matrix) a batch runs item by item
	items int
	// the result overwrites the input buffer (one kernel); else it has its own
	inPlace bool
	// zero-padded convolutions: pad and crop around the plan's in-place work buffer
	module engine.Module
	pad    engine.ConvPad
}

// convGeometry is a validated ConvolutionConfig.
type convGeometry struct {
	cfg       ConvolutionConfig
	fft       []int // transform shape: Shape, or padded for linear convolution
	linear    bool
	features  int // components of data
	kf        int // components of one kernel
	kernels   int
	kshape    []int // the kernel's shape as given
	points    int   // prod(Shape)
	kpoints   int   // prod(kshape)
	fftPoints int   // prod(fft)
}

// goodSize is the smallest m >= n with no prime factor above 7 (fast for VkFFT), even if
// even is set.
func goodSize(n int, even bool) int {
	for m := max(n, 1); ; m++ {
		if even && m%2 != 0 {
			continue
		}
		r := m
		for _, p := range []int{2, 3, 5, 7} {
			for r%p == 0 {
				r /= p
			}
		}
		if r == 1 {
			return m
		}
	}
}

func validateConv(cfg ConvolutionConfig, real bool) (convGeometry, error) {
	g := convGeometry{cfg: cfg, features: max(cfg.Features, 1), kernels: max(cfg.Kernels, 1)}
	if cfg.Mode < Convolve || cfg.Mode > PhaseCorrelate {
		return g, fmt.Errorf("%w: unknown mode %d", ErrInvalidArgument, int(cfg.Mode))
	}
	if cfg.Norm != NormBackward {
		return g, fmt.Errorf("%w: Norm %v; convolutions are normalised (leave Norm at NormBackward)", ErrInvalidArgument, cfg.Norm)
	}
	if cfg.Boundary < BoundaryZero || cfg.Boundary > BoundaryPeriodic {
		return g, fmt.Errorf("%w: unknown Boundary %d; want BoundaryZero, BoundaryReplicate or BoundaryPeriodic", ErrInvalidArgument, int(cfg.Boundary))
	}
	if cfg.Boundary != BoundaryZero && cfg.KernelShape == nil {
		return g, fmt.Errorf("%w: Boundary %v applies to linear convolution (KernelShape); a circular one wraps around", ErrInvalidArgument, cfg.Boundary)
	}
	if cfg.Features < 0 || cfg.Kernels < 0 {
		return g, fmt.Errorf("%w: negative Features %d or Kernels %d", ErrInvalidArgument, cfg.Features, cfg.Kernels)
	}
	switch cfg.Matrix {
	case 0, 1:
		g.kf = g.features
	case 2, 3:
		if cfg.Features != 0 && cfg.Features != cfg.Matrix {
			return g, fmt.Errorf("%w: Matrix %d needs %d features, not %d", ErrInvalidArgument, cfg.Matrix, cfg.Matrix, cfg.Features)
		}
		g.features = cfg.Matrix
		g.kf = cfg.Matrix * cfg.Matrix
	default:
		return g, fmt.Errorf("%w: Matrix %d; want 2 or 3 (or 0)", ErrInvalidArgument, cfg.Matrix)
	}
	// the data's shape must be valid on its own
	if _, err := validate(cfg.Config, kindC2C, 8); err != nil {
		return g, err
	}
	if len(cfg.Shape) > 3 {
		return g, fmt.Errorf("%w: %d axes %v; convolutions take 1 to 3", ErrInvalidShape, len(cfg.Shape), cfg.Shape)
	}
	g.fft = append([]int(nil), cfg.Shape...)
	g.kshape = g.fft
	if cfg.KernelShape != nil {
		if cfg.Mode != Convolve {
			return g, fmt.Errorf("%w: zero-padded (KernelShape) convolution is for Convolve, not %v", ErrInvalidArgument, cfg.Mode)
		}
		if len(cfg.KernelShape) != len(cfg.Shape) {
			return g, fmt.Errorf("%w: kernel shape %v has %d axes, the data %d", ErrInvalidShape, cfg.KernelShape,
				len(cfg.KernelShape), len(cfg.Shape))
		}
		g.linear = true
		g.kshape = append([]int(nil), cfg.KernelShape...)
		for i, k := range cfg.KernelShape {
			if k <= 0 {
				return g, fmt.Errorf("%w: kernel shape %v has a dimension %d", ErrInvalidShape, cfg.KernelShape, k)
			}
			g.fft[i] = goodSize(cfg.Shape[i]+k-1, real && i == len(cfg.Shape)-1)
		}
	}
	g.points, g.kpoints, g.fftPoints = 1, 1, 1
	for i := range g.fft {
		g.points *= cfg.Shape[i]
		g.kpoints *= g.kshape[i]
		g.fftPoints *= g.fft[i]
	}
	return g, nil
}

// transformShape is the shape VkFFT transforms: the padded shape, with a leading axis of
// 1 for one-dimensional data (VkFFT 1.3.4 generates kernels that do not compile for a
// one-axis convolution; as the second axis of two, it works).
func (g *convGeometry) transformShape() []int {
	if len(g.fft) == 1 {
		return []int{1, g.fft[0]}
	}
	return g.fft
}

// transformLayout is the layout of the FFT of batch items of the padded shape.
func (g *convGeometry) transformLayout(batch int, k kind, complexSize uintptr) (layout, error) {
	c := g.cfg.Config
	c.Shape, c.Batch = g.transformShape(), batch
	return validate(c, k, complexSize)
}

// padKernel lays the kernel out as the transform needs it: kernels × kf components of
// the transform's shape; a linear convolution's kernel is shifted by (K-1)/2 per axis
// (wrapping around), which makes the result scipy's "same" window.
func padKernel[E any](g *convGeometry, kernel []E) []E {
	if !g.linear {
		return kernel
	}
	out := make([]E, g.kernels*g.kf*g.fftPoints)
	rank := len(g.fft)
	idx := make([]int, rank)
	for c := 0; c < g.kernels*g.kf; c++ {
		src := kernel[c*g.kpoints : (c+1)*g.kpoints]
		dst := out[c*g.fftPoints : (c+1)*g.fftPoints]
		for i := range idx {
			idx[i] = 0
		}
		for _, v := range src {
			pos := 0
			for a := 0; a < rank; a++ {
				p := idx[a] - (g.kshape[a]-1)/2
				if p < 0 {
					p += g.fft[a]
				}
				pos = pos*g.fft[a] + p
			}
			dst[pos] = v
			for a := rank - 1; a >= 0; a-- { // next index, last axis fastest
				if idx[a]++; idx[a] < g.kshape[a] {
					break
				}
				idx[a] = 0
			}
		}
	}
	return out
}

// replicate returns n copies of the bytes at p, one after another.
func replicate(p unsafe.Pointer, bytes int64, n int) unsafe.Pointer {
	src := unsafe.Slice((*byte)(p), bytes)
	out := make([]byte, 0, bytes*int64(n))
	for i := 0; i < n; i++ {
		out = append(out, src...)
	}
	return unsafe.Pointer(&out[0])
}

// newConvolution builds the kernel's spectrum and the convolution plan. kernel holds the
// padded kernel (padKernel) as elements of kernelElem bytes: complex for C2C, real for R2C.
func newConvolution(d *Device, g *convGeometry, k kind, complexSize uintptr, kernel unsafe.Pointer,
	kernelBytes int64) (*convolution, error) {
	h, err := d.use("new convolution")
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	if complexSize == 16 && !d.info.DoublePrecision {
		return nil, fmt.Errorf("%w: %s has no double precision", ErrUnsupported, d.info.Name)
	}
	c := &convolution{dev: d, st: engine.NewStatus()}
	if err := c.build(h, g, k, complexSize, kernel, kernelBytes); err != nil {
		c.releaseLocked()
		return nil, err
	}
	d.track(c)
	return c, nil
}

func (c *convolution) alloc(bytes int64) (uint64, error) {
	m, err := c.dev.alloc(bytes)
	if err == nil {
		c.mem = append(c.mem, devMem{m, bytes})
	}
	return m, err
}

func (c *convolution) build(h engine.Device, g *convGeometry, k kind, complexSize uintptr, kernel unsafe.Pointer,
	kernelBytes int64) error {
	d := c.dev
	ks := kernelsFor(&d.info)
	batch := max(g.cfg.Batch, 1)
	// VkFFT 1.3.4's convolution gives wrong results for numberBatches > 1, but convolves
	// each of coordinateFeatures components with its own kernel component: a batch of
	// plain items is one item of batch×features components, with the kernel spectrum
	// repeated per item. Several kernels, or matrices, run item by item.
	features, kf := g.features, g.kf
	c.items = 1
	if batch > 1 {
		if g.kernels > 1 || g.cfg.Matrix > 1 {
			c.items = batch
		} else {
			features, kf = batch*g.features, batch*g.kf
			kernel = replicate(kernel, kernelBytes, batch)
			kernelBytes *= int64(batch)
		}
	}
	// 1. the kernel's spectrum, in VkFFT's layout for the convolution plan
	kl, err := g.transformLayout(g.kernels, k, complexSize)
	if err != nil {
		return err
	}
	kl.scaleBuffers(int64(kf), int64(kf))
	spectrum, err := c.alloc(kl.complexBytes)
	if err != nil {
		return err
	}
	kparams := planParams{l: kl, useLUT: lutSetting(kl), buffer: spectrum,
		stages: engine.StageParams{Conv: engine.ConvKernel, Features: kf, ForwardOnly: true}}
	var tmp uint64
	if k == kindR2C {
		if tmp, err = d.alloc(kl.realBytes); err != nil {
			return err
		}
		defer d.free(tmp, kl.realBytes)
		kparams.realBuffer = tmp
		err = engine.MemUpload(h, c.st, tmp, kernel, kernelBytes)
	} else {
		err = engine.MemUpload(h, c.st, spectrum, kernel, kernelBytes)
	}
	if err != nil {
		return err
	}
	kp, err := ks.plan(h, &kparams)
	if err != nil {
		return err
	}
	err = engine.PlanRunIO(kp, c.st, false, 0, 0, 0, true)
	engine.PlanDestroy(kp)
	if err != nil {
		return err
	}

	// 2. the convolution: first pass reads src, last pass writes dst, scratch between
	l, err := g.transformLayout(1, k, complexSize)
	if err != nil {
		return err
	}
	elem := int64(complexSize)
	if k == kindR2C {
		elem /= 2
	}
	c.inLen = batch * g.features * g.points
	c.outLen = batch * g.kernels * g.features * g.points
	c.inBytes, c.outBytes = int64(c.inLen)*elem, int64(c.outLen)*elem
	l.scaleBuffers(int64(g.kernels*features), int64(features))
	if c.in, err = c.alloc(c.inBytes); err != nil {
		return err
	}
	// The result goes back into the input buffer (VkFFT's inverseReturnToInputBuffer),
	// or, with several kernels, into the work buffer: VkFFT 1.3.4 writes past the end of
	// a separate output buffer of a real convolution.
	c.inPlace = g.kernels == 1
	c.out = c.in
	scratch := uint64(0)
	if c.inPlace {
		if scratch, err = c.alloc(l.complexBytes); err != nil {
			return err
		}
	} else {
		if k == kindR2C || g.linear || len(g.fft) == 1 {
			// VkFFT 1.3.4 gets several kernels wrong on one axis, and has no place for their
			// results in a real or padded convolution
			return fmt.Errorf("%w: several kernels need complex data of 2 or 3 axes without zero padding", ErrUnsupported)
		}
		if compiledBackend == Vulkan && c.items > 1 {
			// Vulkan binds the result buffer with the plan's size, one item's: the items
			// after the first, at offsets into it, would fall outside the binding
			return fmt.Errorf("%w: several kernels with Batch > 1 on Vulkan (the result binding holds one item)",
				ErrUnsupported)
		}
		if c.out, err = c.alloc(c.outBytes); err != nil {
			return err
		}
		scratch = c.out
	}
	input := c.in
	if g.linear {
		// VkFFT 1.3.4's zero padding is wrong beyond the fastest axis (DTolm/VkFFT#201,
		// fixed later): the plan transforms the padded shape in place on a work buffer that
		// the pad kernel fills (zeros beyond the data) and the crop kernel reads back.
		if c.items > 1 {
			return fmt.Errorf("%w: zero-padded convolution of matrices or several kernels", ErrUnsupported)
		}
		if input, err = c.buildPad(h, g, k, complexSize, features); err != nil {
			return err
		}
	}
	st := engine.StageParams{
		SeparateInput: true, InputBuffer: input, InputBytes: c.inBytes,
		ReturnToInput: c.inPlace,
		Conv:          engine.ConvApply, Conj: g.cfg.Mode != Convolve, CrossPower: g.cfg.Mode == PhaseCorrelate,
		Features: features, Kernels: g.kernels, KernelBuffer: spectrum, KernelBytes: kl.complexBytes,
		OffsetsAtLaunch: c.items > 1,
	}
	if g.linear {
		st.InputBytes = int64(features*g.fftPoints) * elem
	}
	if g.cfg.Matrix > 1 {
		st.Matrix = g.cfg.Matrix
	}
	params := planParams{l: l, useLUT: lutSetting(l), buffer: scratch, realBuffer: input, stages: st}
	c.h, err = ks.plan(h, &params)
	return err
}

// buildPad makes the work buffer and the pad and crop kernels of a zero-padded
// convolution of comps components, and returns the work buffer.
func (c *convolution) buildPad(h engine.Device, g *convGeometry, k kind, complexSize uintptr, comps int) (uint64, error) {
	typ := map[uintptr]string{8: "float2", 16: "double2"}[complexSize]
	elem := int64(complexSize)
	if k == kindR2C {
		typ = map[uintptr]string{8: "float", 16: "double"}[complexSize]
		elem /= 2
	}
	io, err := c.alloc(int64(comps*g.fftPoints) * elem)
	if err != nil {
		return 0, err
	}
	ks := kernelsFor(&c.dev.info)
	if c.module, err = ks.module(h, padCropSource(compiledBackend, typ)); err != nil {
		return 0, err
	}
	pad, err := engine.ModuleKernel(c.module, "vkg_pad")
	if err != nil {
		return 0, err
	}
	crop, err := engine.ModuleKernel(c.module, "vkg_crop")
	if err != nil {
		return 0, err
	}
	var m, p [3]int
	for i := range m {
		m[i], p[i] = 1, 1
	}
	r := len(g.fft)
	for i := 0; i < r; i++ {
		m[3-r+i], p[3-r+i] = g.cfg.Shape[i], g.fft[i]
	}
	if c.pad = engine.ConvPadNew(pad, crop, comps, m, p, io, int(g.cfg.Boundary)); c.pad == nil {
		return 0, fmt.Errorf("%w: out of host memory", ErrOutOfMemory)
	}
	return io, nil
}

// applyHost is the hot path for host slices: one cgo call.
func (c *convolution) applyHost(dst, src unsafe.Pointer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == nil {
		return closedError("apply", "convolution")
	}
	if err := engine.PlanRunIOHost(c.h, c.dev.h, c.pad, c.st, dst, c.outBytes, c.out, src, c.inBytes, c.in, c.items); err != nil {
		return opError("apply", err)
	}
	return nil
}

// applyBuffers queues the convolution of device buffer src into dst.
func (c *convolution) applyBuffers(dst, src *buffer) error {
	const op = "apply buffer"
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == nil {
		return closedError(op, "convolution")
	}
	src.mu.RLock()
	defer src.mu.RUnlock()
	if dst != src {
		dst.mu.RLock()
		defer dst.mu.RUnlock()
	}
	if src.m == 0 || dst.m == 0 {
		return closedError(op, "buffer")
	}
	if src.dev != c.dev || dst.dev != c.dev {
		return opError(op, ErrWrongDevice)
	}
	in, out, from := src.m, dst.m, uint64(0)
	if c.inPlace && c.pad == nil { // the result lands where the input was: dst, holding a copy of src
		in = dst.m
		if dst != src {
			from = src.m
		}
	}
	if err := engine.PlanRunItems(c.h, c.dev.h, c.pad, c.st, from, in, out, c.items, c.inBytes/int64(c.items),
		c.outBytes/int64(c.items)); err != nil {
		return opError(op, err)
	}
	return nil
}

func (c *convolution) close() error {
	c.dev.closeResource(c)
	return nil
}

// release frees the plan and the memory; the caller holds c.dev.mu.
func (c *convolution) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releaseLocked()
}

func (c *convolution) releaseLocked() {
	if c.h != nil {
		_ = engine.DeviceSync(c.dev.h)
		engine.PlanDestroy(c.h)
		c.h = nil
	}
	if c.module != nil {
		engine.ModuleDestroy(c.module)
		c.module = nil
	}
	if c.pad != nil {
		engine.ConvPadFree(c.pad)
		c.pad = nil
	}
	for _, m := range c.mem {
		c.dev.free(m.m, m.bytes)
	}
	c.mem = nil
	if c.st != nil {
		engine.FreeStatus(c.st)
		c.st = nil
	}
}

// Convolution convolves complex data with a fixed kernel; see ConvolutionConfig.
type Convolution[T Complex] struct{ c *convolution }

// NewConvolution transforms kernel once and builds the convolution plan on d. kernel has
// Kernels × KF × prod(KernelShape or Shape) elements (see ConvolutionConfig).
func NewConvolution[T Complex](d *Device, cfg ConvolutionConfig, kernel []T) (*Convolution[T], error) {
	const op = "new convolution"
	g, err := validateConv(cfg, false)
	if err != nil {
		return nil, opError(op, err)
	}
	if err := checkLen(op, "kernel", kernel == nil, len(kernel), g.kernels*g.kf*g.kpoints); err != nil {
		return nil, err
	}
	padded := padKernel(&g, kernel)
	c, err := newConvolution(d, &g, kindC2C, sizeOf[T](), unsafe.Pointer(&padded[0]),
		int64(len(padded))*int64(sizeOf[T]()))
	if err != nil {
		return nil, opError(op, err)
	}
	return &Convolution[T]{c: c}, nil
}

// InLen is the number of elements Apply takes: Batch × Features × prod(Shape).
func (c *Convolution[T]) InLen() int { return c.c.inLen }

// OutLen is the number of elements Apply returns: Batch × Kernels × Features × prod(Shape).
func (c *Convolution[T]) OutLen() int { return c.c.outLen }

// Apply convolves src into dst (host slices of InLen and OutLen elements; they may be
// the same slice when the lengths agree).
func (c *Convolution[T]) Apply(dst, src []T) error {
	if err := checkLen("apply", "src", src == nil, len(src), c.c.inLen); err != nil {
		return err
	}
	if err := checkLen("apply", "dst", dst == nil, len(dst), c.c.outLen); err != nil {
		return err
	}
	return c.c.applyHost(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]))
}

// ApplyBuffer queues the convolution of device buffer src into dst (dst may be src when
// the lengths agree); read the result with dst.Download, or wait with Device.Sync.
func (c *Convolution[T]) ApplyBuffer(dst, src *Buffer[T]) error {
	if err := checkBuffer("apply buffer", "src", src, c.c.inLen); err != nil {
		return err
	}
	if err := checkBuffer("apply buffer", "dst", dst, c.c.outLen); err != nil {
		return err
	}
	return c.c.applyBuffers(&dst.b, &src.b)
}

// Close frees the plan, the kernel's spectrum and the device buffers. It is idempotent.
func (c *Convolution[T]) Close() error { return c.c.close() }

// RealConvolution convolves real data with a fixed real kernel through real-to-complex
// transforms. R and C must have the same precision (float32 with complex64).
type RealConvolution[R Real, C Complex] struct{ c *convolution }

// NewRealConvolution is NewConvolution for real data and a real kernel.
func NewRealConvolution[R Real, C Complex](d *Device, cfg ConvolutionConfig, kernel []R) (*RealConvolution[R, C], error) {
	const op = "new convolution"
	if 2*sizeOf[R]() != sizeOf[C]() {
		var r R
		var c C
		return nil, opError(op, fmt.Errorf("%w: real %T with complex %T", ErrPrecision, r, c))
	}
	g, err := validateConv(cfg, true)
	if err != nil {
		return nil, opError(op, err)
	}
	if err := checkLen(op, "kernel", kernel == nil, len(kernel), g.kernels*g.kf*g.kpoints); err != nil {
		return nil, err
	}
	padded := padKernel(&g, kernel)
	c, err := newConvolution(d, &g, kindR2C, sizeOf[C](), unsafe.Pointer(&padded[0]),
		int64(len(padded))*int64(sizeOf[R]()))
	if err != nil {
		return nil, opError(op, err)
	}
	return &RealConvolution[R, C]{c: c}, nil
}

// InLen is the number of elements Apply takes.
func (c *RealConvolution[R, C]) InLen() int { return c.c.inLen }

// OutLen is the number of elements Apply returns.
func (c *RealConvolution[R, C]) OutLen() int { return c.c.outLen }

// Apply convolves real src into real dst.
func (c *RealConvolution[R, C]) Apply(dst, src []R) error {
	if err := checkLen("apply", "src", src == nil, len(src), c.c.inLen); err != nil {
		return err
	}
	if err := checkLen("apply", "dst", dst == nil, len(dst), c.c.outLen); err != nil {
		return err
	}
	return c.c.applyHost(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]))
}

// ApplyBuffer queues the convolution of device buffer src into dst.
func (c *RealConvolution[R, C]) ApplyBuffer(dst, src *Buffer[R]) error {
	if err := checkBuffer("apply buffer", "src", src, c.c.inLen); err != nil {
		return err
	}
	if err := checkBuffer("apply buffer", "dst", dst, c.c.outLen); err != nil {
		return err
	}
	return c.c.applyBuffers(&dst.b, &src.b)
}

// Close frees the plan, the kernel's spectrum and the device buffers. It is idempotent.
func (c *RealConvolution[R, C]) Close() error { return c.c.close() }
