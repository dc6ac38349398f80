package main

// Slab plans in the C API: vkfft.SlabPlan and vkfft.SlabRealPlan behind handles of kind
// VKGC_SLAB_PLAN, generation-checked like the pool plans' (capi/pool.go) with no C
// record: their calls run in Go. A slab plan belongs to its pool: vkfftgo_pool_close
// retires its handle (closeSlabPlans) before closing the pool, which frees it.

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "handles.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cslabPlan is a slab plan of either kind and precision, on bytes.
type cslabPlan struct {
	pool   *cpool
	handle uintptr
	run    slabRunner
}

// slabRunner is what the C calls need of a slab plan.
type slabRunner interface {
	hostRunner
	slabs(transposed bool) []vkfft.Slab
	Close() error
}

type slabC2C[T vkfft.Complex] struct{ p *vkfft.SlabPlan[T] }

func (w slabC2C[T]) run(inverse bool, out, in unsafe.Pointer) error {
	dst, src := unsafe.Slice((*T)(out), w.p.Len()), unsafe.Slice((*T)(in), w.p.Len())
	if inverse {
		return w.p.Inverse(dst, src)
	}
	return w.p.Forward(dst, src)
}

func (w slabC2C[T]) ioBytes(bool) (int64, int64) {
	n := int64(w.p.Len()) * int64(unsafe.Sizeof(*new(T)))
	return n, n
}
func (w slabC2C[T]) real() bool { return false }
func (w slabC2C[T]) slabs(transposed bool) []vkfft.Slab {
	if transposed {
		return w.p.TransposedSlabs()
	}
	return w.p.Slabs()
}
func (w slabC2C[T]) Close() error { return w.p.Close() }

type slabR2C[R vkfft.Real, C vkfft.Complex] struct{ p *vkfft.SlabRealPlan[R, C] }

func (w slabR2C[R, C]) run(inverse bool, out, in unsafe.Pointer) error {
	if inverse {
		return w.p.Inverse(unsafe.Slice((*R)(out), w.p.RealLen()), unsafe.Slice((*C)(in), w.p.ComplexLen()))
	}
	return w.p.Forward(unsafe.Slice((*C)(out), w.p.ComplexLen()), unsafe.Slice((*R)(in), w.p.RealLen()))
}

func (w slabR2C[R, C]) ioBytes(inverse bool) (int64, int64) {
	r := int64(w.p.RealLen()) * int64(unsafe.Sizeof(*new(R)))
	c := int64(w.p.ComplexLen()) * int64(unsafe.Sizeof(*new(C)))
	if inverse {
		return r, c
	}
	return c, r
}
func (w slabR2C[R, C]) real() bool { return true }
func (w slabR2C[R, C]) slabs(transposed bool) []vkfft.Slab {
	if transposed {
		return w.p.TransposedSlabs()
	}
	return w.p.Slabs()
}
func (w slabR2C[R, C]) Close() error { return w.p.Close() }

// slabTables maps slab plan handles to their plans and each pool to its slab plans;
// guarded by tables.mu. A pool absent from byPool is closing (or closed).
var slabTables = struct {
	plans  map[uintptr]*cslabPlan
	byPool map[*cpool]map[*cslabPlan]struct{}
}{plans: map[uintptr]*cslabPlan{}, byPool: map[*cpool]map[*cslabPlan]struct{}{}}

// closeSlabPlans forgets pool p's slab plans and returns their retirement, which
// vkfftgo_pool_close runs once no creation or destroy is under way; the caller holds
// tables.mu.
func closeSlabPlans(p *cpool) (retireAll func()) {
	plans := slabTables.byPool[p]
	delete(slabTables.byPool, p)
	for sp := range plans {
		delete(slabTables.plans, sp.handle)
	}
	return func() {
		for sp := range plans {
			retire(sp.handle, C.VKGC_SLAB_PLAN)
		}
	}
}

// holdSlabPlan looks up a live slab plan handle and holds its slot shared.
func holdSlabPlan(h *C.vkfftgo_slab_plan) (p *cslabPlan, release func(), err error) {
	if h == nil {
		return nil, nil, errNull("slab plan handle")
	}
	tables.mu.RLock()
	p = slabTables.plans[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if p != nil {
		if slot := C.vkgc_acquire(unsafe.Pointer(h), C.VKGC_SLAB_PLAN, 0); slot != nil {
			return p, func() { C.vkgc_release(slot) }, nil
		}
	}
	return nil, nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
		"%p is not a live slab plan handle (destroyed, its pool closed, or a handle of another kind?)", h)
}

// slabDescSize is the size of the vkfftgo_slab_desc this library knows.
const slabDescSize = C.sizeof_vkfftgo_slab_desc

// readSlabDesc checks a slab descriptor field by field and builds the plan it asks for.
func readSlabDesc(desc *C.vkfftgo_slab_desc) (cfg vkfft.SlabConfig, r2c, double bool, err error) {
	invalid := func(format string, args ...any) error {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, format, args...)
	}
	if uintptr(desc.size) != slabDescSize {
		return cfg, false, false, invalid("desc->size is %d; want sizeof(vkfftgo_slab_desc), %d (start from VKFFTGO_SLAB_DESC_INIT)",
			uint32(desc.size), slabDescSize)
	}
	switch desc.kind {
	case C.VKFFTGO_C2C:
	case C.VKFFTGO_R2C:
		r2c = true
	default:
		return cfg, false, false, invalid("desc->kind is %d; slab plans are VKFFTGO_C2C or VKFFTGO_R2C", desc.kind)
	}
	switch desc.precision {
	case C.VKFFTGO_SINGLE:
	case C.VKFFTGO_DOUBLE:
		double = true
	default:
		return cfg, false, false, invalid("desc->precision is %d; want VKFFTGO_SINGLE or VKFFTGO_DOUBLE", desc.precision)
	}
	switch desc.norm {
	case C.VKFFTGO_NORM_BACKWARD:
	case C.VKFFTGO_NORM_ORTHO:
		cfg.Norm = vkfft.NormOrtho
	case C.VKFFTGO_NORM_FORWARD:
		cfg.Norm = vkfft.NormForward
	default:
		return cfg, false, false, invalid("desc->norm is %d; want a VKFFTGO_NORM_* value", desc.norm)
	}
	if desc.rank != 2 && desc.rank != 3 {
		return cfg, false, false, errorf(C.VKFFTGO_ERROR_INVALID_SHAPE,
			"desc->rank is %d; a slab plan distributes 2-D and 3-D transforms", desc.rank)
	}
	for i := 0; i < int(desc.rank); i++ {
		if desc.shape[i] <= 0 || int64(desc.shape[i]) > int64(^uint32(0)>>1) {
			return cfg, false, false, errorf(C.VKFFTGO_ERROR_INVALID_SHAPE,
				"desc->shape[%d] is %d; want 1 to 2^31-1", i, int64(desc.shape[i]))
		}
		cfg.Shape = append(cfg.Shape, int(desc.shape[i]))
	}
	if desc.batch < 0 || int64(desc.batch) > int64(^uint32(0)>>1) {
		return cfg, false, false, errorf(C.VKFFTGO_ERROR_INVALID_BATCH, "desc->batch is %d; want 0 (one) to 2^31-1",
			int64(desc.batch))
	}
	cfg.Batch = int(desc.batch)
	flag := func(name string, v C.int32_t) (bool, error) {
		if v != 0 && v != 1 {
			return false, invalid("desc->%s is %d; want 0 or 1", name, v)
		}
		return v == 1, nil
	}
	if cfg.TransposedOut, err = flag("transposed_out", desc.transposed_out); err != nil {
		return cfg, false, false, err
	}
	if cfg.TransposedIn, err = flag("transposed_in", desc.transposed_in); err != nil {
		return cfg, false, false, err
	}
	if desc.chunks < 0 {
		return cfg, false, false, invalid("desc->chunks is %d; want 0 (chosen), 1 (whole) or more", desc.chunks)
	}
	cfg.Chunks = int(desc.chunks)
	return cfg, r2c, double, nil
}

func newSlabRunner(pool *vkfft.Pool, cfg vkfft.SlabConfig, r2c, double bool) (slabRunner, error) {
	switch {
	case r2c && double:
		p, err := vkfft.NewSlabRealPlan[float64, complex128](pool, cfg)
		return slabR2C[float64, complex128]{p}, err
	case r2c:
		p, err := vkfft.NewSlabRealPlan[float32, complex64](pool, cfg)
		return slabR2C[float32, complex64]{p}, err
	case double:
		p, err := vkfft.NewSlabPlan[complex128](pool, cfg)
		return slabC2C[complex128]{p}, err
	}
	p, err := vkfft.NewSlabPlan[complex64](pool, cfg)
	return slabC2C[complex64]{p}, err
}

//export vkgcgo_slab_plan_create
func vkgcgo_slab_plan_create(ph *C.vkfftgo_pool, desc *C.vkfftgo_slab_desc, out **C.vkfftgo_slab_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_slab_plan_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("slab plan output pointer"))
	}
	*out = nil
	p, release, err := holdPool(ph)
	if err != nil {
		return fail(fn, err)
	}
	release() // the pool's mu keeps vkfftgo_pool_close waiting while the plan is built
	if desc == nil {
		return fail(fn, errNull("desc"))
	}
	cfg, r2c, double, err := readSlabDesc(desc)
	if err != nil {
		return fail(fn, err)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := newSlabRunner(p.p, cfg, r2c, double)
	if err != nil {
		return fail(fn, err)
	}
	sp := &cslabPlan{pool: p, run: r}
	tables.mu.Lock()
	if p.plans == nil { // vkfftgo_pool_close has begun
		tables.mu.Unlock()
		r.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_CLOSED, "the pool was closed"))
	}
	sp.handle = uintptr(C.vkgc_handle_new(C.VKGC_SLAB_PLAN, nil))
	if sp.handle != 0 {
		set := slabTables.byPool[p]
		if set == nil {
			set = map[*cslabPlan]struct{}{}
			slabTables.byPool[p] = set
		}
		set[sp] = struct{}{}
		slabTables.plans[sp.handle] = sp
	}
	tables.mu.Unlock()
	if sp.handle == 0 {
		r.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of handles or host memory"))
	}
	*out = (*C.vkfftgo_slab_plan)(handlePtr(sp.handle))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_slab_plan_destroy
func vkgcgo_slab_plan_destroy(h *C.vkfftgo_slab_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_slab_plan_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	sp, release, err := holdSlabPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	release()
	sp.pool.mu.RLock() // vkfftgo_pool_close waits for this destroy
	defer sp.pool.mu.RUnlock()
	tables.mu.Lock()
	_, live := slabTables.plans[sp.handle]
	if live {
		delete(slabTables.plans, sp.handle)
		delete(slabTables.byPool[sp.pool], sp)
	}
	tables.mu.Unlock()
	if !live { // destroyed (or its pool closed) meanwhile
		_, _, err := holdSlabPlan(h)
		return fail(fn, err)
	}
	retire(sp.handle, C.VKGC_SLAB_PLAN) // waits for the calls that hold it
	return ret(fn, sp.run.Close())
}

//export vkgcgo_slab_plan_slabs
func vkgcgo_slab_plan_slabs(h *C.vkfftgo_slab_plan, transposed C.int, start, rows *C.int64_t, count C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_slab_plan_slabs"
	defer recoverTo(fn, &rc)
	sp, release, err := holdSlabPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if start == nil || rows == nil {
		return fail(fn, errNull("start or rows"))
	}
	if transposed != 0 && transposed != 1 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "transposed is %d; want 0 (first axis) or 1 (second)",
			int(transposed)))
	}
	slabs := sp.run.slabs(transposed == 1)
	if int(count) != len(slabs) {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "count is %d; the pool has %d devices", int(count), len(slabs)))
	}
	st, rs := unsafe.Slice(start, len(slabs)), unsafe.Slice(rows, len(slabs))
	for i, s := range slabs {
		st[i], rs[i] = C.int64_t(s.Start), C.int64_t(s.Rows)
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_slab_plan_io_bytes
func vkgcgo_slab_plan_io_bytes(h *C.vkfftgo_slab_plan, direction C.int, outBytes, inBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_slab_plan_io_bytes"
	defer recoverTo(fn, &rc)
	sp, release, err := holdSlabPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, hostIOBytes(sp.run, direction, outBytes, inBytes))
}

//export vkgcgo_slab_execute
func vkgcgo_slab_execute(h *C.vkfftgo_slab_plan, direction C.int, out unsafe.Pointer, outBytes C.size_t,
	in unsafe.Pointer, inBytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_slab_execute"
	defer recoverTo(fn, &rc)
	sp, release, err := holdSlabPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, hostExecute(sp.run, direction, out, outBytes, in, inBytes))
}
