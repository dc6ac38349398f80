//go:build cgo

package engine

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

// glibc's struct mallinfo2 (2.33+), looked up at run time so that other C libraries link
struct vkg_mallinfo2 {
	size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost;
};

// The C heap's bytes in use: AddressSanitizer's count under -asan (exact: no allocator
// caches), else glibc's, where chunks held in per-thread caches count as in use.
static int vkg_heap_in_use(unsigned long long *bytes)
{
	size_t (*asan)(void) = (size_t (*)(void))dlsym(RTLD_DEFAULT, "__sanitizer_get_current_allocated_bytes");
	struct vkg_mallinfo2 (*mi2)(void) = (struct vkg_mallinfo2 (*)(void))dlsym(RTLD_DEFAULT, "mallinfo2");
	if (asan) {
		*bytes = asan();
		return 1;
	}
	if (mi2) {
		struct vkg_mallinfo2 m = mi2();
		*bytes = m.uordblks + m.hblkhd;
		return 1;
	}
	return 0;
}

static void vkg_heap_trim(void)
{
	int (*trim)(size_t) = (int (*)(size_t))dlsym(RTLD_DEFAULT, "malloc_trim");
	if (trim)
		trim(0);
}
*/
import "C"

// Leak tests tell a leak (growth per plan that goes on) from allocator caching (growth that
// stops) by the C heap's bytes in use and by the RSS after the allocator gave back what it
// could.

// HostHeapInUse returns the bytes the C heap has handed out and not taken back; ok is false
// where the C library reports neither count (not glibc, no sanitizer).
func HostHeapInUse() (bytes int64, ok bool) {
	var n C.ulonglong
	if C.vkg_heap_in_use(&n) == 0 {
		return 0, false
	}
	return int64(n), true
}

// HostHeapTrim returns the C heap's free memory to the system (glibc's malloc_trim).
func HostHeapTrim() { C.vkg_heap_trim() }
