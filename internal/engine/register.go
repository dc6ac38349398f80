//go:build cgo

package engine

/*
#include "vkg.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Register installs a backend's table (a const vkg_backend *, vkg_backend.h): the
// backend package's init calls it, as a database/sql driver registers itself. It panics
// on a table of another contract version or a second backend, which are build errors
// that no program can recover from.
func Register(table unsafe.Pointer) {
	var msg [256]C.char
	if C.vkg_backend_register((*C.vkg_backend)(table), &msg[0], C.size_t(len(msg))) != 0 {
		panic(fmt.Sprintf("engine: %s", C.GoString(&msg[0])))
	}
	registered = int(C.vkg_backend_id())
}

// BackendName is the registered backend's name ("opencl", "cuda", "vulkan").
func BackendName() string { return C.GoString(C.vkg_backend_name()) }
