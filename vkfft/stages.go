package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

// headerIdent names the VkFFT headers compiled in for the kernel cache: the pinned
// package, and the patches when they were applied.
func headerIdent() string {
	if engine.VkFFTPatched() {
		return vkfftDebSHA256 + "+" + vkfftPatches
	}
	return vkfftDebSHA256
}
