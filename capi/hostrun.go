package main

// The argument checks pool and slab plans share: both run in Go between host arrays, so
// their execute and io_bytes calls check directions, pointers and byte counts alike.

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
*/
import "C"

import "unsafe"

// hostRunner is what a pool or slab plan's execute and io_bytes calls need of it.
type hostRunner interface {
	run(inverse bool, out, in unsafe.Pointer) error
	ioBytes(inverse bool) (out, in int64)
	real() bool
}

// checkDirection maps a C direction to inverse, or says what is wrong with it.
func checkDirection(direction C.int) (bool, error) {
	if direction != C.VKFFTGO_FORWARD && direction != C.VKFFTGO_INVERSE {
		return false, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"direction is %d; want VKFFTGO_FORWARD (-1) or VKFFTGO_INVERSE (1)", int(direction))
	}
	return direction == C.VKFFTGO_INVERSE, nil
}

func dirName(inverse bool) string {
	if inverse {
		return "inverse"
	}
	return "forward"
}

// hostIOBytes stores the byte counts r's transform in direction reads and writes.
func hostIOBytes(r hostRunner, direction C.int, outBytes, inBytes *C.size_t) error {
	inverse, err := checkDirection(direction)
	if err != nil {
		return err
	}
	if outBytes == nil || inBytes == nil {
		return errNull("out_bytes or in_bytes")
	}
	o, i := r.ioBytes(inverse)
	*outBytes, *inBytes = C.size_t(o), C.size_t(i)
	return nil
}

// hostExecute runs r's transform in direction from in to out once the arrays are
// non-NULL, of the sizes the plan needs, and distinct where the transform is real.
func hostExecute(r hostRunner, direction C.int, out unsafe.Pointer, outBytes C.size_t, in unsafe.Pointer,
	inBytes C.size_t) error {
	inverse, err := checkDirection(direction)
	if err != nil {
		return err
	}
	if out == nil {
		return errNull("out")
	}
	if in == nil {
		return errNull("in")
	}
	wantOut, wantIn := r.ioBytes(inverse)
	if int64(outBytes) != wantOut || int64(inBytes) != wantIn {
		return errorf(C.VKFFTGO_ERROR_WRONG_SIZE,
			"%s: out has %d bytes and in %d; the plan needs out %d and in %d bytes", dirName(inverse),
			uint64(outBytes), uint64(inBytes), wantOut, wantIn)
	}
	if out == in && r.real() {
		return errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT, "an R2C plan needs distinct in and out arrays")
	}
	return r.run(inverse, out, in)
}
