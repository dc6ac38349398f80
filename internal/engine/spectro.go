//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg_spectro.h"

// Host samples are consumed before vkg_spectro_host returns.
#cgo noescape vkg_spectro_host
#cgo nocallback vkg_spectro_host
#cgo nocallback vkg_spectro_device
#cgo nocallback vkg_spectro_zero
*/
import "C"

import "unsafe"

func cspec(s Spectro) *C.vkg_spectro { return (*C.vkg_spectro)(s) }

// SpectroNew gives the C side of a spectrometer its plan, kernels and buffers; nil when
// out of host memory.
func SpectroNew(d Device, f *SpectroFields) Spectro {
	s := (*C.vkg_spectro)(C.calloc(1, C.sizeof_vkg_spectro))
	if s == nil {
		return nil
	}
	s.dev = cdev(d)
	s.plan = cplan(f.Plan)
	s.path = C.int(f.Path)
	s.real_input = cbool(f.RealInput)
	s.n, s.bins, s.chunk, s.turn = C.uint64_t(f.N), C.uint64_t(f.Bins), C.uint64_t(f.Chunk), C.uint64_t(f.Turn)
	s.sample_bytes = C.uint64_t(f.SampleBytes)
	s.sum_groups = C.uint64_t(f.SumGroups)
	k := func(x Kernel) *C.vkg_kernel { return (*C.vkg_kernel)(x) }
	s.convert, s.sum_c, s.sum_f, s.zero = k(f.Convert), k(f.SumC), k(f.SumF), k(f.Zero)
	s.cbuf, s.rbuf, s.pbuf = C.vkg_mem(f.CBuf), C.vkg_mem(f.RBuf), C.vkg_mem(f.PBuf)
	s.psd, s.window = C.vkg_mem(f.PSD), C.vkg_mem(f.Window)
	s.direct, s.twiddles = k(f.Direct), C.vkg_mem(f.Twiddles)
	s.direct_local, s.direct_ty = C.uint64_t(f.DirectLocal), C.uint64_t(f.DirectTransforms)
	s.direct_groups = C.uint64_t(f.DirectGroups)
	s.columns, s.mid = k(f.Columns), C.vkg_mem(f.Mid)
	s.partials, s.sums = C.vkg_mem(f.Partials), C.vkg_mem(f.Sums)
	s.split_n1, s.columns_local, s.columns_ty = C.uint64_t(f.Columns1), C.uint64_t(f.ColumnsLocal),
		C.uint64_t(f.ColumnsTransforms)
	return Spectro(s)
}

// SpectroSetHost gives the C side the chunk buffers of host streaming and makes its
// copy queue and events.
func SpectroSetHost(sp Spectro, st Status, in [2]uint64, pin [2]unsafe.Pointer) error {
	s := cspec(sp)
	for k := 0; k < 2; k++ {
		s.in[k] = C.vkg_mem(in[k])
		s.pin[k] = pin[k]
	}
	return check(C.vkg_spectro_host_init(s, cst(st)), st)
}

// SpectroHostReady says whether host streaming was set up.
func SpectroHostReady(sp Spectro) bool { return cspec(sp).copy_queue != 0 }

// SpectroFree waits for and frees the host-streaming queue and events, then s.
func SpectroFree(sp Spectro) {
	s := cspec(sp)
	if s.copy_queue != 0 {
		C.vkg_spectro_host_free(s)
	}
	C.free(unsafe.Pointer(s))
}

// SpectroDevice integrates nffts transforms of device samples from transform first.
func SpectroDevice(s Spectro, st Status, samples uint64, first, nffts int) error {
	return check(C.vkg_spectro_device(cspec(s), C.vkg_mem(samples), C.uint64_t(first), C.uint64_t(nffts), cst(st)),
		st)
}

// SpectroHost integrates nffts transforms of host samples.
func SpectroHost(s Spectro, pool Pool, st Status, src unsafe.Pointer, pinned bool, nffts int) error {
	return check(C.vkg_spectro_host(cspec(s), (*C.vkg_pool)(pool), src, cbool(pinned), C.uint64_t(nffts), cst(st)),
		st)
}

// SpectroZero clears the integrated spectrum.
func SpectroZero(s Spectro, st Status) error { return check(C.vkg_spectro_zero(cspec(s), cst(st)), st) }

// SpectroSumGroups is how many work-groups share a chunk's sums (1: one per bin).
func SpectroSumGroups(s Spectro) int { return int(cspec(s).sum_groups) }
