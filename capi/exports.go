package main

/*
#define VKFFTGO_NO_PROTOTYPES
#include <stdlib.h>
#include <string.h>
#include "vkfftgo.h"
#include "version.h"
#include "core.h"
#include "handles.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// The library's identity is C (lasterror.c, hotpath.c, guard_*.c): it answers in a forked
// child too. Every function exported here has a C wrapper with the public name
// (exports_gen.c), which refuses the call in a forked child before it enters Go.

// ---- devices ----

//export vkgcgo_device_count
func vkgcgo_device_count(count *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_count"
	defer recoverTo(fn, &rc)
	if count == nil {
		return fail(fn, errNull("count"))
	}
	*count = 0
	devs, err := vkfft.Devices()
	if err != nil {
		return fail(fn, err)
	}
	*count = C.int(len(devs))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_device_open
func vkgcgo_device_open(ordinal C.int, out **C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_open"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("device output pointer"))
	}
	*out = nil
	d, err := vkfft.Open(int(ordinal))
	if err != nil {
		return fail(fn, err)
	}
	return ret(fn, publishDevice(d, out))
}

// publishDevice makes the C record and handle of an opened device, or closes it and
// reports why not.
func publishDevice(d *vkfft.Device, out **C.vkfftgo_device) error {
	core := ccore.DeviceOf(d)
	rec := C.vkgc_device_new((*C.vkg_device)(core.Core), C.int64_t(core.StagingThreshold),
		C.uint64_t(core.StagingSlotBytes), C.int(core.StagingThreads), C.int(core.MaxStagers))
	if rec == nil {
		d.Close()
		return errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory")
	}
	cd := &cdev{d: d, rec: rec, plans: map[*cplan]struct{}{}, bufs: map[*cbuf]struct{}{},
		fused: map[*cfused]struct{}{}, regs: map[uintptr]*vkfft.HostRegistration{}, objs: map[*cobj]struct{}{}}
	tables.mu.Lock()
	cd.handle = uintptr(C.vkgc_handle_new(C.VKGC_DEVICE, unsafe.Pointer(rec)))
	if cd.handle != 0 {
		tables.devs[cd.handle] = cd
	}
	tables.mu.Unlock()
	if cd.handle == 0 {
		C.vkgc_device_free(rec)
		d.Close()
		return errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of handles or host memory")
	}
	*out = (*C.vkfftgo_device)(handlePtr(cd.handle))
	return nil
}

//export vkgcgo_device_close
func vkgcgo_device_close(h *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_close"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	// Forget the device and everything made on it, so no new plan or buffer joins it.
	tables.mu.Lock()
	d := tables.devs[uintptr(unsafe.Pointer(h))]
	if d == nil {
		tables.mu.Unlock()
		_, err := lookupDevice(h)
		return fail(fn, err)
	}
	delete(tables.devs, d.handle)
	plans, bufs := d.plans, d.bufs
	for p := range plans {
		delete(tables.plans, p.handle)
	}
	for b := range bufs {
		delete(tables.bufs, b.handle)
	}
	fused := d.fused
	for f := range fused {
		delete(tables.fused, f.handle)
	}
	objs := d.objs
	for o := range objs {
		delete(tables.objs, o.handle)
	}
	d.plans, d.bufs, d.fused, d.objs = nil, nil, nil, nil
	tables.mu.Unlock()
	// Wait for destroys under way, then for the C calls in flight on each handle; later
	// calls find the handles dead. Only then are the C records and the stager freed.
	d.mu.Lock()
	defer d.mu.Unlock()
	retire(d.handle, C.VKGC_DEVICE)
	for p := range plans {
		retire(p.handle, C.VKGC_PLAN)
		p.freeRecord()
	}
	for b := range bufs {
		retire(b.handle, C.VKGC_BUFFER)
		C.free(unsafe.Pointer(b.rec))
		b.rec = nil
	}
	for f := range fused {
		retire(f.handle, f.kind)
		f.freeRecord() // the vkfft objects close with the device
	}
	for o := range objs {
		retire(o.handle, o.kind)
		o.freeRecord() // the vkfft objects close with the device
	}
	C.vkgc_device_free(d.rec)
	d.rec = nil
	d.regs = nil
	return ret(fn, d.d.Close()) // closes the plans, buffers and registrations too
}

//export vkgcgo_device_name
func vkgcgo_device_name(h *C.vkfftgo_device, name *C.char, capacity C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_name"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if name == nil {
		return fail(fn, errNull("name"))
	}
	if capacity == 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "capacity is 0"))
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(name)), int(capacity))
	n := copy(dst[:len(dst)-1], d.d.Info().Name)
	dst[n] = 0
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_device_supports_double
func vkgcgo_device_supports_double(h *C.vkfftgo_device, supported *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_supports_double"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if supported == nil {
		return fail(fn, errNull("supported"))
	}
	*supported = 0
	if d.d.Info().DoublePrecision {
		*supported = 1
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_device_mem_stats
func vkgcgo_device_mem_stats(h *C.vkfftgo_device, stats *C.vkfftgo_mem_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_mem_stats"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	if err := checkStatsSize(uintptr(stats.size), C.sizeof_vkfftgo_mem_stats, "VKFFTGO_MEM_STATS_INIT"); err != nil {
		return fail(fn, err)
	}
	m := d.d.MemStats()
	stats.live_allocations = C.int64_t(m.LiveAllocations)
	stats.live_bytes = C.int64_t(m.LiveBytes)
	stats.allocations = C.int64_t(m.Allocations)
	stats.frees = C.int64_t(m.Frees)
	stats.cached_bytes = C.int64_t(m.CachedBytes)
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_alloc_cache_set_limit
func vkgcgo_alloc_cache_set_limit(h *C.vkfftgo_device, bytes C.int64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_alloc_cache_set_limit"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if bytes < 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "limit %d is negative", int64(bytes)))
	}
	d.d.AllocCache().SetLimit(int64(bytes))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_alloc_cache_trim
func vkgcgo_alloc_cache_trim(h *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_alloc_cache_trim"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	d.d.AllocCache().Trim()
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_alloc_cache_get_stats
func vkgcgo_alloc_cache_get_stats(h *C.vkfftgo_device, stats *C.vkfftgo_alloc_cache_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_alloc_cache_get_stats"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	if err := checkStatsSize(uintptr(stats.size), C.sizeof_vkfftgo_alloc_cache_stats, "VKFFTGO_ALLOC_CACHE_STATS_INIT"); err != nil {
		return fail(fn, err)
	}
	st := d.d.AllocCache().Stats()
	stats.hits = C.int64_t(st.Hits)
	stats.misses = C.int64_t(st.Misses)
	stats.evicted = C.int64_t(st.Evicted)
	stats.bytes_held = C.int64_t(st.BytesHeld)
	stats.bytes_in_use = C.int64_t(st.BytesInUse)
	stats.limit = C.int64_t(st.Limit)
	return C.VKFFTGO_SUCCESS
}

// ---- plans ----

// planDesc is a vkfftgo_plan_desc read and checked on the Go side.
type planDesc struct {
	cfg    vkfft.Config
	r2c    bool
	double bool
	r2r    vkfft.R2RKind // kind VKFFTGO_R2R (desc_ext.go)
}

// maxDescSize bounds how far past the known fields a newer caller's descriptor is read.
const maxDescSize = 4096

// readDesc reads a descriptor, honouring its size field: a size below the first
// version's struct is an error (not made with VKFFTGO_PLAN_DESC_INIT); an older
// header's size reads the fields it has (the later ones are zero); a larger one (a
// newer header) is accepted if every field this library does not know is zero.
func readDesc(desc *C.vkfftgo_plan_desc) (planDesc, error) {
	size := uintptr(desc.size)
	if size < descV1Size || size > maxDescSize {
		return parseDesc(unsafe.Slice((*byte)(unsafe.Pointer(desc)), min(size, knownDescSize)))
	}
	return parseDesc(unsafe.Slice((*byte)(unsafe.Pointer(desc)), size))
}

// lookupDeviceDesc finds a live device and reads a plan descriptor, the common start of
// the calls that make a plan (plan_create, plan_acquire, pipeline_create).
func lookupDeviceDesc(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc) (*cdev, planDesc, error) {
	d, err := lookupDevice(dh)
	if err != nil {
		return nil, planDesc{}, err
	}
	if desc == nil {
		return nil, planDesc{}, errNull("desc")
	}
	pd, err := readDesc(desc)
	if err != nil {
		return nil, planDesc{}, err
	}
	return d, pd, nil
}

// checkStatsSize checks the size field of a caller's size-prefixed stats struct.
func checkStatsSize(size, want uintptr, init string) error {
	if size < want {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "stats->size is %d, want %d: initialise it with %s", size,
			want, init)
	}
	return nil
}

// knownDescSize is the size of this version's vkfftgo_plan_desc.
const knownDescSize = C.sizeof_vkfftgo_plan_desc

// parseDesc checks and converts a caller's descriptor, given as the bytes its size
// field covers (a fuzz target: any bytes give a descriptor or an error).
func parseDesc(b []byte) (planDesc, error) {
	var pd planDesc
	known, size := uintptr(knownDescSize), uintptr(len(b))
	if len(b) >= 4 {
		size = uintptr(binary.NativeEndian.Uint32(b))
	}
	if size < descV1Size || uintptr(len(b)) < descV1Size {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->size is %d, this library's vkfftgo_plan_desc has %d bytes (%d in its first version): initialise the descriptor with VKFFTGO_PLAN_DESC_INIT",
			size, known, descV1Size)
	}
	if size > maxDescSize {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is %d: not a descriptor", size)
	}
	if size != uintptr(len(b)) {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is %d but %d bytes were read", size, len(b))
	}
	// an aligned copy of the fields this library knows (those past an older caller's
	// size stay zero)
	var fields C.vkfftgo_plan_desc
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&fields)), known), b)
	desc := &fields
	if size > known {
		for i, v := range b[known:] {
			if v != 0 {
				return pd, errorf(C.VKFFTGO_ERROR_UNSUPPORTED,
					"the descriptor sets a field at byte %d that libvkfftgo %s does not know (built with a newer vkfftgo.h?)",
					known+uintptr(i), versionString())
			}
		}
	}
	switch desc.kind {
	case C.VKFFTGO_C2C:
	case C.VKFFTGO_R2C:
		pd.r2c = true
	case C.VKFFTGO_R2R: // desc_ext.go reads r2r_kind
	default:
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->kind is %d; want VKFFTGO_C2C, VKFFTGO_R2C or VKFFTGO_R2R", desc.kind)
	}
	switch desc.precision {
	case C.VKFFTGO_SINGLE:
	case C.VKFFTGO_DOUBLE:
		pd.double = true
	default:
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->precision is %d; want VKFFTGO_SINGLE or VKFFTGO_DOUBLE", desc.precision)
	}
	switch desc.norm {
	case C.VKFFTGO_NORM_BACKWARD:
		pd.cfg.Norm = vkfft.NormBackward
	case C.VKFFTGO_NORM_ORTHO:
		pd.cfg.Norm = vkfft.NormOrtho
	case C.VKFFTGO_NORM_FORWARD:
		pd.cfg.Norm = vkfft.NormForward
	default:
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->norm is %d; want a VKFFTGO_NORM_* value", desc.norm)
	}
	switch desc.lut {
	case C.VKFFTGO_LUT_DEFAULT:
		pd.cfg.LUT = vkfft.LUTDefault
	case C.VKFFTGO_LUT_ON:
		pd.cfg.LUT = vkfft.LUTOn
	case C.VKFFTGO_LUT_OFF:
		pd.cfg.LUT = vkfft.LUTOff
	default:
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->lut is %d; want a VKFFTGO_LUT_* value", desc.lut)
	}
	if desc.rank < 1 || desc.rank > maxDescRank(size) {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_SHAPE, "desc->rank is %d; want 1 to %d", desc.rank, maxDescRank(size))
	}
	pd.cfg.Shape = make([]int, desc.rank)
	for i := range pd.cfg.Shape {
		pd.cfg.Shape[i] = descDim(desc, i)
	}
	pd.cfg.Batch = int(desc.batch)
	pd.cfg.Tuning = vkfft.Tuning{CoalescedMemory: int(desc.coalesced_memory),
		AimThreads: int(desc.aim_threads), RegisterBoost: int(desc.register_boost)}
	if err := readDescTune(desc, &pd); err != nil {
		return pd, err
	}
	return pd, readDescExt(desc, size, &pd)
}

func versionString() string {
	return fmt.Sprintf("%d.%d.%d", C.VKFFTGO_LIB_VERSION_MAJOR, C.VKFFTGO_LIB_VERSION_MINOR,
		C.VKFFTGO_LIB_VERSION_PATCH)
}

// newCPlan builds the vkfft plan a descriptor asks for, and its C record.
func newCPlan(d *cdev, pd planDesc) (*cplan, error) {
	bp, err := vkfft.NewBytePlan(d.d, pd.cfg, vkfft.ByteKind{Real: pd.r2c, Double: pd.double, R2R: pd.r2r})
	if err != nil {
		return nil, err
	}
	return recordCPlan(d, bp, bp.Close)
}

// recordCPlan makes the C record of a plan; undo gives the plan up if that fails.
func recordCPlan(d *cdev, bp *vkfft.BytePlan, undo func() error) (*cplan, error) {
	core := ccore.PlanOf(bp)
	strided := C.int(0)
	if core.Strided {
		strided = 1
	}
	fwdOut, fwdIn := bp.ForwardBytes()
	invOut, invIn := bp.InverseBytes()
	rec := C.vkgc_plan_new(d.rec, (*C.vkg_plan)(core.Core), C.int(core.InPlace), strided, C.uint64_t(fwdOut),
		C.uint64_t(fwdIn), C.uint64_t(invOut), C.uint64_t(invIn))
	if rec == nil {
		undo()
		return nil, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory")
	}
	p := &cplan{dev: d, p: bp, rec: rec}
	p.setOutOfPlace(core)
	for inv, msg := range core.AsyncRefusal { // vkfftgo_execute_async's refusals (hotpath_async.c)
		if msg != "" {
			rec.async_refusal[inv] = C.CString(msg)
		}
	}
	return p, nil
}

// freeRecord frees the C record, what it points to and the out-of-place builder's
// handle; the plan's C handle was retired (or never published), so no C call uses them.
func (p *cplan) freeRecord() {
	for _, msg := range p.rec.async_refusal {
		C.free(unsafe.Pointer(msg))
	}
	C.free(unsafe.Pointer(p.rec))
	p.rec = nil
	if p.oopBuilder != 0 {
		p.oopBuilder.Delete()
		p.oopBuilder = 0
	}
}

// ccore's in-place rules are core.h's VKGC_INPLACE_* values (a compile-time check).
var (
	_ = [1]int{}[int(ccore.InPlaceAllowed)-C.VKGC_INPLACE_ALLOWED]
	_ = [1]int{}[int(ccore.InPlaceRefusedR2C)-C.VKGC_INPLACE_REFUSED_R2C]
	_ = [1]int{}[int(ccore.InPlaceRefusedStrides)-C.VKGC_INPLACE_REFUSED_STRIDES]
	_ = [1]int{}[int(ccore.InPlaceRequired)-C.VKGC_INPLACE_REQUIRED]
)

// close frees the plan and its record; its handle was retired (or never published).
func (p *cplan) close() error {
	p.freeRecord()
	if p.lease != nil { // back to the cache, which closes it if it must
		p.lease.Release()
		return nil
	}
	return p.p.Close()
}

// use takes d.mu shared for a call that touches the device's C record or builds on
// the device; it fails once vkfftgo_device_close has begun.
func (d *cdev) use() error {
	d.mu.RLock()
	if d.rec == nil {
		d.mu.RUnlock()
		return errorf(C.VKFFTGO_ERROR_CLOSED, "the device was closed")
	}
	return nil
}

//export vkgcgo_plan_create
func vkgcgo_plan_create(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc, out **C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("plan output pointer"))
	}
	*out = nil
	d, pd, err := lookupDeviceDesc(dh, desc)
	if err != nil {
		return fail(fn, err)
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	p, err := newCPlan(d, pd)
	if err != nil {
		return fail(fn, err)
	}
	undo := func() { p.close() }
	if err := publish(C.VKGC_PLAN, unsafe.Pointer(p.rec), tables.plans, &d.plans, p, &p.handle, undo); err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_plan)(handlePtr(p.handle))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_plan_destroy
func vkgcgo_plan_destroy(h *C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	p.dev.mu.RLock() // vkfftgo_device_close waits for this destroy
	defer p.dev.mu.RUnlock()
	if withdraw(tables.plans, p.handle, func(p *cplan) map[*cplan]struct{} { return p.dev.plans }) == nil {
		_, err := lookupPlan(h) // destroyed (or its device closed) meanwhile
		return fail(fn, err)
	}
	retire(p.handle, C.VKGC_PLAN)
	return ret(fn, p.close())
}

//export vkgcgo_plan_bytes
func vkgcgo_plan_bytes(h *C.vkfftgo_plan, complexBytes, realBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_bytes"
	defer recoverTo(fn, &rc)
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if complexBytes != nil {
		*complexBytes = C.size_t(p.p.ComplexBytes())
	}
	if realBytes != nil {
		*realBytes = C.size_t(p.p.RealBytes())
	}
	return C.VKFFTGO_SUCCESS
}

// ---- device buffers ----

//export vkgcgo_buffer_create
func vkgcgo_buffer_create(dh *C.vkfftgo_device, bytes C.size_t, out **C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("buffer output pointer"))
	}
	*out = nil
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if bytes == 0 || uint64(bytes) > 1<<62 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes is %d; want a positive size", uint64(bytes)))
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	b, err := vkfft.NewByteBuffer(d.d, int64(bytes))
	if err != nil {
		return fail(fn, err)
	}
	rec := C.vkgc_buffer_new(d.rec, C.vkg_mem(b.Native()), C.uint64_t(bytes))
	if rec == nil {
		b.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	cb := &cbuf{dev: d, b: b, rec: rec}
	undo := func() { cb.close() }
	if err := publish(C.VKGC_BUFFER, unsafe.Pointer(rec), tables.bufs, &d.bufs, cb, &cb.handle, undo); err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_buffer)(handlePtr(cb.handle))
	return C.VKFFTGO_SUCCESS
}

// close frees the buffer and its record; its handle was retired (or never published).
func (b *cbuf) close() error {
	C.free(unsafe.Pointer(b.rec))
	b.rec = nil
	return b.b.Close()
}

//export vkgcgo_buffer_destroy
func vkgcgo_buffer_destroy(h *C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	b.dev.mu.RLock() // vkfftgo_device_close waits for this destroy
	defer b.dev.mu.RUnlock()
	if withdraw(tables.bufs, b.handle, func(b *cbuf) map[*cbuf]struct{} { return b.dev.bufs }) == nil {
		_, err := lookupBuffer(h, "buffer")
		return fail(fn, err)
	}
	retire(b.handle, C.VKGC_BUFFER) // waits for transforms that use it
	return ret(fn, b.close())
}

//export vkgcgo_buffer_size
func vkgcgo_buffer_size(h *C.vkfftgo_buffer, bytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_size"
	defer recoverTo(fn, &rc)
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if bytes == nil {
		return fail(fn, errNull("bytes"))
	}
	*bytes = C.size_t(b.b.Bytes())
	return C.VKFFTGO_SUCCESS
}

func bufferCopy(fn string, h *C.vkfftgo_buffer, host unsafe.Pointer, bytes C.size_t, up bool) C.vkfftgo_status {
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if host == nil {
		if up {
			return fail(fn, errNull("src"))
		}
		return fail(fn, errNull("dst"))
	}
	if int64(bytes) != b.b.Bytes() {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "bytes is %d; the buffer has %d", uint64(bytes), b.b.Bytes()))
	}
	s := unsafe.Slice((*byte)(host), int(bytes))
	if up {
		return ret(fn, b.b.Upload(s))
	}
	return ret(fn, b.b.Download(s))
}

//export vkgcgo_buffer_upload
func vkgcgo_buffer_upload(h *C.vkfftgo_buffer, src unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_buffer_upload", &rc)
	return bufferCopy("vkfftgo_buffer_upload", h, src, bytes, true)
}

//export vkgcgo_buffer_download
func vkgcgo_buffer_download(h *C.vkfftgo_buffer, dst unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_buffer_download", &rc)
	return bufferCopy("vkfftgo_buffer_download", h, dst, bytes, false)
}
