package vkfft

import (
	"fmt"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// ByteKind says what a BytePlan transforms.
type ByteKind struct {
	// Real selects a real-to-complex plan (Forward) and complex-to-real (Inverse) in
	// numpy's rfftn layout, instead of complex-to-complex.
	Real bool
	// Double selects double precision: complex128 and float64 data instead of complex64
	// and float32.
	Double bool
	// R2R, if not 0, selects a real-to-real plan of that kind (NewR2RPlan); Real must
	// then be false.
	R2R R2RKind
}

// BytePlan is a plan of any kind, precision and layout whose data are handled as bytes:
// for code that receives memory as (pointer, size) pairs, such as the C API, or that
// picks the precision at run time. It runs exactly like Plan, RealPlan and R2RPlan;
// sizes are checked once, in bytes, against what the plan needs (ForwardBytes,
// InverseBytes). Data are the device's bytes as they are: a StorageHalf plan's are
// fp16 values (no conversion), a RealInPlace plan's one padded array (dst == src), and a
// strided plan (InStrides/OutStrides) runs on device memory only, whose buffers must
// hold at least the sizes.
type BytePlan struct {
	p    *plan
	kind ByteKind
}

// NewBytePlan builds a plan of kind k on d; cfg.Shape is the shape of the complex data,
// or for a real plan of the real data.
func NewBytePlan(d *Device, cfg Config, k ByteKind) (*BytePlan, error) {
	l, err := byteLayout(cfg, k)
	if err != nil {
		return nil, opError("new plan", err)
	}
	p, err := newPlan(d, l)
	if err != nil {
		return nil, err
	}
	return &BytePlan{p: p, kind: k}, nil
}

// byteLayout checks cfg for a BytePlan of kind k and returns its layout.
func byteLayout(cfg Config, k ByteKind) (layout, error) {
	kd, complexSize := kindC2C, uintptr(8)
	switch {
	case k.Real && k.R2R != 0:
		return layout{}, fmt.Errorf("%w: ByteKind sets both Real and R2R (%v)", ErrInvalidArgument, k.R2R)
	case k.Real:
		kd = kindR2C
	case k.R2R != 0:
		kd = kindR2R
	}
	if k.Double {
		complexSize = 16
	}
	return validateKind(cfg, kd, complexSize, k.R2R)
}

// Kind is the plan's kind and precision.
func (p *BytePlan) Kind() ByteKind { return p.kind }

// Config returns the plan's configuration, with Batch filled in.
func (p *BytePlan) Config() Config { return cloneConfig(p.p.l.cfg) }

// Device is the device the plan runs on.
func (p *BytePlan) Device() *Device { return p.p.dev }

// ComplexBytes is the size of the plan's complex data: the output of a complex plan
// (a strided plan's output span), the spectrum of a real one (for RealInPlace the
// padded array); 0 for a real-to-real plan.
func (p *BytePlan) ComplexBytes() int64 {
	if p.p.l.kind == kindR2R {
		return 0
	}
	return p.p.l.complexBytes
}

// RealBytes is the size of a real plan's real data, or a real-to-real plan's output;
// 0 for a complex plan and for RealInPlace, whose real data is ComplexBytes.
func (p *BytePlan) RealBytes() int64 {
	switch p.p.l.kind {
	case kindR2C:
		return p.p.l.realBytes
	case kindR2R:
		return p.p.l.complexBytes
	}
	return 0
}

// ForwardBytes returns the sizes Forward writes (dst) and reads (src).
func (p *BytePlan) ForwardBytes() (dst, src int64) { return p.p.l.ioBytes(false) }

// InverseBytes returns the sizes Inverse writes (dst) and reads (src).
func (p *BytePlan) InverseBytes() (dst, src int64) { return p.p.l.ioBytes(true) }

// ioBytes returns the output and input sizes of a host or buffer transform (for strided
// plans the least a buffer holds). complexBytes is the plan's own buffer (the output
// side), realBytes its second one (R2C's real data, a strided plan's input side).
func (l *layout) ioBytes(inverse bool) (dst, src int64) {
	switch {
	case l.kind == kindR2C && l.cfg.RealInPlace:
		return l.complexBytes, l.complexBytes
	case l.kind == kindR2C && inverse: // FullSpectrum too: complexBytes is the whole spectrum
		return l.realBytes, l.complexBytes
	case l.kind == kindR2C:
		return l.complexBytes, l.realBytes
	case l.strided:
		return l.complexBytes, l.realBytes
	}
	return l.complexBytes, l.complexBytes
}

// inPlaceRule says whether dst may, must or must not be src.
func (l *layout) inPlaceRule() ccore.InPlaceRule {
	switch {
	case l.kind == kindR2C && l.cfg.RealInPlace:
		return ccore.InPlaceRequired
	case l.kind == kindR2C:
		return ccore.InPlaceRefusedR2C
	case l.strided && !sameStrides(l):
		return ccore.InPlaceRefusedStrides
	}
	return ccore.InPlaceAllowed
}

// checkInPlaceRule reports dst and src that break the plan's in-place rule.
func (l *layout) checkInPlaceRule(op string, same bool) error {
	switch l.inPlaceRule() {
	case ccore.InPlaceRequired:
		if !same {
			return fmt.Errorf("vkfft: %s: %w: a RealInPlace plan transforms one padded array: dst must be src", op, ErrInvalidArgument)
		}
	case ccore.InPlaceRefusedR2C:
		if same {
			return fmt.Errorf("vkfft: %s: %w: a real plan needs distinct src and dst (real and complex data differ)", op, ErrInvalidArgument)
		}
	case ccore.InPlaceRefusedStrides:
		if same {
			return fmt.Errorf("vkfft: %s: %w: in place (dst == src) needs InStrides equal to OutStrides (%v, %v)",
				op, ErrInvalidArgument, l.cfg.InStrides, l.cfg.OutStrides)
		}
	}
	return nil
}

// Forward transforms host memory src into dst, each exactly the size ForwardBytes says.
// dst and src may be the same memory (in place) for a complex or real-to-real plan,
// and must be for a RealInPlace plan. Strided plans refuse host memory.
func (p *BytePlan) Forward(dst, src []byte) error { return p.run(false, dst, src) }

// Inverse is the inverse of Forward, scaled as Config.Norm says; src is not modified
// (unless it is dst).
func (p *BytePlan) Inverse(dst, src []byte) error { return p.run(true, dst, src) }

func (p *BytePlan) run(inverse bool, dst, src []byte) error {
	op := direction(inverse)
	l := &p.p.l
	if err := l.hostable(op); err != nil {
		return err
	}
	wantDst, wantSrc := l.ioBytes(inverse)
	if err := checkBytes(op, "src", src == nil, int64(len(src)), wantSrc); err != nil {
		return err
	}
	if err := checkBytes(op, "dst", dst == nil, int64(len(dst)), wantDst); err != nil {
		return err
	}
	if l.cfg.RealInPlace {
		if err := l.checkInPlaceRule(op, &dst[0] == &src[0]); err != nil {
			return err
		}
	}
	return p.p.runHost(inverse, unsafe.Pointer(&dst[0]), wantDst, unsafe.Pointer(&src[0]), wantSrc)
}

// checkBytes reports a nil or wrongly sized byte argument.
func checkBytes(op, name string, isNil bool, got, want int64) error {
	if isNil {
		return fmt.Errorf("vkfft: %s: %w: %s is nil", op, ErrNilBuffer, name)
	}
	if got != want {
		return fmt.Errorf("vkfft: %s: %w: %s has %d bytes, the plan needs %d", op, ErrLength, name, got, want)
	}
	return nil
}

// ForwardBuffer transforms device buffer src into dst (sizes as ForwardBytes says); for
// a complex plan dst may be src (in place, the fastest). The work is queued on the
// device, as with Plan.ForwardBuffer.
func (p *BytePlan) ForwardBuffer(dst, src *ByteBuffer) error { return p.runBuffers(false, dst, src) }

// InverseBuffer is the inverse of ForwardBuffer. For a real plan of more than one axis
// VkFFT uses src as scratch space: its contents are undefined afterwards (a batch of
// 1-D lines only loses the imaginary parts of bins 0 and n/2; see RealPlan.InverseBuffer).
func (p *BytePlan) InverseBuffer(dst, src *ByteBuffer) error { return p.runBuffers(true, dst, src) }

func (p *BytePlan) runBuffers(inverse bool, dst, src *ByteBuffer) error {
	op := direction(inverse)
	if dst == nil || src == nil {
		name := "src"
		if dst == nil {
			name = "dst"
		}
		return fmt.Errorf("vkfft: %s: %w: %s is nil", op, ErrNilBuffer, name)
	}
	l := &p.p.l
	wantDst, wantSrc := l.ioBytes(inverse)
	if err := checkBufferBytes(op, "src", src.b.bytes, wantSrc, l.strided); err != nil {
		return err
	}
	if err := checkBufferBytes(op, "dst", dst.b.bytes, wantDst, l.strided); err != nil {
		return err
	}
	if err := l.checkInPlaceRule(op, dst == src); err != nil {
		return err
	}
	switch {
	case l.kind == kindR2C && l.cfg.RealInPlace:
		return p.p.runDevice(inverse, &dst.b, nil, nil)
	case l.kind == kindR2C && inverse:
		return p.p.runDevice(true, &src.b, &dst.b, nil) // complex src, real dst
	case l.kind == kindR2C:
		return p.p.runDevice(false, &dst.b, &src.b, nil)
	case l.strided:
		return p.p.runDevice(inverse, &dst.b, &src.b, nil) // src through VkFFT's formatted input
	case dst == src:
		return p.p.runDevice(inverse, &dst.b, nil, nil)
	}
	return p.p.runDevice(inverse, &dst.b, nil, &src.b)
}

// checkBufferBytes checks a device buffer's size: exactly want, or for a strided plan
// at least want.
func checkBufferBytes(op, name string, got, want int64, strided bool) error {
	if strided {
		if got < want {
			return fmt.Errorf("vkfft: %s: %w: %s has %d bytes; the plan's strides reach %d", op, ErrLength, name, got, want)
		}
		return nil
	}
	return checkBytes(op, name, false, got, want)
}

// ForwardNative transforms device memory given as native handles (see
// Plan.ForwardNative for the rules); the sizes cannot be checked.
func (p *BytePlan) ForwardNative(dst, src uintptr) error {
	return p.p.runNative(false, uint64(dst), uint64(src))
}

// InverseNative is the inverse of ForwardNative.
func (p *BytePlan) InverseNative(dst, src uintptr) error {
	return p.p.runNative(true, uint64(dst), uint64(src))
}

// Close frees the plan's kernels and device buffers. It is idempotent.
func (p *BytePlan) Close() error { return p.p.close() }

// ByteBuffer is device memory of a number of bytes, for BytePlan's buffer transforms.
type ByteBuffer struct{ b buffer }

// NewByteBuffer allocates bytes (positive) of device memory on d; its contents are
// undefined until written.
func NewByteBuffer(d *Device, bytes int64) (*ByteBuffer, error) {
	if bytes <= 0 {
		return nil, opError("new buffer", fmt.Errorf("%w: %d bytes; must be positive", ErrInvalidArgument, bytes))
	}
	if int64(int(bytes)) != bytes {
		return nil, opError("new buffer", fmt.Errorf("%w: %d bytes", ErrTooLarge, bytes))
	}
	if _, err := d.use("new buffer"); err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	m, err := d.alloc(bytes)
	if err != nil {
		return nil, opError("new buffer", err)
	}
	b := &ByteBuffer{b: buffer{dev: d, m: m, n: int(bytes), bytes: bytes, st: engine.NewStatus()}}
	d.track(&b.b)
	return b, nil
}

// Bytes is the buffer's size.
func (b *ByteBuffer) Bytes() int64 { return b.b.bytes }

// Device is the device the buffer lives on.
func (b *ByteBuffer) Device() *Device { return b.b.dev }

// Native returns the buffer's device memory as the backend's handle (see Buffer.Native).
func (b *ByteBuffer) Native() uintptr {
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return uintptr(b.b.m)
}

// Upload copies src (exactly Bytes long) to the device and returns when src may be reused.
func (b *ByteBuffer) Upload(src []byte) error {
	if err := checkBytes("upload", "src", src == nil, int64(len(src)), b.b.bytes); err != nil {
		return err
	}
	return b.b.copy(true, unsafe.Pointer(&src[0]))
}

// Download waits for the work queued on the device, then copies the buffer into dst
// (exactly Bytes long).
func (b *ByteBuffer) Download(dst []byte) error {
	if err := checkBytes("download", "dst", dst == nil, int64(len(dst)), b.b.bytes); err != nil {
		return err
	}
	return b.b.copy(false, unsafe.Pointer(&dst[0]))
}

// Close frees the device memory. It is idempotent.
func (b *ByteBuffer) Close() error {
	b.b.dev.closeResource(&b.b)
	return nil
}

// ForwardAsync queues the forward transform of src into dst, pinned host buffers of
// exactly the sizes ForwardBytes says, on s and returns at once; s.Wait() waits for the
// result. See Stream for when the buffers may be touched again.
func (p *BytePlan) ForwardAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	return p.runAsync(s, false, dst, src)
}

// InverseAsync is the asynchronous Inverse.
func (p *BytePlan) InverseAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	return p.runAsync(s, true, dst, src)
}

func (p *BytePlan) runAsync(s *Stream, inverse bool, dst, src *HostBuffer[byte]) error {
	op := direction(inverse) + " async"
	if dst == nil || src == nil {
		return opError(op, fmt.Errorf("%w: host buffer", ErrNilBuffer))
	}
	l := &p.p.l
	if err := l.asyncable(op); err != nil {
		return err
	}
	dstBytes, srcBytes := l.ioBytes(inverse)
	return p.p.runAsync(s, inverse, &dst.b, &src.b, int(dstBytes), int(srcBytes), dstBytes, srcBytes)
}
