//go:build cgo

package engine

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

// PoolCreate starts threads that split large host copies.
func PoolCreate(threads int) (Pool, error) {
	var p *C.vkg_pool
	err := withStatus(func(st *C.vkg_status) C.int { return C.vkg_pool_create(C.int(threads), &p, st) })
	return Pool(p), err
}

// PoolDestroy stops a pool's threads.
func PoolDestroy(p Pool) { C.vkg_pool_destroy((*C.vkg_pool)(p)) }

// StagerCreate makes two pinned slots of slotBytes, filled by pool's threads.
func StagerCreate(d Device, slotBytes int64, pool Pool) (Stager, error) {
	var s *C.vkg_stager
	err := withStatus(func(st *C.vkg_status) C.int {
		return C.vkg_stager_create(cdev(d), C.uint64_t(slotBytes), (*C.vkg_pool)(pool), &s, st)
	})
	return Stager(s), err
}

// StagerDestroy frees a stager's slots.
func StagerDestroy(s Stager) { C.vkg_stager_destroy((*C.vkg_stager)(s)) }

// HostmemAlloc maps pinned host memory and registers it with the device.
func HostmemAlloc(d Device, bytes int64) (unsafe.Pointer, uint64, error) {
	var p unsafe.Pointer
	var handle C.uint64_t
	err := withStatus(func(st *C.vkg_status) C.int {
		return C.vkg_hostmem_alloc(cdev(d), C.uint64_t(bytes), &p, &handle, st)
	})
	return p, uint64(handle), err
}

// HostmemRetire unregisters pinned memory and leaves its addresses reserved but
// inaccessible, so a stale pointer faults instead of reaching other memory.
func HostmemRetire(d Device, p unsafe.Pointer, bytes int64, handle uint64) {
	C.vkg_hostmem_retire(cdev(d), p, C.uint64_t(bytes), C.uint64_t(handle))
}

// HostmemUnmap gives retired addresses back.
func HostmemUnmap(p unsafe.Pointer, bytes int64) { C.vkg_hostmem_unmap(p, C.uint64_t(bytes)) }

// HostmemFree gives back host memory of HostmemAlloc that no caller can still hold
// (the library's own staging), addresses included.
func HostmemFree(d Device, p unsafe.Pointer, bytes int64, handle uint64) {
	C.vkg_hostmem_unregister(cdev(d), p, C.uint64_t(handle))
	C.vkg_hostmem_unmap(p, C.uint64_t(bytes))
}

// StreamCreate makes a queue of the device and an event to go with it.
func StreamCreate(d Device) (queue, ev uint64, err error) {
	var q, e C.uint64_t
	err = withStatus(func(st *C.vkg_status) C.int { return C.vkg_stream_create(cdev(d), &q, &e, st) })
	return uint64(q), uint64(e), err
}

// StreamDestroy waits for a queue and frees it with its event.
func StreamDestroy(d Device, queue, ev uint64) {
	C.vkg_stream_destroy(cdev(d), C.uint64_t(queue), C.uint64_t(ev))
}

// StreamSync waits for a queue's work.
func StreamSync(d Device, st Status, queue uint64) error {
	return check(C.vkg_stream_sync(cdev(d), C.uint64_t(queue), cst(st)), st)
}

// RunHost is one synchronous host round trip; s nil copies directly.
func RunHost(r Run, s Stager, st Status, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer,
	srcBytes int64) error {
	return check(C.vkg_run_host((*C.vkg_run)(r), (*C.vkg_stager)(s), dst, C.uint64_t(dstBytes), src,
		C.uint64_t(srcBytes), cst(st)), st)
}

// RunHostAsync enqueues a round trip on pinned memory on queue and returns.
func RunHostAsync(r Run, st Status, queue uint64, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer,
	srcBytes int64) error {
	return check(C.vkg_run_host_async((*C.vkg_run)(r), C.uint64_t(queue), dst, C.uint64_t(dstBytes), src,
		C.uint64_t(srcBytes), cst(st)), st)
}

// PipelineRunPinned runs a batch in chunks over two plans and queues, pinned memory.
func PipelineRunPinned(runs [2]Run, queues [2]uint64, st Status, dst unsafe.Pointer, dstBytes int64,
	src unsafe.Pointer, srcBytes int64, chunks int) error {
	cr := [2]*C.vkg_run{(*C.vkg_run)(runs[0]), (*C.vkg_run)(runs[1])}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	return check(C.vkg_pipeline_run_pinned(&cr[0], &cq[0], dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes),
		C.uint64_t(chunks), cst(st)), st)
}

// PipelineRunPageable is PipelineRunPinned for ordinary memory, through pinned chunk
// buffers filled by pool's threads.
func PipelineRunPageable(runs [2]Run, queues, evs [2]uint64, pool Pool, pinIn, pinOut [2]unsafe.Pointer,
	st Status, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer, srcBytes int64, chunks int) error {
	cr := [2]*C.vkg_run{(*C.vkg_run)(runs[0]), (*C.vkg_run)(runs[1])}
	cq := [2]C.uint64_t{C.uint64_t(queues[0]), C.uint64_t(queues[1])}
	ce := [2]C.uint64_t{C.uint64_t(evs[0]), C.uint64_t(evs[1])}
	return check(C.vkg_pipeline_run_pageable(&cr[0], &cq[0], &ce[0], (*C.vkg_pool)(pool), &pinIn[0], &pinOut[0],
		dst, C.uint64_t(dstBytes), src, C.uint64_t(srcBytes), C.uint64_t(chunks), cst(st)), st)
}

// HostRegister page-locks memory the caller owns for the device's DMA engine.
func HostRegister(d Device, p unsafe.Pointer, bytes int64) (uint64, error) {
	var handle C.uint64_t
	err := withStatus(func(st *C.vkg_status) C.int {
		return C.vkg_hostmem_register(cdev(d), p, C.uint64_t(bytes), &handle, st)
	})
	return uint64(handle), err
}

// HostUnregister undoes HostRegister.
func HostUnregister(d Device, p unsafe.Pointer, handle uint64) {
	C.vkg_hostmem_unregister(cdev(d), p, C.uint64_t(handle))
}
