//go:build cgo

package engine

// #include "vkg.h"
import "C"

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
