// Package api holds the checked-in lists of vkfftgo's public surface and the tests that
// compare the code against them, in the style of Go's own api/ check:
//
//   - v1.txt: every exported name of package vkfft (default build), one a line;
//   - vkfftgo.sym: every symbol libvkfftgo.so exports (tests/capi/run.sh compares nm -D).
//
// A change to the public API makes the test fail until the list is regenerated with
// `make api`, so additions are deliberate and removals are visible in review.
// docs/api-stability.md says what v1 promises and which names are deprecated.
package api
