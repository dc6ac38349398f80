//go:build asan || goexperiment.cgocheck2

package vkfft

// sanitized: the test binary runs under AddressSanitizer or cgocheck2, which make long
// tests several times slower; those that only repeat the plain run's work skip.
const sanitized = true
