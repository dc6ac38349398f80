package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

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
