//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"

// The hot-path calls take the caller's slices for the duration of the call only and
// never call back into Go: say so, so the slices need not escape to the heap.
#cgo noescape vkg_upload
#cgo nocallback vkg_upload
#cgo noescape vkg_download
#cgo nocallback vkg_download
#cgo nocallback vkg_sync
*/
import "C"

import (
	"unsafe"
)

func cdev(d Device) *C.vkg_device { return (*C.vkg_device)(d) }

// CompiledVkFFTVersion is the VkFFT version compiled in, as VkFFTGetVersion gives it.
func CompiledVkFFTVersion() int { return int(C.vkg_vkfft_version()) }

// VkFFTPatched reports whether the VkFFT headers compiled in carry cvendor's patches.
func VkFFTPatched() bool { return C.vkg_vkfft_patched() != 0 }

// DeviceCount is the number of devices of the registered backend.
func DeviceCount() (int, error) {
	var n int
	err := withStatus(func(st *C.vkg_status) C.int {
		r := C.vkg_device_count(st)
		if r < 0 {
			return -r
		}
		n = int(r)
		return 0
	})
	return n, err
}

func infoFromC(ci *C.vkg_device_info) DeviceInfo {
	return DeviceInfo{
		Name:               C.GoString(&ci.name[0]),
		Vendor:             C.GoString(&ci.vendor[0]),
		Driver:             C.GoString(&ci.driver[0]),
		Platform:           C.GoString(&ci.platform[0]),
		GlobalMemory:       uint64(ci.global_mem),
		MaxAllocation:      uint64(ci.max_alloc),
		VendorID:           uint32(ci.vendor_id),
		ComputeMajor:       int(ci.compute_major),
		ComputeMinor:       int(ci.compute_minor),
		DoublePrecision:    ci.fp64 != 0,
		HalfPrecision:      ci.fp16 != 0,
		HostMemory:         ci.host_memory != 0,
		LocalMemory:        uint64(ci.local_mem),
		FloatAtomics:       ci.float_atomics != 0,
		SharedFloatAtomics: ci.shared_float_atomics != 0,
		MaxBinding:         uint64(ci.max_binding),
	}
}

// DeviceQuery describes device i without opening it.
func DeviceQuery(i int) (DeviceInfo, error) {
	var ci C.vkg_device_info
	var info DeviceInfo
	err := withStatus(func(st *C.vkg_status) C.int {
		r := C.vkg_device_query(C.int(i), &ci, st)
		if r == 0 {
			info = infoFromC(&ci)
		}
		return r
	})
	return info, err
}

// DeviceOpen opens device i: its context and its own queue, for the device's life.
func DeviceOpen(i int) (Device, DeviceInfo, error) {
	var h *C.vkg_device
	var info DeviceInfo
	err := withStatus(func(st *C.vkg_status) C.int {
		r := C.vkg_device_open(C.int(i), &h, st)
		if r == 0 {
			info = infoFromC(C.vkg_device_get_info(h))
		}
		return r
	})
	return Device(h), info, err
}

// DeviceOpenNative opens a device on a context the caller made: NativeOpenCL takes
// (cl_context, cl_device_id, cl_command_queue), NativeCUDA (CUcontext, CUstream, 0); see
// vkg_backend.h. ordinal is the device's index, or -1.
func DeviceOpenNative(kind int, handles [3]uint64) (d Device, info DeviceInfo, ordinal int, err error) {
	var h *C.vkg_device
	var ord C.int
	ch := [3]C.uint64_t{C.uint64_t(handles[0]), C.uint64_t(handles[1]), C.uint64_t(handles[2])}
	err = withStatus(func(st *C.vkg_status) C.int {
		r := C.vkg_device_open_native(C.int(kind), &ch[0], &h, &ord, st)
		if r == 0 {
			info = infoFromC(C.vkg_device_get_info(h))
		}
		return r
	})
	return Device(h), info, int(ord), err
}

// DeviceClose waits for the device's work and frees it.
func DeviceClose(d Device) { C.vkg_device_close(cdev(d)) }

// DeviceHandle returns one of the device's native handles (Handle*); 0 where the API
// has none.
func DeviceHandle(d Device, which int) uint64 {
	return uint64(C.vkg_device_handle(cdev(d), C.int(which)))
}

// QueueNative returns the native queue under a queue handle (Vulkan's VkQueue; the
// handle itself elsewhere).
func QueueNative(d Device, queue uint64) uint64 {
	return uint64(C.vkg_queue_native(cdev(d), C.uint64_t(queue)))
}

// DeviceStat returns a backend's test counter (Stat*), or -1 where it keeps none.
func DeviceStat(d Device, which int) int64 { return int64(C.vkg_device_stat(cdev(d), C.int(which))) }

// CompilerIdent names the kernel compiler of this process ("nvrtc 12.4"), "" where the
// backend names none: its binaries belong to it, so it is part of the kernel-cache key.
func CompilerIdent() string { return C.GoString(C.vkg_compiler_ident()) }

// RuntimeLibraries reports the driver's and the compiler's files and the compiler's
// version, for backends that open them at run time (ok false elsewhere).
func RuntimeLibraries() (driver, compiler string, major, minor int, ok bool) {
	var d, c *C.char
	var ma, mi C.int
	ok = C.vkg_runtime_libraries(&d, &c, &ma, &mi) != 0
	return C.GoString(d), C.GoString(c), int(ma), int(mi), ok
}

// DeviceSync waits for the device's queued work.
func DeviceSync(d Device) error {
	return withStatus(func(st *C.vkg_status) C.int { return C.vkg_sync(cdev(d), st) })
}

// DeviceSyncWith reports into a status the caller owns: no allocation per call.
func DeviceSyncWith(d Device, st Status) error { return check(C.vkg_sync(cdev(d), cst(st)), st) }

// DeviceMemInfo returns free and total device memory as the driver reports them.
func DeviceMemInfo(d Device) (free, total uint64, err error) {
	var f, t C.uint64_t
	err = withStatus(func(st *C.vkg_status) C.int { return C.vkg_device_mem_info(cdev(d), &f, &t, st) })
	return uint64(f), uint64(t), err
}

// MemAlloc allocates device memory.
func MemAlloc(d Device, bytes int64) (uint64, error) {
	var m C.vkg_mem
	err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_alloc(cdev(d), C.uint64_t(bytes), &m, st) })
	return uint64(m), err
}

// MemFree frees device memory of MemAlloc.
func MemFree(d Device, m uint64) { C.vkg_free(cdev(d), C.vkg_mem(m)) }

// MemUpload and MemDownload use the caller's status (C memory it owns) so that
// steady-state copies allocate nothing.
func MemUpload(d Device, st Status, m uint64, src unsafe.Pointer, bytes int64) error {
	return check(C.vkg_upload(cdev(d), C.vkg_mem(m), src, C.uint64_t(bytes), cst(st)), st)
}

// MemUploadRange copies bytes of src into device memory m at off.
func MemUploadRange(d Device, st Status, m uint64, off int64, src unsafe.Pointer, bytes int64) error {
	return check(C.vkg_upload_range(cdev(d), C.vkg_mem(m), C.uint64_t(off), src, C.uint64_t(bytes), cst(st)), st)
}

// MemDownload copies device memory m to dst after the queued work.
func MemDownload(d Device, st Status, dst unsafe.Pointer, m uint64, bytes int64) error {
	return check(C.vkg_download(cdev(d), dst, C.vkg_mem(m), C.uint64_t(bytes), cst(st)), st)
}

// MemDownloadRange copies bytes at off of device memory m into dst, after the queued work.
func MemDownloadRange(d Device, st Status, dst unsafe.Pointer, m uint64, off, bytes int64) error {
	return check(C.vkg_download_range(cdev(d), dst, C.vkg_mem(m), C.uint64_t(off), C.uint64_t(bytes), cst(st)), st)
}

// MemCopy queues a device-to-device copy.
func MemCopy(d Device, st Status, dst, src uint64, bytes int64) error {
	return check(C.vkg_copy(cdev(d), C.vkg_mem(dst), C.vkg_mem(src), C.uint64_t(bytes), cst(st)), st)
}

// NativeQueue reads the device's own queue (cl_command_queue, CUstream, VkQueue).
func NativeQueue(d Device) uintptr { return uintptr(DeviceHandle(d, HandleQueue)) }
