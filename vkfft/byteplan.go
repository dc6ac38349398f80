package vkfft

import (
	"fmt"
	"unsafe"
)

// ByteKind says what a BytePlan transforms.
type ByteKind struct {
	// Real selects a real-to-complex plan (Forward) and complex-to-real (Inverse) in
	// numpy's rfftn layout, instead of complex-to-complex.
	Real bool
	// Double selects double precision: complex128 and float64 data instead of complex64
	// and float32.
	Double bool
}

// BytePlan is a plan of any kind and precision whose data are handled as bytes: for
// code that receives memory as (pointer, size) pairs, such as the C API, or that picks
// the precision at run time. It runs exactly like Plan and RealPlan; sizes are checked
// once, in bytes, against what the plan needs (ForwardBytes, InverseBytes).
type BytePlan struct {
	p    *plan
	kind ByteKind
}

// NewBytePlan builds a plan of kind k on d; cfg.Shape is the shape of the complex data,
// or for a real plan of the real data.
func NewBytePlan(d *Device, cfg Config, k ByteKind) (*BytePlan, error) {
	kd, complexSize := kindC2C, uintptr(8)
	if k.Real {
		kd = kindR2C
	}
	if k.Double {
		complexSize = 16
	}
	l, err := validate(cfg, kd, complexSize)
	if err != nil {
		return nil, opError("new plan", err)
	}
	p, err := newPlan(d, l, planOptions{})
	if err != nil {
		return nil, err
	}
	return &BytePlan{p: p, kind: k}, nil
}

// Kind is the plan's kind and precision.
func (p *BytePlan) Kind() ByteKind { return p.kind }

// Config returns the plan's configuration, with Batch filled in.
func (p *BytePlan) Config() Config { return cloneConfig(p.p.l.cfg) }

// Device is the device the plan runs on.
func (p *BytePlan) Device() *Device { return p.p.dev }

// ComplexBytes is the size of the plan's complex data: the input and output of a
// complex plan, the spectrum of a real one.
func (p *BytePlan) ComplexBytes() int64 { return p.p.l.complexBytes }

// RealBytes is the size of a real plan's real data; 0 for a complex plan.
func (p *BytePlan) RealBytes() int64 { return p.p.l.realBytes }

// ForwardBytes returns the sizes Forward writes (dst) and reads (src).
func (p *BytePlan) ForwardBytes() (dst, src int64) { return p.p.l.ioBytes(false) }

// InverseBytes returns the sizes Inverse writes (dst) and reads (src).
func (p *BytePlan) InverseBytes() (dst, src int64) { return p.p.l.ioBytes(true) }

// ioBytes returns the output and input sizes of a host or buffer transform.
func (l *layout) ioBytes(inverse bool) (dst, src int64) {
	switch {
	case l.kind != kindR2C:
		return l.complexBytes, l.complexBytes
	case inverse:
		return l.realBytes, l.complexBytes
	}
	return l.complexBytes, l.realBytes
}

// Forward transforms host memory src into dst, each exactly the size ForwardBytes says.
// dst and src may be the same memory (in place) for a complex plan.
func (p *BytePlan) Forward(dst, src []byte) error { return p.run(false, dst, src) }

// Inverse is the inverse of Forward, scaled as Config.Norm says; src is not modified.
func (p *BytePlan) Inverse(dst, src []byte) error { return p.run(true, dst, src) }

func (p *BytePlan) run(inverse bool, dst, src []byte) error {
	op := direction(inverse)
	wantDst, wantSrc := p.p.l.ioBytes(inverse)
	if err := checkBytes(op, "src", src == nil, int64(len(src)), wantSrc); err != nil {
		return err
	}
	if err := checkBytes(op, "dst", dst == nil, int64(len(dst)), wantDst); err != nil {
		return err
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
// VkFFT uses src as scratch space: its contents are undefined afterwards.
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
	wantDst, wantSrc := p.p.l.ioBytes(inverse)
	if err := checkBytes(op, "src", false, src.b.bytes, wantSrc); err != nil {
		return err
	}
	if err := checkBytes(op, "dst", false, dst.b.bytes, wantDst); err != nil {
		return err
	}
	switch {
	case p.kind.Real && dst == src:
		return opError(op, fmt.Errorf("%w: a real plan needs distinct src and dst buffers", ErrInvalidArgument))
	case p.kind.Real && inverse:
		return p.p.runDevice(true, &src.b, &dst.b, nil) // complex src, real dst
	case p.kind.Real:
		return p.p.runDevice(false, &dst.b, &src.b, nil)
	case dst == src:
		return p.p.runDevice(inverse, &dst.b, nil, nil)
	}
	return p.p.runDevice(inverse, &dst.b, nil, &src.b)
}

// ForwardNative transforms device memory given as native handles (see
// Plan.ForwardNative for the rules); the sizes cannot be checked.
func (p *BytePlan) ForwardNative(dst, src uint64) error { return p.p.runNative(false, dst, src) }

// InverseNative is the inverse of ForwardNative.
func (p *BytePlan) InverseNative(dst, src uint64) error { return p.p.runNative(true, dst, src) }

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
	b := &ByteBuffer{b: buffer{dev: d, m: m, n: int(bytes), bytes: bytes, st: newStatus()}}
	d.track(&b.b)
	return b, nil
}

// Bytes is the buffer's size.
func (b *ByteBuffer) Bytes() int64 { return b.b.bytes }

// Device is the device the buffer lives on.
func (b *ByteBuffer) Device() *Device { return b.b.dev }

// Native returns the buffer's device memory as the backend's handle (see Buffer.Native).
func (b *ByteBuffer) Native() uint64 {
	b.b.mu.RLock()
	defer b.b.mu.RUnlock()
	return b.b.m
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
