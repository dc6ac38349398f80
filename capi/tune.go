package main

// Autotuning in the C API: desc.tune and the launch-parameter knobs appended to
// vkfftgo_plan_desc, and vkfftgo_plan_tuned, which reports what a plan runs with.

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// readDescTune reads the tuning fields of a descriptor (zero in an older caller's, which
// readDesc has copied into a full-size one).
func readDescTune(desc *C.vkfftgo_plan_desc, pd *planDesc) error {
	t := &pd.cfg.Tuning
	t.RegisterBoost4Step, t.BandwidthBoost = int(desc.register_boost_4step), int(desc.bandwidth_boost)
	t.SwapTo3Stage4Step, t.SharedMemory = int(desc.swap_to_3stage_4step), int(desc.shared_memory)
	t.BluesteinSize = int(desc.bluestein_size)
	for i := range t.GroupedBatch {
		t.GroupedBatch[i] = int(desc.grouped_batch[i])
	}
	switch desc.tuning_lut {
	case C.VKFFTGO_LUT_DEFAULT:
	case C.VKFFTGO_LUT_ON:
		t.LUT = vkfft.LUTOn
	case C.VKFFTGO_LUT_OFF:
		t.LUT = vkfft.LUTOff
	default:
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->tuning_lut is %d; want a VKFFTGO_LUT_* value",
			desc.tuning_lut)
	}
	if desc.tune < C.VKFFTGO_TUNE_DEFAULT || desc.tune > C.VKFFTGO_TUNE_REFRESH {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->tune is %d; want a VKFFTGO_TUNE_* value", desc.tune)
	}
	pd.cfg.Tune = vkfft.TuneMode(desc.tune) // the same numbering
	return nil
}

//export vkgcgo_plan_tuned
func vkgcgo_plan_tuned(h *C.vkfftgo_plan, desc *C.vkfftgo_plan_desc, source *C.int, defaultMs,
	tunedMs *C.double) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_plan_tuned"
	defer recoverTo(fn, &rc)
	p, err := lookupPlan(h)
	if err != nil {
		return fail(fn, err)
	}
	if desc == nil {
		return fail(fn, errNull("desc"))
	}
	if uintptr(desc.size) < descV1Size || uintptr(desc.size) > maxDescSize {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"desc->size is %d: initialise the descriptor with VKFFTGO_PLAN_DESC_INIT", desc.size))
	}
	writeDesc(desc, p.p)
	r := p.p.Tuned()
	if source != nil {
		*source = C.int(r.Source) // TunedNone, TunedByHand, TunedStored, TunedMeasured, TunedPrior: VKFFTGO_TUNED_* order
	}
	if defaultMs != nil {
		*defaultMs = C.double(r.DefaultMs)
	}
	if tunedMs != nil {
		*tunedMs = C.double(r.TunedMs)
	}
	return C.VKFFTGO_SUCCESS
}

// writeDesc fills a caller's descriptor, as far as its size says, with the plan's
// description and the launch parameters it runs with.
func writeDesc(user *C.vkfftgo_plan_desc, bp *vkfft.BytePlan) {
	cfg := bp.Config()
	var d C.vkfftgo_plan_desc
	d.size = user.size
	k := bp.Kind()
	switch {
	case k.Real:
		d.kind = C.VKFFTGO_R2C
	case k.R2R != 0:
		d.kind, d.r2r_kind = C.VKFFTGO_R2R, C.int32_t(k.R2R)
	}
	if k.Double {
		d.precision = C.VKFFTGO_DOUBLE
	}
	d.norm = C.int32_t(cfg.Norm) // NormBackward, NormOrtho, NormForward: VKFFTGO_NORM_* order
	d.lut = C.int32_t(cfg.LUT)   // LUTDefault, LUTOn, LUTOff: VKFFTGO_LUT_* order
	d.rank = C.int32_t(len(cfg.Shape))
	for i, n := range cfg.Shape {
		if i < C.VKFFTGO_MAX_RANK {
			d.shape[i] = C.int64_t(n)
		} else {
			d.shape3 = C.int64_t(n)
		}
	}
	d.batch = C.int64_t(cfg.Batch)
	d.naxes = C.int32_t(len(cfg.Axes))
	for i, a := range cfg.Axes {
		d.axes[i] = C.int32_t(a)
	}
	d.storage = C.int32_t(cfg.Storage) // StorageDefault, StorageHalf, StorageFloatComputeDouble: VKFFTGO_STORAGE_* order
	if cfg.RealInPlace {
		d.real_inplace = 1
	}
	if cfg.FullSpectrum {
		d.full_spectrum = 1
	}
	for i := range cfg.InStrides {
		d.in_strides[i] = C.int64_t(cfg.InStrides[i])
	}
	for i := range cfg.OutStrides {
		d.out_strides[i] = C.int64_t(cfg.OutStrides[i])
	}
	t := cfg.Tuning
	d.coalesced_memory, d.aim_threads, d.register_boost = C.int64_t(t.CoalescedMemory),
		C.int64_t(t.AimThreads), C.int64_t(t.RegisterBoost)
	d.tune = C.int32_t(cfg.Tune)
	d.tuning_lut = C.int32_t(t.LUT)
	d.register_boost_4step, d.bandwidth_boost = C.int64_t(t.RegisterBoost4Step), C.int64_t(t.BandwidthBoost)
	d.swap_to_3stage_4step, d.shared_memory = C.int64_t(t.SwapTo3Stage4Step), C.int64_t(t.SharedMemory)
	d.bluestein_size = C.int64_t(t.BluesteinSize)
	for i, g := range t.GroupedBatch {
		d.grouped_batch[i] = C.int64_t(g)
	}
	n := min(uintptr(user.size), C.sizeof_vkfftgo_plan_desc)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(user)), n), unsafe.Slice((*byte)(unsafe.Pointer(&d)), n))
}
