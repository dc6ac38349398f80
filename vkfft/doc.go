// Package vkfft runs fast Fourier transforms on GPUs through VkFFT, built for programs
// that run the same transform many times: a Device holds one GPU context and queue for
// its whole life, a Plan compiles its kernels and allocates its device buffers once, and
// every later Forward or Inverse only copies data and launches the compiled kernels — no
// allocation on the Go heap or the device, no kernel compilation.
//
// Shapes are row-major like numpy and FFTW: the last axis is contiguous. complex64 and
// float32 plans run in single precision, complex128 and float64 in double. Inverse
// transforms are normalised by 1/N by default (numpy's "backward"); see Norm.
//
// One GPU API is compiled in, chosen by build tag: opencl (the default when no backend
// tag is given) or cuda. Backend reports which. A build with CGO_ENABLED=0 compiles but
// every call returns ErrNoBackend.
//
// Concurrency: Devices, Plans and Buffers are safe for concurrent use. Calls on one Plan
// are serialised by the plan (a VkFFT application is not reentrant); give each goroutine
// its own Plan to run transforms in parallel.
//
// Sharing a GPU context: OpenCUDAContext and OpenCLContext open a Device on a context
// (and stream or queue) that other code owns; native handles (CUcontext, cl_mem,
// CUdeviceptr, ...) travel as uintptr in every build, and the calls for a backend the
// build lacks return an error wrapping ErrUnsupported.
//
// Processes: a child forked without exec by the C library's fork() (C code sharing the
// process, a host of libvkfftgo) cannot use the parent's devices: every call that would
// reach one fails at once with an error wrapping ErrForked instead of waiting for GPU
// driver threads the child does not have. A fork made with a raw system call runs no
// pthread_atfork handler and goes unnoticed.
//
// Stability: the exported API is listed in api/v1.txt and checked by a test; from v1 it
// only grows within a major version, and names are removed only after a release in which
// they are marked Deprecated (docs/api-stability.md lists them).
package vkfft
