package vkfft

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// moduleCreateCached builds a module of companion kernels, from the disk kernel cache
// when it holds a verified entry for this source on this device (as plans do).
func moduleCreateCached(h engine.Device, info *DeviceInfo, source string) (engine.Module, error) {
	dir, on := KernelCacheDir()
	if !on {
		m, _, err := engine.ModuleBuild(h, source, nil)
		return m, err
	}
	id := identFor(info)
	key := moduleKey(&id, source)
	maxBytes := KernelCacheMaxBytes()
	payload, path := kcacheLookup(dir, key, maxBytes)
	if payload != nil {
		m, _, err := engine.ModuleBuild(h, source, payload)
		if err == nil {
			kcacheStats.hits.Add(1)
			return m, nil
		}
		kcacheProblem(&kcacheStats.rejected, fmt.Errorf("%s: %w: refused on load: %v", path, errBadEntry, err))
	}
	kcacheStats.misses.Add(1)
	m, bin, err := engine.ModuleBuild(h, source, nil)
	if err != nil {
		return nil, err
	}
	kcacheStore(dir, path, key, bin, maxBytes)
	return m, nil
}
