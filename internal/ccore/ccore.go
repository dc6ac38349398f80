// Package ccore hands the C API (capi) the C objects behind package vkfft's plans and
// devices, so that its per-call entry points run in C without entering Go: creation and
// destruction stay in Go, and the C side keeps what a call needs behind its handles.
// The same holds for convolutions and spectrometers, whose per-call entry points are C
// too. It also hands capi what vkfft's table of spectrometer sample formats says, so
// that capi has no list of formats of its own.
//
// Package vkfft fills in the functions when it is initialised; only capi calls them.
// Being internal, none of this is part of the public Go API.
package ccore

import "unsafe"

// Plan is what a C call needs to run a plan without Go: the core plan, which also
// carries its normalisation and its order against work on other queues.
type Plan struct {
	Core    unsafe.Pointer // the plan's vkg_plan (vkfft/vkg.h); nil once closed
	InPlace InPlaceRule    // whether out may, must or must not be in
	// Strided plans read and write device memory through their strides: buffers hold
	// at least the plan's byte sizes, and host round trips are refused.
	Strided bool
	// OutOfPlace is the plan's out-of-place application (a second vkg_plan that reads
	// in and writes out, so out != in needs no copy; vkfft's oop.go) if it is built
	// already, else nil. BuildOutOfPlace, when not nil, builds it (with the plan's
	// tuning, through the kernel cache) and returns it, or nil if it cannot be built:
	// the C side calls it on its first out-of-place transform, holding the plan's
	// handle exclusively, and then keeps the result. It is nil when the plan cannot
	// have one (not C2C, strided, fp16 storage, an earlier build failed) or has it.
	OutOfPlace      unsafe.Pointer
	BuildOutOfPlace func() unsafe.Pointer
	// AsyncRefusal[inverse] is why the plan refuses asynchronous host round trips in
	// that direction (the error BytePlan.ForwardAsync/InverseAsync return), or "".
	AsyncRefusal [2]string
}

// InPlaceRule says whether a transform's output may be its input memory.
type InPlaceRule int

const (
	InPlaceAllowed        InPlaceRule = iota // out may equal in (complex and real-to-real plans)
	InPlaceRefusedR2C                        // out-of-place R2C: real and complex data differ
	InPlaceRefusedStrides                    // strided with InStrides != OutStrides
	InPlaceRequired                          // RealInPlace: one padded buffer
)

// Device is what a C call needs of a device, and how its host transfers are staged.
type Device struct {
	Core             unsafe.Pointer // the device's vkg_device; nil once closed
	StagingThreshold int64          // the default threshold (negative: off, e.g. a CPU device)
	StagingSlotBytes int64          // size of each of a stager's two pinned slots
	StagingThreads   int            // copy threads besides the caller's (one pool per device)
	MaxStagers       int            // slot pairs: large transfers staged at once, more copy directly
}

// Convolution is what a C call needs to run a vkfft.Convolution or RealConvolution
// without Go: the calls its Apply and ApplyBuffer make (vkg_plan_run_io_host,
// vkg_plan_run_items_wait in vkfft/vkg.h), with the same arguments.
type Convolution struct {
	Plan unsafe.Pointer // the convolution's vkg_plan
	Pad  unsafe.Pointer // its vkg_conv_pad when zero-padded, else nil
	// In and Out are the device buffers of host round trips (Out may be In).
	In, Out           uint64
	InBytes, OutBytes int64 // of the data, as Apply takes and returns it
	Items             int   // runs per call (one per item when VkFFT cannot batch them)
	// InPlace: the result lands in the input buffer, so a run on device memory copies in
	// into out first and transforms out (unless Pad is set).
	InPlace bool
}

// Spectrometer is what a C call needs to run a vkfft.Spectrometer without Go: its C
// side (vkg_spectro, vkfft/vkg_spectro.h) and what Accumulate and Read do around it.
type Spectrometer struct {
	Core        unsafe.Pointer // the vkg_spectro
	Batch       int            // FFTs per call
	SampleBytes int64          // bytes of one call's samples
	Bins        int
	FFTShift    bool    // Read rotates the bins by Bins/2 (numpy's fftshift)
	Perm        []int32 // Perm[position] = bin where VkFFT leaves the bins in its own order; nil: in order
	// PrepareHost makes the device and pinned chunk buffers of host streaming (on
	// first use, as Accumulate does; nil once made): the C side calls it once, before
	// its first host accumulation, holding the spectrometer's handle exclusively.
	PrepareHost func() error
}

var (
	// ConvolutionOf returns the C side of a *vkfft.Convolution or *vkfft.RealConvolution.
	ConvolutionOf func(convolution any) Convolution
	// SpectrometerOf returns the C side of a *vkfft.Spectrometer.
	SpectrometerOf func(spectrometer any) Spectrometer
	// PlanOf returns the C side of a *vkfft.BytePlan.
	PlanOf func(plan any) Plan
	// DeviceOf returns the C side of a *vkfft.Device.
	DeviceOf func(device any) Device
	// StreamQueue returns the queue of a *vkfft.Stream as the core's transfer layer takes
	// it (vkg_run_host_async), valid until the stream is closed; 0 once closed.
	StreamQueue func(stream any) uint64
	// SampleFormat returns the vkfft.SampleFormat whose C enum (VKFFTGO_COMPLEX_INT8, ...
	// in vkfftgo.h) has the value c, or an error wrapping vkfft.ErrInvalidArgument that
	// names the values there are.
	SampleFormat func(c int32) (int, error)
	// KernelsCached says whether vkfft.NewBytePlan(device, cfg, kind) (a *vkfft.Device,
	// a vkfft.Config, a vkfft.ByteKind) would now build its kernels from the disk kernel
	// cache rather than compile them; nothing is built.
	KernelsCached func(device, cfg, kind any) (bool, error)
)
