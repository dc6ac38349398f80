package vkfft

import "fmt"

// ForwardAsync queues the forward transform of src into dst, pinned host buffers of
// exactly the sizes ForwardBytes says, on s and returns at once; s.Wait() waits for the
// result. See Stream for when the buffers may be touched again.
func (p *BytePlan) ForwardAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	return p.runAsync(s, false, dst, src)
}

// InverseAsync is the asynchronous Inverse.
func (p *BytePlan) InverseAsync(s *Stream, dst, src *HostBuffer[byte]) error {
	return p.runAsync(s, true, dst, src)
}

func (p *BytePlan) runAsync(s *Stream, inverse bool, dst, src *HostBuffer[byte]) error {
	op := direction(inverse) + " async"
	if dst == nil || src == nil {
		return opError(op, fmt.Errorf("%w: host buffer", ErrNilBuffer))
	}
	l := &p.p.l
	if err := l.asyncable(op); err != nil {
		return err
	}
	dstBytes, srcBytes := l.ioBytes(inverse)
	return p.p.runAsync(s, inverse, &dst.b, &src.b, int(dstBytes), int(srcBytes), dstBytes, srcBytes)
}
