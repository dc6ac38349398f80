package vkfft

// fusionOnThisBackend is the path a spectrometer asking for f takes in this build: f
// where VkFFT's kernels can be rewritten, the companion kernels on Vulkan (the rewriter
// knows VkFFT's CUDA C and OpenCL C, not its GLSL).
func fusionOnThisBackend(f Fusion) Fusion {
	if !fusedStagesAvailable() {
		return FusionCompanion
	}
	return f
}
