package vkfft

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// stageParams mirrors struct vkg_plan_stages (vkg.h): what a plan does besides a plain
// transform — separate input/output buffers with their own strides, zero padding,
// VkFFT's convolution stages and the fused load/store of vkg_core_fuse.h.
type stageParams struct {
	separateInput, separateOutput bool
	inputBuffer, outputBuffer     uint64 // bound at creation; not part of the plan's identity
	inputBytes, outputBytes       int64
	inputStride, outputStride     [4]uint64
	padLeft, padRight             [3]uint64
	conv                          int // convKernel, convApply
	conj, crossPower              bool
	features, matrix, kernels     int
	kernelBuffer                  uint64
	kernelBytes                   int64
	forwardOnly, offsetsAtLaunch  bool
	noReorder, returnToInput      bool
	sharedMemory                  int // bytes VkFFT plans kernels for; 0 = the device's
	fuseLoad, fuseStore           int // the load's SampleFormat, the store mode
	fuse                          fuseText
	fuseWindow, fuseOut           uint64
}

// convolution stages (VKG_CONV_*)
const (
	convKernel = 1
	convApply  = 2
)

// key renders everything that changes the kernels VkFFT generates (buffer handles do
// not): one line of the kernel cache's key.
func (s *stageParams) key() string {
	k := *s
	k.inputBuffer, k.outputBuffer, k.kernelBuffer, k.fuseWindow, k.fuseOut = 0, 0, 0, 0, 0
	text := sha256.Sum256([]byte(k.fuse.prelude + "\x00" + k.fuse.inputDecl + "\x00" + k.fuse.extraParams))
	k.fuse = fuseText{prelude: hex.EncodeToString(text[:8])}
	return fmt.Sprintf("%+v", k)
}

// roles of the rewriter (VKG_FUSE_LOAD, VKG_FUSE_STORE)
const (
	fuseLoadRole  = 1
	fuseStoreRole = 2
)

// headerIdent names the VkFFT headers compiled in for the kernel cache: the pinned
// package, and the patches when they were applied.
func headerIdent() string {
	if vkfftPatched() {
		return vkfftDebSHA256 + "+" + vkfftPatches
	}
	return vkfftDebSHA256
}
