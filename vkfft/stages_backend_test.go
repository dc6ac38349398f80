package vkfft

import "testing"

// skipWithoutStages skips a test of convolutions, spectrometers or companion kernels on
// the Vulkan backend, where they are ErrUnsupported (TestVulkanRefusesStages asserts the
// refusals): there is nothing else of them to run there.
func skipWithoutStages(t *testing.T) {
	t.Helper()
	if compiledBackend == Vulkan {
		t.Skip("convolutions, spectrometers and companion kernels are ErrUnsupported on Vulkan (TestVulkanRefusesStages)")
	}
}
