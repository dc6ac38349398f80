// Package cuinterop runs vkfft transforms on gorgonia.org/cu's device memory, streams and
// contexts, without copies through the host. It needs the cuda build tag (go build
// -tags cuda); the vkfft package itself does not depend on gorgonia.org/cu, whose v0.9.6
// compiles against CUDA 12 headers but not CUDA 13.
//
//	dev, _ := cuinterop.OpenContext(ctx)          // a cu.CUContext (or vkfft.Open(0): the primary context)
//	p, _ := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{nz, ny, nx}})
//	err := cuinterop.Forward(p, ptr, ptr, stream) // in place on a cu.DevicePtr, queued on a cu.Stream
//
// Calls return once the work is queued; synchronise the stream before reading results.
// Memory must belong to the Device's context and hold the plan's length.
package cuinterop
