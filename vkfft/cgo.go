//go:build cgo

package vkfft

/*
#include <stdlib.h>
#include "vkg.h"

// The hot-path calls take the caller's slices for the duration of the call only and
// never call back into Go: say so, so the slices need not escape to the heap.
#cgo nocallback vkg_plan_run_device
#cgo noescape vkg_upload
#cgo nocallback vkg_upload
#cgo noescape vkg_download
#cgo nocallback vkg_download
#cgo nocallback vkg_sync
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// status is a vkg_status in C memory, so the C layer never writes into Go memory.
type status = *C.vkg_status

func newStatus() status { return (*C.vkg_status)(C.calloc(1, C.sizeof_vkg_status)) }

func freeStatus(st status) {
	C.vkg_status_clear(st)
	C.free(unsafe.Pointer(st))
}

// statusError converts a failed status into an error wrapping the matching sentinel.
// What VkFFT printed while failing (a compiler's log) follows the message, whole.
func statusError(st status) error {
	msg := C.GoString(&st.msg[0])
	if d := C.vkg_status_take_detail(st); d != nil {
		msg += "; VkFFT said: " + C.GoString(d)
		C.free(unsafe.Pointer(d))
	}
	var base error
	switch st.code {
	case C.VKG_ERR_INVALID:
		base = ErrInvalidArgument
	case C.VKG_ERR_NO_DEVICE:
		base = ErrNoDevice
	case C.VKG_ERR_OUT_OF_MEMORY:
		base = ErrOutOfMemory
	case C.VKG_ERR_UNSUPPORTED:
		base = ErrUnsupported
	case C.VKG_ERR_VKFFT:
		base = ErrVkFFT
	case C.VKG_ERR_VERSION:
		base = ErrVersion
	default:
		base = ErrBackend
	}
	return fmt.Errorf("%w: %s", base, msg)
}

// withStatus runs f with a fresh status and converts a failure into an error.
func withStatus(f func(st status) C.int) error {
	st := newStatus()
	defer freeStatus(st)
	if f(st) != 0 {
		return statusError(st)
	}
	return nil
}

func vkfftVersion() int { return int(C.vkg_vkfft_version()) }

func deviceCount() (int, error) {
	var n int
	err := withStatus(func(st status) C.int {
		r := C.vkg_device_count(st)
		if r < 0 {
			return -r
		}
		n = int(r)
		return 0
	})
	return n, err
}

func infoFromC(i int, ci *C.vkg_device_info) DeviceInfo {
	return DeviceInfo{
		Index:           i,
		Name:            C.GoString(&ci.name[0]),
		Vendor:          C.GoString(&ci.vendor[0]),
		Driver:          C.GoString(&ci.driver[0]),
		Platform:        C.GoString(&ci.platform[0]),
		Backend:         compiledBackend,
		GlobalMemory:    uint64(ci.global_mem),
		MaxAllocation:   uint64(ci.max_alloc),
		VendorID:        uint32(ci.vendor_id),
		ComputeMajor:    int(ci.compute_major),
		ComputeMinor:    int(ci.compute_minor),
		DoublePrecision: ci.fp64 != 0,
		HalfPrecision:   ci.fp16 != 0,
		HostMemory:      ci.host_memory != 0,
	}
}

func deviceQuery(i int) (DeviceInfo, error) {
	var ci C.vkg_device_info
	var info DeviceInfo
	err := withStatus(func(st status) C.int {
		r := C.vkg_device_query(C.int(i), &ci, st)
		if r == 0 {
			info = infoFromC(i, &ci)
		}
		return r
	})
	return info, err
}

// deviceHandle is an open vkg_device.
type deviceHandle = *C.vkg_device

func deviceOpen(i int) (deviceHandle, DeviceInfo, error) {
	var h *C.vkg_device
	var info DeviceInfo
	err := withStatus(func(st status) C.int {
		r := C.vkg_device_open(C.int(i), &h, st)
		if r == 0 {
			info = infoFromC(i, C.vkg_device_get_info(h))
		}
		return r
	})
	return h, info, err
}

func deviceClose(h deviceHandle) { C.vkg_device_close(h) }

func deviceSync(h deviceHandle) error {
	return withStatus(func(st status) C.int { return C.vkg_sync(h, st) })
}

// deviceSyncWith reports into a status the caller owns: no allocation per call.
func deviceSyncWith(h deviceHandle, st status) error {
	if C.vkg_sync(h, st) != 0 {
		return statusError(st)
	}
	return nil
}

func memAlloc(h deviceHandle, bytes int64) (uint64, error) {
	var m C.vkg_mem
	err := withStatus(func(st status) C.int { return C.vkg_alloc(h, C.uint64_t(bytes), &m, st) })
	return uint64(m), err
}

func memFree(h deviceHandle, m uint64) { C.vkg_free(h, C.vkg_mem(m)) }

// memUpload and memDownload use the caller's status (C memory it owns) so that
// steady-state copies allocate nothing.
func memUpload(h deviceHandle, st status, m uint64, src unsafe.Pointer, bytes int64) error {
	if C.vkg_upload(h, C.vkg_mem(m), src, C.uint64_t(bytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

func memDownload(h deviceHandle, st status, dst unsafe.Pointer, m uint64, bytes int64) error {
	if C.vkg_download(h, dst, C.vkg_mem(m), C.uint64_t(bytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

// planHandle is a vkg_plan.
type planHandle = *C.vkg_plan

// planParams mirrors vkg_plan_params on the Go side.
type planParams struct {
	l                  layout
	useLUT             int
	buffer, realBuffer uint64
	loadBlob           []byte
	save               bool
	outOfPlace         bool         // C2C reading realBuffer's slot (VkFFT's inputBuffer), writing buffer
	stages             stageParams  // convolution, separate buffers, fused stages (stages.go)
	herm               kernelHandle // the C2R projection kernel (herm.go); not part of any key
	hermWhy            string       // why herm is nil where the plan needs it
}

func planCreate(h deviceHandle, p *planParams) (planHandle, error) {
	var cp C.vkg_plan_params
	l := &p.l
	cp.rank = C.int(len(l.cfg.Shape))
	for i, d := range l.cfg.Shape {
		cp.shape[i] = C.uint64_t(d)
	}
	cp.batch = C.uint64_t(l.cfg.Batch)
	if l.kind == kindR2C {
		cp.kind = C.VKG_R2C
	}
	if l.double {
		cp.double_precision = 1
	}
	if l.cfg.Norm == NormBackward {
		cp.normalize = 1
	}
	cp.use_lut = C.int(p.useLUT)
	cp.forward_scale = C.double(l.fwdScale)
	cp.inverse_scale = C.double(l.invScale)
	cp.coalesced_memory = C.uint64_t(l.cfg.Tuning.CoalescedMemory)
	cp.aim_threads = C.uint64_t(l.cfg.Tuning.AimThreads)
	cp.register_boost = C.uint64_t(l.cfg.Tuning.RegisterBoost)
	cp.register_boost_4step = C.uint64_t(l.cfg.Tuning.RegisterBoost4Step)
	cp.swap_to_3stage_4step = C.uint64_t(l.cfg.Tuning.SwapTo3Stage4Step)
	cp.bandwidth_boost = C.int64_t(l.cfg.Tuning.BandwidthBoost)
	cp.shared_memory = C.uint64_t(l.cfg.Tuning.SharedMemory)
	cp.bluestein_size = C.uint64_t(l.cfg.Tuning.BluesteinSize)
	for i, g := range l.cfg.Tuning.GroupedBatch {
		cp.grouped_batch[i] = C.uint64_t(g)
	}
	if p.outOfPlace {
		cp.out_of_place = 1
	}
	cp.buffer = C.vkg_mem(p.buffer)
	cp.buffer_bytes = C.uint64_t(l.complexBytes)
	cp.real_buffer = C.vkg_mem(p.realBuffer)
	cp.real_bytes = C.uint64_t(l.realBytes)
	if len(p.loadBlob) > 0 {
		blob := C.CBytes(p.loadBlob) // VkFFT reads it during creation only
		defer C.free(blob)
		cp.load_blob = blob
		cp.load_bytes = C.uint64_t(len(p.loadBlob))
	}
	if p.save {
		cp.save = 1
	}
	setLayoutParams(&cp, l)
	cp.hermitian = p.herm
	if p.hermWhy != "" {
		why := C.CString(p.hermWhy) // copied at creation
		defer C.free(unsafe.Pointer(why))
		cp.hermitian_why = why
	}
	defer fillStages(&cp.stages, &p.stages)()
	var ph *C.vkg_plan
	err := withStatus(func(st status) C.int { return C.vkg_plan_create(h, &cp, &ph, st) })
	return ph, err
}

// setLayoutParams fills the layout block of vkg_plan_params (axes, strides, storage,
// real-to-real; see layout.go and configure_layout in vkg_core.c).
func setLayoutParams(cp *C.vkg_plan_params, l *layout) {
	if l.kind == kindR2R {
		cp.kind = C.VKG_R2R
		dct, dst := l.r2r.vkfftType()
		cp.r2r_dct, cp.r2r_dst = C.int(dct), C.int(dst)
	}
	vk := &l.vk
	cp.vk_dim = C.int(vk.dim)
	for i := 0; i < vk.dim; i++ {
		cp.vk_size[i] = C.uint64_t(vk.size[i])
		cp.vk_omit[i] = cbool(vk.omit[i])
		cp.in_stride[i] = C.uint64_t(vk.inStride[i])
		cp.out_stride[i] = C.uint64_t(vk.outStride[i])
	}
	cp.vk_batch = C.uint64_t(vk.batch)
	cp.strided = cbool(l.strided)
	cp.storage = C.int(l.cfg.Storage)
	cp.real_inplace = cbool(l.cfg.RealInPlace)
}

func planDestroy(ph planHandle) { C.vkg_plan_destroy(ph) }

// planBinary moves out the kernel binaries saved at creation (nil if none): the C copy
// is freed, so a plan does not hold them in host memory for its whole life.
func planBinary(ph planHandle) []byte {
	var data unsafe.Pointer
	var n C.uint64_t
	if C.vkg_plan_binary(ph, &data, &n) == 0 {
		return nil
	}
	b := C.GoBytes(data, C.int(n))
	C.vkg_plan_drop_binary(ph)
	return b
}

// runHandle is a plan's description of its host round trip in one direction.
type runHandle = *C.vkg_run

// planRuns returns the forward and inverse round trips of a plan.
func planRuns(ph planHandle) [2]runHandle {
	return [2]runHandle{C.vkg_plan_run_desc(ph, 0), C.vkg_plan_run_desc(ph, 1)}
}

// planRunDevice enqueues a transform of device memory on queue (0: the device's own).
func planRunDevice(ph planHandle, st status, inverse bool, buf, real, copyFrom, queue uint64) error {
	if C.vkg_plan_run_device(ph, cbool(inverse), C.vkg_mem(buf), C.vkg_mem(real), C.vkg_mem(copyFrom),
		C.uint64_t(queue), st) != 0 {
		return statusError(st)
	}
	return nil
}

// memDownloadRange copies bytes at off of device memory m into dst, after the queued work.
func memDownloadRange(h deviceHandle, st status, dst unsafe.Pointer, m uint64, off, bytes int64) error {
	if C.vkg_download_range(h, dst, C.vkg_mem(m), C.uint64_t(off), C.uint64_t(bytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

// memCopy queues a device-to-device copy.
func memCopy(h deviceHandle, st status, dst, src uint64, bytes int64) error {
	if C.vkg_copy(h, C.vkg_mem(dst), C.vkg_mem(src), C.uint64_t(bytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
