//go:build cgo

package vkfft

/*
#include "vkg_xfer.h"

// Pageable Go memory is consumed before these return: it need not escape.
#cgo noescape vkg_run_host
#cgo nocallback vkg_run_host
#cgo noescape vkg_pipeline_run_pageable
#cgo nocallback vkg_pipeline_run_pageable
#cgo noescape vkg_pipeline_run_pinned
#cgo nocallback vkg_pipeline_run_pinned
#cgo nocallback vkg_run_host_async
#cgo nocallback vkg_stream_sync
*/
import "C"

import "unsafe"

// poolHandle is a vkg_pool: the threads that split large host copies.
type poolHandle = *C.vkg_pool

func poolCreate(threads int) (poolHandle, error) {
	var p *C.vkg_pool
	err := withStatus(func(st status) C.int { return C.vkg_pool_create(C.int(threads), &p, st) })
	return p, err
}

func poolDestroy(p poolHandle) { C.vkg_pool_destroy(p) }

// stagerHandle is a vkg_stager: two pinned slots, filled by a pool's threads.
type stagerHandle = *C.vkg_stager

func stagerCreate(h deviceHandle, slotBytes int64, pool poolHandle) (stagerHandle, error) {
	var s *C.vkg_stager
	err := withStatus(func(st status) C.int {
		return C.vkg_stager_create(h, C.uint64_t(slotBytes), pool, &s, st)
	})
	return s, err
}

func stagerDestroy(s stagerHandle) { C.vkg_stager_destroy(s) }

func hostmemAlloc(h deviceHandle, bytes int64) (unsafe.Pointer, uint64, error) {
	var p unsafe.Pointer
	var handle C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_hostmem_alloc(h, C.uint64_t(bytes), &p, &handle, st) })
	return p, uint64(handle), err
}

func hostmemRetire(h deviceHandle, p unsafe.Pointer, bytes int64, handle uint64) {
	C.vkg_hostmem_retire(h, p, C.uint64_t(bytes), C.uint64_t(handle))
}

func hostmemUnmap(p unsafe.Pointer, bytes int64) { C.vkg_hostmem_unmap(p, C.uint64_t(bytes)) }

// hostmemFree gives back host memory of hostmemAlloc that no caller can still hold
// (the library's own staging), addresses included.
func hostmemFree(h deviceHandle, p unsafe.Pointer, bytes int64, handle uint64) {
	C.vkg_hostmem_unregister(h, p, C.uint64_t(handle))
	C.vkg_hostmem_unmap(p, C.uint64_t(bytes))
}

func streamCreate(h deviceHandle) (queue, ev uint64, err error) {
	var q, e C.uint64_t
	err = withStatus(func(st status) C.int { return C.vkg_stream_create(h, &q, &e, st) })
	return uint64(q), uint64(e), err
}

func streamDestroy(h deviceHandle, queue, ev uint64) {
	C.vkg_stream_destroy(h, C.uint64_t(queue), C.uint64_t(ev))
}

func streamSync(h deviceHandle, st status, queue uint64) error {
	if C.vkg_stream_sync(h, C.uint64_t(queue), st) != 0 {
		return statusError(st)
	}
	return nil
}

// runHost is one synchronous host round trip; s nil copies directly.
func runHost(r runHandle, s stagerHandle, st status, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer,
	srcBytes int64) error {
	if C.vkg_run_host(r, s, dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

func runHostAsync(r runHandle, st status, queue uint64, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer,
	srcBytes int64) error {
	if C.vkg_run_host_async(r, C.uint64_t(queue), dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes), st) != 0 {
		return statusError(st)
	}
	return nil
}

func pipelineRunPinned(runs [2]runHandle, queues [2]uint64, st status, dst unsafe.Pointer, dstBytes int64,
	src unsafe.Pointer, srcBytes int64, chunks int) error {
	cr := [2]*C.vkg_run{runs[0], runs[1]}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	if C.vkg_pipeline_run_pinned(&cr[0], &cq[0], dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes),
		C.uint64_t(chunks), st) != 0 {
		return statusError(st)
	}
	return nil
}

func pipelineRunPageable(runs [2]runHandle, queues, evs [2]uint64, pool poolHandle, pinIn, pinOut [2]unsafe.Pointer,
	st status, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer, srcBytes int64, chunks int) error {
	cr := [2]*C.vkg_run{runs[0], runs[1]}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	ce := [2]C.uint64_t{C.uint64_t(evs[0]), C.uint64_t(evs[1])}
	if C.vkg_pipeline_run_pageable(&cr[0], &cq[0], &ce[0], pool, &pinIn[0], &pinOut[0], dst, C.uint64_t(dstBytes),
		src, C.uint64_t(srcBytes), C.uint64_t(chunks), st) != 0 {
		return statusError(st)
	}
	return nil
}
