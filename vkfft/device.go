package vkfft

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// DeviceInfo describes a device as Devices lists it.
type DeviceInfo struct {
	Index           int     // the ordinal to pass to Open
	Name            string  // e.g. "NVIDIA H200", "pthread-Intel(R) Xeon(R) ..."
	Vendor          string  // e.g. "NVIDIA Corporation"
	Driver          string  // driver version
	Platform        string  // OpenCL platform name, or "CUDA"
	Backend         Backend // the GPU API of this build
	GlobalMemory    uint64  // bytes
	MaxAllocation   uint64  // largest single buffer, bytes
	VendorID        uint32  // PCI vendor (0x10DE NVIDIA) where the API reports it
	ComputeMajor    int     // CUDA compute capability; 0 elsewhere
	ComputeMinor    int
	DoublePrecision bool // complex128/float64 plans can run
	HalfPrecision   bool // StorageHalf plans can run (OpenCL: cl_khr_fp16)
	HostMemory      bool // the device computes in host memory (a CPU): no transfers to speed up
}

// Devices lists the devices of this build's backend, across all platforms, in the
// order Open numbers them.
func Devices() ([]DeviceInfo, error) {
	n, err := engine.DeviceCount()
	if err != nil {
		return nil, opError("devices", err)
	}
	out := make([]DeviceInfo, 0, n)
	for i := 0; i < n; i++ {
		props, err := engine.DeviceQuery(i)
		if err != nil {
			return nil, opError("devices", err)
		}
		out = append(out, deviceInfo(i, props))
	}
	return out, nil
}

// MemStats counts the device memory a Device's plans and buffers hold through this
// package (VkFFT's own small tables are not included). Live figures are what plans and
// buffers use now; Allocations and Frees count the calls to the GPU API, which the
// allocation cache (AllocCache) avoids on the steady state.
type MemStats struct {
	LiveAllocations int64 // allocations held by open plans and buffers
	LiveBytes       int64 // their size (rounded up to the cache's size buckets)
	CachedBytes     int64 // released, kept allocated by the AllocCache for reuse
	Allocations     int64 // device allocations made since Open
	Frees           int64 // device allocations freed since Open
}

// Device is an open GPU: one context and one in-order queue (stream), created by Open
// and released by Close. Plans and buffers made on it share them.
type Device struct {
	// mu is held shared by anything that uses h, and exclusively by Close. Lock order:
	// Device.mu, then a plan's mutex, then a buffer's.
	mu        sync.RWMutex
	h         engine.Device // nil once closed
	info      DeviceInfo
	props     engine.DeviceInfo // what the backend reports, companion-kernel limits included
	resMu     sync.Mutex
	resources map[resource]struct{}
	cache     AllocCache

	// host transfers: pinned staging slots and copy threads, pinned ranges, streams
	stageMin  atomic.Int64 // staging threshold in bytes; negative: off
	staging   staging
	pinned    pinnedSet
	streamsMu sync.Mutex
	streams   map[*Stream]struct{}

	syncMu sync.Mutex
	syncSt engine.Status // Sync's error report, C memory

	liveAllocs, liveBytes, allocs, frees atomic.Int64

	pcache atomic.Pointer[PlanCache] // the in-memory plan cache (cache.go), made on first use

	herm hermKernels // the C2R projection kernels of its multi-axis real plans (herm.go)
}

// resource is something a Device frees when it closes: a plan or a buffer. release is
// called with Device.mu held and takes the resource's own lock.
type resource interface{ release() }

// Open opens device ordinal (an index into Devices).
func Open(ordinal int) (*Device, error) {
	if ordinal < 0 {
		return nil, opError("open", fmt.Errorf("%w: device %d", ErrNoDevice, ordinal))
	}
	h, props, err := engine.DeviceOpen(ordinal)
	if err != nil {
		return nil, opError("open", err)
	}
	return newDevice(h, ordinal, props), nil
}

// deviceInfo is the public description of device index.
func deviceInfo(index int, p engine.DeviceInfo) DeviceInfo {
	return DeviceInfo{
		Index:           index,
		Name:            p.Name,
		Vendor:          p.Vendor,
		Driver:          p.Driver,
		Platform:        p.Platform,
		Backend:         compiledBackend,
		GlobalMemory:    p.GlobalMemory,
		MaxAllocation:   p.MaxAllocation,
		VendorID:        p.VendorID,
		ComputeMajor:    p.ComputeMajor,
		ComputeMinor:    p.ComputeMinor,
		DoublePrecision: p.DoublePrecision,
		HalfPrecision:   p.HalfPrecision,
		HostMemory:      p.HostMemory,
	}
}

// newDevice wraps an opened handle; every way of opening a device goes through it.
func newDevice(h engine.Device, index int, props engine.DeviceInfo) *Device {
	info := deviceInfo(index, props)
	d := &Device{h: h, info: info, props: props, resources: make(map[resource]struct{}),
		streams: make(map[*Stream]struct{})}
	d.stageMin.Store(DefaultStagingThreshold)
	if info.HostMemory {
		d.stageMin.Store(-1) // a CPU device reads host memory directly: staging only adds a copy
	}
	d.syncSt = engine.NewStatus()
	d.cache.dev = d
	d.cache.limit = defaultAllocCacheLimit(info.GlobalMemory)
	return d
}

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// Close frees every plan and buffer still open on the device, then the context and
// queue. It is idempotent; afterwards every call on the device or its plans and
// buffers returns an error wrapping ErrClosed.
func (d *Device) Close() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.h == nil {
		return nil
	}
	d.resMu.Lock()
	rs := d.resources
	d.resources = nil
	d.resMu.Unlock()
	for r := range rs {
		r.release()
	}
	d.closeHermitian()
	d.closeStaging()
	d.cache.trim()
	engine.DeviceClose(d.h)
	engine.FreeStatus(d.syncSt)
	d.h = nil
	return nil
}

// Sync waits until the work queued on the device's own queue (transforms on host
// slices and buffers, buffer copies) has finished; Stream.Wait waits for a stream.
func (d *Device) Sync() error {
	h, err := d.use("sync")
	if err != nil {
		return err
	}
	defer d.mu.RUnlock()
	d.syncMu.Lock()
	defer d.syncMu.Unlock()
	if err := engine.DeviceSyncWith(h, d.syncSt); err != nil {
		return opError("sync", err)
	}
	return nil
}

// MemStats reports the device memory held by the device's plans and buffers.
func (d *Device) MemStats() MemStats {
	d.cache.mu.Lock()
	cached := d.cache.held
	d.cache.mu.Unlock()
	return MemStats{
		LiveAllocations: d.liveAllocs.Load(),
		LiveBytes:       d.liveBytes.Load(),
		CachedBytes:     cached,
		Allocations:     d.allocs.Load(),
		Frees:           d.frees.Load(),
	}
}

// use takes the device's shared lock and returns its handle; the caller must
// d.mu.RUnlock() when it has no error.
func (d *Device) use(op string) (engine.Device, error) {
	if d == nil {
		return nil, opError(op, fmt.Errorf("%w: nil device", ErrInvalidArgument))
	}
	if engine.Forked() {
		// what the device holds belongs to the parent: nothing may be handed out, not even
		// from the caches, which make no call the engine could refuse
		return nil, opError(op, engine.ForkedError())
	}
	d.mu.RLock()
	if d.h == nil {
		d.mu.RUnlock()
		return nil, closedError(op, "device")
	}
	return d.h, nil
}

// track registers r to be released by Close; the caller holds d.mu shared.
func (d *Device) track(r resource) {
	d.resMu.Lock()
	d.resources[r] = struct{}{}
	d.resMu.Unlock()
}

// closeResource closes r on behalf of its owner's Close: a no-op once the device has
// closed (which released r already).
func (d *Device) closeResource(r resource) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.h == nil {
		return
	}
	r.release()
	d.resMu.Lock()
	delete(d.resources, r)
	d.resMu.Unlock()
}

// MemInfo reports the device's free and total memory as the driver sees it (CUDA:
// cuMemGetInfo, so other processes' and VkFFT's own allocations count too). OpenCL has no
// such query: there it returns the total and an error wrapping ErrUnsupported.
func (d *Device) MemInfo() (free, total uint64, err error) {
	h, err := d.use("memory info")
	if err != nil {
		return 0, 0, err
	}
	defer d.mu.RUnlock()
	free, total, err = engine.DeviceMemInfo(h)
	if err != nil {
		return free, total, opError("memory info", err)
	}
	return free, total, nil
}

// FreeMemory is MemInfo's free figure: the device memory the driver reports free (CUDA),
// or an error wrapping ErrUnsupported (OpenCL).
//
// Deprecated: use MemInfo, which reports the total too. FreeMemory will be removed in
// the release after v1.
func (d *Device) FreeMemory() (uint64, error) {
	free, _, err := d.MemInfo()
	return free, err
}
