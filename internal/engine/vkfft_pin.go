package engine

// The VkFFT release the engine compiles and is tested against, and the Debian package its
// headers come from (see cvendor/). The headers live outside this package, where Go's
// build cache does not look: the pin is here, in the package that includes them, so that
// changing it rebuilds the engine.
const (
	// VkFFTVersion is the VkFFT version the headers must provide, as X.XX.XX.
	VkFFTVersion = 10304
	// VkFFTDebSHA256 pins libvkfft-dev_1.3.4+ds2-1_all.deb (cvendor/VERSION).
	VkFFTDebSHA256 = "6da7363e9461f8d19e6c8b7ece51c3b13d58a74849bb547a2a7b87b540fcaee7"
	// VkFFTPatches pins the fixes cvendor/fetch.sh applies to those headers (VKFFT_PATCHES
	// in cvendor/VERSION); headers without them (VKFFT_VKFFTGO_PATCHED undefined) work,
	// minus what the patches fix.
	VkFFTPatches = "vkfft-1.3.4-cross-power.patch:961164c54be6b8e66eef63e40ae53e2befb3e2d889215bd943646c163f9e21fe vkfft-1.3.4-conv3d-kernel-offset.patch:682e243a4214945d9974b3a13dbc8ee691a84c52610452dd07a19e8632f0be8d vkfft-1.3.4-container-leak.patch:a38355f51d2b068657737feea58d2cd373ea0152b7f4b12019441e31ef4eeeda vkfft-1.3.4-vulkan-nvidia-radix.patch:90f0c6a8636f4f5a02c44873296d5ce998ab3736aab5eaf5bccfe733fdc97ff2"
)

// HeaderIdent names the VkFFT headers compiled in, for the kernel cache: the pinned
// package, and the patches when they were applied.
func HeaderIdent() string {
	if VkFFTPatched() {
		return VkFFTDebSHA256 + "+" + VkFFTPatches
	}
	return VkFFTDebSHA256
}
