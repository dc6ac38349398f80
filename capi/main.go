// Command capi is libvkfftgo.so, the C API of package vkfft (include/vkfftgo.h), built
// with -buildmode=c-shared (make lib). It is a thin layer: it checks C arguments,
// maps handles to vkfft objects and errors to status codes; all FFT logic is in vkfft.
//
// Creation and destruction are Go (this package); the per-call entry points — host and
// buffer transforms, native-memory transforms, asynchronous transforms on streams,
// device sync — are C (hotpath*.c) and never enter the Go runtime, but for the one call
// of a plan's first out-of-place transform that builds its out-of-place kernels
// (oop.go). A handle is a slot index and a generation (handles.h): its slot holds the C
// record of the object (core.h) that the C calls use, and the handle's value keys the Go
// tables here, so a destroyed handle never reaches another object, in C or in Go. Every
// export recovers panics.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../internal/engine -DVKFFTGO_BUILDING_LIBRARY
#define VKFFTGO_NO_PROTOTYPES
#include <stdlib.h>
#include "vkfftgo.h"
#include "capi.h"
#include "core.h"
#include "handles.h"

static inline void *vkgc_handle_ptr(uintptr_t h) { return (void *)h; }

#cgo noescape vkgcapi_set_error
#cgo nocallback vkgcapi_set_error
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/cgo"
	"sync"
	"unsafe"

	// the engine's headers, which the C hot path includes, are part of its build: an
	// edit to one rebuilds this package
	_ "github.com/vkfftgo/vkfftgo/internal/engine"
	"github.com/vkfftgo/vkfftgo/vkfft"
)

func main() {}

// cdev is an open device and what was made on it. mu is held shared while a plan or
// buffer of the device is destroyed or its C record is touched from Go, and exclusively
// by vkfftgo_device_close, which frees the record.
type cdev struct {
	mu     sync.RWMutex
	d      *vkfft.Device
	rec    *C.vkgc_device
	handle uintptr
	plans  map[*cplan]struct{} // guarded by tables.mu; nil once the device is closing
	bufs   map[*cbuf]struct{}
	fused  map[*cfused]struct{} // convolutions and spectrometers (fuse.go)
	objs   map[*cobj]struct{}   // streams and pinned host buffers (streams.go)
	regMu  sync.Mutex
	regs   map[uintptr]*vkfft.HostRegistration // registered host memory by address
}

// cplan is a plan and its C record.
type cplan struct {
	dev    *cdev
	handle uintptr
	p      *vkfft.BytePlan
	rec    *C.vkgc_plan
	lease  *vkfft.BytePlanLease // set for a plan from the plan cache (vkfftgo_plan_acquire)
	// builds the out-of-place application for the record (oop.go); 0: nothing to build
	oopBuilder cgo.Handle
}

// cbuf is device memory handed out by bytes, and its C record.
type cbuf struct {
	dev    *cdev
	handle uintptr
	b      *vkfft.ByteBuffer
	rec    *C.vkgc_buffer
}

// tables maps handle values to objects. Lookups take the read lock only.
var tables = struct {
	mu    sync.RWMutex
	devs  map[uintptr]*cdev
	plans map[uintptr]*cplan
	bufs  map[uintptr]*cbuf
	fused map[uintptr]*cfused
	objs  map[uintptr]*cobj
}{devs: map[uintptr]*cdev{}, plans: map[uintptr]*cplan{}, bufs: map[uintptr]*cbuf{}, fused: map[uintptr]*cfused{},
	objs: map[uintptr]*cobj{}}

// apiError is an error with the status code it maps to.
type apiError struct {
	code C.vkfftgo_status
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func errorf(code C.vkfftgo_status, format string, args ...any) error {
	return &apiError{code: code, msg: fmt.Sprintf(format, args...)}
}

func errNull(what string) error {
	return errorf(C.VKFFTGO_ERROR_NULL_POINTER, "%s is NULL", what)
}

func lookupDevice(h *C.vkfftgo_device) (*cdev, error) {
	if h == nil {
		return nil, errNull("device handle")
	}
	tables.mu.RLock()
	d := tables.devs[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if d == nil {
		return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
			"%p is not an open device handle (closed, or a handle of another kind?)", h)
	}
	return d, nil
}

func lookupPlan(h *C.vkfftgo_plan) (*cplan, error) {
	if h == nil {
		return nil, errNull("plan handle")
	}
	tables.mu.RLock()
	p := tables.plans[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if p == nil {
		return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
			"%p is not a live plan handle (destroyed, its device closed, or a handle of another kind?)", h)
	}
	return p, nil
}

func lookupBuffer(h *C.vkfftgo_buffer, what string) (*cbuf, error) {
	if h == nil {
		return nil, errNull(what)
	}
	tables.mu.RLock()
	b := tables.bufs[uintptr(unsafe.Pointer(h))]
	tables.mu.RUnlock()
	if b == nil {
		return nil, errorf(C.VKFFTGO_ERROR_INVALID_HANDLE,
			"%s %p is not a live buffer handle (destroyed, its device closed, or a handle of another kind?)", what, h)
	}
	return b, nil
}

// sentinels maps the vkfft package's errors to status codes, most specific first.
var sentinels = []struct {
	err  error
	code C.vkfftgo_status
}{
	{vkfft.ErrClosed, C.VKFFTGO_ERROR_CLOSED},
	{vkfft.ErrInvalidShape, C.VKFFTGO_ERROR_INVALID_SHAPE},
	{vkfft.ErrInvalidBatch, C.VKFFTGO_ERROR_INVALID_BATCH},
	{vkfft.ErrLength, C.VKFFTGO_ERROR_WRONG_SIZE},
	{vkfft.ErrNilBuffer, C.VKFFTGO_ERROR_NULL_POINTER},
	{vkfft.ErrTooLarge, C.VKFFTGO_ERROR_TOO_LARGE},
	{vkfft.ErrOutOfMemory, C.VKFFTGO_ERROR_OUT_OF_MEMORY},
	{vkfft.ErrUnsupported, C.VKFFTGO_ERROR_UNSUPPORTED},
	{vkfft.ErrWrongDevice, C.VKFFTGO_ERROR_WRONG_DEVICE},
	{vkfft.ErrPrecision, C.VKFFTGO_ERROR_INVALID_ARGUMENT},
	{vkfft.ErrNoDevice, C.VKFFTGO_ERROR_NO_DEVICE},
	{vkfft.ErrNoBackend, C.VKFFTGO_ERROR_NO_BACKEND},
	{vkfft.ErrVersion, C.VKFFTGO_ERROR_VERSION},
	{vkfft.ErrVkFFT, C.VKFFTGO_ERROR_VKFFT},
	{vkfft.ErrBackend, C.VKFFTGO_ERROR_BACKEND},
	{vkfft.ErrInvalidArgument, C.VKFFTGO_ERROR_INVALID_ARGUMENT},
}

// statusOf maps an error to its status code.
func statusOf(err error) C.vkfftgo_status {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.code
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.code
		}
	}
	return C.VKFFTGO_ERROR_INTERNAL
}

// fail records "fn: err" as the calling thread's last error and returns its status.
func fail(fn string, err error) C.vkfftgo_status {
	setError(fn + ": " + err.Error())
	return statusOf(err)
}

func setError(msg string) {
	C.vkgcapi_set_error((*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.size_t(len(msg)))
}

// ret converts a Go result into the export's status: success costs nothing.
func ret(fn string, err error) C.vkfftgo_status {
	if err == nil {
		return C.VKFFTGO_SUCCESS
	}
	return fail(fn, err)
}

// recoverTo is deferred by every export: a panic becomes VKFFTGO_ERROR_INTERNAL with the
// panic's text as the message, and never unwinds into C.
func recoverTo(fn string, rc *C.vkfftgo_status) {
	if r := recover(); r != nil {
		setError(fmt.Sprintf("%s: internal error (recovered Go panic): %v", fn, r))
		*rc = C.VKFFTGO_ERROR_INTERNAL
	}
}

// publish enters h with its C record in the handle table (kind is a C.VKGC_* value),
// in the Go table (for lookups) and in its device's set (destroyed with the device),
// and stores the handle in *handle, all under tables.mu, so that vkfftgo_device_close
// never sees h without its handle. If no handle can be had, or the device is closing,
// it undoes h with undo and reports why.
func publish[H comparable](kind C.uint, rec unsafe.Pointer, table map[uintptr]H, devSet *map[H]struct{}, h H,
	handle *uintptr, undo func()) error {
	tables.mu.Lock()
	if *devSet == nil {
		tables.mu.Unlock()
		undo()
		return errorf(C.VKFFTGO_ERROR_CLOSED, "the device was closed")
	}
	v := uintptr(C.vkgc_handle_new(kind, rec))
	if v == 0 {
		tables.mu.Unlock()
		undo()
		return errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of handles or host memory")
	}
	*handle = v
	(*devSet)[h] = struct{}{}
	table[v] = h
	tables.mu.Unlock()
	return nil
}

// withdraw removes a handle from the Go table and its device's set, and returns its
// object (the zero H if the handle is unknown). The caller then retires the C handle.
func withdraw[H comparable](table map[uintptr]H, handle uintptr, devSet func(H) map[H]struct{}) H {
	var zero H
	tables.mu.Lock()
	defer tables.mu.Unlock()
	h, ok := table[handle]
	if !ok {
		return zero
	}
	delete(table, handle)
	delete(devSet(h), h)
	return h
}

// handlePtr gives a handle value the pointer type of vkfftgo.h's opaque handles. It is
// not an address: its top bit is set (handles.h), so the runtime never mistakes it for
// a pointer into the Go heap.
func handlePtr(handle uintptr) unsafe.Pointer { return C.vkgc_handle_ptr(C.uintptr_t(handle)) }

// retire makes a C handle invalid, waiting for the C calls that hold it.
func retire(handle uintptr, kind C.uint) { C.vkgc_retire(C.uintptr_t(handle), kind) }
