package vkfft

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// HostRegistration is host memory the caller owns outside the Go heap — from C (malloc,
// posix_memalign) or from mmap — registered with a device so that it is page-locked
// for the device's DMA engine: cuMemHostRegister on CUDA, a CL_MEM_USE_HOST_PTR buffer
// over it on OpenCL (drivers that can pin it then do). Host transforms whose slices
// lie in registered memory skip the staging copy and run at pinned speed, like those
// on a HostBuffer, without copying the data into one first.
//
// The memory stays the caller's: it must stay allocated until Close, and must not be
// freed or unmapped while a transform on it runs.
type HostRegistration struct {
	mu     sync.Mutex
	dev    *Device
	ptr    unsafe.Pointer // nil once closed
	bytes  int64
	handle uint64
}

// RegisterHost registers mem with d (see HostRegistration). mem must not overlap memory
// already registered or a HostBuffer of d.
//
// Go heap memory (make, new, append, a composite literal) is refused: the Go runtime
// frees heap objects once they are unreachable and hands their pages back to the
// operating system, and it moves goroutine stacks, so a registration could outlive the
// memory it describes. Use a HostBuffer for pinned memory the Go side owns.
func (d *Device) RegisterHost(mem []byte) (*HostRegistration, error) {
	const op = "register host memory"
	if len(mem) == 0 {
		return nil, opError(op, fmt.Errorf("%w: empty memory", ErrInvalidArgument))
	}
	start := unsafe.Pointer(unsafe.SliceData(mem))
	if goManaged(start) || goManaged(unsafe.Add(start, len(mem)-1)) {
		return nil, opError(op, fmt.Errorf("%w: %p is Go memory, which the runtime may release or move; "+
			"register memory from C or mmap, or use a HostBuffer", ErrInvalidArgument, start))
	}
	h, err := d.use(op)
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	// hold the pinned set while checking and registering, so two overlapping
	// registrations cannot both pass
	d.pinned.mu.Lock()
	defer d.pinned.mu.Unlock()
	if d.pinned.overlapsLocked(uintptr(start), uintptr(len(mem))) {
		return nil, opError(op, fmt.Errorf("%w: [%p, +%d) overlaps memory already registered or pinned on %s",
			ErrInvalidArgument, start, len(mem), d.info.Name))
	}
	handle, err := engine.HostRegister(h, start, int64(len(mem)))
	if err != nil {
		return nil, opError(op, err)
	}
	r := &HostRegistration{dev: d, ptr: start, bytes: int64(len(mem)), handle: handle}
	d.pinned.ranges = append(d.pinned.ranges, pinnedRange{uintptr(start), uintptr(start) + uintptr(len(mem))})
	d.track(r)
	return r, nil
}

// Bytes is the size of the registered memory.
func (r *HostRegistration) Bytes() int64 { return r.bytes }

// Close waits for the device's queued work (which may still use the memory), then
// unregisters it; the memory stays the caller's. It is idempotent.
func (r *HostRegistration) Close() error {
	r.dev.closeResource(r)
	return nil
}

// release unregisters the memory; the caller holds r.dev.mu.
func (r *HostRegistration) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr == nil {
		return
	}
	r.dev.syncAll()
	r.dev.pinned.remove(uintptr(r.ptr))
	engine.HostUnregister(r.dev.h, r.ptr, r.handle)
	r.ptr = nil
}

// overlapsLocked reports whether [start, start+n) overlaps a recorded range; the
// caller holds s.mu.
func (s *pinnedSet) overlapsLocked(start, n uintptr) bool {
	for _, r := range s.ranges {
		if start < r.end && r.start < start+n {
			return true
		}
	}
	return false
}

// goManaged reports whether p points into memory the Go runtime manages: its heap, or
// a Go module's data. runtime.AddCleanup accepts exactly those pointers and panics, with
// "not in allocated block", for any other (C, mmap); the cleanup is stopped at once.
func goManaged(p unsafe.Pointer) (managed bool) {
	defer func() {
		if recover() != nil {
			managed = false
		}
	}()
	runtime.AddCleanup((*byte)(p), func(int) {}, 0).Stop()
	return true
}
