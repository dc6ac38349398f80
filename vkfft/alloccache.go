package vkfft

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Device memory: every plan and buffer allocates through the device's AllocCache
// (alloc and free below), which keeps released memory for reuse.

// AllocCache keeps device memory that plans and buffers released, in size buckets, and
// hands it to later plans and buffers of the same bucket. Allocating and freeing device
// memory can synchronise the whole device (cudaFree does), so a program that creates and
// closes plans or buffers per frame keeps allocation off its steady state this way.
//
// Memory returned to the cache stays allocated on the device up to Limit bytes; beyond
// that the oldest entries are freed. Reuse is ordered by the device's queue, so memory is
// never handed out while earlier work on it can still be running.
type AllocCache struct {
	dev     *Device
	mu      sync.Mutex
	limit   int64
	held    int64              // bytes cached (free for reuse)
	free    map[int64][]uint64 // bucket size -> allocations, oldest first
	order   []cachedAlloc      // every cached allocation, oldest first, for eviction
	hits    int64
	misses  int64
	evicted int64
}

type cachedAlloc struct {
	m      uint64
	bucket int64
}

// AllocCacheStats describes the cache's work since the device was opened.
type AllocCacheStats struct {
	Hits       int64 // allocations served from the cache
	Misses     int64 // allocations that went to the device
	Evicted    int64 // cached allocations freed to stay under the limit or by Trim
	BytesHeld  int64 // cached, free for reuse
	BytesInUse int64 // held by live plans and buffers
	Limit      int64
}

// DefaultAllocCacheLimit is the byte limit of a new device's cache: a quarter of the
// device's memory, at most 1 GiB.
func defaultAllocCacheLimit(global uint64) int64 {
	return min(int64(global/4), 1<<30)
}

// bucketSize rounds a request up to one of four steps per power of two (at most 25 %
// waste), and to 4 KiB below 16 KiB, so released memory fits later requests of a
// similar size.
func bucketSize(n int64) int64 {
	if n <= 16<<10 {
		return (n + 4095) &^ 4095
	}
	shift := 63 - bits.LeadingZeros64(uint64(n-1)) - 2 // quarter of the power of two below
	step := int64(1) << shift
	return (n + step - 1) &^ (step - 1)
}

// AllocCache returns the device's allocation cache.
func (d *Device) AllocCache() *AllocCache { return &d.cache }

// SetLimit sets the bytes the cache may hold; 0 turns caching off. Cached memory over
// the new limit is freed at once.
func (c *AllocCache) SetLimit(bytes int64) {
	d := c.dev
	d.mu.RLock()
	defer d.mu.RUnlock()
	c.mu.Lock()
	c.limit = max(bytes, 0)
	evict := c.shrinkLocked(c.limit)
	c.mu.Unlock()
	d.freeNow(evict)
}

// Trim frees all cached memory.
func (c *AllocCache) Trim() {
	d := c.dev
	d.mu.RLock()
	defer d.mu.RUnlock()
	c.trim()
}

// trim frees all cached memory; the caller holds c.dev.mu.
func (c *AllocCache) trim() {
	c.mu.Lock()
	evict := c.shrinkLocked(0)
	c.mu.Unlock()
	c.dev.freeNow(evict)
}

// Stats reports the cache's counters.
func (c *AllocCache) Stats() AllocCacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return AllocCacheStats{Hits: c.hits, Misses: c.misses, Evicted: c.evicted, BytesHeld: c.held,
		BytesInUse: c.dev.liveBytes.Load(), Limit: c.limit}
}

// take returns a cached allocation of bucket size b, or 0.
func (c *AllocCache) take(b int64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	list := c.free[b]
	if len(list) == 0 {
		c.misses++
		return 0
	}
	m := list[len(list)-1] // the most recently released: likeliest still in cache lines
	c.free[b] = list[:len(list)-1]
	for i := range c.order {
		if c.order[i].m == m {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.held -= b
	c.hits++
	return m
}

// put caches m (bucket size b) and returns what must be freed to stay under the limit
// (possibly m itself).
func (c *AllocCache) put(m uint64, b int64) []cachedAlloc {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b > c.limit {
		return []cachedAlloc{{m, b}}
	}
	if c.free == nil {
		c.free = make(map[int64][]uint64)
	}
	c.free[b] = append(c.free[b], m)
	c.order = append(c.order, cachedAlloc{m, b})
	c.held += b
	return c.shrinkLocked(c.limit)
}

// shrinkLocked removes the oldest entries until at most limit bytes are held.
func (c *AllocCache) shrinkLocked(limit int64) []cachedAlloc {
	var out []cachedAlloc
	for c.held > limit && len(c.order) > 0 {
		e := c.order[0]
		c.order = c.order[1:]
		list := c.free[e.bucket]
		for i, m := range list {
			if m == e.m {
				c.free[e.bucket] = append(list[:i], list[i+1:]...)
				break
			}
		}
		c.held -= e.bucket
		c.evicted++
		out = append(out, e)
	}
	return out
}

// bucketFor is the size actually allocated for a request of n bytes: the allocation
// cache's bucket, unless rounding up would pass the device's largest allocation.
func (d *Device) bucketFor(n int64) int64 {
	b := bucketSize(n)
	if d.info.MaxAllocation != 0 && uint64(b) > d.info.MaxAllocation {
		return n
	}
	return b
}

// alloc returns device memory of at least bytes, from the allocation cache when it
// can; the caller holds d.mu shared. Out of memory, it frees the cache and tries again.
func (d *Device) alloc(bytes int64) (uint64, error) {
	if d.info.MaxAllocation != 0 && uint64(bytes) > d.info.MaxAllocation {
		return 0, fmt.Errorf("%w: %d bytes in one buffer; %s allows at most %d", ErrTooLarge, bytes,
			d.info.Name, d.info.MaxAllocation)
	}
	b := d.bucketFor(bytes)
	m := d.cache.take(b)
	if m == 0 {
		var err error
		m, err = engine.MemAlloc(d.h, b)
		if errors.Is(err, ErrOutOfMemory) {
			d.cache.trim()
			m, err = engine.MemAlloc(d.h, b)
		}
		if err != nil {
			return 0, err
		}
		d.allocs.Add(1)
	}
	d.liveAllocs.Add(1)
	d.liveBytes.Add(b)
	return m, nil
}

// free gives memory from alloc back to the cache (or the device, past the cache's
// limit); the caller holds d.mu (either way).
func (d *Device) free(m uint64, bytes int64) {
	if m == 0 {
		return
	}
	b := d.bucketFor(bytes)
	d.liveAllocs.Add(-1)
	d.liveBytes.Add(-b)
	d.freeNow(d.cache.put(m, b))
}

// freeNow returns allocations to the device; the caller holds d.mu.
func (d *Device) freeNow(list []cachedAlloc) {
	for _, e := range list {
		engine.MemFree(d.h, e.m)
		d.frees.Add(1)
	}
}
