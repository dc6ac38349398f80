package main

// Streams and pinned host buffers in the C API: vkfft.Stream and vkfft.HostBuffer[byte]
// behind handles of kinds VKGC_STREAM and VKGC_HOST_BUFFER, each with a C record
// (core.h) of what vkfftgo_execute_async and vkfftgo_stream_wait need: those calls are
// on the C per-call path (hotpath_async.c) and make Stream's and
// BytePlan.ForwardAsync/InverseAsync's core calls. The calls here run in Go; each holds
// the handles it uses in the C table for its length, as the C per-call path does, so a
// concurrent destroy waits.

/*
#include <stdlib.h>
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "core.h"
#include "handles.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cobj is a stream or a pinned host buffer made through the C API.
type cobj struct {
	dev    *cdev
	handle uintptr
	kind   C.uint
	rec    unsafe.Pointer // the C record of a stream or host buffer (C memory)
	stream *vkfft.Stream
	host   *vkfft.HostBuffer[byte]
	pipe   cpipe // pipeline.go
}

// freeRecord frees the C record; the handle was retired (or never published).
func (o *cobj) freeRecord() {
	C.free(o.rec)
	o.rec = nil
}

func (o *cobj) close() error {
	o.freeRecord()
	if o.host != nil { // the caller holds o.dev.mu, so the device's record is there
		C.vkgc_range_remove(o.dev.rec, C.uintptr_t(uintptr(unsafe.Pointer(&o.host.Slice()[0]))))
	}
	switch {
	case o.stream != nil:
		return o.stream.Close()
	case o.pipe != nil:
		return o.pipe.Close()
	}
	return o.host.Close()
}

// holdObj looks up a handle of kind and holds its slot shared; release lets it go.
func holdObj(h unsafe.Pointer, kind C.uint, what string) (o *cobj, release func(), err error) {
	if h == nil {
		return nil, nil, errNull(what)
	}
	tables.mu.RLock()
	o = tables.objs[uintptr(h)]
	tables.mu.RUnlock()
	if o != nil && o.kind == kind {
		if slot := C.vkgc_acquire(h, kind, 0); slot != nil {
			return o, func() { C.vkgc_release(slot) }, nil
		}
	}
	return nil, nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
		"%s %p is not a live handle of its kind (destroyed, its device closed, or a handle of another kind?)", what, h)
}

func newObj(d *cdev, o *cobj) (unsafe.Pointer, error) {
	o.dev = d
	if err := publish(o.kind, o.rec, tables.objs, &d.objs, o, &o.handle, func() { o.close() }); err != nil {
		return nil, err
	}
	return handlePtr(o.handle), nil
}

func destroyObj(fn string, h unsafe.Pointer, kind C.uint, what string) C.vkfftgo_status {
	if h == nil {
		return C.VKFFTGO_SUCCESS
	}
	o, release, err := holdObj(h, kind, what)
	if err != nil {
		return fail(fn, err)
	}
	release()
	o.dev.mu.RLock() // vkfftgo_device_close waits for this destroy
	defer o.dev.mu.RUnlock()
	if withdraw(tables.objs, o.handle, func(o *cobj) map[*cobj]struct{} { return o.dev.objs }) == nil {
		_, _, err := holdObj(h, kind, what) // destroyed (or its device closed) meanwhile
		return fail(fn, err)
	}
	retire(o.handle, kind) // waits for the calls that hold it
	return ret(fn, o.close())
}

//export vkgcgo_stream_create
func vkgcgo_stream_create(dh *C.vkfftgo_device, out **C.vkfftgo_stream) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_stream_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("stream output pointer"))
	}
	*out = nil
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	s, err := d.d.NewStream()
	if err != nil {
		return fail(fn, err)
	}
	rec := C.vkgc_stream_new(d.rec, C.uint64_t(ccore.StreamQueue(s)))
	if rec == nil {
		s.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	h, err := newObj(d, &cobj{kind: C.VKGC_STREAM, rec: unsafe.Pointer(rec), stream: s})
	if err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_stream)(h)
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_stream_destroy
func vkgcgo_stream_destroy(h *C.vkfftgo_stream) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_stream_destroy"
	defer recoverTo(fn, &rc)
	return destroyObj(fn, unsafe.Pointer(h), C.VKGC_STREAM, "stream")
}

//export vkgcgo_host_buffer_create
func vkgcgo_host_buffer_create(dh *C.vkfftgo_device, bytes C.size_t, out **C.vkfftgo_host_buffer,
	ptr *unsafe.Pointer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_host_buffer_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("host buffer output pointer"))
	}
	*out = nil
	if ptr != nil {
		*ptr = nil
	}
	d, err := lookupDevice(dh)
	if err != nil {
		return fail(fn, err)
	}
	if bytes == 0 || uint64(bytes) > 1<<62 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "bytes is %d; want a positive size", uint64(bytes)))
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	hb, err := vkfft.NewHostBuffer[byte](d.d, int(bytes))
	if err != nil {
		return fail(fn, err)
	}
	mem := unsafe.Pointer(&hb.Slice()[0])
	rec := C.vkgc_host_buffer_new(d.rec, mem, C.uint64_t(len(hb.Slice())))
	if rec == nil {
		hb.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	// pinned memory of the device's, as vkfft's own list has it: the C host round trips
	// and spectrometer copy it directly, never staged
	if C.vkgc_range_add(d.rec, C.uintptr_t(uintptr(mem)), C.uint64_t(len(hb.Slice()))) != 0 {
		C.free(unsafe.Pointer(rec))
		hb.Close()
		return fail(fn, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory"))
	}
	h, err := newObj(d, &cobj{kind: C.VKGC_HOST_BUFFER, rec: unsafe.Pointer(rec), host: hb})
	if err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_host_buffer)(h)
	if ptr != nil {
		*ptr = mem
	}
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_host_buffer_destroy
func vkgcgo_host_buffer_destroy(h *C.vkfftgo_host_buffer) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_host_buffer_destroy"
	defer recoverTo(fn, &rc)
	return destroyObj(fn, unsafe.Pointer(h), C.VKGC_HOST_BUFFER, "host buffer")
}

//export vkgcgo_host_buffer_ptr
func vkgcgo_host_buffer_ptr(h *C.vkfftgo_host_buffer, ptr *unsafe.Pointer, bytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_host_buffer_ptr"
	defer recoverTo(fn, &rc)
	o, release, err := holdObj(unsafe.Pointer(h), C.VKGC_HOST_BUFFER, "host buffer")
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if ptr == nil && bytes == nil {
		return fail(fn, errNull("ptr and bytes"))
	}
	s := o.host.Slice()
	if ptr != nil {
		*ptr = unsafe.Pointer(&s[0])
	}
	if bytes != nil {
		*bytes = C.size_t(len(s))
	}
	return C.VKFFTGO_SUCCESS
}
