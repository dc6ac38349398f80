//go:build vulkan

package vkfft

// The vulkan backend is planned (DESIGN.md) but not written yet.
var _ = vkfft_build_tag_vulkan_is_not_implemented_yet_use_opencl_or_cuda
