//go:build cgo && (cuda || vulkan)

package main

import (
	"fmt"
	"syscall"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// registered times one host round trip (Forward) between two areas of memory the
// program owns outside the Go heap (mmap), registered with the device
// (Device.RegisterHost): no staging copy, no HostBuffer. It prints the time beside the
// pinned HostBuffer's of the same run.
func registered[T vkfft.Complex](dev *vkfft.Device, p *vkfft.Plan[T], s shape, x, want []T, pinnedMs float64,
	timeIt func(func() error) float64) {
	n := p.Len()
	bytes := n * int(unsafe.Sizeof(x[0]))
	mem, err := syscall.Mmap(-1, 0, 2*bytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	check(err)
	defer syscall.Munmap(mem)
	reg, err := dev.RegisterHost(mem)
	check(err)
	defer reg.Close()
	in := unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n)
	out := unsafe.Slice((*T)(unsafe.Pointer(&mem[bytes])), n)
	copy(in, x)
	ms := timeIt(func() error { return p.Forward(out, in) })
	same(s.name+" registered", out, want)
	fmt.Printf("binding %-12s host round trip, registered mmap memory: %.2f ms (pinned HostBuffer %.2f ms, ratio %.3f)\n",
		s.name, ms, pinnedMs, ms/pinnedMs)
}
