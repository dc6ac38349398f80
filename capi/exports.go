package main

/*
#define VKFFTGO_NO_PROTOTYPES
#include <string.h>
#include "vkfftgo.h"
#include "version.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// ---- library identity (the rest is in lasterror.c and guard_*.c) ----

//export vkfftgo_backend
func vkfftgo_backend() C.int { return C.int(vkfft.CurrentBackend()) }

//export vkfftgo_vkfft_version
func vkfftgo_vkfft_version() (v C.int) {
	defer func() {
		if recover() != nil {
			v = 0
		}
	}()
	return C.int(vkfft.VkFFTVersion)
}

// ---- devices ----

//export vkfftgo_device_count
func vkfftgo_device_count(count *C.int) (rc C.vkfftgo_status) {
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

//export vkfftgo_device_open
func vkfftgo_device_open(ordinal C.int, out **C.vkfftgo_device) (rc C.vkfftgo_status) {
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
	tok := newToken()
	if tok == nil {
		d.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	tables.mu.Lock()
	tables.devs[uintptr(tok)] = &cdev{d: d, plans: map[*cplan]struct{}{}, bufs: map[*cbuf]struct{}{}}
	tables.mu.Unlock()
	*out = (*C.vkfftgo_device)(tok)
	return C.VKFFTGO_SUCCESS
}

//export vkfftgo_device_close
func vkfftgo_device_close(h *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_close"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	// Forget the device and everything made on it, then let vkfft free them all.
	var tokens []unsafe.Pointer
	tables.mu.Lock()
	delete(tables.devs, uintptr(unsafe.Pointer(h)))
	for p := range d.plans {
		delete(tables.plans, uintptr(p.token))
		tokens = append(tokens, p.token)
	}
	for b := range d.bufs {
		delete(tables.bufs, uintptr(b.token))
		tokens = append(tokens, b.token)
	}
	d.plans, d.bufs = nil, nil
	tables.mu.Unlock()
	err = d.d.Close()
	for _, t := range tokens {
		freeToken(t)
	}
	freeToken(unsafe.Pointer(h))
	return ret(fn, err)
}

//export vkfftgo_device_name
func vkfftgo_device_name(h *C.vkfftgo_device, name *C.char, capacity C.size_t) (rc C.vkfftgo_status) {
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

//export vkfftgo_device_supports_double
func vkfftgo_device_supports_double(h *C.vkfftgo_device, supported *C.int) (rc C.vkfftgo_status) {
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

//export vkfftgo_device_sync
func vkfftgo_device_sync(h *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_sync"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	return ret(fn, d.d.Sync())
}

//export vkfftgo_device_mem_stats
func vkfftgo_device_mem_stats(h *C.vkfftgo_device, stats *C.vkfftgo_mem_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_mem_stats"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	if uintptr(stats.size) < C.sizeof_vkfftgo_mem_stats {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"stats->size is %d, want %d: initialise it with VKFFTGO_MEM_STATS_INIT", stats.size,
			C.sizeof_vkfftgo_mem_stats))
	}
	m := d.d.MemStats()
	stats.live_allocations = C.int64_t(m.LiveAllocations)
	stats.live_bytes = C.int64_t(m.LiveBytes)
	stats.allocations = C.int64_t(m.Allocations)
	stats.frees = C.int64_t(m.Frees)
	stats.cached_bytes = C.int64_t(m.CachedBytes)
	return C.VKFFTGO_SUCCESS
}

//export vkfftgo_alloc_cache_set_limit
func vkfftgo_alloc_cache_set_limit(h *C.vkfftgo_device, bytes C.int64_t) (rc C.vkfftgo_status) {
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

//export vkfftgo_alloc_cache_trim
func vkfftgo_alloc_cache_trim(h *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_alloc_cache_trim"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	d.d.AllocCache().Trim()
	return C.VKFFTGO_SUCCESS
}

//export vkfftgo_alloc_cache_get_stats
func vkfftgo_alloc_cache_get_stats(h *C.vkfftgo_device, stats *C.vkfftgo_alloc_cache_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_alloc_cache_get_stats"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	if uintptr(stats.size) < C.sizeof_vkfftgo_alloc_cache_stats {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"stats->size is %d, want %d: initialise it with VKFFTGO_ALLOC_CACHE_STATS_INIT", stats.size,
			C.sizeof_vkfftgo_alloc_cache_stats))
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

//export vkfftgo_device_set_staging_threshold
func vkfftgo_device_set_staging_threshold(h *C.vkfftgo_device, bytes C.int64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_set_staging_threshold"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(h)
	if err != nil {
		return fail(fn, err)
	}
	d.d.SetStagingThreshold(int64(bytes))
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

// readDesc reads a descriptor, honouring its size field: a smaller size than this
// version's struct is an error (not made with VKFFTGO_PLAN_DESC_INIT); a larger one
// (a newer header) is accepted if every field this library does not know is zero.
func readDesc(user *C.vkfftgo_plan_desc) (planDesc, error) {
	var pd planDesc
	known := uintptr(C.sizeof_vkfftgo_plan_desc)
	size := uintptr(user.size)
	if size < descV1Size {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->size is %d, this library's vkfftgo_plan_desc has %d bytes (%d in its first version): initialise the descriptor with VKFFTGO_PLAN_DESC_INIT",
			size, known, descV1Size)
	}
	if size > maxDescSize {
		return pd, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->size is %d: not a descriptor", size)
	}
	// an older caller's descriptor ends early: the fields it lacks read as zero
	var desc C.vkfftgo_plan_desc
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&desc)), known),
		unsafe.Slice((*byte)(unsafe.Pointer(user)), min(size, known)))
	if size > known {
		tail := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(user), known)), size-known)
		for i, b := range tail {
			if b != 0 {
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
		pd.cfg.Shape[i] = descDim(&desc, i)
	}
	pd.cfg.Batch = int(desc.batch)
	pd.cfg.Tuning = vkfft.Tuning{CoalescedMemory: int(desc.coalesced_memory),
		AimThreads: int(desc.aim_threads), RegisterBoost: int(desc.register_boost)}
	if err := readDescTune(&desc, &pd); err != nil {
		return pd, err
	}
	return pd, readDescExt(&desc, size, &pd)
}

func versionString() string {
	return fmt.Sprintf("%d.%d.%d", C.VKFFTGO_LIB_VERSION_MAJOR, C.VKFFTGO_LIB_VERSION_MINOR,
		C.VKFFTGO_LIB_VERSION_PATCH)
}

// newCPlan builds the vkfft plan a descriptor asks for.
func newCPlan(d *cdev, pd planDesc) (*cplan, error) {
	if p, ok, err := newCPlanExt(d, pd); ok { // desc_ext.go
		return p, err
	}
	p := &cplan{dev: d}
	var err error
	switch {
	case !pd.r2c && !pd.double:
		if p.c64, err = vkfft.NewPlan[complex64](d.d, pd.cfg); err == nil {
			p.cbytes = int64(p.c64.Len()) * 8
		}
	case !pd.r2c && pd.double:
		if p.c128, err = vkfft.NewPlan[complex128](d.d, pd.cfg); err == nil {
			p.cbytes = int64(p.c128.Len()) * 16
		}
	case !pd.double:
		if p.r32, err = vkfft.NewRealPlan[float32, complex64](d.d, pd.cfg); err == nil {
			p.cbytes, p.rbytes = int64(p.r32.ComplexLen())*8, int64(p.r32.RealLen())*4
		}
	default:
		if p.r64, err = vkfft.NewRealPlan[float64, complex128](d.d, pd.cfg); err == nil {
			p.cbytes, p.rbytes = int64(p.r64.ComplexLen())*16, int64(p.r64.RealLen())*8
		}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (p *cplan) close() error {
	switch {
	case p.x != nil:
		return p.x.close()
	case p.c64 != nil:
		return p.c64.Close()
	case p.c128 != nil:
		return p.c128.Close()
	case p.r32 != nil:
		return p.r32.Close()
	}
	return p.r64.Close()
}

// sizes returns the bytes of the output and the input of a transform.
func (p *cplan) sizes(inverse bool) (out, in int64) {
	switch {
	case p.x != nil:
		return p.x.sizes(inverse)
	case p.rbytes == 0:
		return p.cbytes, p.cbytes
	case inverse:
		return p.rbytes, p.cbytes
	}
	return p.cbytes, p.rbytes
}

// host runs a host transform through the typed vkfft plan, viewing the C memory as
// slices of the plan's element types (no copy, no allocation).
func (p *cplan) host(inverse bool, out, in unsafe.Pointer) error {
	switch {
	case p.x != nil:
		return p.x.host(inverse, out, in)
	case p.c64 != nil:
		n := p.c64.Len()
		dst, src := unsafe.Slice((*complex64)(out), n), unsafe.Slice((*complex64)(in), n)
		if inverse {
			return p.c64.Inverse(dst, src)
		}
		return p.c64.Forward(dst, src)
	case p.c128 != nil:
		n := p.c128.Len()
		dst, src := unsafe.Slice((*complex128)(out), n), unsafe.Slice((*complex128)(in), n)
		if inverse {
			return p.c128.Inverse(dst, src)
		}
		return p.c128.Forward(dst, src)
	case p.r32 != nil:
		nr, nc := p.r32.RealLen(), p.r32.ComplexLen()
		if inverse {
			return p.r32.Inverse(unsafe.Slice((*float32)(out), nr), unsafe.Slice((*complex64)(in), nc))
		}
		return p.r32.Forward(unsafe.Slice((*complex64)(out), nc), unsafe.Slice((*float32)(in), nr))
	}
	nr, nc := p.r64.RealLen(), p.r64.ComplexLen()
	if inverse {
		return p.r64.Inverse(unsafe.Slice((*float64)(out), nr), unsafe.Slice((*complex128)(in), nc))
	}
	return p.r64.Forward(unsafe.Slice((*complex128)(out), nc), unsafe.Slice((*float64)(in), nr))
}

// native runs a transform on device memory given as native handles.
func (p *cplan) native(inverse bool, out, in uint64) error {
	switch {
	case p.x != nil:
		return p.x.native(inverse, out, in)
	case p.c64 != nil:
		if inverse {
			return p.c64.InverseNative(out, in)
		}
		return p.c64.ForwardNative(out, in)
	case p.c128 != nil:
		if inverse {
			return p.c128.InverseNative(out, in)
		}
		return p.c128.ForwardNative(out, in)
	case p.r32 != nil:
		if inverse {
			return p.r32.InverseNative(out, in)
		}
		return p.r32.ForwardNative(out, in)
	}
	if inverse {
		return p.r64.InverseNative(out, in)
	}
	return p.r64.ForwardNative(out, in)
}

//export vkfftgo_plan_create
func vkfftgo_plan_create(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc, out **C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("plan output pointer"))
	}
	*out = nil
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if desc == nil {
		return fail(fn, errNull("desc"))
	}
	pd, err := readDesc(desc)
	if err != nil {
		return fail(fn, err)
	}
	p, err := newCPlan(d, pd)
	if err != nil {
		return fail(fn, err)
	}
	if p.token, err = publish(tables.plans, &d.plans, p, p.close); err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_plan)(p.token)
	return C.VKFFTGO_SUCCESS
}

//export vkfftgo_plan_destroy
func vkfftgo_plan_destroy(h *C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	p := withdraw(tables.plans, unsafe.Pointer(h), func(p *cplan) map[*cplan]struct{} { return p.dev.plans })
	if p == nil {
		_, err := lookupPlan(h)
		return fail(fn, err)
	}
	err := p.close()
	freeToken(p.token)
	return ret(fn, err)
}

//export vkfftgo_plan_bytes
func vkfftgo_plan_bytes(h *C.vkfftgo_plan, complexBytes, realBytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_bytes"
	defer recoverTo(fn, &rc)
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if complexBytes != nil {
		*complexBytes = C.size_t(p.cbytes)
	}
	if realBytes != nil {
		*realBytes = C.size_t(p.rbytes)
	}
	return C.VKFFTGO_SUCCESS
}

// execute is the host-transform hot path shared by the exports: handle lookup, pointer
// and size checks, then the typed vkfft call. checked says the sizes were given.
func execute(fn string, h *C.vkfftgo_plan, inverse bool, out unsafe.Pointer, outBytes C.size_t,
	in unsafe.Pointer, inBytes C.size_t, checked bool) C.vkfftgo_status {
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if out == nil {
		return fail(fn, errNull("out"))
	}
	if in == nil {
		return fail(fn, errNull("in"))
	}
	wantOut, wantIn := p.sizes(inverse)
	if checked && (int64(outBytes) != wantOut || int64(inBytes) != wantIn) {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE,
			"%s: out has %d bytes and in %d; the plan needs out %d and in %d bytes",
			direction(inverse), uint64(outBytes), uint64(inBytes), wantOut, wantIn))
	}
	return ret(fn, p.host(inverse, out, in))
}

func direction(inverse bool) string {
	if inverse {
		return "inverse"
	}
	return "forward"
}

// parseDirection maps VKFFTGO_FORWARD/VKFFTGO_INVERSE to inverse.
func parseDirection(dir C.int) (inverse bool, err error) {
	switch dir {
	case C.VKFFTGO_FORWARD:
		return false, nil
	case C.VKFFTGO_INVERSE:
		return true, nil
	}
	return false, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
		"direction is %d; want VKFFTGO_FORWARD (-1) or VKFFTGO_INVERSE (1)", int(dir))
}

//export vkfftgo_forward
func vkfftgo_forward(h *C.vkfftgo_plan, out, in unsafe.Pointer) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_forward", &rc)
	return execute("vkfftgo_forward", h, false, out, 0, in, 0, false)
}

//export vkfftgo_inverse
func vkfftgo_inverse(h *C.vkfftgo_plan, out, in unsafe.Pointer) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_inverse", &rc)
	return execute("vkfftgo_inverse", h, true, out, 0, in, 0, false)
}

//export vkfftgo_execute
func vkfftgo_execute(h *C.vkfftgo_plan, dir C.int, out unsafe.Pointer, outBytes C.size_t,
	in unsafe.Pointer, inBytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_execute"
	defer recoverTo(fn, &rc)
	inverse, err := parseDirection(dir)
	if err != nil {
		return fail(fn, err)
	}
	return execute(fn, h, inverse, out, outBytes, in, inBytes, true)
}

// ---- device buffers ----

//export vkfftgo_buffer_create
func vkfftgo_buffer_create(dh *C.vkfftgo_device, bytes C.size_t, out **C.vkfftgo_buffer) (rc C.vkfftgo_status) {
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
	if bytes == 0 || bytes%4 != 0 || uint64(bytes) > 1<<62 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"bytes is %d; want a positive multiple of 4", uint64(bytes)))
	}
	b, err := vkfft.NewBuffer[float32](d.d, int(bytes/4))
	if err != nil {
		return fail(fn, err)
	}
	cb := &cbuf{dev: d, b: b, bytes: int64(bytes)}
	if cb.token, err = publish(tables.bufs, &d.bufs, cb, b.Close); err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_buffer)(cb.token)
	return C.VKFFTGO_SUCCESS
}

//export vkfftgo_buffer_destroy
func vkfftgo_buffer_destroy(h *C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_destroy"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	b := withdraw(tables.bufs, unsafe.Pointer(h), func(b *cbuf) map[*cbuf]struct{} { return b.dev.bufs })
	if b == nil {
		_, err := lookupBuffer(h, "buffer")
		return fail(fn, err)
	}
	b.mu.Lock() // wait for transforms that use it
	err := b.b.Close()
	b.mu.Unlock()
	freeToken(b.token)
	return ret(fn, err)
}

//export vkfftgo_buffer_size
func vkfftgo_buffer_size(h *C.vkfftgo_buffer, bytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_buffer_size"
	defer recoverTo(fn, &rc)
	b, err := lookupBuffer(h, "buffer")
	if err != nil {
		return fail(fn, err)
	}
	if bytes == nil {
		return fail(fn, errNull("bytes"))
	}
	*bytes = C.size_t(b.bytes)
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
	if int64(bytes) != b.bytes {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "bytes is %d; the buffer has %d", uint64(bytes), b.bytes))
	}
	s := unsafe.Slice((*float32)(host), b.bytes/4)
	if up {
		return ret(fn, b.b.Upload(s))
	}
	return ret(fn, b.b.Download(s))
}

//export vkfftgo_buffer_upload
func vkfftgo_buffer_upload(h *C.vkfftgo_buffer, src unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_buffer_upload", &rc)
	return bufferCopy("vkfftgo_buffer_upload", h, src, bytes, true)
}

//export vkfftgo_buffer_download
func vkfftgo_buffer_download(h *C.vkfftgo_buffer, dst unsafe.Pointer, bytes C.size_t) (rc C.vkfftgo_status) {
	defer recoverTo("vkfftgo_buffer_download", &rc)
	return bufferCopy("vkfftgo_buffer_download", h, dst, bytes, false)
}

//export vkfftgo_execute_buffer
func vkfftgo_execute_buffer(h *C.vkfftgo_plan, dir C.int, outh, inh *C.vkfftgo_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_execute_buffer"
	defer recoverTo(fn, &rc)
	inverse, err := parseDirection(dir)
	if err != nil {
		return fail(fn, err)
	}
	p, err := lookupPlan(h)
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
	if out.dev != p.dev || in.dev != p.dev {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_DEVICE, "a buffer belongs to another device than the plan"))
	}
	wantOut, wantIn := p.sizes(inverse)
	if !p.buffersFit(out.bytes, in.bytes, wantOut, wantIn) {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE,
			"%s: out has %d bytes and in %d; the plan needs out %d and in %d bytes",
			direction(inverse), out.bytes, in.bytes, wantOut, wantIn))
	}
	if p.distinctBuffers() && out == in {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "an R2C plan needs distinct in and out buffers"))
	}
	out.mu.RLock()
	defer out.mu.RUnlock()
	if in != out {
		in.mu.RLock()
		defer in.mu.RUnlock()
	}
	return ret(fn, p.native(inverse, out.b.Native(), in.b.Native()))
}
