package main

// The C API's parity with package vkfft: a device on the caller's own CUDA or
// OpenCL context, the kernel cache's settings, and the device's plan cache with leased
// plans. Each export checks its arguments and calls one vkfft function.

/*
#define VKFFTGO_NO_PROTOTYPES
#include <stdint.h>
#include <string.h>
#include "vkfftgo.h"
#include "handles.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// ---- a device on the caller's context ----

//export vkgcgo_device_open_cu
func vkgcgo_device_open_cu(ctx *C.struct_CUctx_st, stream *C.struct_CUstream_st, out **C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_open_cu"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("device output pointer"))
	}
	*out = nil
	if ctx == nil {
		return fail(fn, errNull("context"))
	}
	d, err := vkfft.OpenCUDAContext(uintptr(unsafe.Pointer(ctx)), uintptr(unsafe.Pointer(stream)))
	if err != nil {
		return fail(fn, err)
	}
	return ret(fn, publishDevice(d, out))
}

//export vkgcgo_device_open_cl
func vkgcgo_device_open_cl(ctx *C.struct__cl_context, dev *C.struct__cl_device_id, queue *C.struct__cl_command_queue,
	out **C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_device_open_cl"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("device output pointer"))
	}
	*out = nil
	if ctx == nil {
		return fail(fn, errNull("context"))
	}
	d, err := vkfft.OpenCLContext(uintptr(unsafe.Pointer(ctx)), uintptr(unsafe.Pointer(dev)),
		uintptr(unsafe.Pointer(queue)))
	if err != nil {
		return fail(fn, err)
	}
	return ret(fn, publishDevice(d, out))
}

// ---- the kernel cache ----

//export vkgcgo_kernel_cache_set_dir
func vkgcgo_kernel_cache_set_dir(dir *C.char) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_set_dir"
	defer recoverTo(fn, &rc)
	if dir == nil {
		vkfft.KernelCache().SetDir("")
		return C.VKFFTGO_SUCCESS
	}
	vkfft.KernelCache().SetDir(C.GoString(dir))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_kernel_cache_get_dir
func vkgcgo_kernel_cache_get_dir(dir *C.char, capacity C.size_t, enabled *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_get_dir"
	defer recoverTo(fn, &rc)
	if dir == nil && enabled == nil {
		return fail(fn, errNull("dir and enabled"))
	}
	path, on := vkfft.KernelCache().Dir()
	if enabled != nil {
		*enabled = 0
		if on {
			*enabled = 1
		}
	}
	if dir == nil {
		return C.VKFFTGO_SUCCESS
	}
	if uint64(capacity) < uint64(len(path))+1 {
		if capacity > 0 {
			*dir = 0
		}
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "capacity is %d; the directory needs %d bytes",
			uint64(capacity), len(path)+1))
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(dir)), len(path)+1)
	copy(dst, path)
	dst[len(path)] = 0
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_kernel_cache_set_max_bytes
func vkgcgo_kernel_cache_set_max_bytes(bytes C.int64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_set_max_bytes"
	defer recoverTo(fn, &rc)
	if bytes < 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes %d is negative", int64(bytes)))
	}
	vkfft.KernelCache().SetMaxBytes(int64(bytes))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_kernel_cache_get_stats
func vkgcgo_kernel_cache_get_stats(stats *C.vkfftgo_kernel_cache_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_get_stats"
	defer recoverTo(fn, &rc)
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	// a struct of the header before the kernel counters is filled up to max_bytes
	withKernels := uintptr(stats.size) >= C.sizeof_vkfftgo_kernel_cache_stats
	if err := checkStatsSize(uintptr(stats.size), kernelCacheStatsV1Size, "VKFFTGO_KERNEL_CACHE_STATS_INIT"); err != nil {
		return fail(fn, err)
	}
	kc := vkfft.KernelCache()
	st := kc.Stats()
	info, _, err := kc.Info()
	if err != nil {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "reading the cache directory: %v", err))
	}
	stats.hits, stats.misses, stats.rejected = C.int64_t(st.Hits), C.int64_t(st.Misses), C.int64_t(st.Rejected)
	stats.stored, stats.store_errors, stats.evicted = C.int64_t(st.Stored), C.int64_t(st.StoreErrors), C.int64_t(st.Evicted)
	stats.entries, stats.bytes, stats.max_bytes = C.int64_t(info.Entries), C.int64_t(info.Bytes), C.int64_t(info.MaxBytes)
	if withKernels {
		stats.kernels_compiled, stats.kernels_parallel = C.int64_t(st.KernelsCompiled), C.int64_t(st.KernelsParallel)
		stats.kernels_forked, stats.kernels_loaded = C.int64_t(st.KernelsForked), C.int64_t(st.KernelsLoaded)
	}
	return C.VKFFTGO_SUCCESS
}

// kernelCacheStatsV1Size is vkfftgo_kernel_cache_stats up to max_bytes, the struct before
// the kernel counters.
var kernelCacheStatsV1Size = unsafe.Offsetof(C.vkfftgo_kernel_cache_stats{}.kernels_compiled)

//export vkgcgo_kernel_cache_clear
func vkgcgo_kernel_cache_clear(removed *C.int64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_clear"
	defer recoverTo(fn, &rc)
	n, err := vkfft.KernelCache().Clear()
	if removed != nil {
		*removed = C.int64_t(n)
	}
	if err != nil {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "clearing the cache directory: %v", err))
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_kernel_cache_contains
func vkgcgo_kernel_cache_contains(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc, cached *C.int) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_kernel_cache_contains"
	defer recoverTo(fn, &rc)
	if cached == nil {
		return fail(fn, errNull("cached"))
	}
	*cached = 0
	d, pd, err := lookupDeviceDesc(dh, desc)
	if err != nil {
		return fail(fn, err)
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	on, err := ccore.KernelsCached(d.d, pd.cfg, vkfft.ByteKind{Real: pd.r2c, Double: pd.double, R2R: pd.r2r})
	if err != nil {
		return fail(fn, err)
	}
	if on {
		*cached = 1
	}
	return C.VKFFTGO_SUCCESS
}

// ---- the device's plan cache and leased plans ----

//export vkgcgo_plan_acquire
func vkgcgo_plan_acquire(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc, out **C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_acquire"
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
	l, err := vkfft.CachedBytePlan(d.d, pd.cfg, vkfft.ByteKind{Real: pd.r2c, Double: pd.double, R2R: pd.r2r})
	if err != nil {
		return fail(fn, err)
	}
	p, err := recordCPlan(d, l.Plan(), func() error { l.Release(); return nil })
	if err != nil {
		return fail(fn, err)
	}
	p.lease = &l
	undo := func() { p.close() }
	if err := publish(C.VKGC_PLAN, unsafe.Pointer(p.rec), tables.plans, &d.plans, p, &p.handle, undo); err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_plan)(handlePtr(p.handle))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_plan_release
func vkgcgo_plan_release(h *C.vkfftgo_plan) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_release"
	defer recoverTo(fn, &rc)
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if p.lease == nil {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"the plan was made by vkfftgo_plan_create, not leased by vkfftgo_plan_acquire: destroy it with vkfftgo_plan_destroy"))
	}
	return vkgcgo_plan_destroy(h) // gives the lease back (cplan.close)
}

//export vkgcgo_plan_cache_set_limits
func vkgcgo_plan_cache_set_limits(dh *C.vkfftgo_device, maxPlans, maxBytes C.int64_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_cache_set_limits"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if maxPlans > 1<<30 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "max_plans %d is too large", int64(maxPlans)))
	}
	if maxBytes < 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "max_bytes %d is negative (0 means no limit)",
			int64(maxBytes)))
	}
	d.d.PlanCache().SetLimits(int(max(maxPlans, -1)), int64(maxBytes))
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_plan_cache_clear
func vkgcgo_plan_cache_clear(dh *C.vkfftgo_device) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_cache_clear"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	d.d.PlanCache().Clear()
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_plan_cache_get_stats
func vkgcgo_plan_cache_get_stats(dh *C.vkfftgo_device, stats *C.vkfftgo_plan_cache_stats) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_cache_get_stats"
	defer recoverTo(fn, &rc)
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if stats == nil {
		return fail(fn, errNull("stats"))
	}
	if err := checkStatsSize(uintptr(stats.size), C.sizeof_vkfftgo_plan_cache_stats, "VKFFTGO_PLAN_CACHE_STATS_INIT"); err != nil {
		return fail(fn, err)
	}
	st := d.d.PlanCache().Stats()
	stats.hits, stats.misses, stats.evictions = C.int64_t(st.Hits), C.int64_t(st.Misses), C.int64_t(st.Evictions)
	stats.plans, stats.leased, stats.bytes = C.int64_t(st.Plans), C.int64_t(st.Leased), C.int64_t(st.Bytes)
	stats.max_plans, stats.max_bytes = C.int64_t(st.MaxPlans), C.int64_t(st.MaxBytes)
	return C.VKFFTGO_SUCCESS
}
