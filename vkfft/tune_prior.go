package vkfft

// Launch parameters to start from when nothing is stored. VkFFT's defaults for NVIDIA
// read 32 bytes per coalesced access; on the H200 that leaves multi-dimensional
// transforms well short of what the tuner finds, and under Vulkan (48 KiB of shared
// memory per block) by up to 2×. The tuner's H200 runs (tests/gpu/RESULTS.md, "C ABI /
// API run, tuner re-run") picked 128-byte coalescing with 64 threads, or measured it
// within noise of the winner, on every multi-dimensional shape:
//
//	              256³    512³    4096²   256³ c128  243³
//	CUDA          0.928   0.697   1.030   0.999      0.846   (× VkFFT's defaults)
//	Vulkan        0.637   0.695   0.528   0.903      –
//
// and 1.000 on batched 1-D shapes. So a plan in TuneCached mode with no stored tuning
// starts from that prior where it was measured to help: three or more transformed axes
// on CUDA (2-D got 3 % slower there), two or more under Vulkan. A stored or measured
// tuning replaces it, TuneOff keeps VkFFT's defaults, and the tuner's "defaults" column
// stays VkFFT's own.

// nvidiaVendorID is the PCI vendor ID of NVIDIA.
const nvidiaVendorID = 0x10DE

// priorTuning returns the tuning a plan of l starts from on the device of info when
// nothing is stored, or false to keep VkFFT's defaults.
func priorTuning(info *DeviceInfo, l *layout) (Tuning, bool) {
	if info.VendorID != nvidiaVendorID || info.HostMemory {
		return Tuning{}, false
	}
	minAxes := 0
	switch info.Backend {
	case CUDA:
		minAxes = 3
	case Vulkan:
		minAxes = 2
	default:
		return Tuning{}, false // OpenCL on NVIDIA: not measured
	}
	if l.kind != kindC2C || transformedAxes(l) < minAxes {
		return Tuning{}, false // R2C: not measured
	}
	return Tuning{CoalescedMemory: 128, AimThreads: 64}, true
}

// transformedAxes counts the axes of l that are transformed and longer than 1.
func transformedAxes(l *layout) int {
	n := 0
	for i, size := range l.cfg.Shape {
		if i < maxRank && l.sel[i] && size > 1 {
			n++
		}
	}
	return n
}
