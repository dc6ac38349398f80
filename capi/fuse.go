package main

// The C API of vkfft's convolutions and spectrometer (include/vkfftgo.h).

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "handles.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cfused is a convolution or a spectrometer made through the C API.
type cfused struct {
	dev    *cdev
	handle uintptr
	conv   cconv               // a convolution, or nil
	sp     *vkfft.Spectrometer // a spectrometer, or nil
}

// cconv is a convolution of any of the four element-type combinations.
type cconv interface {
	apply(out, in unsafe.Pointer) error
	applyNative(out, in uintptr) error
	bytes() (in, out int64)
	Close() error
}

type convC[T vkfft.Complex] struct{ c *vkfft.Convolution[T] }

func (w convC[T]) apply(out, in unsafe.Pointer) error {
	return w.c.Apply(unsafe.Slice((*T)(out), w.c.OutLen()), unsafe.Slice((*T)(in), w.c.InLen()))
}
func (w convC[T]) applyNative(out, in uintptr) error { return w.c.ApplyNative(out, in) }
func (w convC[T]) bytes() (int64, int64)             { return w.c.InBytes(), w.c.OutBytes() }
func (w convC[T]) Close() error                      { return w.c.Close() }

type convR[R vkfft.Real, C vkfft.Complex] struct{ c *vkfft.RealConvolution[R, C] }

func (w convR[R, C]) apply(out, in unsafe.Pointer) error {
	return w.c.Apply(unsafe.Slice((*R)(out), w.c.OutLen()), unsafe.Slice((*R)(in), w.c.InLen()))
}
func (w convR[R, C]) applyNative(out, in uintptr) error { return w.c.ApplyNative(out, in) }
func (w convR[R, C]) bytes() (int64, int64)             { return w.c.InBytes(), w.c.OutBytes() }
func (w convR[R, C]) Close() error                      { return w.c.Close() }

func (f *cfused) close() error {
	if f.conv != nil {
		return f.conv.Close()
	}
	return f.sp.Close()
}

// lookupFused finds a live convolution (wantConv) or spectrometer handle.
func lookupFused(h unsafe.Pointer, wantConv bool, what string) (*cfused, error) {
	if h == nil {
		return nil, errNull(what + " handle")
	}
	tables.mu.RLock()
	f := tables.fused[uintptr(h)]
	tables.mu.RUnlock()
	// the C table too: a handle of another kind or a made-up value is refused there
	if f != nil {
		if slot := C.vkgc_acquire(h, C.VKGC_FUSED, 0); slot != nil {
			C.vkgc_release(slot)
		} else {
			f = nil
		}
	}
	if f == nil || (f.conv != nil) != wantConv {
		return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
			"%p is not a live %s handle (destroyed, its device closed, or a handle of another kind?)", h, what)
	}
	return f, nil
}

// holdBuffers locks the buffers' handle slots shared, as the C per-call path does, so
// that a concurrent destroy waits for the call; release unlocks them.
func holdBuffers(bufs ...*cbuf) (release func(), err error) {
	var held []*C.vkgc_slot
	release = func() {
		for _, s := range held {
			C.vkgc_release(s)
		}
	}
	for i, b := range bufs {
		if i > 0 && b == bufs[0] {
			continue // the same buffer twice: one shared hold
		}
		s := C.vkgc_acquire(handlePtr(b.handle), C.VKGC_BUFFER, 0)
		if s == nil {
			release()
			return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE, "a buffer was destroyed during the call")
		}
		held = append(held, s)
	}
	return release, nil
}

// descTail checks the size field of a descriptor: at least this library's struct, and
// any larger (newer) remainder all zero.
func descTail(desc unsafe.Pointer, size uint32, known uintptr, init string) error {
	s := uintptr(size)
	if s < known {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->size is %d, this library's descriptor has %d bytes: initialise it with %s", s, known, init)
	}
	if s > maxDescSize {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is %d: not a descriptor", s)
	}
	for i, b := range unsafe.Slice((*byte)(unsafe.Add(desc, known)), s-known) {
		if b != 0 {
			return errorf(C.VKFFTGO_ERROR_UNSUPPORTED,
				"the descriptor sets a field at byte %d that libvkfftgo %s does not know (built with a newer vkfftgo.h?)",
				known+uintptr(i), versionString())
		}
	}
	return nil
}

// publishFused enters f in the tables and returns its handle.
func publishFused(d *cdev, f *cfused) (unsafe.Pointer, error) {
	f.dev = d
	err := publish(C.VKGC_FUSED, nil, tables.fused, &d.fused, f, &f.handle, func() { f.close() })
	if err != nil {
		return nil, err
	}
	return handlePtr(f.handle), nil
}

//export vkgcgo_convolution_create
func vkgcgo_convolution_create(dh *C.vkfftgo_device, desc *C.vkfftgo_convolution_desc, kernel unsafe.Pointer,
	kernelBytes C.size_t, out **C.vkfftgo_convolution) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_convolution_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("convolution output pointer"))
	}
	*out = nil
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if desc == nil {
		return fail(fn, errNull("desc"))
	}
	if kernel == nil {
		return fail(fn, errNull("kernel"))
	}
	if err := descTail(unsafe.Pointer(desc), uint32(desc.size), C.sizeof_vkfftgo_convolution_desc,
		"VKFFTGO_CONVOLUTION_DESC_INIT"); err != nil {
		return fail(fn, err)
	}
	if desc.rank < 1 || desc.rank > C.VKFFTGO_MAX_RANK {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_SHAPE, "desc->rank is %d; want 1 to 3", desc.rank))
	}
	cfg := vkfft.ConvolutionConfig{Mode: vkfft.ConvolutionMode(desc.mode), Features: int(desc.features),
		Matrix: int(desc.matrix), Kernels: int(desc.kernels)}
	cfg.Batch = int(desc.batch)
	cfg.LUT = vkfft.LUT(desc.lut)
	padded := false
	for i := 0; i < int(desc.rank); i++ {
		cfg.Shape = append(cfg.Shape, int(desc.shape[i]))
		padded = padded || desc.kernel_shape[i] != 0
	}
	if padded {
		for i := 0; i < int(desc.rank); i++ {
			cfg.KernelShape = append(cfg.KernelShape, int(desc.kernel_shape[i]))
		}
	}
	// the kernel's element count follows from its byte size and the precision
	elem := map[[2]C.int32_t]uintptr{{C.VKFFTGO_C2C, C.VKFFTGO_SINGLE}: 8, {C.VKFFTGO_C2C, C.VKFFTGO_DOUBLE}: 16,
		{C.VKFFTGO_R2C, C.VKFFTGO_SINGLE}: 4, {C.VKFFTGO_R2C, C.VKFFTGO_DOUBLE}: 8}[[2]C.int32_t{desc.kind, desc.precision}]
	if elem == 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->kind %d or desc->precision %d is not known",
			desc.kind, desc.precision))
	}
	if uintptr(kernelBytes)%elem != 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "kernel_bytes %d is not a whole number of %d-byte elements",
			kernelBytes, elem))
	}
	n := int(uintptr(kernelBytes) / elem)
	var c cconv
	switch elem {
	case 8:
		if desc.kind == C.VKFFTGO_C2C {
			var k *vkfft.Convolution[complex64]
			k, err = vkfft.NewConvolution[complex64](d.d, cfg, unsafe.Slice((*complex64)(kernel), n))
			c = convC[complex64]{k}
		} else {
			var k *vkfft.RealConvolution[float64, complex128]
			k, err = vkfft.NewRealConvolution[float64, complex128](d.d, cfg, unsafe.Slice((*float64)(kernel), n))
			c = convR[float64, complex128]{k}
		}
	case 16:
		var k *vkfft.Convolution[complex128]
		k, err = vkfft.NewConvolution[complex128](d.d, cfg, unsafe.Slice((*complex128)(kernel), n))
		c = convC[complex128]{k}
	default:
		var k *vkfft.RealConvolution[float32, complex64]
		k, err = vkfft.NewRealConvolution[float32, complex64](d.d, cfg, unsafe.Slice((*float32)(kernel), n))
		c = convR[float32, complex64]{k}
	}
	if err != nil {
		return fail(fn, err)
	}
	tok, err := publishFused(d, &cfused{conv: c})
	if err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_convolution)(tok)
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_convolution_destroy
func vkgcgo_convolution_destroy(h *C.vkfftgo_convolution) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_convolution_destroy"
	defer recoverTo(fn, &rc)
	return destroyFused(fn, unsafe.Pointer(h), true, "convolution")
}

func destroyFused(fn string, h unsafe.Pointer, conv bool, what string) C.vkfftgo_status {
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	f, err := lookupFused(h, conv, what)
	if err != nil {
		return fail(fn, err)
	}
	f.dev.mu.RLock() // vkfftgo_device_close waits for this destroy
	defer f.dev.mu.RUnlock()
	if withdraw(tables.fused, f.handle, func(f *cfused) map[*cfused]struct{} { return f.dev.fused }) == nil {
		_, err := lookupFused(h, conv, what) // destroyed (or its device closed) meanwhile
		return fail(fn, err)
	}
	retire(f.handle, C.VKGC_FUSED)
	return ret(fn, f.close())
}

//export vkgcgo_convolution_bytes
func vkgcgo_convolution_bytes(h *C.vkfftgo_convolution, inBytes, outBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_convolution_bytes"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), true, "convolution")
	if err != nil {
		return fail(fn, err)
	}
	in, out := f.conv.bytes()
	if inBytes != nil {
		*inBytes = C.size_t(in)
	}
	if outBytes != nil {
		*outBytes = C.size_t(out)
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_convolution_apply
func vkgcgo_convolution_apply(h *C.vkfftgo_convolution, out unsafe.Pointer, outBytes C.size_t, in unsafe.Pointer,
	inBytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_convolution_apply"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), true, "convolution")
	if err != nil {
		return fail(fn, err)
	}
	if out == nil || in == nil {
		return fail(fn, errNull("out or in"))
	}
	wantIn, wantOut := f.conv.bytes()
	if int64(inBytes) != wantIn || int64(outBytes) != wantOut {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "in has %d bytes and out %d; the convolution needs in %d and out %d",
			inBytes, outBytes, wantIn, wantOut))
	}
	return ret(fn, f.conv.apply(out, in))
}

//export vkgcgo_convolution_apply_buffer
func vkgcgo_convolution_apply_buffer(h *C.vkfftgo_convolution, outh, inh *C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_convolution_apply_buffer"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), true, "convolution")
	if err != nil {
		return fail(fn, err)
	}
	out, err := lookupBuffer(outh, "out")
	if err != nil {
		return fail(fn, err)
	}
	in, err := lookupBuffer(inh, "in")
	if err != nil {
		return fail(fn, err)
	}
	if out.dev != f.dev || in.dev != f.dev {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_DEVICE, "a buffer belongs to another device than the convolution"))
	}
	wantIn, wantOut := f.conv.bytes()
	if in.b.Bytes() != wantIn || out.b.Bytes() != wantOut {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "in has %d bytes and out %d; the convolution needs in %d and out %d",
			in.b.Bytes(), out.b.Bytes(), wantIn, wantOut))
	}
	release, err := holdBuffers(out, in)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, f.conv.applyNative(out.b.Native(), in.b.Native()))
}

//export vkgcgo_spectrometer_create
func vkgcgo_spectrometer_create(dh *C.vkfftgo_device, desc *C.vkfftgo_spectrometer_desc,
	out **C.vkfftgo_spectrometer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("spectrometer output pointer"))
	}
	*out = nil
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if desc == nil {
		return fail(fn, errNull("desc"))
	}
	if err := descTail(unsafe.Pointer(desc), uint32(desc.size), C.sizeof_vkfftgo_spectrometer_desc,
		"VKFFTGO_SPECTROMETER_DESC_INIT"); err != nil {
		return fail(fn, err)
	}
	input, err := ccore.SampleFormat(int32(desc.input))
	if err != nil {
		return fail(fn, err)
	}
	cfg := vkfft.SpectrometerConfig{N: int(desc.n), Batch: int(desc.batch), Input: vkfft.SampleFormat(input),
		Scale: float32(desc.scale), FFTShift: desc.fftshift != 0, Fusion: vkfft.Fusion(desc.fusion), Chunk: int(desc.chunk)}
	if desc.window != nil {
		if desc.n <= 0 || desc.n > 1<<28 {
			return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->n is %d", desc.n))
		}
		cfg.Window = unsafe.Slice((*float32)(unsafe.Pointer(desc.window)), int(desc.n)) // copied by NewSpectrometer
	}
	sp, err := vkfft.NewSpectrometer(d.d, cfg)
	if err != nil {
		return fail(fn, err)
	}
	tok, err := publishFused(d, &cfused{sp: sp})
	if err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_spectrometer)(tok)
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_spectrometer_destroy
func vkgcgo_spectrometer_destroy(h *C.vkfftgo_spectrometer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_destroy"
	defer recoverTo(fn, &rc)
	return destroyFused(fn, unsafe.Pointer(h), false, "spectrometer")
}

//export vkgcgo_spectrometer_size
func vkgcgo_spectrometer_size(h *C.vkfftgo_spectrometer, bins *C.int64_t, sampleBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_size"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	if bins != nil {
		*bins = C.int64_t(f.sp.Bins())
	}
	if sampleBytes != nil {
		*sampleBytes = C.size_t(f.sp.SampleBytes())
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_spectrometer_accumulate
func vkgcgo_spectrometer_accumulate(h *C.vkfftgo_spectrometer, samples unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_accumulate"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	if samples == nil {
		return fail(fn, errNull("samples"))
	}
	sp := f.sp
	if int64(bytes) != sp.SampleBytes() {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "samples has %d bytes; the spectrometer takes %d", bytes,
			sp.SampleBytes()))
	}
	err = ccore.AccumulateBytes(sp, samples, int(bytes))
	return ret(fn, err)
}

//export vkgcgo_spectrometer_accumulate_buffer
func vkgcgo_spectrometer_accumulate_buffer(h *C.vkfftgo_spectrometer, bh *C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_accumulate_buffer"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	b, err := lookupBuffer(bh, "samples")
	if err != nil {
		return fail(fn, err)
	}
	if b.dev != f.dev {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_DEVICE, "the buffer belongs to another device than the spectrometer"))
	}
	if b.b.Bytes() != f.sp.SampleBytes() {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "samples has %d bytes; the spectrometer takes %d", b.b.Bytes(),
			f.sp.SampleBytes()))
	}
	release, err := holdBuffers(b)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, f.sp.AccumulateNative(b.b.Native()))
}

//export vkgcgo_spectrometer_read
func vkgcgo_spectrometer_read(h *C.vkfftgo_spectrometer, psd *C.float, count C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_read"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	if psd == nil {
		return fail(fn, errNull("psd"))
	}
	if int(count) != f.sp.Bins() {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "count is %d; the spectrometer has %d bins", count, f.sp.Bins()))
	}
	return ret(fn, f.sp.Read(unsafe.Slice((*float32)(unsafe.Pointer(psd)), int(count))))
}

//export vkgcgo_spectrometer_reset
func vkgcgo_spectrometer_reset(h *C.vkfftgo_spectrometer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_reset"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	return ret(fn, f.sp.Reset())
}

//export vkgcgo_spectrometer_fusion
func vkgcgo_spectrometer_fusion(h *C.vkfftgo_spectrometer, fusion *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_fusion"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	if fusion == nil {
		return fail(fn, errNull("fusion"))
	}
	*fusion = C.int(f.sp.Fusion())
	return C.VKFFTGO_SUCCESS
}
