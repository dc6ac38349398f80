package engine

import "unsafe"

// Handles to the C core's objects. They are plain pointers to C memory: the Go side
// keeps them, never looks inside, and frees each exactly once through the matching
// Destroy/Free/Close function.
type (
	// Device is an open device of the registered backend (vkg_device).
	Device unsafe.Pointer
	// Plan is a VkFFT application with its buffers and launch state (vkg_plan).
	Plan unsafe.Pointer
	// Run is one direction of a plan's host round trip, as the transfer layer runs it
	// (vkg_run); it lives as long as its plan.
	Run unsafe.Pointer
	// Status is the report of one C call (vkg_status), in C memory: the hot path keeps
	// one per plan, so no error text is written into Go memory.
	Status unsafe.Pointer
	// Pool is the threads that split large host copies (vkg_pool).
	Pool unsafe.Pointer
	// Stager is two pinned slots filled by a pool's threads (vkg_stager).
	Stager unsafe.Pointer
	// Module is companion kernels compiled together (vkg_module).
	Module unsafe.Pointer
	// Kernel is one kernel of a Module (vkg_kernel).
	Kernel unsafe.Pointer
	// Spectro is the C side of a spectrometer (vkg_spectro).
	Spectro unsafe.Pointer
	// ConvPad describes a zero-padded convolution's pad and crop (vkg_conv_pad).
	ConvPad unsafe.Pointer
)
