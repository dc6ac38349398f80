//go:build cgo

package engine

/*
#include "vkg.h"
#include "vkg_fault.h"
#include "vkg_fuse.h"
*/
import "C"

// Each line fails to compile when the Go constant differs from its C value: an array of
// negative length, or of a length other than the zero its type demands.
var (
	_ [0]struct{} = [KindC2C - C.VKG_C2C]struct{}{}
	_ [0]struct{} = [KindR2C - C.VKG_R2C]struct{}{}
	_ [0]struct{} = [KindR2R - C.VKG_R2R]struct{}{}
	_ [0]struct{} = [ConvKernel - C.VKG_CONV_KERNEL]struct{}{}
	_ [0]struct{} = [ConvApply - C.VKG_CONV_APPLY]struct{}{}
	_ [0]struct{} = [NativeOpenCL - C.VKG_NATIVE_OPENCL]struct{}{}
	_ [0]struct{} = [NativeCUDA - C.VKG_NATIVE_CUDA]struct{}{}
	_ [0]struct{} = [HandleContext - C.VKG_HANDLE_CONTEXT]struct{}{}
	_ [0]struct{} = [HandleQueue - C.VKG_HANDLE_QUEUE]struct{}{}
	_ [0]struct{} = [HandleDevice - C.VKG_HANDLE_DEVICE]struct{}{}
	_ [0]struct{} = [HandleInstance - C.VKG_HANDLE_INSTANCE]struct{}{}
	_ [0]struct{} = [HandlePhysical - C.VKG_HANDLE_PHYSICAL]struct{}{}
	_ [0]struct{} = [HandleQueueFamily - C.VKG_HANDLE_QUEUE_FAMILY]struct{}{}
	_ [0]struct{} = [HandleOrdinal - C.VKG_HANDLE_ORDINAL]struct{}{}
	_ [0]struct{} = [StatLiveBuffers - C.VKG_STAT_LIVE_BUFFERS]struct{}{}
	_ [0]struct{} = [StatPinnedCopies - C.VKG_STAT_PINNED_COPIES]struct{}{}
	_ [0]struct{} = [StatShaderCopies - C.VKG_STAT_SHADER_COPIES]struct{}{}
	_ [0]struct{} = [StatPipelineCacheBytes - C.VKG_STAT_PIPELINE_CACHE_BYTES]struct{}{}
	_ [0]struct{} = [StorageHalf - C.VKG_STORAGE_HALF]struct{}{}
	_ [0]struct{} = [StorageFloatComputeDouble - C.VKG_STORAGE_FLOAT_COMPUTE_DOUBLE]struct{}{}
	_ [0]struct{} = [FaultDownload - C.VKG_FAULT_DOWNLOAD]struct{}{}
	_ [0]struct{} = [FaultCompileLog - C.VKG_FAULT_COMPILE_LOG]struct{}{}
	_ [0]struct{} = [FuseLoadRole - C.VKG_FUSE_LOAD]struct{}{}
	_ [0]struct{} = [FuseStoreRole - C.VKG_FUSE_STORE]struct{}{}
	_ [0]struct{} = [FuseGroupRole - C.VKG_FUSE_GROUP]struct{}{}
	_ [0]struct{} = [codeInvalid - C.VKG_ERR_INVALID]struct{}{}
	_ [0]struct{} = [codeNoDevice - C.VKG_ERR_NO_DEVICE]struct{}{}
	_ [0]struct{} = [codeOutOfMemory - C.VKG_ERR_OUT_OF_MEMORY]struct{}{}
	_ [0]struct{} = [codeUnsupported - C.VKG_ERR_UNSUPPORTED]struct{}{}
	_ [0]struct{} = [codeBackend - C.VKG_ERR_BACKEND]struct{}{}
	_ [0]struct{} = [codeVkFFT - C.VKG_ERR_VKFFT]struct{}{}
	_ [0]struct{} = [codeVersion - C.VKG_ERR_VERSION]struct{}{}
	_ [0]struct{} = [codeForked - C.VKG_ERR_FORKED]struct{}{}
)
