package main

import (
	"fmt"
	"math"
	"time"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

// The memory floor of a transform: each of its passes (vkfft's Plan.Passes) reads and
// writes the whole buffer once, so it cannot take less than passes × 2 × bytes at the
// rate device memory moves data, measured once per run as a device-to-device copy of a
// large buffer (which reads and writes its bytes too). bench and tune print each shape's
// time as a percentage of that floor: 100 % is at the memory limit.

// defaultCopyBytes is the buffer the copy rate is measured on: far larger than any cache.
const defaultCopyBytes = 256 << 20

// measureCopyRate times device-to-device copies of a buffer of bytes bytes on dev for at
// least minTime (and 3 copies) after a warm-up, and returns the bytes moved (read and
// written) per second. It waits for the device every 16 copies only: a wait costs tens of
// microseconds under Vulkan, a tenth of a 256 MiB copy's time.
func measureCopyRate(dev *vkfft.Device, bytes int64, minTime time.Duration) (float64, error) {
	const elem = 8 // complex64
	if bytes < elem {
		return 0, fmt.Errorf("copy rate: %d bytes is not a buffer", bytes)
	}
	n := int(bytes / elem)
	src, err := vkfft.NewBuffer[complex64](dev, n)
	if err != nil {
		return 0, fmt.Errorf("copy rate: %w", err)
	}
	defer src.Close()
	dst, err := vkfft.NewBuffer[complex64](dev, n)
	if err != nil {
		return 0, fmt.Errorf("copy rate: %w", err)
	}
	defer dst.Close()
	if err := dst.CopyFrom(src); err != nil { // warm-up
		return 0, fmt.Errorf("copy rate: %w", err)
	}
	if err := dev.Sync(); err != nil {
		return 0, fmt.Errorf("copy rate: %w", err)
	}
	start := time.Now()
	copies := 0
	for copies < 3 || time.Since(start) < minTime {
		if err := dst.CopyFrom(src); err != nil {
			return 0, fmt.Errorf("copy rate: %w", err)
		}
		if copies++; copies%16 == 0 {
			if err := dev.Sync(); err != nil {
				return 0, fmt.Errorf("copy rate: %w", err)
			}
		}
	}
	if err := dev.Sync(); err != nil {
		return 0, fmt.Errorf("copy rate: %w", err)
	}
	return 2 * float64(int64(n)*elem) * float64(copies) / time.Since(start).Seconds(), nil
}

// floorTime is the least time passes passes over bytes bytes take at rate bytes per
// second (each reads and writes them); 0 when the rate is not known.
func floorTime(passes int, bytes int64, rate float64) time.Duration {
	if rate <= 0 || passes <= 0 {
		return 0
	}
	return time.Duration(float64(passes) * 2 * float64(bytes) / rate * float64(time.Second))
}

// floorPercent is floor as a percentage of the time measured (100: at the memory
// limit); NaN when either is unknown.
func floorPercent(floor, measured time.Duration) float64 {
	if floor <= 0 || measured <= 0 {
		return math.NaN()
	}
	return 100 * float64(floor) / float64(measured)
}

// fmtPercent writes a floorPercent for the tables as one word, "87.3%" or "-" (scripts
// read bench's columns by position from the end: tests/gpu/steps/prior.sh).
func fmtPercent(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// fmtRate writes a copy rate in GB/s.
func fmtRate(rate float64) string { return fmt.Sprintf("%.1f GB/s", rate/1e9) }

// copyRateLine measures the run's copy rate (bytes 0: not at all) and says what it is on
// stdout; the rate is 0 when it could not be measured, and the floors show "-".
func copyRateLine(dev *vkfft.Device, bytes int64) float64 {
	if bytes <= 0 {
		fmt.Println("memory floor: off (-copy-bytes 0)")
		return 0
	}
	progress("copy rate: device-to-device copies of %d MiB", bytes>>20)
	rate, err := measureCopyRate(dev, bytes, 200*time.Millisecond)
	if err != nil {
		fmt.Printf("memory floor: not measured (%v)\n", err)
		return 0
	}
	fmt.Printf("device copy rate %s (device-to-device, %d MiB read and written): the memory floor of a shape is its passes × 2 × its bytes at this rate\n",
		fmtRate(rate), bytes>>20)
	return rate
}

// measureUploadRate times uploads of bytes bytes from pinned host memory (a HostBuffer)
// into a device buffer for at least minTime (and 3 uploads) after a warm-up: the rate of
// the host-to-device DMA, the ceiling of any transfer from host memory.
func measureUploadRate(dev *vkfft.Device, bytes int64, minTime time.Duration) (float64, error) {
	if bytes < 1 {
		return 0, fmt.Errorf("upload rate: %d bytes is not a buffer", bytes)
	}
	host, err := vkfft.NewHostBuffer[uint8](dev, int(bytes))
	if err != nil {
		return 0, fmt.Errorf("upload rate: %w", err)
	}
	defer host.Close()
	buf, err := vkfft.NewBuffer[uint8](dev, int(bytes))
	if err != nil {
		return 0, fmt.Errorf("upload rate: %w", err)
	}
	defer buf.Close()
	src := host.Slice()
	if err := buf.Upload(src); err != nil { // warm-up
		return 0, fmt.Errorf("upload rate: %w", err)
	}
	start := time.Now()
	uploads := 0
	for uploads < 3 || time.Since(start) < minTime {
		if err := buf.Upload(src); err != nil {
			return 0, fmt.Errorf("upload rate: %w", err)
		}
		uploads++
	}
	return float64(bytes) * float64(uploads) / time.Since(start).Seconds(), nil
}
