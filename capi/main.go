// Command capi is libvkfftgo.so, the C API of package vkfft (include/vkfftgo.h), built
// with -buildmode=c-shared (make lib). It is a thin layer: it checks C arguments,
// maps handles to vkfft objects and errors to status codes; all FFT logic is in vkfft.
//
// Handles are small blocks of C memory whose addresses key Go-side tables, so C never
// holds a Go pointer and a lookup allocates nothing. Every export recovers panics.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include -DVKFFTGO_BUILDING_LIBRARY
#define VKFFTGO_NO_PROTOTYPES
#include <stdlib.h>
#include "vkfftgo.h"
#include "capi.h"

#cgo noescape vkgcapi_set_error
#cgo nocallback vkgcapi_set_error
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func main() {}

// cdev is an open device and what was made on it.
type cdev struct {
	d     *vkfft.Device
	plans map[*cplan]struct{} // guarded by tables.mu
	bufs  map[*cbuf]struct{}
}

// cplan is a plan of one of the four element-type combinations.
type cplan struct {
	dev    *cdev
	token  unsafe.Pointer
	c64    *vkfft.Plan[complex64]
	c128   *vkfft.Plan[complex128]
	r32    *vkfft.RealPlan[float32, complex64]
	r64    *vkfft.RealPlan[float64, complex128]
	cbytes int64    // complex data
	rbytes int64    // real data (R2C), 0 for C2C
	x      cplanExt // plans only the descriptor's later fields describe (desc_ext.go)
}

// cbuf is device memory handed out by bytes; it is a float32 Buffer, since every
// plan's data is a whole number of float32s. mu is held shared while a transform uses
// the buffer and exclusively to destroy it.
type cbuf struct {
	mu    sync.RWMutex
	dev   *cdev
	token unsafe.Pointer
	b     *vkfft.Buffer[float32]
	bytes int64
}

// tables maps handle addresses to objects. Lookups take the read lock only.
var tables = struct {
	mu    sync.RWMutex
	devs  map[uintptr]*cdev
	plans map[uintptr]*cplan
	bufs  map[uintptr]*cbuf
}{devs: map[uintptr]*cdev{}, plans: map[uintptr]*cplan{}, bufs: map[uintptr]*cbuf{}}

// newToken allocates the C memory whose address is a new handle.
func newToken() unsafe.Pointer { return C.calloc(1, 16) }

func freeToken(t unsafe.Pointer) { C.free(t) }

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

// publish gives h a token and enters it in the global table (for lookups) and in its
// device's set (destroyed with the device). If no token can be had, or the device was
// closed meanwhile, it undoes h with undo and reports why.
func publish[H comparable](table map[uintptr]H, devSet *map[H]struct{}, h H, undo func() error) (unsafe.Pointer, error) {
	token := newToken()
	if token == nil {
		undo()
		return nil, errorf(C.VKFFTGO_ERROR_OUT_OF_MEMORY, "out of host memory")
	}
	tables.mu.Lock()
	if *devSet == nil {
		tables.mu.Unlock()
		undo()
		freeToken(token)
		return nil, errorf(C.VKFFTGO_ERROR_CLOSED, "the device was closed")
	}
	(*devSet)[h] = struct{}{}
	table[uintptr(token)] = h
	tables.mu.Unlock()
	return token, nil
}

// withdraw removes the handle with this token from the global table and its device's
// set, and returns it (the zero H if the token is unknown).
func withdraw[H comparable](table map[uintptr]H, token unsafe.Pointer, devSet func(H) map[H]struct{}) H {
	var zero H
	tables.mu.Lock()
	defer tables.mu.Unlock()
	h, ok := table[uintptr(token)]
	if !ok {
		return zero
	}
	delete(table, uintptr(token))
	delete(devSet(h), h)
	return h
}
