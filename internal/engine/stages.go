//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"
#include "vkg_fuse.h"

#cgo nocallback vkg_plan_run_io_wait
#cgo noescape vkg_plan_run_io_host
#cgo nocallback vkg_plan_run_io_host
#cgo nocallback vkg_plan_run_items_wait
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// fillStages copies s into cs; the returned function frees the C strings after creation.
func fillStages(cs *C.struct_vkg_plan_stages, s *StageParams) (free func()) {
	cs.separate_input = cbool(s.SeparateInput)
	cs.separate_output = cbool(s.SeparateOutput)
	cs.input_buffer = C.vkg_mem(s.InputBuffer)
	cs.output_buffer = C.vkg_mem(s.OutputBuffer)
	cs.input_bytes = C.uint64_t(s.InputBytes)
	cs.output_bytes = C.uint64_t(s.OutputBytes)
	for i := range s.InputStride {
		cs.input_stride[i] = C.uint64_t(s.InputStride[i])
		cs.output_stride[i] = C.uint64_t(s.OutputStride[i])
	}
	for i := range s.PadLeft {
		cs.pad_left[i] = C.uint64_t(s.PadLeft[i])
		cs.pad_right[i] = C.uint64_t(s.PadRight[i])
	}
	cs.conv = C.int(s.Conv)
	cs.conj = cbool(s.Conj)
	cs.cross_power = cbool(s.CrossPower)
	cs.features = C.uint64_t(s.Features)
	cs.matrix = C.uint64_t(s.Matrix)
	cs.kernels = C.uint64_t(s.Kernels)
	cs.kernel_buffer = C.vkg_mem(s.KernelBuffer)
	cs.kernel_bytes = C.uint64_t(s.KernelBytes)
	cs.forward_only = cbool(s.ForwardOnly)
	cs.offsets_at_launch = cbool(s.OffsetsAtLaunch)
	cs.no_reorder = cbool(s.NoReorder)
	cs.return_to_input = cbool(s.ReturnToInput)
	cs.shared_memory = C.uint64_t(s.SharedMemory)
	cs.fuse_load = C.int(s.FuseLoad)
	cs.fuse_store = C.int(s.FuseStore)
	cs.fuse_window = C.vkg_mem(s.FuseWindow)
	cs.fuse_out = C.vkg_mem(s.FuseOut)
	if s.FuseLoad == 0 && s.FuseStore == 0 {
		return func() {}
	}
	var t C.vkg_fuse_text
	free = fuseText(&t, &s.Fuse)
	cs.fuse_prelude, cs.fuse_input_decl, cs.fuse_extra_params = t.prelude, t.input_decl, t.extra_params
	cs.fuse_entry, cs.fuse_input_vkfft, cs.fuse_output_vkfft = t.entry, t.input_vkfft, t.output_vkfft
	cs.fuse_output_decl, cs.fuse_entry_prelude = t.output_decl, t.entry_prelude
	cs.fuse_group_id, cs.fuse_group_forbid = t.group_id, t.group_forbid
	cs.fuse_group_shared = C.uint64_t(s.Fuse.GroupShared)
	return free
}

// fuseText copies f into t as C strings (the GLSL-only ones NULL where empty: the C
// dialects' defaults; the group ones NULL without a GroupID: no group accumulation);
// the returned function frees them.
func fuseText(t *C.vkg_fuse_text, f *FuseText) (free func()) {
	var made []*C.char
	str := func(s string) *C.char {
		c := C.CString(s)
		made = append(made, c)
		return c
	}
	opt := func(s string) *C.char {
		if s == "" {
			return nil
		}
		return str(s)
	}
	t.prelude, t.input_decl, t.extra_params = str(f.Prelude), str(f.InputDecl), str(f.ExtraParams)
	t.entry, t.input_vkfft, t.output_vkfft = opt(f.Entry), opt(f.InputVkFFT), opt(f.OutputVkFFT)
	t.output_decl, t.entry_prelude = opt(f.OutputDecl), opt(f.EntryPrelude)
	if f.GroupID != "" {
		t.group_id, t.group_forbid = str(f.GroupID), str(f.GroupForbid)
	}
	return func() {
		for _, c := range made {
			C.free(unsafe.Pointer(c))
		}
	}
}

// PlanRunIO runs a plan with stages on explicit buffers (0 = the plan's own) on the
// device's queue.
func PlanRunIO(p Plan, st Status, inverse bool, buffer, input, output uint64, wait bool) error {
	return check(C.vkg_plan_run_io_wait(cplan(p), cbool(inverse), C.vkg_mem(buffer), C.vkg_mem(input),
		C.vkg_mem(output), cbool(wait), cst(st)), st)
}

// ConvPadNew describes a zero-padded convolution's pad and crop for the C side; nil when
// out of host memory.
func ConvPadNew(pad, crop Kernel, comps int, m, p [3]int, io uint64, boundary int) ConvPad {
	cp := (*C.vkg_conv_pad)(C.calloc(1, C.sizeof_vkg_conv_pad))
	if cp == nil {
		return nil
	}
	cp.pad, cp.crop, cp.comps, cp.io = (*C.vkg_kernel)(pad), (*C.vkg_kernel)(crop), C.uint64_t(comps), C.vkg_mem(io)
	cp.boundary = C.uint64_t(boundary)
	for i := 0; i < 3; i++ {
		cp.m[i], cp.p[i] = C.uint64_t(m[i]), C.uint64_t(p[i])
	}
	return ConvPad(cp)
}

// ConvPadFree frees a ConvPadNew description.
func ConvPadFree(cp ConvPad) { C.free(unsafe.Pointer(cp)) }

// PlanRunIOHost uploads src into in, runs items and downloads out into dst, in one C call.
func PlanRunIOHost(p Plan, d Device, cp ConvPad, st Status, dst unsafe.Pointer, dstBytes int64,
	out uint64, src unsafe.Pointer, srcBytes int64, in uint64, items int) error {
	return check(C.vkg_plan_run_io_host(cplan(p), cdev(d), (*C.vkg_conv_pad)(cp), dst, C.uint64_t(dstBytes),
		C.vkg_mem(out), src, C.uint64_t(srcBytes), C.vkg_mem(in), C.uint64_t(items), cst(st)), st)
}

// PlanRunItems queues items runs on device buffers, after copying copyFrom into in
// when it is not 0 (see vkg_plan_run_items_wait).
func PlanRunItems(p Plan, d Device, cp ConvPad, st Status, copyFrom, in, out uint64, items int,
	inStep, outStep int64) error {
	return check(C.vkg_plan_run_items_wait(cplan(p), cdev(d), (*C.vkg_conv_pad)(cp), C.vkg_mem(copyFrom),
		C.vkg_mem(in), C.vkg_mem(out), C.uint64_t(items), C.uint64_t(inStep), C.uint64_t(outStep), 0, cst(st)), st)
}

// FuseRewrite runs the rewriter of vkg_fuse_rewrite.c on src (for tests and tools).
func FuseRewrite(src string, roles int, t FuseText) (string, error) {
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	var text C.vkg_fuse_text
	defer fuseText(&text, &t)()
	var why [256]C.char
	out := C.vkg_fuse_rewrite(csrc, C.int(roles), &text, &why[0], C.size_t(len(why)))
	if out == nil {
		return "", fmt.Errorf("%w: %s", ErrUnsupported, C.GoString(&why[0]))
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out), nil
}
