//go:build cgo && cuda && !opencl

package vkfft

// ForwardPtr enqueues the transform of device memory src (a CUdeviceptr of Len reals,
// fp16 for StorageHalf) into dst on stream (0: the device's own) and returns without
// waiting. dst == src transforms in place; otherwise src is copied into dst first, or for
// strided plans read through VkFFT's formatted input. Sizes cannot be checked.
func (p *R2RPlan[T]) ForwardPtr(dst, src, stream uintptr) error {
	if p.p.l.strided {
		return p.p.runPtr(false, dst, src, 0, stream)
	}
	return p.p.runPtr(false, dst, 0, ptrCopy(dst, src), stream)
}

// InversePtr is the inverse of ForwardPtr.
func (p *R2RPlan[T]) InversePtr(dst, src, stream uintptr) error {
	if p.p.l.strided {
		return p.p.runPtr(true, dst, src, 0, stream)
	}
	return p.p.runPtr(true, dst, 0, ptrCopy(dst, src), stream)
}
