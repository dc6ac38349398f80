package main

// The descriptor's fields since 0.2 (axes, rank 4, real-to-real, storage, in-place R2C,
// strides) and the plans only they describe. A descriptor of the first version's size
// (an older vkfftgo.h) is read as before, the new fields taken as zero.

/*
#define VKFFTGO_NO_PROTOTYPES
#include <stddef.h>
#include "vkfftgo.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// descV1Size is the size of the first version's descriptor: it ends where shape3 starts.
var descV1Size = unsafe.Offsetof(C.vkfftgo_plan_desc{}.shape3)

// descV2End is where the 0.2 fields end: a descriptor at least this large has them all.
var descV2End = unsafe.Offsetof(C.vkfftgo_plan_desc{}.out_strides) + unsafe.Sizeof(C.vkfftgo_plan_desc{}.out_strides)

// maxDescRank is the largest rank a descriptor of size can describe.
func maxDescRank(size uintptr) C.int32_t {
	if size >= descV2End {
		return C.VKFFTGO_MAX_AXES
	}
	return C.VKFFTGO_MAX_RANK
}

// descDim is axis i of the descriptor's shape: shape[0..2], then shape3.
func descDim(desc *C.vkfftgo_plan_desc, i int) int {
	if i < C.VKFFTGO_MAX_RANK {
		return int(desc.shape[i])
	}
	return int(desc.shape3)
}

// readDescExt reads the 0.2 fields into pd; vkfft.NewPlan and friends then check the
// values against the shape (axes out of range, overlapping strides, ...).
func readDescExt(desc *C.vkfftgo_plan_desc, size uintptr, pd *planDesc) error {
	if size < descV2End {
		if desc.kind == C.VKFFTGO_R2R {
			return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
				"desc->kind is VKFFTGO_R2R, but the descriptor (size %d) has no r2r_kind: rebuild with vkfftgo.h 0.2", size)
		}
		return nil
	}
	rank := int(desc.rank)
	if desc.naxes < 0 || desc.naxes > C.VKFFTGO_MAX_AXES {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->naxes is %d; want 0 (all axes) to %d", desc.naxes,
			C.VKFFTGO_MAX_AXES)
	}
	if desc.naxes > 0 {
		pd.cfg.Axes = make([]int, desc.naxes)
		for i := range pd.cfg.Axes {
			pd.cfg.Axes[i] = int(desc.axes[i])
		}
	}
	switch {
	case desc.kind == C.VKFFTGO_R2R:
		if desc.r2r_kind < C.VKFFTGO_DCT1 || desc.r2r_kind > C.VKFFTGO_DST4 {
			return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->r2r_kind is %d; want VKFFTGO_DCT1..VKFFTGO_DST4",
				desc.r2r_kind)
		}
		pd.r2r = vkfft.R2RKind(desc.r2r_kind)
	case desc.r2r_kind != 0:
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->r2r_kind is %d but desc->kind is not VKFFTGO_R2R: real-to-real transforms take real data (kind VKFFTGO_R2R)",
			desc.r2r_kind)
	}
	switch desc.storage {
	case C.VKFFTGO_STORAGE_DEFAULT:
	case C.VKFFTGO_STORAGE_HALF:
		pd.cfg.Storage = vkfft.StorageHalf
	case C.VKFFTGO_STORAGE_FLOAT_COMPUTE_DOUBLE:
		pd.cfg.Storage = vkfft.StorageFloatComputeDouble
	default:
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->storage is %d; want a VKFFTGO_STORAGE_* value", desc.storage)
	}
	switch desc.real_inplace {
	case 0:
	case 1:
		if !pd.r2c {
			return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->real_inplace is set on a plan that is not VKFFTGO_R2C")
		}
		pd.cfg.RealInPlace = true
	default:
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->real_inplace is %d; want 0 or 1", desc.real_inplace)
	}
	var err error
	if pd.cfg.InStrides, err = descStrides("in_strides", desc.in_strides[:], rank); err != nil {
		return err
	}
	pd.cfg.OutStrides, err = descStrides("out_strides", desc.out_strides[:], rank)
	return err
}

// descStrides reads one stride array: all zero means contiguous (nil); otherwise the
// first rank entries are the strides and the rest must be zero.
func descStrides(name string, s []C.int64_t, rank int) ([]int, error) {
	var out []int
	for i, v := range s {
		if v == 0 {
			continue
		}
		if i >= rank {
			return nil, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->%s[%d] is %d but the plan has rank %d",
				name, i, int64(v), rank)
		}
		out = make([]int, rank)
		for j := range out {
			out[j] = int(s[j])
		}
		break
	}
	return out, nil
}

// cplanExt is a plan that the first descriptor version could not describe: real-to-real
// kinds, fp16 data, in-place R2C and strided layouts. sizes are exact, except for strided
// plans, whose buffers must hold at least them.
type cplanExt interface {
	sizes(inverse bool) (out, in int64)
	strided() bool
	host(inverse bool, out, in unsafe.Pointer) error
	native(inverse bool, out, in uint64) error
	close() error
}

// buffersFit checks device buffer sizes against what the plan needs.
func (p *cplan) buffersFit(outBytes, inBytes, wantOut, wantIn int64) bool {
	if p.x != nil && p.x.strided() {
		return outBytes >= wantOut && inBytes >= wantIn
	}
	return outBytes == wantOut && inBytes == wantIn
}

// newCPlanExt builds the plans that need cplanExt; ok is false for the others.
func newCPlanExt(d *cdev, pd planDesc) (p *cplan, ok bool, err error) {
	cfg := pd.cfg
	if pd.r2r == 0 && cfg.Storage != vkfft.StorageHalf && !cfg.RealInPlace && cfg.InStrides == nil && cfg.OutStrides == nil {
		return nil, false, nil
	}
	p = &cplan{dev: d}
	switch {
	case pd.r2r != 0 && pd.double:
		p.x, err = newR2RExt[float64](d, cfg, pd.r2r)
	case pd.r2r != 0:
		p.x, err = newR2RExt[float32](d, cfg, pd.r2r)
	case pd.r2c && pd.double:
		p.x, err = newR2CExt[float64, complex128](d, cfg)
	case pd.r2c:
		p.x, err = newR2CExt[float32, complex64](d, cfg)
	case pd.double:
		p.x, err = newC2CExt[complex128](d, cfg)
	default:
		p.x, err = newC2CExt[complex64](d, cfg)
	}
	if err != nil {
		return nil, true, err
	}
	// vkfftgo_plan_bytes: complex data in cbytes, real data in rbytes
	out, in := p.x.sizes(false)
	switch {
	case pd.r2r != 0:
		p.rbytes = out
	case pd.r2c && !cfg.RealInPlace:
		p.cbytes, p.rbytes = out, in
	default:
		p.cbytes = out
	}
	return p, true, nil
}

// distinctBuffers reports whether a device-buffer transform needs out != in: real and
// complex data of an out-of-place R2C plan differ in size and layout.
func (p *cplan) distinctBuffers() bool {
	if r, ok := p.x.(interface{ outOfPlaceR2C() bool }); ok {
		return r.outOfPlaceR2C()
	}
	return p.x == nil && p.rbytes != 0
}

func (x *r2cExt[R, C]) outOfPlaceR2C() bool { return !x.inPlace }
func (x *r2rExt[T]) outOfPlaceR2C() bool    { return false }

// elemBytes is the size of one value of T on the device: 2 bytes a real for fp16.
func elemBytes[T any](half bool) int64 {
	var z T
	n := int64(unsafe.Sizeof(z))
	if half {
		return n / 2
	}
	return n
}

func halfSlice(p unsafe.Pointer, n int) []vkfft.Float16 { return unsafe.Slice((*vkfft.Float16)(p), n) }

type c2cExt[T vkfft.Complex] struct {
	p    *vkfft.Plan[T]
	half bool
}

func newC2CExt[T vkfft.Complex](d *cdev, cfg vkfft.Config) (cplanExt, error) {
	p, err := vkfft.NewPlan[T](d.d, cfg)
	if err != nil {
		return nil, err
	}
	return &c2cExt[T]{p: p, half: cfg.Storage == vkfft.StorageHalf}, nil
}

func (x *c2cExt[T]) sizes(bool) (out, in int64) {
	i, o := x.p.Spans()
	e := elemBytes[T](x.half)
	return int64(o) * e, int64(i) * e
}
func (x *c2cExt[T]) strided() bool {
	c := x.p.Config()
	return c.InStrides != nil || c.OutStrides != nil
}
func (x *c2cExt[T]) close() error { return x.p.Close() }
func (x *c2cExt[T]) native(inverse bool, out, in uint64) error {
	if inverse {
		return x.p.InverseNative(out, in)
	}
	return x.p.ForwardNative(out, in)
}
func (x *c2cExt[T]) host(inverse bool, out, in unsafe.Pointer) error {
	n := x.p.Len()
	if x.half {
		if inverse {
			return x.p.InverseHalf(halfSlice(out, 2*n), halfSlice(in, 2*n))
		}
		return x.p.ForwardHalf(halfSlice(out, 2*n), halfSlice(in, 2*n))
	}
	dst, src := unsafe.Slice((*T)(out), n), unsafe.Slice((*T)(in), n)
	if inverse {
		return x.p.Inverse(dst, src)
	}
	return x.p.Forward(dst, src)
}

type r2cExt[R vkfft.Real, C vkfft.Complex] struct {
	p             *vkfft.RealPlan[R, C]
	half, inPlace bool
}

func newR2CExt[R vkfft.Real, C vkfft.Complex](d *cdev, cfg vkfft.Config) (cplanExt, error) {
	p, err := vkfft.NewRealPlan[R, C](d.d, cfg)
	if err != nil {
		return nil, err
	}
	return &r2cExt[R, C]{p: p, half: cfg.Storage == vkfft.StorageHalf, inPlace: cfg.RealInPlace}, nil
}

// sizes: forward reads the real data and writes the spectrum; inverse the other way.
func (x *r2cExt[R, C]) sizes(inverse bool) (out, in int64) {
	i, o := x.p.Spans()
	rb, cb := int64(i)*elemBytes[R](x.half), int64(o)*elemBytes[C](x.half)
	if x.inPlace {
		return cb, cb
	}
	if inverse {
		return rb, cb
	}
	return cb, rb
}
func (x *r2cExt[R, C]) strided() bool {
	c := x.p.Config()
	return c.InStrides != nil || c.OutStrides != nil
}
func (x *r2cExt[R, C]) close() error { return x.p.Close() }
func (x *r2cExt[R, C]) native(inverse bool, out, in uint64) error {
	if inverse {
		return x.p.InverseNative(out, in)
	}
	return x.p.ForwardNative(out, in)
}
func (x *r2cExt[R, C]) host(inverse bool, out, in unsafe.Pointer) error {
	nr, nc := x.p.RealLen(), x.p.ComplexLen()
	switch {
	case x.inPlace:
		if out != in {
			return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "an in-place R2C plan (real_inplace) transforms one buffer: out must equal in")
		}
		data := unsafe.Slice((*R)(out), x.p.PaddedLen())
		if inverse {
			return x.p.InverseInPlace(data)
		}
		return x.p.ForwardInPlace(data)
	case x.half && inverse:
		return x.p.InverseHalf(halfSlice(out, nr), halfSlice(in, 2*nc))
	case x.half:
		return x.p.ForwardHalf(halfSlice(out, 2*nc), halfSlice(in, nr))
	case inverse:
		return x.p.Inverse(unsafe.Slice((*R)(out), nr), unsafe.Slice((*C)(in), nc))
	}
	return x.p.Forward(unsafe.Slice((*C)(out), nc), unsafe.Slice((*R)(in), nr))
}

type r2rExt[T vkfft.Real] struct {
	p    *vkfft.R2RPlan[T]
	half bool
}

func newR2RExt[T vkfft.Real](d *cdev, cfg vkfft.Config, k vkfft.R2RKind) (cplanExt, error) {
	p, err := vkfft.NewR2RPlan[T](d.d, cfg, k)
	if err != nil {
		return nil, err
	}
	return &r2rExt[T]{p: p, half: cfg.Storage == vkfft.StorageHalf}, nil
}

func (x *r2rExt[T]) sizes(bool) (out, in int64) {
	i, o := x.p.Spans()
	e := elemBytes[T](x.half)
	return int64(o) * e, int64(i) * e
}
func (x *r2rExt[T]) strided() bool {
	c := x.p.Config()
	return c.InStrides != nil || c.OutStrides != nil
}
func (x *r2rExt[T]) close() error { return x.p.Close() }
func (x *r2rExt[T]) native(inverse bool, out, in uint64) error {
	if inverse {
		return x.p.InverseNative(out, in)
	}
	return x.p.ForwardNative(out, in)
}
func (x *r2rExt[T]) host(inverse bool, out, in unsafe.Pointer) error {
	n := x.p.Len()
	if x.half {
		if inverse {
			return x.p.InverseHalf(halfSlice(out, n), halfSlice(in, n))
		}
		return x.p.ForwardHalf(halfSlice(out, n), halfSlice(in, n))
	}
	if inverse {
		return x.p.Inverse(unsafe.Slice((*T)(out), n), unsafe.Slice((*T)(in), n))
	}
	return x.p.Forward(unsafe.Slice((*T)(out), n), unsafe.Slice((*T)(in), n))
}

//export vkfftgo_plan_io_bytes
func vkfftgo_plan_io_bytes(h *C.vkfftgo_plan, dir C.int, outBytes, inBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_io_bytes"
	defer recoverTo(fn, &rc)
	inverse, err := parseDirection(dir)
	if err != nil {
		return fail(fn, err)
	}
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if outBytes == nil || inBytes == nil {
		return fail(fn, errNull("out_bytes or in_bytes"))
	}
	o, i := p.sizes(inverse)
	*outBytes, *inBytes = C.size_t(o), C.size_t(i)
	return C.VKFFTGO_SUCCESS
}
