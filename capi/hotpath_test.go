package main

import (
	"testing"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// The C API's host hot path — handle lookup by address, then the typed vkfft call on
// slices viewed over the caller's memory — allocates nothing on the Go heap.
func TestHotPathAllocatesNothing(t *testing.T) {
	d, err := vkfft.Open(0)
	if err != nil {
		t.Skip("no device:", err)
	}
	defer d.Close()
	p, err := newCPlan(&cdev{d: d}, planDesc{cfg: vkfft.Config{Shape: []int{8, 16}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	buf := make([]complex64, 8*16)
	ptr := unsafe.Pointer(&buf[0])
	key := uintptr(0x1000)
	tables.mu.Lock()
	tables.plans[key] = p
	tables.mu.Unlock()
	defer func() { tables.mu.Lock(); delete(tables.plans, key); tables.mu.Unlock() }()
	run := func() {
		tables.mu.RLock()
		q := tables.plans[key]
		tables.mu.RUnlock()
		if err := q.host(false, ptr, ptr); err != nil {
			t.Fatal(err)
		}
		if err := q.host(true, ptr, ptr); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if raceEnabled {
		t.Skip("AllocsPerRun is meaningless under -race")
	}
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Fatalf("host forward+inverse allocates %v times per call", n)
	}
}
