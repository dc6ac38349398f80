//go:build cgo

package vkfft

/*
#include "vkg_xfer.h"

// Pageable Go memory is consumed before these return: it need not escape.
#cgo noescape vkg_plan_run_host_staged
#cgo nocallback vkg_plan_run_host_staged
#cgo noescape vkg_pipeline_run
#cgo nocallback vkg_pipeline_run
#cgo noescape vkg_pipeline_run_pageable
#cgo nocallback vkg_pipeline_run_pageable
#cgo nocallback vkg_plan_run_host_async
#cgo nocallback vkg_stream_sync
*/
import "C"

import "unsafe"

// stagerHandle is a vkg_stager: two pinned slots and the threads that fill them.
type stagerHandle = *C.vkg_stager

func stagerCreate(h deviceHandle, slotBytes int64, threads int) (stagerHandle, error) {
	var s *C.vkg_stager
	err := withStatus(func(st status) C.int {
		return C.vkg_stager_create(h, C.uint64_t(slotBytes), C.int(threads), &s, st)
	})
	return s, err
}

func stagerDestroy(s stagerHandle) { C.vkg_stager_destroy(s) }

func pinnedAlloc(h deviceHandle, bytes int64) (unsafe.Pointer, uint64, error) {
	var p unsafe.Pointer
	var handle C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_pinned_alloc(h, C.uint64_t(bytes), &p, &handle, st) })
	return p, uint64(handle), err
}

func pinnedFree(h deviceHandle, p unsafe.Pointer, handle uint64) {
	C.vkg_pinned_free(h, p, C.uint64_t(handle))
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

func eventNew(h deviceHandle) (uint64, error) {
	var e C.uint64_t
	err := withStatus(func(st status) C.int { return C.vkg_event_new(h, &e, st) })
	return uint64(e), err
}

func eventFree(h deviceHandle, ev uint64) { C.vkg_event_free(h, C.uint64_t(ev)) }

func planRunHostStaged(ph planHandle, s stagerHandle, st status, inverse bool, dst unsafe.Pointer,
	dstBytes int64, src unsafe.Pointer, srcBytes int64, scale float64) error {
	if C.vkg_plan_run_host_staged(ph, s, cbool(inverse), dst, C.uint64_t(dstBytes), src,
		C.uint64_t(srcBytes), C.double(scale), st) != 0 {
		return statusError(st)
	}
	return nil
}

func planRunHostAsync(ph planHandle, st status, queue, ev, lastQueue uint64, inverse bool,
	dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer, srcBytes int64, scale float64) error {
	if C.vkg_plan_run_host_async(ph, C.uint64_t(queue), C.uint64_t(ev), C.uint64_t(lastQueue), cbool(inverse),
		dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes), C.double(scale), st) != 0 {
		return statusError(st)
	}
	return nil
}

func pipelineRun(plans [2]planHandle, queues [2]uint64, s stagerHandle, pinned bool, st status, inverse bool,
	dst unsafe.Pointer, outBytes int64, src unsafe.Pointer, inBytes int64, chunks int, scale float64) error {
	cp := [2]*C.vkg_plan{plans[0], plans[1]}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	if C.vkg_pipeline_run(&cp[0], &cq[0], s, cbool(pinned), cbool(inverse), dst, C.uint64_t(outBytes), src,
		C.uint64_t(inBytes), C.uint64_t(chunks), C.double(scale), st) != 0 {
		return statusError(st)
	}
	return nil
}

func pipelineRunPageable(plans [2]planHandle, queues, evs [2]uint64, s stagerHandle, pinIn, pinOut [2]unsafe.Pointer,
	st status, inverse bool, dst unsafe.Pointer, outBytes int64, src unsafe.Pointer, inBytes int64, chunks int,
	scale float64) error {
	cp := [2]*C.vkg_plan{plans[0], plans[1]}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	ce := [2]C.uint64_t{C.uint64_t(evs[0]), C.uint64_t(evs[1])}
	if C.vkg_pipeline_run_pageable(&cp[0], &cq[0], &ce[0], s, &pinIn[0], &pinOut[0], cbool(inverse), dst,
		C.uint64_t(outBytes), src, C.uint64_t(inBytes), C.uint64_t(chunks), C.double(scale), st) != 0 {
		return statusError(st)
	}
	return nil
}
