package vkfft

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// moduleKey is the kernel-cache key of a module of companion kernels: the same build
// and device lines as a plan's key, then the source's hash.
func moduleKey(id *kcacheIdent, source string) []byte {
	key := kcacheKey(id, &planParams{})
	sum := sha256.Sum256([]byte(source))
	return append(key, "module="+hex.EncodeToString(sum[:])+"\n"...)
}

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

// companionFloatAtomics reports whether companion kernels on d can add floats
// atomically in device memory: always on CUDA and OpenCL (a compare-and-swap loop
// there), a device feature on Vulkan (VK_EXT_shader_atomic_float).
func companionFloatAtomics(d *Device) bool { return d.props.FloatAtomics }

// fusedStagesAvailable reports whether this build can rewrite VkFFT's kernels for the
// spectrometer's fused paths: the rewriter knows VkFFT's CUDA C and OpenCL C, not its
// GLSL, so on Vulkan every spectrometer takes the companion path.
func fusedStagesAvailable() bool { return compiledBackend != Vulkan }

// companionMaxBinding is the largest buffer, in bytes, a companion kernel on d can bind
// (Vulkan's maxStorageBufferRange); unlimited elsewhere.
var companionMaxBinding = func(d *Device) int64 {
	if d.props.MaxBinding == 0 {
		return math.MaxInt64
	}
	return int64(d.props.MaxBinding)
}
