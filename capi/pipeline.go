package main

// Pipelines in the C API: vkfft.Pipeline (chunked host round trips whose transfers
// overlap the computation) behind handles of kind VKGC_PIPELINE, in the same table as
// streams and host buffers (streams.go). The calls run in Go.

/*
#define VKFFTGO_NO_PROTOTYPES
#include "vkfftgo.h"
#include "handles.h"
*/
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// cpipe is a Pipeline of either precision, on bytes.
type cpipe interface {
	run(inverse bool, out, in unsafe.Pointer) error
	bytes() int64
	Close() error
}

type pipeOf[T vkfft.Complex] struct{ p *vkfft.Pipeline[T] }

func (w pipeOf[T]) run(inverse bool, out, in unsafe.Pointer) error {
	dst, src := unsafe.Slice((*T)(out), w.p.Len()), unsafe.Slice((*T)(in), w.p.Len())
	if inverse {
		return w.p.Inverse(dst, src)
	}
	return w.p.Forward(dst, src)
}
func (w pipeOf[T]) bytes() int64 { return int64(w.p.Len()) * int64(unsafe.Sizeof(*new(T))) }
func (w pipeOf[T]) Close() error { return w.p.Close() }

//export vkgcgo_pipeline_create
func vkgcgo_pipeline_create(dh *C.vkfftgo_device, desc *C.vkfftgo_plan_desc, chunks C.int,
	out **C.vkfftgo_pipeline) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pipeline_create"
	defer recoverTo(fn, &rc)
	if out == nil {
		return fail(fn, errNull("pipeline output pointer"))
	}
	*out = nil
	d, pd, err := lookupDeviceDesc(dh, desc)
	if err != nil {
		return fail(fn, err)
	}
	if pd.r2c || pd.r2r != 0 {
		return fail(fn, errorf(C.VKFFTGO_ERROR_UNSUPPORTED, "pipelines run complex-to-complex plans (desc->kind VKFFTGO_C2C)"))
	}
	if err := d.use(); err != nil {
		return fail(fn, err)
	}
	defer d.mu.RUnlock()
	var p cpipe
	if pd.double {
		pl, err := vkfft.NewPipeline[complex128](d.d, pd.cfg, int(chunks))
		if err != nil {
			return fail(fn, err)
		}
		p = pipeOf[complex128]{pl}
	} else {
		pl, err := vkfft.NewPipeline[complex64](d.d, pd.cfg, int(chunks))
		if err != nil {
			return fail(fn, err)
		}
		p = pipeOf[complex64]{pl}
	}
	h, err := newObj(d, &cobj{kind: C.VKGC_PIPELINE, pipe: p})
	if err != nil {
		return fail(fn, err)
	}
	*out = (*C.vkfftgo_pipeline)(h)
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_pipeline_destroy
func vkgcgo_pipeline_destroy(h *C.vkfftgo_pipeline) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pipeline_destroy"
	defer recoverTo(fn, &rc)
	return destroyObj(fn, unsafe.Pointer(h), C.VKGC_PIPELINE, "pipeline")
}

//export vkgcgo_pipeline_bytes
func vkgcgo_pipeline_bytes(h *C.vkfftgo_pipeline, bytes *C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pipeline_bytes"
	defer recoverTo(fn, &rc)
	o, release, err := holdObj(unsafe.Pointer(h), C.VKGC_PIPELINE, "pipeline")
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if bytes == nil {
		return fail(fn, errNull("bytes"))
	}
	*bytes = C.size_t(o.pipe.bytes())
	return C.VKFFTGO_SUCCESS
}

//export vkgcgo_pipeline_execute
func vkgcgo_pipeline_execute(h *C.vkfftgo_pipeline, direction C.int, out unsafe.Pointer, outBytes C.size_t,
	in unsafe.Pointer, inBytes C.size_t) (rc C.vkfftgo_status) {
	const fn = "vkfftgo_pipeline_execute"
	defer recoverTo(fn, &rc)
	o, release, err := holdObj(unsafe.Pointer(h), C.VKGC_PIPELINE, "pipeline")
	if err != nil {
		return fail(fn, err)
	}
	defer release()
	if direction != C.VKFFTGO_FORWARD && direction != C.VKFFTGO_INVERSE {
		return fail(fn, errorf(C.VKFFTGO_ERROR_INVALID_ARGUMENT,
			"direction is %d; want VKFFTGO_FORWARD (-1) or VKFFTGO_INVERSE (1)", int(direction)))
	}
	if out == nil {
		return fail(fn, errNull("out"))
	}
	if in == nil {
		return fail(fn, errNull("in"))
	}
	want := o.pipe.bytes()
	if int64(outBytes) != want || int64(inBytes) != want {
		return fail(fn, errorf(C.VKFFTGO_ERROR_WRONG_SIZE, "out_bytes %d and in_bytes %d; the pipeline takes %d each",
			uint64(outBytes), uint64(inBytes), want))
	}
	return ret(fn, o.pipe.run(direction == C.VKFFTGO_INVERSE, out, in))
}
