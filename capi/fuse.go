package main

// The C API of vkfft's convolutions and spectrometer (include/vkfftgo.h). Creation,
// destruction and the size queries run here, in Go; the per-call functions run in C
// (hotpath_fuse.c) on a C record made here (core.h: vkgc_conv, vkgc_spectro) of what
// vkfft's own calls hand the core. A spectrometer's record carries a cgo.Handle of the
// function that makes its host-streaming buffers, which vkfft makes on first use: the
// first host accumulation calls it once (vkgcapi_spectro_prepare_host), holding the
// handle exclusively, as a plan's first out-of-place transform builds its kernels
// (oop.go), and nothing that waits for the handle holds a lock it takes.

/*
#include <stdlib.h>
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "core.h"
#include "handles.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cfused is a convolution or a spectrometer made through the C API, and its C record.
type cfused struct {
	dev     *cdev
	handle  uintptr
	kind    C.uint              // VKGC_CONVOLUTION or VKGC_SPECTROMETER
	conv    cconv               // a convolution, or nil
	sp      *vkfft.Spectrometer // a spectrometer, or nil
	convRec *C.vkgc_conv        // the records: one of them
	spRec   *C.vkgc_spectro
	// makes the spectrometer's host-streaming buffers for its record; 0: nothing to make
	hostBuilder cgo.Handle
}

// cconv is a convolution of any of the four element-type combinations.
type cconv interface {
	object() any // the *vkfft.Convolution or *vkfft.RealConvolution, for ccore
	bytes() (in, out int64)
	Close() error
}

type convC[T vkfft.Complex] struct{ c *vkfft.Convolution[T] }

func (w convC[T]) object() any           { return w.c }
func (w convC[T]) bytes() (int64, int64) { return w.c.InBytes(), w.c.OutBytes() }
func (w convC[T]) Close() error          { return w.c.Close() }

type convR[R vkfft.Real, C vkfft.Complex] struct{ c *vkfft.RealConvolution[R, C] }

func (w convR[R, C]) object() any           { return w.c }
func (w convR[R, C]) bytes() (int64, int64) { return w.c.InBytes(), w.c.OutBytes() }
func (w convR[R, C]) Close() error          { return w.c.Close() }

// freeRecord frees the C record and the host builder's handle; the C handle was retired
// (or never published), so no C call uses them.
func (f *cfused) freeRecord() {
	C.free(unsafe.Pointer(f.convRec))
	f.convRec = nil
	C.vkgc_spectro_free(f.spRec)
	f.spRec = nil
	if f.hostBuilder != 0 {
		f.hostBuilder.Delete()
		f.hostBuilder = 0
	}
}

func (f *cfused) close() error {
	f.freeRecord()
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
	kind := C.uint(C.VKGC_SPECTROMETER)
	if wantConv {
		kind = C.VKGC_CONVOLUTION
	}
	tables.mu.RLock()
	f := tables.fused[uintptr(h)]
	tables.mu.RUnlock()
	// the C table too: a handle of another kind or a made-up value is refused there
	if f != nil {
		if slot := C.vkgc_acquire(h, kind, 0); slot != nil {
			C.vkgc_release(slot)
		} else {
			f = nil
		}
	}
	if f == nil {
		return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
			"%p is not a live %s handle (destroyed, its device closed, or a handle of another kind?)", h, what)
	}
	return f, nil
}

// descTail checks the size field of a descriptor: at least first bytes (the first
// version's struct; this library's, known, for descriptors that never grew), and any
// remainder beyond this library's struct (a newer caller's) all zero.
func descTail(desc unsafe.Pointer, size uint32, first, known uintptr, init string) error {
	s := uintptr(size)
	if s < first {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->size is %d, this library's descriptor has %d bytes: initialise it with %s", s, known, init)
	}
	if s < known {
		return nil
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

// publishFused enters f, with its C record, in the tables and returns its handle.
func publishFused(d *cdev, f *cfused) (unsafe.Pointer, error) {
	f.dev = d
	rec := unsafe.Pointer(f.convRec)
	if f.spRec != nil {
		rec = unsafe.Pointer(f.spRec)
	}
	err := publish(f.kind, rec, tables.fused, &d.fused, f, &f.handle, func() { f.close() })
	if err != nil {
		return nil, err
	}
	return handlePtr(f.handle), nil
}

// newConvRecord makes the C record of a convolution made on d; nil when out of memory.
func newConvRecord(d *cdev, c cconv) *C.vkgc_conv {
	cc := ccore.ConvolutionOf(c.object())
	inplace := C.int(0)
	if cc.InPlace {
		inplace = 1
	}
	return C.vkgc_conv_new(d.rec, (*C.vkg_plan)(cc.Plan), (*C.vkg_conv_pad)(cc.Pad), C.vkg_mem(cc.In),
		C.vkg_mem(cc.Out), C.uint64_t(cc.InBytes), C.uint64_t(cc.OutBytes), C.uint64_t(cc.Items), inplace)
}

// newSpectroRecord makes the C record of a spectrometer made on d, and the handle of its
// host builder (0: none).
func newSpectroRecord(d *cdev, sp *vkfft.Spectrometer) (*C.vkgc_spectro, cgo.Handle, error) {
	cs := ccore.SpectrometerOf(sp)
	if len(cs.Perm) != 0 && len(cs.Perm) != cs.Bins {
		return nil, 0, errorf(C.VKFFTGO_ERROR_INTERNAL, "the bin order has %d positions for %d bins", len(cs.Perm), cs.Bins)
	}
	shift := C.int(0)
	if cs.FFTShift {
		shift = 1
	}
	var perm *C.int32_t
	if len(cs.Perm) > 0 {
		perm = (*C.int32_t)(unsafe.Pointer(&cs.Perm[0]))
	}
	rec := C.vkgc_spectro_new(d.rec, (*C.vkg_spectro)(cs.Core), C.uint64_t(cs.Batch), C.uint64_t(cs.SampleBytes),
		C.uint64_t(cs.Bins), shift, perm, C.uint64_t(len(cs.Perm)))
	if rec == nil {
		return nil, 0, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory")
	}
	var builder cgo.Handle
	if cs.PrepareHost != nil {
		builder = cgo.NewHandle(cs.PrepareHost)
		rec.host_builder = C.uintptr_t(builder)
	}
	return rec, builder, nil
}

//export vkgcapi_spectro_prepare_host
func vkgcapi_spectro_prepare_host(builder C.uintptr_t, fn *C.char) (rc C.int) {
	name := C.GoString(fn)
	var panicked C.vkfftgo_status
	defer func() {
		if panicked != 0 {
			rc = C.int(panicked)
		}
	}()
	defer recoverTo(name, &panicked)
	return C.int(ret(name, cgo.Handle(builder).Value().(func() error)()))
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
	if err := descTail(unsafe.Pointer(desc), uint32(desc.size), C.sizeof_vkfftgo_convolution_desc, C.sizeof_vkfftgo_convolution_desc,
		"VKFFTGO_CONVOLUTION_DESC_INIT"); err != nil {
		return fail(fn, err)
	}
	if desc.rank < 1 || desc.rank > C.VKFFTGO_MAX_RANK {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_SHAPE, "desc->rank is %d; want 1 to 3", desc.rank))
	}
	cfg := vkfft.ConvolutionConfig{Mode: vkfft.ConvolutionMode(desc.mode), Features: int(desc.features),
		Matrix: int(desc.matrix), Kernels: int(desc.kernels), Boundary: vkfft.Boundary(desc.boundary)}
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
	rec := newConvRecord(d, c)
	if rec == nil {
		c.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	tok, err := publishFused(d, &cfused{kind: C.VKGC_CONVOLUTION, conv: c, convRec: rec})
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
	retire(f.handle, f.kind) // waits for the calls that hold it
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
	if err := descTail(unsafe.Pointer(desc), uint32(desc.size), spectroDescV1Size, C.sizeof_vkfftgo_spectrometer_desc,
		"VKFFTGO_SPECTROMETER_DESC_INIT"); err != nil {
		return fail(fn, err)
	}
	// an aligned copy of the fields this library knows; those past a first-version
	// caller's size stay zero (automatic)
	var fields C.vkfftgo_spectrometer_desc
	n := min(uintptr(desc.size), C.sizeof_vkfftgo_spectrometer_desc)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&fields)), n), unsafe.Slice((*byte)(unsafe.Pointer(desc)), n))
	desc = &fields
	input, err := ccore.SampleFormat(int32(desc.input))
	if err != nil {
		return fail(fn, err)
	}
	cfg := vkfft.SpectrometerConfig{N: int(desc.n), Batch: int(desc.batch), Input: vkfft.SampleFormat(input),
		Scale: float32(desc.scale), FFTShift: desc.fftshift != 0, Fusion: vkfft.Fusion(desc.fusion), Chunk: int(desc.chunk),
		GroupSum: vkfft.GroupSum(desc.group_sum), GroupTransforms: int(desc.group_transforms)}
	if desc.group_sum < C.VKFFTGO_GROUP_SUM_AUTO || desc.group_sum > C.VKFFTGO_GROUP_SUM_SHARED {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->group_sum is %d; want a VKFFTGO_GROUP_SUM_* value", desc.group_sum))
	}
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
	rec, builder, err := newSpectroRecord(d, sp)
	if err != nil {
		sp.Close()
		return fail(fn, err)
	}
	tok, err := publishFused(d, &cfused{kind: C.VKGC_SPECTROMETER, sp: sp, spRec: rec, hostBuilder: builder})
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

// The C names of the group sums are the Go values: each line fails to compile otherwise.
var (
	_ [0]struct{} = [int(vkfft.GroupSumAuto) - int(C.VKFFTGO_GROUP_SUM_AUTO)]struct{}{}
	_ [0]struct{} = [int(vkfft.GroupSumOff) - int(C.VKFFTGO_GROUP_SUM_OFF)]struct{}{}
	_ [0]struct{} = [int(vkfft.GroupSumRegisters) - int(C.VKFFTGO_GROUP_SUM_REGISTERS)]struct{}{}
	_ [0]struct{} = [int(vkfft.GroupSumShared) - int(C.VKFFTGO_GROUP_SUM_SHARED)]struct{}{}
)

// spectroDescV1Size is the size of the first version's vkfftgo_spectrometer_desc: it
// ends where group_sum starts.
var spectroDescV1Size = unsafe.Offsetof(C.vkfftgo_spectrometer_desc{}.group_sum)

//export vkgcgo_spectrometer_group
func vkgcgo_spectrometer_group(h *C.vkfftgo_spectrometer, sum, transforms *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_spectrometer_group"
	defer recoverTo(fn, &rc)
	f, err := lookupFused(unsafe.Pointer(h), false, "spectrometer")
	if err != nil {
		return fail(fn, err)
	}
	if sum == nil || transforms == nil {
		return fail(fn, errNull("sum or transforms"))
	}
	g := f.sp.Group()
	*sum, *transforms = C.int(g.Sum), C.int(g.Transforms)
	return C.VKFFTGO_SUCCESS
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
