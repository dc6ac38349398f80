//go:build cgo

package vkfft

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

// spectroHandle is a vkg_spectro in C memory.
type spectroHandle = *C.vkg_spectro

// spectroFields is what the C side of a spectrometer needs.
type spectroFields struct {
	plan                         planHandle
	path                         int
	realInput                    bool
	n, bins, chunk, sampleBytes  int
	sumGroups                    int
	convert, sumC, sumF, zero    kernelHandle
	cbuf, rbuf, pbuf, psd, windw uint64
}

func spectroNew(h deviceHandle, f *spectroFields) spectroHandle {
	s := (*C.vkg_spectro)(C.calloc(1, C.sizeof_vkg_spectro))
	if s == nil {
		return nil
	}
	s.dev = h
	s.plan = f.plan
	s.path = C.int(f.path)
	s.real_input = cbool(f.realInput)
	s.n, s.bins, s.chunk = C.uint64_t(f.n), C.uint64_t(f.bins), C.uint64_t(f.chunk)
	s.sample_bytes = C.uint64_t(f.sampleBytes)
	s.sum_groups = C.uint64_t(f.sumGroups)
	s.convert, s.sum_c, s.sum_f, s.zero = f.convert, f.sumC, f.sumF, f.zero
	s.cbuf, s.rbuf, s.pbuf = C.vkg_mem(f.cbuf), C.vkg_mem(f.rbuf), C.vkg_mem(f.pbuf)
	s.psd, s.window = C.vkg_mem(f.psd), C.vkg_mem(f.windw)
	return s
}

// spectroSetHost gives the C side the chunk buffers of host streaming and makes its
// copy queue and events.
func spectroSetHost(s spectroHandle, st status, in [2]uint64, pin [2]unsafe.Pointer) error {
	for k := 0; k < 2; k++ {
		s.in[k] = C.vkg_mem(in[k])
		s.pin[k] = pin[k]
	}
	if C.vkg_spectro_host_init(s, st) != 0 {
		return statusError(st)
	}
	return nil
}

// spectroHostReady says whether host streaming was set up.
func spectroHostReady(s spectroHandle) bool { return s.copy_queue != 0 }

// spectroFree waits for and frees the host-streaming queue and events, then s.
func spectroFree(s spectroHandle) {
	if s.copy_queue != 0 {
		C.vkg_spectro_host_free(s)
	}
	C.free(unsafe.Pointer(s))
}

func spectroDevice(s spectroHandle, st status, samples uint64, first, nffts int) error {
	if C.vkg_spectro_device(s, C.vkg_mem(samples), C.uint64_t(first), C.uint64_t(nffts), st) != 0 {
		return statusError(st)
	}
	return nil
}

func spectroHost(s spectroHandle, pool poolHandle, st status, src unsafe.Pointer, pinned bool, nffts int) error {
	if C.vkg_spectro_host(s, pool, src, cbool(pinned), C.uint64_t(nffts), st) != 0 {
		return statusError(st)
	}
	return nil
}

func spectroZero(s spectroHandle, st status) error {
	if C.vkg_spectro_zero(s, st) != 0 {
		return statusError(st)
	}
	return nil
}
