package main

// True out-of-place transforms on the C per-call path. A C2C plan's out != in runs the
// vkfft plan's second application, which reads in and writes out (vkfft/oop.go), instead
// of copying in into out. Go builds that application, as it builds everything: the C
// record of a plan (core.h) carries a cgo.Handle of the function that builds it, and the
// first out-of-place call, holding the plan's handle exclusively, calls
// vkgcapi_build_out_of_place once and keeps the result in the record. Every later call
// stays in C.
//
// Locks: the calling thread holds the plan's slot (exclusive), then the build takes the
// vkfft plan's own lock, the order vkfftgo_execute_async keeps too, and nothing that
// waits for the slot (vkfftgo_plan_destroy, vkfftgo_device_close: they retire it) holds a
// lock the build takes. Two first calls on one handle are serialised by the slot; the
// second finds the application built. A destroy waits for the build to finish and
// deletes the cgo.Handle with the record (cplan.freeRecord), after the C handle retired.

/*
#include "core.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/ccore"
)

// setOutOfPlace fills the record's out-of-place fields from the vkfft plan: the
// application if it exists (a plan leased again), else a builder if it can have one.
func (p *cplan) setOutOfPlace(core ccore.Plan) {
	p.rec.oop = (*C.vkg_plan)(core.OutOfPlace)
	if core.BuildOutOfPlace != nil {
		p.oopBuilder = cgo.NewHandle(core.BuildOutOfPlace)
		p.rec.oop_builder = C.uintptr_t(p.oopBuilder)
	}
}

//export vkgcapi_build_out_of_place
func vkgcapi_build_out_of_place(builder C.uintptr_t) (oop unsafe.Pointer) {
	defer func() {
		if recover() != nil {
			oop = nil // out-of-place calls keep the copy: slower, never wrong
		}
	}()
	return cgo.Handle(builder).Value().(func() unsafe.Pointer)()
}
