package vkfft

import "testing"

// skipWithoutStages skips a test of spectrometers, fused stages or companion kernels
// (linear convolution's padding) on the Vulkan backend, where they are ErrUnsupported
// (TestVulkanRefusesStages asserts the refusals): there is nothing else of them to run there.
func skipWithoutStages(t *testing.T) {
	t.Helper()
	if compiledBackend == Vulkan {
		t.Skip("spectrometers, fused stages and companion kernels are ErrUnsupported on Vulkan (TestVulkanRefusesStages)")
	}
}
