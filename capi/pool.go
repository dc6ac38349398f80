package main

// Pools in the C API: vkfft.Pool and its plans (vkfft.PoolPlan, vkfft.PoolRealPlan)
// behind handles of kinds VKGC_POOL and VKGC_POOL_PLAN, generation-checked in the C
// table like every other handle (handles.h) with no C record: their calls run in Go,
// where the pool's goroutines fan each call out to its devices. A call holds its
// handle's slot shared for its length, so a concurrent destroy or close waits for it.

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "handles.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cpool is a pool opened through the C API and the plans made on it. mu is held shared
// while a plan of the pool is made or destroyed, exclusively by vkfftgo_pool_close.
type cpool struct {
	mu     sync.RWMutex
	p      *vkfft.Pool
	handle uintptr
	plans  map[*cpoolPlan]struct{} // guarded by tables.mu; nil once the pool is closing
}

// cpoolPlan is a pool plan of either kind and precision, on bytes.
type cpoolPlan struct {
	pool   *cpool
	handle uintptr
	run    poolRunner
}

// poolRunner is what the C calls need of a pool plan.
type poolRunner interface {
	hostRunner
	batches() []int
	Close() error
}

type poolC2C[T vkfft.Complex] struct{ p *vkfft.PoolPlan[T] }

func (w poolC2C[T]) run(inverse bool, out, in unsafe.Pointer) error {
	dst, src := unsafe.Slice((*T)(out), w.p.Len()), unsafe.Slice((*T)(in), w.p.Len())
	if inverse {
		return w.p.Inverse(dst, src)
	}
	return w.p.Forward(dst, src)
}

func (w poolC2C[T]) ioBytes(bool) (int64, int64) {
	n := int64(w.p.Len()) * int64(unsafe.Sizeof(*new(T)))
	return n, n
}
func (w poolC2C[T]) real() bool     { return false }
func (w poolC2C[T]) batches() []int { return w.p.Batches() }
func (w poolC2C[T]) Close() error   { return w.p.Close() }

type poolR2C[R vkfft.Real, C vkfft.Complex] struct{ p *vkfft.PoolRealPlan[R, C] }

func (w poolR2C[R, C]) run(inverse bool, out, in unsafe.Pointer) error {
	if inverse {
		return w.p.Inverse(unsafe.Slice((*R)(out), w.p.RealLen()), unsafe.Slice((*C)(in), w.p.ComplexLen()))
	}
	return w.p.Forward(unsafe.Slice((*C)(out), w.p.ComplexLen()), unsafe.Slice((*R)(in), w.p.RealLen()))
}

func (w poolR2C[R, C]) ioBytes(inverse bool) (int64, int64) {
	r := int64(w.p.RealLen()) * int64(unsafe.Sizeof(*new(R)))
	c := int64(w.p.ComplexLen()) * int64(unsafe.Sizeof(*new(C)))
	if inverse {
		return r, c
	}
	return c, r
}
func (w poolR2C[R, C]) real() bool     { return true }
func (w poolR2C[R, C]) batches() []int { return w.p.Batches() }
func (w poolR2C[R, C]) Close() error   { return w.p.Close() }

// poolTables maps the handle values of pools and pool plans to their objects; guarded by
// tables.mu like the other tables.
var poolTables = struct {
	pools map[uintptr]*cpool
	plans map[uintptr]*cpoolPlan
}{pools: map[uintptr]*cpool{}, plans: map[uintptr]*cpoolPlan{}}

// holdPool looks up a live pool handle and holds its slot shared; release lets it go.
func holdPool(h *C.vkfftgo_pool) (p *cpool, release func(), err error) {
	if h == nil {
		return nil, nil, errNull("pool handle")
	}
	tables.mu.RLock()
	p = poolTables.pools[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if p != nil {
		if slot := C.vkgc_acquire(unsafe.Pointer(h), C.VKGC_POOL, 0); slot != nil {
			return p, func() { C.vkgc_release(slot) }, nil
		}
	}
	return nil, nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
		"%p is not an open pool handle (closed, or a handle of another kind?)", h)
}

// holdPoolPlan looks up a live pool plan handle and holds its slot shared.
func holdPoolPlan(h *C.vkfftgo_pool_plan) (p *cpoolPlan, release func(), err error) {
	if h == nil {
		return nil, nil, errNull("pool plan handle")
	}
	tables.mu.RLock()
	p = poolTables.plans[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if p != nil {
		if slot := C.vkgc_acquire(unsafe.Pointer(h), C.VKGC_POOL_PLAN, 0); slot != nil {
			return p, func() { C.vkgc_release(slot) }, nil
		}
	}
	return nil, nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
		"%p is not a live pool plan handle (destroyed, its pool closed, or a handle of another kind?)", h)
}

//export vkgcgo_pool_open
func vkgcgo_pool_open(indices *C.int, n C.int, out **C.vkfftgo_pool) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_open"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("pool output pointer"))
	}
	*out = nil
	if n < 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "n is %d; want the number of indices (0 with NULL for every device)", int(n)))
	}
	var idx []int
	switch {
	case indices == nil && n > 0:
		return fail(fn, errNull("indices (with n > 0)"))
	case indices != nil:
		idx = make([]int, int(n)) // n 0: an empty list, which OpenPool refuses
		for i, v := range unsafe.Slice(indices, int(n)) {
			idx[i] = int(v)
		}
	}
	pool, err := vkfft.OpenPool(idx...)
	if err != nil {
		return fail(fn, err)
	}
	cp := &cpool{p: pool, plans: map[*cpoolPlan]struct{}{}}
	tables.mu.Lock()
	cp.handle = uintptr(C.vkgc_handle_new(C.VKGC_POOL, nil))
	if cp.handle != 0 {
		poolTables.pools[cp.handle] = cp
	}
	tables.mu.Unlock()
	if cp.handle == 0 {
		pool.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of handles or host memory"))
	}
	*out = (*C.vkfftgo_pool)(handlePtr(cp.handle))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_pool_close
func vkgcgo_pool_close(h *C.vkfftgo_pool) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_close"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	// Forget the pool and its plans, so that no new plan joins it.
	tables.mu.Lock()
	p := poolTables.pools[uintptr(unsafe.Pointer(h))]
	if p == nil {
		tables.mu.Unlock()
		_, _, err := holdPool(h)
		return fail(fn, err)
	}
	delete(poolTables.pools, p.handle)
	plans := p.plans
	for pp := range plans {
		delete(poolTables.plans, pp.handle)
	}
	p.plans = nil
	retireSlabs := closeSlabPlans(p)
	tables.mu.Unlock()
	// Wait for creations and destroys under way, then for the calls in flight on each
	// handle; later calls find the handles dead.
	p.mu.Lock()
	defer p.mu.Unlock()
	retire(p.handle, C.VKGC_POOL)
	for pp := range plans {
		retire(pp.handle, C.VKGC_POOL_PLAN)
	}
	retireSlabs()
	return ret(fn, p.p.Close()) // closes the pool's plans too
}

//export vkgcgo_pool_size
func vkgcgo_pool_size(h *C.vkfftgo_pool, count *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_size"
	defer recoverTo(fn, &rc)
	p, release, err := holdPool(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if count == nil {
		return fail(fn, errNull("count"))
	}
	*count = C.int(p.p.Len())
	return C.VKFFTGO_SUCCESS
}

// newPoolRunner builds the pool plan a descriptor asks for.
func newPoolRunner(pool *vkfft.Pool, pd planDesc) (poolRunner, error) {
	switch {
	case pd.r2r != 0:
		return nil, errorf(C.VKFFTGO_ERROR_UNSUPPORTED, "pool plans are complex-to-complex or real-to-complex (desc->kind VKFFTGO_C2C or VKFFTGO_R2C)")
	case pd.cfg.Storage == vkfft.StorageHalf:
		return nil, errorf(C.VKFFTGO_ERROR_UNSUPPORTED, "pool plans keep host data in the plan's precision (desc->storage: no fp16)")
	case pd.cfg.InStrides != nil || pd.cfg.OutStrides != nil || pd.cfg.RealInPlace:
		return nil, errorf(C.VKFFTGO_ERROR_UNSUPPORTED,
			"pool plans transform contiguous host memory out of place (desc->in_strides and out_strides all 0, real_inplace 0)")
	case pd.r2c && pd.double:
		p, err := vkfft.NewPoolRealPlan[float64, complex128](pool, pd.cfg)
		return poolR2C[float64, complex128]{p}, err
	case pd.r2c:
		p, err := vkfft.NewPoolRealPlan[float32, complex64](pool, pd.cfg)
		return poolR2C[float32, complex64]{p}, err
	case pd.double:
		p, err := vkfft.NewPoolPlan[complex128](pool, pd.cfg)
		return poolC2C[complex128]{p}, err
	}
	p, err := vkfft.NewPoolPlan[complex64](pool, pd.cfg)
	return poolC2C[complex64]{p}, err
}

//export vkgcgo_pool_plan_create
func vkgcgo_pool_plan_create(ph *C.vkfftgo_pool, desc *C.vkfftgo_plan_desc, out **C.vkfftgo_pool_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_plan_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("pool plan output pointer"))
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
	pd, err := readDesc(desc)
	if err != nil {
		return fail(fn, err)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	r, err := newPoolRunner(p.p, pd)
	if err != nil {
		return fail(fn, err)
	}
	pp := &cpoolPlan{pool: p, run: r}
	tables.mu.Lock()
	if p.plans == nil {
		tables.mu.Unlock()
		r.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_CLOSED, "the pool was closed"))
	}
	pp.handle = uintptr(C.vkgc_handle_new(C.VKGC_POOL_PLAN, nil))
	if pp.handle != 0 {
		p.plans[pp] = struct{}{}
		poolTables.plans[pp.handle] = pp
	}
	tables.mu.Unlock()
	if pp.handle == 0 {
		r.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of handles or host memory"))
	}
	*out = (*C.vkfftgo_pool_plan)(handlePtr(pp.handle))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_pool_plan_destroy
func vkgcgo_pool_plan_destroy(h *C.vkfftgo_pool_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_plan_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	pp, release, err := holdPoolPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	release()
	pp.pool.mu.RLock() // vkfftgo_pool_close waits for this destroy
	defer pp.pool.mu.RUnlock()
	tables.mu.Lock()
	_, live := poolTables.plans[pp.handle]
	if live {
		delete(poolTables.plans, pp.handle)
		delete(pp.pool.plans, pp)
	}
	tables.mu.Unlock()
	if !live { // destroyed (or its pool closed) meanwhile
		_, _, err := holdPoolPlan(h)
		return fail(fn, err)
	}
	retire(pp.handle, C.VKGC_POOL_PLAN) // waits for the calls that hold it
	return ret(fn, pp.run.Close())
}

//export vkgcgo_pool_plan_io_bytes
func vkgcgo_pool_plan_io_bytes(h *C.vkfftgo_pool_plan, direction C.int, outBytes, inBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_plan_io_bytes"
	defer recoverTo(fn, &rc)
	pp, release, err := holdPoolPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, hostIOBytes(pp.run, direction, outBytes, inBytes))
}

//export vkgcgo_pool_plan_batches
func vkgcgo_pool_plan_batches(h *C.vkfftgo_pool_plan, batches *C.int64_t, count C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_plan_batches"
	defer recoverTo(fn, &rc)
	pp, release, err := holdPoolPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if batches == nil {
		return fail(fn, errNull("batches"))
	}
	bs := pp.run.batches()
	if int(count) != len(bs) {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "count is %d; the pool has %d devices", int(count), len(bs)))
	}
	dst := unsafe.Slice(batches, len(bs))
	for i, b := range bs {
		dst[i] = C.int64_t(b)
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_pool_execute
func vkgcgo_pool_execute(h *C.vkfftgo_pool_plan, direction C.int, out unsafe.Pointer, outBytes C.size_t,
	in unsafe.Pointer, inBytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pool_execute"
	defer recoverTo(fn, &rc)
	pp, release, err := holdPoolPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	return ret(fn, hostExecute(pp.run, direction, out, outBytes, in, inBytes))
}
