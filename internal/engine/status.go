//go:build cgo

package engine

/*
#include <stdlib.h>
#include "vkg.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// NewStatus allocates a Status in C memory; FreeStatus frees it.
func NewStatus() Status { return Status(C.calloc(1, C.sizeof_vkg_status)) }

// FreeStatus frees st and the detail it may hold.
func FreeStatus(st Status) {
	C.vkg_status_clear(cst(st))
	C.free(unsafe.Pointer(st))
}

func cst(st Status) *C.vkg_status { return (*C.vkg_status)(st) }

// StatusError converts a failed status into an error wrapping the matching sentinel.
// What VkFFT printed while failing (a compiler's log) follows the message, whole.
func StatusError(st Status) error {
	s := cst(st)
	msg := C.GoString(&s.msg[0])
	if d := C.vkg_status_take_detail(s); d != nil {
		msg += "; VkFFT said: " + C.GoString(d)
		C.free(unsafe.Pointer(d))
	}
	return fmt.Errorf("%w: %s", errorOf(int(s.code)), msg)
}

// withStatus runs f with a fresh status and converts a failure into an error.
func withStatus(f func(st *C.vkg_status) C.int) error {
	st := NewStatus()
	defer FreeStatus(st)
	if f(cst(st)) != 0 {
		return StatusError(st)
	}
	return nil
}

// check converts a C return code into nil or the status's error.
func check(rc C.int, st Status) error {
	if rc != 0 {
		return StatusError(st)
	}
	return nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
