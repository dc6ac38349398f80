package main

// The descriptor's fields since 0.2 (axes, rank 4, real-to-real, storage, in-place R2C,
// strides). A descriptor of the first version's size (an older vkfftgo.h) is read as
// before, the new fields taken as zero. The plans they describe are vkfft.BytePlans like
// the others (exports.go), run by the C hot path (hotpath.c).

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

// descExtOffsets are the byte offsets of the 0.2 fields, for the descriptor's tests
// (which cannot use cgo): shape3, naxes, axes, r2r_kind, storage, real_inplace,
// in_strides, out_strides.
var descExtOffsets = [...]uintptr{
	unsafe.Offsetof(C.vkfftgo_plan_desc{}.shape3), unsafe.Offsetof(C.vkfftgo_plan_desc{}.naxes),
	unsafe.Offsetof(C.vkfftgo_plan_desc{}.axes), unsafe.Offsetof(C.vkfftgo_plan_desc{}.r2r_kind),
	unsafe.Offsetof(C.vkfftgo_plan_desc{}.storage), unsafe.Offsetof(C.vkfftgo_plan_desc{}.real_inplace),
	unsafe.Offsetof(C.vkfftgo_plan_desc{}.in_strides), unsafe.Offsetof(C.vkfftgo_plan_desc{}.out_strides),
}

// descFullOffset is the byte offset of full_spectrum, for the descriptor's tests.
var descFullOffset = unsafe.Offsetof(C.vkfftgo_plan_desc{}.full_spectrum)

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
	switch desc.full_spectrum {
	case 0:
	case 1:
		if !pd.r2c {
			return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->full_spectrum is set on a plan that is not VKFFTGO_R2C")
		}
		pd.cfg.FullSpectrum = true
	default:
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->full_spectrum is %d; want 0 or 1", desc.full_spectrum)
	}
	if desc.reserved0 != 0 {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->reserved0 is %d; it must be 0", desc.reserved0)
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
	given := false
	for i, v := range s {
		if v == 0 {
			continue
		}
		if i >= rank {
			return nil, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "desc->%s[%d] is %d but the plan has rank %d",
				name, i, int64(v), rank)
		}
		given = true
	}
	if !given {
		return nil, nil
	}
	out := make([]int, rank)
	for j := range out {
		out[j] = int(s[j])
	}
	return out, nil
}
