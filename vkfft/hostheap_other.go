//go:build !cgo || !linux

package vkfft

// hostHeapInUse: no C heap count outside glibc/Linux (see hostheap_cgo.go).
func hostHeapInUse() (bytes int64, ok bool) { return 0, false }

// hostHeapTrim: nothing to trim here.
func hostHeapTrim() {}
