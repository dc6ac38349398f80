//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"

#cgo nocallback vkg_plan_run_device
*/
import "C"

import "unsafe"

func cplan(p Plan) *C.vkg_plan { return (*C.vkg_plan)(p) }

// PlanCreate builds a VkFFT application on device d: from p.LoadBlob's binaries when
// given, else by compiling (and keeping the binaries if p.Save), its kernels found or
// compiled one by one through p.Kernels when set.
func PlanCreate(d Device, p *PlanParams) (Plan, error) {
	var cp C.vkg_plan_params
	cp.rank = C.int(len(p.Shape))
	for i, n := range p.Shape {
		cp.shape[i] = C.uint64_t(n)
	}
	cp.batch = C.uint64_t(p.Batch)
	cp.kind = C.int(p.Kind)
	cp.double_precision = cbool(p.Double)
	cp.normalize = cbool(p.Normalize)
	cp.use_lut = C.int(p.UseLUT)
	cp.forward_scale = C.double(p.ForwardScale)
	cp.inverse_scale = C.double(p.InverseScale)
	l := &p.Launch
	cp.coalesced_memory = C.uint64_t(l.CoalescedMemory)
	cp.aim_threads = C.uint64_t(l.AimThreads)
	cp.register_boost = C.uint64_t(l.RegisterBoost)
	cp.register_boost_4step = C.uint64_t(l.RegisterBoost4Step)
	cp.swap_to_3stage_4step = C.uint64_t(l.SwapTo3Stage4Step)
	cp.bandwidth_boost = C.int64_t(l.BandwidthBoost)
	cp.shared_memory = C.uint64_t(l.SharedMemory)
	cp.bluestein_size = C.uint64_t(l.BluesteinSize)
	for i, g := range l.GroupedBatch {
		cp.grouped_batch[i] = C.uint64_t(g)
	}
	cp.out_of_place = cbool(p.OutOfPlace)
	cp.buffer = C.vkg_mem(p.Buffer)
	cp.buffer_bytes = C.uint64_t(p.BufferBytes)
	cp.real_buffer = C.vkg_mem(p.RealBuffer)
	cp.real_bytes = C.uint64_t(p.RealBytes)
	if len(p.LoadBlob) > 0 {
		blob := C.CBytes(p.LoadBlob) // VkFFT reads it during creation only
		defer C.free(blob)
		cp.load_blob = blob
		cp.load_bytes = C.uint64_t(len(p.LoadBlob))
	}
	cp.save = cbool(p.Save)
	cp.r2r_dct, cp.r2r_dst = C.int(p.DCT), C.int(p.DST)
	cp.vk_dim = C.int(p.VkDim)
	for i := 0; i < p.VkDim; i++ {
		cp.vk_size[i] = C.uint64_t(p.VkSize[i])
		cp.vk_omit[i] = cbool(p.VkOmit[i])
		cp.in_stride[i] = C.uint64_t(p.InStride[i])
		cp.out_stride[i] = C.uint64_t(p.OutStride[i])
	}
	cp.vk_batch = C.uint64_t(p.VkBatch)
	cp.strided = cbool(p.Strided)
	cp.storage = C.int(p.Storage)
	cp.real_inplace = cbool(p.RealInPlace)
	cp.hermitian = (*C.vkg_kernel)(p.Herm)
	if p.HermWhy != "" {
		why := C.CString(p.HermWhy) // copied at creation
		defer C.free(unsafe.Pointer(why))
		cp.hermitian_why = why
	}
	defer fillStages(&cp.stages, &p.Stages)()
	if p.Kernels == nil || len(p.LoadBlob) > 0 || !PlanKernelsSupported() {
		var ph *C.vkg_plan
		err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_plan_create(cdev(d), &cp, &ph, st) })
		return Plan(ph), err
	}
	// a binary from p.Kernels that the driver refuses is compiled during creation instead
	set := newKernelSet()
	defer freeKernelSet(set)
	prepareKernels(d, &cp, set, p.Kernels)
	cp.kernels = set
	var ph *C.vkg_plan
	err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_plan_create(cdev(d), &cp, &ph, st) })
	if err == nil {
		keepInitKernels(set, p.Kernels)
	}
	return Plan(ph), err
}

// PlanDestroy waits for the plan's work on every queue, then frees it.
func PlanDestroy(p Plan) { C.vkg_plan_destroy(cplan(p)) }

// PlanBinary moves out the kernel binaries saved at creation (nil if none): the C copy
// is freed, so a plan does not hold them in host memory for its whole life.
func PlanBinary(p Plan) []byte {
	var data unsafe.Pointer
	var n C.uint64_t
	if C.vkg_plan_binary(cplan(p), &data, &n) == 0 {
		return nil
	}
	b := C.GoBytes(data, C.int(n))
	C.vkg_plan_drop_binary(cplan(p))
	return b
}

// PlanRuns returns the forward and inverse host round trips of a plan.
func PlanRuns(p Plan) [2]Run {
	return [2]Run{Run(C.vkg_plan_run_desc(cplan(p), 0)), Run(C.vkg_plan_run_desc(cplan(p), 1))}
}

// PlanRunDevice enqueues a transform of device memory on queue (0: the device's own).
func PlanRunDevice(p Plan, st Status, inverse bool, buf, real, copyFrom, queue uint64) error {
	return check(C.vkg_plan_run_device(cplan(p), cbool(inverse), C.vkg_mem(buf), C.vkg_mem(real),
		C.vkg_mem(copyFrom), C.uint64_t(queue), cst(st)), st)
}

// PlanFusedKernels is how many of VkFFT's kernels the fused-stage rewriter changed.
func PlanFusedKernels(p Plan) int { return int(C.vkg_plan_fused_kernels(cplan(p))) }

// PlanAxisUploads is the number of passes of a forward transform along the first axis.
func PlanAxisUploads(p Plan) int { return int(C.vkg_plan_axis_uploads(cplan(p))) }

// PlanPasses is the number of passes over the whole data of one transform of the plan:
// VkFFT's kernel launches over every axis and the normalisation kernel, if any.
func PlanPasses(p Plan, inverse bool) int { return int(C.vkg_plan_passes(cplan(p), cbool(inverse))) }

// PlanOwnBytes is the device memory VkFFT allocated for the plan itself.
func PlanOwnBytes(p Plan) int64 { return int64(C.vkg_plan_own_bytes(cplan(p))) }

// PlanRecordings counts how often the plan recorded a direction into command buffers
// (backends that record; 0 elsewhere).
func PlanRecordings(p Plan) uint64 { return uint64(C.vkg_plan_recordings(cplan(p))) }

// PlanSetFull makes p a whole-spectrum real plan; the kernels and the buffer must
// outlive it. Its run descriptors change: take PlanRuns afterwards.
func PlanSetFull(p Plan, f *FullParams) error {
	var cf C.vkg_full_params
	cf.mode = C.int(f.Mode)
	cf.to_full = (*C.vkg_kernel)(f.ToFull)
	cf.from_full = (*C.vkg_kernel)(f.FromFull)
	cf.buffer = C.vkg_mem(f.Buffer)
	cf.bytes = C.uint64_t(f.Bytes)
	cf.batch = C.uint64_t(f.Batch)
	for i, d := range f.Dims {
		cf.dims[i] = C.uint64_t(d)
	}
	cf.n = C.uint64_t(f.N)
	cf.mirror = C.uint64_t(f.Mirror)
	cf.count = C.uint64_t(f.Count)
	return withStatus(func(st *C.vkg_status) C.int { return C.vkg_plan_set_full(cplan(p), &cf, st) })
}

// PlanRunOutIn enqueues one transform of device memory in into out on the device's queue
// (vkg_plan_run_out_in: a real plan's real and complex sides as the direction says).
func PlanRunOutIn(p Plan, st Status, inverse bool, out, in uint64) error {
	return check(C.vkg_plan_run_out_in(cplan(p), cbool(inverse), C.vkg_mem(out), C.vkg_mem(in), cst(st)), st)
}
