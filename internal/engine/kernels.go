//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"
*/
import "C"

import "unsafe"

// ModuleBuild compiles source, or loads binary when it is not empty; a compile returns
// the binary for the kernel cache.
func ModuleBuild(d Device, source string, binary []byte) (Module, []byte, error) {
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
	err := withStatus(func(st *C.vkg_status) C.int {
		return C.vkg_module_build(cdev(d), csrc, bin, C.uint64_t(len(binary)), &m, &out, &outBytes, st)
	})
	if err != nil {
		return nil, nil, err
	}
	var saved []byte
	if out != nil {
		saved = C.GoBytes(out, C.int(outBytes))
		C.free(out)
	}
	return Module(m), saved, nil
}

// ModuleDestroy frees a module and its kernels.
func ModuleDestroy(m Module) { C.vkg_module_destroy((*C.vkg_module)(m)) }

// ModuleKernel looks a kernel of m up by name.
func ModuleKernel(m Module, name string) (Kernel, error) {
	var k *C.vkg_kernel
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_module_kernel((*C.vkg_module)(m), cname, &k, st) })
	return Kernel(k), err
}

// LaunchKernel queues k on the device's queue with 64-bit arguments (buffers and
// integers); for tools and benchmarks (the hot paths launch from C).
func LaunchKernel(d Device, st Status, k Kernel, groups [2]uint64, local uint32, args ...uint64) error {
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
	return check(C.vkg_kernel_launch_now(cdev(d), (*C.vkg_kernel)(k), &g[0], C.uint32_t(local), C.int(len(args)),
		cargs, cst(st)), st)
}
