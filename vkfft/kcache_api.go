package vkfft

// KernelCacheControl configures and inspects the process's persistent kernel cache:
// VkFFT's compiled kernels saved on disk, keyed by VkFFT version, backend, device,
// driver and plan, so that a later process builds the same plan in milliseconds instead
// of compiling it. There is one cache per process; get it with KernelCache. Settings made
// here override the environment (VKFFTGO_CACHE_DIR, VKFFTGO_CACHE_MAX_BYTES), which
// gives the defaults, and apply to plans created afterwards. All methods are safe for
// concurrent use.
type KernelCacheControl struct{ _ [0]func() }

var kernelCache KernelCacheControl

// KernelCache returns the process's kernel-cache control.
func KernelCache() *KernelCacheControl { return &kernelCache }

// SetDir sets the cache directory: "off" disables the disk cache, "" goes back to
// VKFFTGO_CACHE_DIR and the default (os.UserCacheDir()/vkfftgo).
func (*KernelCacheControl) SetDir(dir string) { SetKernelCacheDir(dir) }

// Dir returns the directory plans use now, and false when the disk cache is off.
func (*KernelCacheControl) Dir() (string, bool) { return KernelCacheDir() }

// SetMaxBytes caps the directory's size (least recently used entries go first); 0 goes
// back to VKFFTGO_CACHE_MAX_BYTES and the default (DefaultKernelCacheMaxBytes).
func (*KernelCacheControl) SetMaxBytes(n int64) { SetKernelCacheMaxBytes(n) }

// MaxBytes returns the cap in force.
func (*KernelCacheControl) MaxBytes() int64 { return KernelCacheMaxBytes() }

// Stats returns what the cache did in this process (hits, misses, rejected entries...).
func (*KernelCacheControl) Stats() KernelCacheStats { return ReadKernelCacheStats() }

// Info summarises the directory and lists its entries (a missing directory is empty).
func (*KernelCacheControl) Info() (KernelCacheInfo, []KernelCacheEntry, error) {
	return ReadKernelCacheInfo()
}

// Clear removes every entry from the directory, kernels kept by their source included,
// and returns how many plan entries (Info's Entries) it removed.
func (*KernelCacheControl) Clear() (int, error) { return ClearKernelCache() }
