//go:build !cgo && vulkan && (opencl || cuda)

package vkfft

// Exactly one backend per build, also without cgo: this undefined name is the error.
var _ = vkfft_build_tags_vulkan_and_opencl_or_cuda_both_given_choose_one_backend
