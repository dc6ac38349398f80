//go:build !asan && !goexperiment.cgocheck2

package vkfft

// sanitized: the test binary runs under AddressSanitizer or cgocheck2 (see sanitizer_on_test.go).
const sanitized = false
