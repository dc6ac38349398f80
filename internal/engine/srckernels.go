//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// A plan's kernels one by one. VkFFT compiles each kernel as it generates it, inside
// its initialisation, so a plan's kernels compile one after another (NVRTC: 0.1–0.3 s
// each). Before the real initialisation, a dry one (vkg_plan_kernels) yields every
// kernel's text; those the KernelReuse knows are loaded, the others compiled on a pool
// of goroutines; then VkFFT's compiles are served from the set (vkg_core_kernels.h).
// Whatever goes wrong on the way only leaves VkFFT to compile a kernel itself.

// newKernelSet is an empty set in C memory (the plan's parameters point at it).
func newKernelSet() *C.vkg_kernel_set {
	return (*C.vkg_kernel_set)(C.calloc(1, C.sizeof_vkg_kernel_set))
}

func freeKernelSet(s *C.vkg_kernel_set) {
	C.vkg_kernel_set_clear(s)
	C.free(unsafe.Pointer(s))
}

func setKernels(s *C.vkg_kernel_set) []C.vkg_src_kernel {
	if s.n == 0 {
		return nil
	}
	return unsafe.Slice(s.k, int(s.n))
}

func sourceKernel(k *C.vkg_src_kernel) SourceKernel {
	return SourceKernel{Source: C.GoString(k.source), Options: C.GoString(k.options), Name: C.GoString(k.name)}
}

// prepareKernels fills s with binaries for the kernels the plan of cp will compile:
// found by r, or compiled now, r.Jobs() at a time. A dry run that fails leaves s empty:
// VkFFT then compiles every kernel itself (and reports what fails).
func prepareKernels(d Device, cp *C.vkg_plan_params, s *C.vkg_kernel_set, r KernelReuse) {
	err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_plan_kernels(cdev(d), cp, s, st) })
	if err != nil {
		C.vkg_kernel_set_clear(s)
		return
	}
	type job struct {
		k  *C.vkg_src_kernel
		sk SourceKernel
	}
	var todo []job
	seen := map[SourceKernel]bool{}
	ks := setKernels(s)
	for i := range ks {
		sk := sourceKernel(&ks[i])
		if seen[sk] {
			continue // one binary serves every copy (vkg_kernel_set_find)
		}
		seen[sk] = true
		if bin := r.Load(&sk); len(bin) > 0 {
			ks[i].binary = C.CBytes(bin)
			ks[i].binary_bytes = C.uint64_t(len(bin))
			continue
		}
		todo = append(todo, job{&ks[i], sk})
	}
	jobs := max(r.Jobs(), 1)
	if len(todo) > 1 && jobs > 1 && r.Fork() {
		ptrs := make([]*C.vkg_src_kernel, len(todo))
		for i, j := range todo {
			ptrs[i] = j.k
		}
		r.Forked(compileForked(d, ptrs, jobs))
		left := todo[:0]
		for _, j := range todo {
			if j.k.binary != nil && j.k.binary_bytes > 0 {
				r.Keep(&j.sk, C.GoBytes(j.k.binary, C.int(j.k.binary_bytes)), true)
			} else {
				left = append(left, j)
			}
		}
		todo = left
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, jobs)
	for _, j := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st := NewStatus()
			defer FreeStatus(st)
			if C.vkg_kernel_compile(cdev(d), j.k, cst(st)) != 0 {
				return // VkFFT compiles it during creation and reports what fails
			}
			r.Keep(&j.sk, C.GoBytes(j.k.binary, C.int(j.k.binary_bytes)), true)
		}()
	}
	wg.Wait()
}

// compileForked compiles ks on up to jobs workers, child processes forked from this one
// (where the backend can) and threads where forking grows costly, each binary stored in its
// kernel; those left without one compile here. It returns how many the children compiled.
func compileForked(d Device, ks []*C.vkg_src_kernel, jobs int) int {
	arr := (**C.vkg_src_kernel)(C.malloc(C.size_t(len(ks)) * C.size_t(unsafe.Sizeof(ks[0]))))
	if arr == nil {
		return 0
	}
	defer C.free(unsafe.Pointer(arr))
	copy(unsafe.Slice(arr, len(ks)), ks)
	var forked C.int
	C.vkg_kernels_compile_forked(cdev(d), arr, C.int(len(ks)), C.int(jobs), &forked)
	return int(forked)
}

// keepInitKernels hands r the kernels VkFFT compiled itself during creation.
func keepInitKernels(s *C.vkg_kernel_set, r KernelReuse) {
	ks := setKernels(s)
	for i := range ks {
		if ks[i].from_init != 0 && ks[i].binary != nil && ks[i].binary_bytes > 0 {
			sk := sourceKernel(&ks[i])
			r.Keep(&sk, C.GoBytes(ks[i].binary, C.int(ks[i].binary_bytes)), false)
		}
	}
}

// PlanKernelsSupported says whether this build compiles a plan's kernels one by one
// (PlanParams.Kernels): CUDA and OpenCL, not Vulkan.
func PlanKernelsSupported() bool { return C.vkg_plan_kernels_supported() != 0 }
