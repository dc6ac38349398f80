package vkfft

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// HostBuffer is pinned (page-locked) host memory of n elements that the device reads and
// writes at full bus speed: cuMemHostAlloc on CUDA, a mapped CL_MEM_ALLOC_HOST_PTR buffer
// on OpenCL. Slice gives it as an ordinary Go slice. Transforms whose host slices lie in
// pinned memory skip the staging copy, and asynchronous calls (ForwardAsync) need it.
//
// The memory is C memory: Slice's slice must not be used after Close.
type HostBuffer[T Element] struct{ b hostBuffer }

type hostBuffer struct {
	mu     sync.Mutex
	dev    *Device
	ptr    unsafe.Pointer // nil once closed
	handle uint64
	n      int
	bytes  int64
}

// NewHostBuffer allocates pinned host memory for n elements of T on d's behalf.
func NewHostBuffer[T Element](d *Device, n int) (*HostBuffer[T], error) {
	if n <= 0 {
		return nil, opError("new host buffer", fmt.Errorf("%w: %d elements; must be positive", ErrInvalidArgument, n))
	}
	bytes, ok := mulCheck(n, int(sizeOf[T]()), true)
	if !ok {
		return nil, opError("new host buffer", fmt.Errorf("%w: %d elements overflow", ErrTooLarge, n))
	}
	h, err := d.use("new host buffer")
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	ptr, handle, err := pinnedAlloc(h, int64(bytes))
	if err != nil {
		return nil, opError("new host buffer", err)
	}
	b := &HostBuffer[T]{b: hostBuffer{dev: d, ptr: ptr, handle: handle, n: n, bytes: int64(bytes)}}
	d.pinned.add(uintptr(ptr), uintptr(bytes))
	d.track(&b.b)
	return b, nil
}

// Slice returns the buffer's memory as a slice of Len elements; nil after Close.
func (b *HostBuffer[T]) Slice() []T {
	b.b.mu.Lock()
	defer b.b.mu.Unlock()
	if b.b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*T)(b.b.ptr), b.b.n)
}

// Len is the number of elements.
func (b *HostBuffer[T]) Len() int { return b.b.n }

// Close waits for the device's queued work (which may still use the memory), then frees
// it. It is idempotent.
func (b *HostBuffer[T]) Close() error {
	b.b.dev.closeResource(&b.b)
	return nil
}

// release frees the memory; the caller holds b.dev.mu.
func (b *hostBuffer) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ptr == nil {
		return
	}
	b.dev.syncAll()
	b.dev.pinned.remove(uintptr(b.ptr))
	pinnedFree(b.dev.h, b.ptr, b.handle)
	b.ptr = nil
}

// pinnedSet records the pinned ranges of a device, so transforms can tell pinned host
// slices from pageable ones without allocating.
type pinnedSet struct {
	mu     sync.RWMutex
	ranges []pinnedRange
}

type pinnedRange struct{ start, end uintptr }

func (s *pinnedSet) add(start, n uintptr) {
	s.mu.Lock()
	s.ranges = append(s.ranges, pinnedRange{start, start + n})
	s.mu.Unlock()
}

func (s *pinnedSet) remove(start uintptr) {
	s.mu.Lock()
	for i, r := range s.ranges {
		if r.start == start {
			s.ranges = append(s.ranges[:i], s.ranges[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
}

// contains reports whether [p, p+n) lies in one pinned range.
func (s *pinnedSet) contains(p unsafe.Pointer, n int64) bool {
	a := uintptr(p)
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.ranges {
		if a >= r.start && a+uintptr(n) <= r.end {
			return true
		}
	}
	return false
}

// DefaultStagingThreshold is the transfer size from which host round trips of pageable
// memory go through pinned staging on devices with their own memory.
const DefaultStagingThreshold = 1 << 20

// stagingSlotBytes is the default size of each of the two pinned slots (measured on an
// H200 host: 16 MiB beat 4, 8 and 32).
const stagingSlotBytes = 16 << 20

// Tuning knobs of the staging slots, read when a device first stages: the size of each
// slot in MiB, and the number of copy threads besides the caller's.
const (
	EnvStagingSlotMiB = "VKFFTGO_STAGING_SLOT_MIB"
	EnvStagingThreads = "VKFFTGO_STAGING_THREADS"
)

// stagingSettings returns the slot size and copy threads to use.
func stagingSettings() (slot int64, threads int) {
	slot = stagingSlotBytes
	if v, err := strconv.Atoi(os.Getenv(EnvStagingSlotMiB)); err == nil && v > 0 {
		slot = int64(v) << 20
	}
	// Half the cores, the caller's thread included: on a 16-core H200 host 7, 11 and 15
	// copy threads all gave 6.4–7.5 ms for a 256³ round trip (tests/gpu/RESULTS.md), so
	// leave the other half to the host program.
	threads = min(max(runtime.NumCPU()/2-1, 1), 7)
	if v, err := strconv.Atoi(os.Getenv(EnvStagingThreads)); err == nil && v >= 0 {
		threads = v
	}
	return slot, threads
}

// SetStagingThreshold sets the size in bytes from which Forward and Inverse copy
// ordinary (pageable) host slices through the device's pinned staging slots, so the copy
// into pinned memory overlaps the transfer; a negative value turns staging off. The
// default is DefaultStagingThreshold, or off for devices that compute in host memory.
func (d *Device) SetStagingThreshold(bytes int64) { d.stageMin.Store(bytes) }

// stagerFor returns the device's stager if a transfer between src and dst should be
// staged; then it returns with d.stageMu held, which the caller releases after use.
func (d *Device) stagerFor(dst, src unsafe.Pointer, dstBytes, srcBytes int64) stagerHandle {
	// small transfers, the common case in tight loops, decide without a lock
	if t := d.stageMin.Load(); t < 0 || max(dstBytes, srcBytes) < t ||
		(d.pinned.contains(src, srcBytes) && d.pinned.contains(dst, dstBytes)) {
		return nil
	}
	d.stageMu.Lock()
	if s := d.stagerLocked(); s != nil {
		return s
	}
	d.stageMu.Unlock()
	return nil
}

// stagerLocked returns the stager, creating it on first use; nil if no pinned memory
// could be had (then copies go direct). The caller holds d.stageMu.
func (d *Device) stagerLocked() stagerHandle {
	if d.stager == nil && !d.stagerFailed {
		slot, threads := stagingSettings()
		s, err := stagerCreate(d.h, slot, threads)
		d.stager, d.stagerFailed = s, err != nil
	}
	return d.stager
}

// closeStager frees the staging slots; the caller holds d.mu exclusively.
func (d *Device) closeStager() {
	d.stageMu.Lock()
	if d.stager != nil {
		stagerDestroy(d.stager)
		d.stager = nil
	}
	d.stageMu.Unlock()
}
