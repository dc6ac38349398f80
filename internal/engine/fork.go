//go:build cgo

package engine

// #include "vkg.h"
import "C"

import (
	"errors"
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

// ProbeForkedChild forks this process with the C library's fork, so the registered
// handler marks the child, and makes d's and p's calls there in C only — a sync, an
// open, a run, p's destroy and d's close — waiting at most seconds for the child. It
// returns the child's exit code: 0 when every call failed with ErrForked or returned
// at once; bits 0–2 set for a sync, open or run that did not; -1 when the child hung and
// was killed; 128 plus a signal that killed it. A Go child of a multi-threaded Go
// process could deadlock on runtime locks held at the fork: the probe's child never
// runs Go.
func ProbeForkedChild(d Device, p Plan, seconds int) (int, error) {
	code := int(C.vkg_fork_probe(cdev(d), cplan(p), C.int(seconds)))
	if code == -2 {
		return code, errors.New("fork or waitpid failed")
	}
	return code, nil
}
