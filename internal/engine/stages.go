//go:build cgo

package vkfft

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
func fillStages(cs *C.struct_vkg_plan_stages, s *stageParams) (free func()) {
	cs.separate_input = cbool(s.separateInput)
	cs.separate_output = cbool(s.separateOutput)
	cs.input_buffer = C.vkg_mem(s.inputBuffer)
	cs.output_buffer = C.vkg_mem(s.outputBuffer)
	cs.input_bytes = C.uint64_t(s.inputBytes)
	cs.output_bytes = C.uint64_t(s.outputBytes)
	for i := range s.inputStride {
		cs.input_stride[i] = C.uint64_t(s.inputStride[i])
		cs.output_stride[i] = C.uint64_t(s.outputStride[i])
	}
	for i := range s.padLeft {
		cs.pad_left[i] = C.uint64_t(s.padLeft[i])
		cs.pad_right[i] = C.uint64_t(s.padRight[i])
	}
	cs.conv = C.int(s.conv)
	cs.conj = cbool(s.conj)
	cs.cross_power = cbool(s.crossPower)
	cs.features = C.uint64_t(s.features)
	cs.matrix = C.uint64_t(s.matrix)
	cs.kernels = C.uint64_t(s.kernels)
	cs.kernel_buffer = C.vkg_mem(s.kernelBuffer)
	cs.kernel_bytes = C.uint64_t(s.kernelBytes)
	cs.forward_only = cbool(s.forwardOnly)
	cs.offsets_at_launch = cbool(s.offsetsAtLaunch)
	cs.no_reorder = cbool(s.noReorder)
	cs.return_to_input = cbool(s.returnToInput)
	cs.shared_memory = C.uint64_t(s.sharedMemory)
	cs.fuse_load = C.int(s.fuseLoad)
	cs.fuse_store = C.int(s.fuseStore)
	cs.fuse_window = C.vkg_mem(s.fuseWindow)
	cs.fuse_out = C.vkg_mem(s.fuseOut)
	if s.fuseLoad == 0 && s.fuseStore == 0 {
		return func() {}
	}
	p, d, e := C.CString(s.fuse.prelude), C.CString(s.fuse.inputDecl), C.CString(s.fuse.extraParams)
	cs.fuse_prelude, cs.fuse_input_decl, cs.fuse_extra_params = p, d, e
	return func() {
		C.free(unsafe.Pointer(p))
		C.free(unsafe.Pointer(d))
		C.free(unsafe.Pointer(e))
	}
}

// planRunIO runs a plan with stages on explicit buffers (0 = the plan's own) on the
// device's queue.
func planRunIO(ph planHandle, st status, inverse bool, buffer, input, output uint64, wait bool) error {
	if C.vkg_plan_run_io_wait(ph, cbool(inverse), C.vkg_mem(buffer), C.vkg_mem(input), C.vkg_mem(output),
		cbool(wait), st) != 0 {
		return statusError(st)
	}
	return nil
}

// convPadHandle is a vkg_conv_pad in C memory (nil for convolutions without padding).
type convPadHandle = *C.vkg_conv_pad

// convPadNew describes a zero-padded convolution's pad and crop for the C side.
func convPadNew(pad, crop kernelHandle, comps int, m, p [3]int, io uint64) convPadHandle {
	cp := (*C.vkg_conv_pad)(C.calloc(1, C.sizeof_vkg_conv_pad))
	if cp == nil {
		return nil
	}
	cp.pad, cp.crop, cp.comps, cp.io = pad, crop, C.uint64_t(comps), C.vkg_mem(io)
	for i := 0; i < 3; i++ {
		cp.m[i], cp.p[i] = C.uint64_t(m[i]), C.uint64_t(p[i])
	}
	return cp
}

func convPadFree(cp convPadHandle) { C.free(unsafe.Pointer(cp)) }

// planRunIOHost uploads src into in, runs items and downloads out into dst, in one C call.
func planRunIOHost(ph planHandle, h deviceHandle, cp convPadHandle, st status, dst unsafe.Pointer, dstBytes int64,
	out uint64, src unsafe.Pointer, srcBytes int64, in uint64, items int) error {
	if C.vkg_plan_run_io_host(ph, h, cp, dst, C.uint64_t(dstBytes), C.vkg_mem(out), src, C.uint64_t(srcBytes),
		C.vkg_mem(in), C.uint64_t(items), st) != 0 {
		return statusError(st)
	}
	return nil
}

// planRunItems queues items runs on device buffers, after copying copyFrom into in
// when it is not 0 (see vkg_plan_run_items_wait).
func planRunItems(ph planHandle, h deviceHandle, cp convPadHandle, st status, copyFrom, in, out uint64, items int,
	inStep, outStep int64) error {
	if C.vkg_plan_run_items_wait(ph, h, cp, C.vkg_mem(copyFrom), C.vkg_mem(in), C.vkg_mem(out), C.uint64_t(items),
		C.uint64_t(inStep), C.uint64_t(outStep), 0, st) != 0 {
		return statusError(st)
	}
	return nil
}

// vkfftPatched reports whether the VkFFT headers compiled in carry cvendor's patches.
func vkfftPatched() bool { return C.vkg_vkfft_patched() != 0 }

func planFusedKernels(ph planHandle) int { return int(C.vkg_plan_fused_kernels(ph)) }

func planAxisUploads(ph planHandle) int { return int(C.vkg_plan_axis_uploads(ph)) }

// planOwnBytes is the device memory VkFFT allocated for the plan itself.
func planOwnBytes(ph planHandle) int64 { return int64(C.vkg_plan_own_bytes(ph)) }

// moduleHandle is a vkg_module of companion kernels.
type moduleHandle = *C.vkg_module

// kernelHandle is one of a module's kernels.
type kernelHandle = *C.vkg_kernel

// moduleBuild compiles source, or loads binary when it is not empty; a compile returns
// the binary for the kernel cache.
func moduleBuild(h deviceHandle, source string, binary []byte) (moduleHandle, []byte, error) {
	var m *C.vkg_module
	var out unsafe.Pointer
	var outBytes C.uint64_t
	csrc := C.CString(source)
	defer C.free(unsafe.Pointer(csrc))
	var bin unsafe.Pointer
	if len(binary) > 0 {
		bin = C.CBytes(binary)
		defer C.free(bin)
	}
	err := withStatus(func(st status) C.int {
		return C.vkg_module_build(h, csrc, bin, C.uint64_t(len(binary)), &m, &out, &outBytes, st)
	})
	if err != nil {
		return nil, nil, err
	}
	var saved []byte
	if out != nil {
		saved = C.GoBytes(out, C.int(outBytes))
		C.free(out)
	}
	return m, saved, nil
}

func moduleDestroy(m moduleHandle) { C.vkg_module_destroy(m) }

func moduleKernel(m moduleHandle, name string) (kernelHandle, error) {
	var k *C.vkg_kernel
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	err := withStatus(func(st status) C.int { return C.vkg_module_kernel(m, cname, &k, st) })
	return k, err
}

// fuseRewrite runs the rewriter of vkg_fuse_rewrite.c on src (for tests and tools).
func fuseRewrite(src string, roles int, t fuseText) (string, error) {
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	p, d, e := C.CString(t.prelude), C.CString(t.inputDecl), C.CString(t.extraParams)
	defer C.free(unsafe.Pointer(p))
	defer C.free(unsafe.Pointer(d))
	defer C.free(unsafe.Pointer(e))
	text := C.vkg_fuse_text{prelude: p, input_decl: d, extra_params: e}
	var why [256]C.char
	out := C.vkg_fuse_rewrite(csrc, C.int(roles), &text, &why[0], C.size_t(len(why)))
	if out == nil {
		return "", fmt.Errorf("%w: %s", ErrUnsupported, C.GoString(&why[0]))
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoString(out), nil
}

// launchKernel queues k on the device's queue with 64-bit arguments (buffers and
// integers); for tools and benchmarks (the hot paths launch from C).
func launchKernel(h deviceHandle, st status, k kernelHandle, groups [2]uint64, local uint32, args ...uint64) error {
	cargs := (*C.vkg_arg)(C.calloc(C.size_t(len(args)), C.sizeof_vkg_arg))
	vals := (*C.uint64_t)(C.calloc(C.size_t(len(args)), 8))
	defer C.free(unsafe.Pointer(cargs))
	defer C.free(unsafe.Pointer(vals))
	ca := unsafe.Slice(cargs, len(args))
	cv := unsafe.Slice(vals, len(args))
	for i, a := range args {
		cv[i] = C.uint64_t(a)
		ca[i].ptr = unsafe.Pointer(&cv[i])
		ca[i].size = 8
	}
	g := [2]C.uint64_t{C.uint64_t(groups[0]), C.uint64_t(groups[1])}
	if C.vkg_kernel_launch_now(h, k, &g[0], C.uint32_t(local), C.int(len(args)), cargs, st) != 0 {
		return statusError(st)
	}
	return nil
}
