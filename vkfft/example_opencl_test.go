//go:build cgo && !cuda && !vulkan

package vkfft_test

import (
	"fmt"
	"log"

	"github.com/vkfftgo/vkfftgo/vkfft"
	"github.com/vkfftgo/vkfftgo/vkfft/internal/cltest"
)

// An OpenCL host (here cltest, playing pyopencl or ITK) opens vkfftgo on its own
// context and queue: the device retains both while open and releases them on Close.
func ExampleOpenCLContext() {
	host, err := cltest.Create(false) // your cl_context, cl_device_id, cl_command_queue
	if err != nil {
		log.Fatal(err)
	}
	defer host.Release()
	dev, err := vkfft.OpenCLContext(host.Context, host.Device, host.Queue)
	if err != nil {
		log.Fatal(err)
	}
	p, err := vkfft.NewPlan[complex64](dev, vkfft.Config{Shape: []int{4}})
	if err != nil {
		log.Fatal(err)
	}
	y := make([]complex64, 4)
	if err := p.Forward(y, []complex64{1, 1, 1, 1}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(y[0], dev.NativeQueue() == host.Queue)
	dev.Close()                       // releases its references; the queue is still the host's
	fmt.Println(host.Finish() == nil) // the host's queue still works
	// Output:
	// (4+0i) true
	// true
}
