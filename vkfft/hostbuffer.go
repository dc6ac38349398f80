package vkfft

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// HostBuffer is pinned (page-locked) host memory of n elements that the device reads and
// writes at full bus speed: memory of its own, registered with the device
// (cuMemHostRegister on CUDA, a CL_MEM_USE_HOST_PTR buffer on OpenCL). Slice gives it as
// an ordinary Go slice. Transforms whose host slices lie in pinned memory skip the
// staging copy, and asynchronous calls (ForwardAsync) need it.
//
// The memory is C memory, freed by Close: a slice from Slice must not be used after
// Close. Touching it then faults; passing it to this package returns ErrClosed.
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
	if err := faultError(faultHostAlloc); err != nil {
		return nil, opError("new host buffer", err)
	}
	ptr, handle, err := engine.HostmemAlloc(h, int64(bytes))
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
	engine.HostmemRetire(b.dev.h, b.ptr, b.bytes, b.handle)
	retireHostMemory(b.ptr, b.bytes)
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

// maxStagers bounds the staging slot pairs of a device: that many large host transfers
// on different plans are staged at once, a further one copies directly.
const maxStagers = 4

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

// staging is a device's host-transfer machinery: the copy threads, made on first use,
// and up to maxStagers pinned slot pairs, each used by one transfer at a time.
type staging struct {
	mu      sync.Mutex
	pool    engine.Pool
	free    []engine.Stager // idle slot pairs
	made    int
	failed  bool         // pinned memory or threads could not be had: copy directly
	staged  atomic.Int64 // round trips that went through a stager
	threads int
}

// takeStager returns an idle stager if a transfer between src and dst should be staged,
// or nil for a direct copy. A stager it returns goes back with putStager.
func (d *Device) takeStager(dst, src unsafe.Pointer, dstBytes, srcBytes int64) engine.Stager {
	// small transfers, the common case in tight loops, decide without a lock
	if t := d.stageMin.Load(); t < 0 || max(dstBytes, srcBytes) < t ||
		(d.pinned.contains(src, srcBytes) && d.pinned.contains(dst, dstBytes)) {
		return nil
	}
	g := &d.staging
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.free == nil {
		g.free = make([]engine.Stager, 0, maxStagers)
	}
	if n := len(g.free); n > 0 {
		s := g.free[n-1]
		g.free = g.free[:n-1]
		g.staged.Add(1)
		return s
	}
	if g.failed || g.made >= maxStagers {
		return nil
	}
	pool, err := d.copyPoolLocked()
	if err != nil {
		return nil
	}
	slot, _ := stagingSettings()
	s, err := engine.StagerCreate(d.h, slot, pool)
	if err != nil {
		g.failed = true
		return nil
	}
	g.made++
	g.staged.Add(1)
	return s
}

// putStager gives back a stager from takeStager.
func (d *Device) putStager(s engine.Stager) {
	g := &d.staging
	g.mu.Lock()
	g.free = append(g.free, s)
	g.mu.Unlock()
}

// copyPool returns the device's copy threads, starting them on first use.
func (d *Device) copyPool() (engine.Pool, error) {
	d.staging.mu.Lock()
	defer d.staging.mu.Unlock()
	return d.copyPoolLocked()
}

func (d *Device) copyPoolLocked() (engine.Pool, error) {
	g := &d.staging
	if g.pool == nil {
		_, threads := stagingSettings()
		p, err := engine.PoolCreate(threads)
		if err != nil {
			return nil, err
		}
		g.pool, g.threads = p, threads
	}
	return g.pool, nil
}

// closeStaging frees the staging slots and stops the copy threads; the caller holds
// d.mu exclusively and has released every plan, so no stager is in use.
func (d *Device) closeStaging() {
	g := &d.staging
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, s := range g.free {
		engine.StagerDestroy(s)
	}
	g.free, g.made = nil, 0
	if g.pool != nil {
		engine.PoolDestroy(g.pool)
		g.pool = nil
	}
}
