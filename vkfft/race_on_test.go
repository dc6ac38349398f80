//go:build race

package vkfft

const raceEnabled = true
