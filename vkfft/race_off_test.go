//go:build !race

package vkfft

const raceEnabled = false
