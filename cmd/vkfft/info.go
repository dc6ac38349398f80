package main

import (
	"fmt"

	"github.com/vkfftgo/vkfftgo/vkfft"
)

func init() {
	commands["info"] = command{"list the devices of this build's backend", runInfo}
}

func runInfo([]string) error {
	devs, err := vkfft.Devices()
	if err != nil {
		return err
	}
	fmt.Printf("backend %s, VkFFT %s, %d device(s)\n", vkfft.CurrentBackend(), vkfft.VersionString(), len(devs))
	for _, d := range devs {
		fp64 := "no"
		if d.DoublePrecision {
			fp64 = "yes"
		}
		fmt.Printf("  [%d] %s (%s)\n      platform %s, driver %s, memory %.1f GiB, largest buffer %.1f GiB, fp64 %s",
			d.Index, d.Name, d.Vendor, d.Platform, d.Driver, gib(d.GlobalMemory), gib(d.MaxAllocation), fp64)
		if d.ComputeMajor > 0 {
			fmt.Printf(", compute %d.%d", d.ComputeMajor, d.ComputeMinor)
		}
		fmt.Println()
	}
	if libs := cudaLibraries(); libs != "" && len(devs) > 0 {
		fmt.Println("  " + libs)
	}
	return nil
}

func gib(b uint64) float64 { return float64(b) / (1 << 30) }
