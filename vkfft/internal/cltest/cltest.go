//go:build cgo && !cuda && !vulkan

// Package cltest plays, for the OpenCL tests of package vkfft, a host program with an
// OpenCL context and queue of its own (as pyopencl, ITK's GPU module or OpenCV would
// have): it creates and releases them through the OpenCL API and reads their reference
// counts, so tests can check that vkfft retains what it borrows and releases exactly
// that. None of it is part of the library.
package cltest

/*
#cgo CFLAGS: -DCL_TARGET_OPENCL_VERSION=120
#cgo LDFLAGS: -lOpenCL
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdint.h>

static cl_int first_device(cl_platform_id *p, cl_device_id *d)
{
	cl_uint np = 0, nd = 0;
	cl_platform_id ps[16];
	cl_int err = clGetPlatformIDs(16, ps, &np);
	if (err != CL_SUCCESS)
		return err;
	for (cl_uint i = 0; i < np && i < 16; i++)
		if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, d, &nd) == CL_SUCCESS && nd > 0) {
			*p = ps[i];
			return CL_SUCCESS;
		}
	return CL_DEVICE_NOT_FOUND;
}

static cl_int create(uintptr_t *ctx, uintptr_t *dev, uintptr_t *queue, int out_of_order)
{
	cl_platform_id p;
	cl_device_id d;
	cl_int err = first_device(&p, &d);
	cl_context_properties props[3] = { CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0 };
	cl_context c;
	cl_command_queue q;
	if (err != CL_SUCCESS)
		return err;
	c = clCreateContext(props, 1, &d, NULL, NULL, &err);
	if (!c)
		return err;
	q = clCreateCommandQueue(c, d, out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
	if (!q) {
		clReleaseContext(c);
		return err;
	}
	*ctx = (uintptr_t)c;
	*dev = (uintptr_t)d;
	*queue = (uintptr_t)q;
	return CL_SUCCESS;
}

static cl_uint context_refs(uintptr_t c)
{
	cl_uint n = 0;
	clGetContextInfo((cl_context)c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
	return n;
}

static cl_uint queue_refs(uintptr_t q)
{
	cl_uint n = 0;
	clGetCommandQueueInfo((cl_command_queue)q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
	return n;
}

static cl_int finish(uintptr_t q) { return clFinish((cl_command_queue)q); }
static void release(uintptr_t c, uintptr_t q)
{
	if (q)
		clReleaseCommandQueue((cl_command_queue)q);
	if (c)
		clReleaseContext((cl_context)c);
}
*/
import "C"

import "fmt"

// Host is a context, its first device and a queue, as a host program owns them.
type Host struct {
	Context, Device, Queue uintptr
}

// Create makes a context on the first OpenCL device and an in-order queue
// (out-of-order if outOfOrder; an error if the device cannot).
func Create(outOfOrder bool) (Host, error) {
	var c, d, q C.uintptr_t
	ooo := C.int(0)
	if outOfOrder {
		ooo = 1
	}
	if err := C.create(&c, &d, &q, ooo); err != C.CL_SUCCESS {
		return Host{}, fmt.Errorf("cltest: creating a context and queue failed with OpenCL error %d", int(err))
	}
	return Host{Context: uintptr(c), Device: uintptr(d), Queue: uintptr(q)}, nil
}

// ContextRefs and QueueRefs are the reference counts OpenCL reports.
func (h Host) ContextRefs() int { return int(C.context_refs(C.uintptr_t(h.Context))) }

// QueueRefs is the queue's reference count.
func (h Host) QueueRefs() int { return int(C.queue_refs(C.uintptr_t(h.Queue))) }

// Finish waits for the queue; an error if the queue is no longer valid.
func (h Host) Finish() error {
	if err := C.finish(C.uintptr_t(h.Queue)); err != C.CL_SUCCESS {
		return fmt.Errorf("cltest: clFinish failed with OpenCL error %d", int(err))
	}
	return nil
}

// Release releases the host's references.
func (h Host) Release() { C.release(C.uintptr_t(h.Context), C.uintptr_t(h.Queue)) }
