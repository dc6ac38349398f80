package vkfft

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// A closed HostBuffer's memory is returned to the system but its addresses stay reserved
// and inaccessible (vkg_hostmem_retire): a slice taken from it before Close then faults
// when touched directly, and is recognised here, so that transforms and copies given
// such a slice return ErrClosed instead of reaching whatever memory would be mapped at
// those addresses next. The reservations cost address space only; past the limits below
// the oldest are given back (and slices into those are no longer recognised).
const (
	maxRetiredRanges = 4096
	maxRetiredBytes  = 1 << 40
)

var retired struct {
	mu     sync.RWMutex
	count  atomic.Int32 // len(ranges), read without the lock on the hot path
	ranges []retiredRange
	bytes  int64
}

type retiredRange struct {
	start unsafe.Pointer // C memory: the collector ignores it
	bytes int64
}

// retireHostMemory records a retired range, giving back the oldest past the limits.
func retireHostMemory(p unsafe.Pointer, bytes int64) {
	retired.mu.Lock()
	defer retired.mu.Unlock()
	retired.ranges = append(retired.ranges, retiredRange{p, bytes})
	retired.bytes += bytes
	for len(retired.ranges) > maxRetiredRanges || retired.bytes > maxRetiredBytes {
		old := retired.ranges[0]
		retired.ranges = retired.ranges[1:]
		retired.bytes -= old.bytes
		engine.HostmemUnmap(old.start, old.bytes)
	}
	retired.count.Store(int32(len(retired.ranges)))
}

// inRetired reports whether [p, p+n) touches the memory of a closed HostBuffer.
func inRetired(p unsafe.Pointer, n int64) bool {
	if retired.count.Load() == 0 {
		return false
	}
	a := uintptr(p)
	retired.mu.RLock()
	defer retired.mu.RUnlock()
	for _, r := range retired.ranges {
		start := uintptr(r.start)
		if a < start+uintptr(r.bytes) && start < a+uintptr(n) {
			return true
		}
	}
	return false
}

// checkNotRetired returns ErrClosed when dst or src lies in a closed HostBuffer.
func checkNotRetired(op string, dst unsafe.Pointer, dstBytes int64, src unsafe.Pointer, srcBytes int64) error {
	if inRetired(dst, dstBytes) || inRetired(src, srcBytes) {
		return closedError(op, "host buffer (a slice taken before its Close)")
	}
	return nil
}
