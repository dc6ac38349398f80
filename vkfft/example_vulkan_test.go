//go:build cgo && vulkan

package vkfft_test

import (
	"fmt"
	"log"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// A vulkan build exposes the device's Vulkan objects, for programs that record or submit
// Vulkan work of their own on the same VkDevice (and pass their VkBuffers to
// Plan.ForwardNative).
func ExampleDevice_VulkanHandles() {
	dev, err := vkfft.Open(0)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	h := dev.VulkanHandles()
	fmt.Println(vkfft.CurrentBackend(), h.Device != 0, h.Queue == dev.NativeQueue())
	// Output: vulkan true true
}
