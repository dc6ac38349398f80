//go:build cgo && cuda

package cuinterop

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
	"gorgonia.org/cu"
)

// Context returns ctx's CUcontext handle as vkfft takes it.
func Context(ctx cu.CUContext) uintptr {
	// cu.CUContext is a struct holding one C.CUcontext and exposes no accessor
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&ctx)))
}

// Stream returns s's CUstream handle as vkfft takes it; cu.NoStream gives 0, which vkfft
// reads as "the Device's own stream" (not the legacy default stream).
func Stream(s cu.Stream) uintptr { return uintptr(unsafe.Pointer(s.C())) }

// OpenContext opens a vkfft.Device on ctx. The Device neither retains nor destroys it:
// keep ctx alive until the Device is closed. Every vkfft call pushes ctx and pops it
// before returning, so the goroutine's own current context is left alone.
func OpenContext(ctx cu.CUContext) (*vkfft.Device, error) { return vkfft.OpenContext(Context(ctx)) }

// Forward queues the forward transform of src into dst on s. dst == src is in place (the
// fastest); otherwise src is copied into dst first on s and left unchanged.
func Forward[T vkfft.Complex](p *vkfft.Plan[T], dst, src cu.DevicePtr, s cu.Stream) error {
	return p.ForwardPtr(uintptr(dst), uintptr(src), Stream(s))
}

// Inverse queues the inverse transform of src into dst on s, scaled as the plan's Norm says.
func Inverse[T vkfft.Complex](p *vkfft.Plan[T], dst, src cu.DevicePtr, s cu.Stream) error {
	return p.InversePtr(uintptr(dst), uintptr(src), Stream(s))
}

// ForwardReal queues the real-to-complex transform of real src into the half spectrum dst.
func ForwardReal[R vkfft.Real, C vkfft.Complex](p *vkfft.RealPlan[R, C], dst, src cu.DevicePtr, s cu.Stream) error {
	return p.ForwardPtr(uintptr(dst), uintptr(src), Stream(s))
}

// InverseReal queues the complex-to-real transform of the half spectrum src into real dst.
// For more than one axis src is used as scratch space.
func InverseReal[R vkfft.Real, C vkfft.Complex](p *vkfft.RealPlan[R, C], dst, src cu.DevicePtr, s cu.Stream) error {
	return p.InversePtr(uintptr(dst), uintptr(src), Stream(s))
}

// DevicePtr returns a vkfft Buffer's memory as a cu.DevicePtr, valid until the Buffer closes.
func DevicePtr[T vkfft.Element](b *vkfft.Buffer[T]) cu.DevicePtr { return cu.DevicePtr(b.Ptr()) }
