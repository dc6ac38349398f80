//go:build cgo

package engine

// #include "vkg.h"
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// The engine's fork mark (vkg_fork.c) as tests set it. A test marks its own process as a
// forked child to see every call fail with ErrForked, and clears the mark afterwards
// (nothing the marked calls skipped needs undoing: they touched nothing). A test that
// forks with a raw system call, which runs no pthread_atfork handlers, marks its child
// itself: that is what the C library's fork does through the registered handler.

// MarkForkedChild marks this process as a forked child.
func MarkForkedChild() { C.vkg_fork_child() }

// ClearForkedMark undoes MarkForkedChild (tests only; never after a real fork).
func ClearForkedMark() { C.vkg_fork_clear() }

// ForkedChild reports whether this process is marked as a forked child.
func ForkedChild() bool { return C.vkg_forked() != 0 }

// forkMark is the C mark's address: Forked reads it with an atomic load, no cgo call, so
// the Go layer may check it on every use of a device.
var forkMark = (*int32)(unsafe.Pointer(C.vkg_fork_mark()))

// Forked reports whether this process is a child forked without exec from the one that
// loaded the engine (the mark vkg_fork.c's pthread_atfork handler sets).
func Forked() bool { return atomic.LoadInt32(forkMark) != 0 }

// ForkedError is the error a call refused in a forked child gets: ErrForked, with the
// C core's explanation.
func ForkedError() error {
	return withStatus(func(st *C.vkg_status) C.int { return C.int(C.vkg_fail_forked(st)) })
}
