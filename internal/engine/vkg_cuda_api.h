/* vkg_cuda_api.h — the CUDA driver and NVRTC functions the cuda build calls: VkFFT (in
 * the engine's vkg_core.c) and the cuda backend alike. They are called through a table of
 * pointers that the backend fills with dlsym (internal/backend/cuda/vkg_cuda_load.c),
 * so that no binary links libcuda or libnvrtc: the driver's libcuda.so.1 and the newest
 * NVRTC found are opened at run time, and one binary runs where only CUDA 12 or only
 * CUDA 13 is installed. The CUDA runtime (cudart) is linked statically and opens the
 * driver by itself. The engine reaches the table through the device (vkg_native.api).
 *
 * Define VKG_CUDA_API as the table (an lvalue of type vkg_cuda_api) and include this
 * after every CUDA header (cuda.h, cuda_runtime.h, nvrtc.h, ...) and before the code
 * that calls these functions (vkFFT.h included): from here on each name below stands for
 * its pointer in the table. The pointers take their types from the headers' own
 * declarations, and their dlsym names from the headers' versioned names (cuMemAlloc is
 * cuMemAlloc_v2), so the same code builds against CUDA 12 and 13 headers. A function
 * called by VkFFT or by the backend that is missing from the lists fails to compile.
 */
#ifndef VKG_CUDA_API_H
#define VKG_CUDA_API_H

#include <cuda.h>
#include <nvrtc.h>

#include <stddef.h>

#define VKG_CUDA_DRIVER_FUNCS(X)                                                                   \
	X(cuInit)                                                                                  \
	X(cuDriverGetVersion)                                                                      \
	X(cuGetErrorName)                                                                          \
	X(cuGetErrorString)                                                                        \
	X(cuDeviceGet)                                                                             \
	X(cuDeviceGetCount)                                                                        \
	X(cuDeviceGetName)                                                                         \
	X(cuDeviceGetAttribute)                                                                    \
	X(cuDeviceTotalMem)                                                                        \
	X(cuDevicePrimaryCtxRetain)                                                                \
	X(cuDevicePrimaryCtxRelease)                                                               \
	X(cuCtxPushCurrent)                                                                        \
	X(cuCtxPopCurrent)                                                                         \
	X(cuCtxGetDevice)                                                                          \
	X(cuCtxSynchronize)                                                                        \
	X(cuMemAlloc)                                                                              \
	X(cuMemFree)                                                                               \
	X(cuMemGetInfo)                                                                            \
	X(cuMemHostAlloc)                                                                          \
	X(cuMemFreeHost)                                                                           \
	X(cuMemHostRegister)                                                                       \
	X(cuMemHostUnregister)                                                                     \
	X(cuMemcpyHtoDAsync)                                                                       \
	X(cuMemcpyDtoHAsync)                                                                       \
	X(cuMemcpyDtoDAsync)                                                                       \
	X(cuStreamCreate)                                                                          \
	X(cuStreamDestroy)                                                                         \
	X(cuStreamSynchronize)                                                                     \
	X(cuStreamWaitEvent)                                                                       \
	X(cuEventCreate)                                                                           \
	X(cuEventDestroy)                                                                          \
	X(cuEventRecord)                                                                           \
	X(cuEventSynchronize)                                                                      \
	X(cuModuleLoadData)                                                                        \
	X(cuModuleLoadDataEx)                                                                      \
	X(cuModuleUnload)                                                                          \
	X(cuModuleGetFunction)                                                                     \
	X(cuModuleGetGlobal)                                                                       \
	X(cuFuncSetAttribute)                                                                      \
	X(cuLaunchKernel)                                                                          \
	X(cuMemcpyHtoD)

#define VKG_NVRTC_FUNCS(X)                                                                         \
	X(nvrtcVersion)                                                                            \
	X(nvrtcGetErrorString)                                                                     \
	X(nvrtcCreateProgram)                                                                      \
	X(nvrtcCompileProgram)                                                                     \
	X(nvrtcDestroyProgram)                                                                     \
	X(nvrtcGetProgramLog)                                                                      \
	X(nvrtcGetProgramLogSize)                                                                  \
	X(nvrtcGetCUBIN)                                                                           \
	X(nvrtcGetCUBINSize)                                                                       \
	X(nvrtcGetPTX)                                                                             \
	X(nvrtcGetPTXSize)                                                                         \
	X(nvrtcAddNameExpression)                                                                  \
	X(nvrtcGetLoweredName)

#define VKG_DL_FIELD(f) __typeof__(f) *dl_##f;
typedef struct vkg_cuda_api {
	VKG_CUDA_DRIVER_FUNCS(VKG_DL_FIELD)
	VKG_NVRTC_FUNCS(VKG_DL_FIELD)
	/* The toolkit folder whose include/cuda_fp16.h VkFFT's fp16 kernels include (found
	 * at run time); VkFFT's default is "" (a file at /include/). */
	const char *(*toolkit_root)(void);
} vkg_cuda_api;
#undef VKG_DL_FIELD

#ifdef VKG_CUDA_API
#undef CUDA_TOOLKIT_ROOT_DIR
#define CUDA_TOOLKIT_ROOT_DIR VKG_CUDA_API.toolkit_root()
/* every call below goes through its pointer */
#undef cuInit
#define cuInit (*VKG_CUDA_API.dl_cuInit)
#undef cuDriverGetVersion
#define cuDriverGetVersion (*VKG_CUDA_API.dl_cuDriverGetVersion)
#undef cuGetErrorName
#define cuGetErrorName (*VKG_CUDA_API.dl_cuGetErrorName)
#undef cuGetErrorString
#define cuGetErrorString (*VKG_CUDA_API.dl_cuGetErrorString)
#undef cuDeviceGet
#define cuDeviceGet (*VKG_CUDA_API.dl_cuDeviceGet)
#undef cuDeviceGetCount
#define cuDeviceGetCount (*VKG_CUDA_API.dl_cuDeviceGetCount)
#undef cuDeviceGetName
#define cuDeviceGetName (*VKG_CUDA_API.dl_cuDeviceGetName)
#undef cuDeviceGetAttribute
#define cuDeviceGetAttribute (*VKG_CUDA_API.dl_cuDeviceGetAttribute)
#undef cuDeviceTotalMem
#define cuDeviceTotalMem (*VKG_CUDA_API.dl_cuDeviceTotalMem)
#undef cuDevicePrimaryCtxRetain
#define cuDevicePrimaryCtxRetain (*VKG_CUDA_API.dl_cuDevicePrimaryCtxRetain)
#undef cuDevicePrimaryCtxRelease
#define cuDevicePrimaryCtxRelease (*VKG_CUDA_API.dl_cuDevicePrimaryCtxRelease)
#undef cuCtxPushCurrent
#define cuCtxPushCurrent (*VKG_CUDA_API.dl_cuCtxPushCurrent)
#undef cuCtxPopCurrent
#define cuCtxPopCurrent (*VKG_CUDA_API.dl_cuCtxPopCurrent)
#undef cuCtxGetDevice
#define cuCtxGetDevice (*VKG_CUDA_API.dl_cuCtxGetDevice)
#undef cuCtxSynchronize
#define cuCtxSynchronize (*VKG_CUDA_API.dl_cuCtxSynchronize)
#undef cuMemAlloc
#define cuMemAlloc (*VKG_CUDA_API.dl_cuMemAlloc)
#undef cuMemFree
#define cuMemFree (*VKG_CUDA_API.dl_cuMemFree)
#undef cuMemGetInfo
#define cuMemGetInfo (*VKG_CUDA_API.dl_cuMemGetInfo)
#undef cuMemHostAlloc
#define cuMemHostAlloc (*VKG_CUDA_API.dl_cuMemHostAlloc)
#undef cuMemFreeHost
#define cuMemFreeHost (*VKG_CUDA_API.dl_cuMemFreeHost)
#undef cuMemHostRegister
#define cuMemHostRegister (*VKG_CUDA_API.dl_cuMemHostRegister)
#undef cuMemHostUnregister
#define cuMemHostUnregister (*VKG_CUDA_API.dl_cuMemHostUnregister)
#undef cuMemcpyHtoDAsync
#define cuMemcpyHtoDAsync (*VKG_CUDA_API.dl_cuMemcpyHtoDAsync)
#undef cuMemcpyDtoHAsync
#define cuMemcpyDtoHAsync (*VKG_CUDA_API.dl_cuMemcpyDtoHAsync)
#undef cuMemcpyDtoDAsync
#define cuMemcpyDtoDAsync (*VKG_CUDA_API.dl_cuMemcpyDtoDAsync)
#undef cuStreamCreate
#define cuStreamCreate (*VKG_CUDA_API.dl_cuStreamCreate)
#undef cuStreamDestroy
#define cuStreamDestroy (*VKG_CUDA_API.dl_cuStreamDestroy)
#undef cuStreamSynchronize
#define cuStreamSynchronize (*VKG_CUDA_API.dl_cuStreamSynchronize)
#undef cuStreamWaitEvent
#define cuStreamWaitEvent (*VKG_CUDA_API.dl_cuStreamWaitEvent)
#undef cuEventCreate
#define cuEventCreate (*VKG_CUDA_API.dl_cuEventCreate)
#undef cuEventDestroy
#define cuEventDestroy (*VKG_CUDA_API.dl_cuEventDestroy)
#undef cuEventRecord
#define cuEventRecord (*VKG_CUDA_API.dl_cuEventRecord)
#undef cuEventSynchronize
#define cuEventSynchronize (*VKG_CUDA_API.dl_cuEventSynchronize)
#undef cuModuleLoadData
#define cuModuleLoadData (*VKG_CUDA_API.dl_cuModuleLoadData)
#undef cuModuleLoadDataEx
#define cuModuleLoadDataEx (*VKG_CUDA_API.dl_cuModuleLoadDataEx)
#undef cuModuleUnload
#define cuModuleUnload (*VKG_CUDA_API.dl_cuModuleUnload)
#undef cuModuleGetFunction
#define cuModuleGetFunction (*VKG_CUDA_API.dl_cuModuleGetFunction)
#undef cuModuleGetGlobal
#define cuModuleGetGlobal (*VKG_CUDA_API.dl_cuModuleGetGlobal)
#undef cuFuncSetAttribute
#define cuFuncSetAttribute (*VKG_CUDA_API.dl_cuFuncSetAttribute)
#undef cuLaunchKernel
#define cuLaunchKernel (*VKG_CUDA_API.dl_cuLaunchKernel)
#undef cuMemcpyHtoD
#define cuMemcpyHtoD (*VKG_CUDA_API.dl_cuMemcpyHtoD)
#undef nvrtcVersion
#define nvrtcVersion (*VKG_CUDA_API.dl_nvrtcVersion)
#undef nvrtcGetErrorString
#define nvrtcGetErrorString (*VKG_CUDA_API.dl_nvrtcGetErrorString)
#undef nvrtcCreateProgram
#define nvrtcCreateProgram (*VKG_CUDA_API.dl_nvrtcCreateProgram)
#undef nvrtcCompileProgram
#define nvrtcCompileProgram (*VKG_CUDA_API.dl_nvrtcCompileProgram)
#undef nvrtcDestroyProgram
#define nvrtcDestroyProgram (*VKG_CUDA_API.dl_nvrtcDestroyProgram)
#undef nvrtcGetProgramLog
#define nvrtcGetProgramLog (*VKG_CUDA_API.dl_nvrtcGetProgramLog)
#undef nvrtcGetProgramLogSize
#define nvrtcGetProgramLogSize (*VKG_CUDA_API.dl_nvrtcGetProgramLogSize)
#undef nvrtcGetCUBIN
#define nvrtcGetCUBIN (*VKG_CUDA_API.dl_nvrtcGetCUBIN)
#undef nvrtcGetCUBINSize
#define nvrtcGetCUBINSize (*VKG_CUDA_API.dl_nvrtcGetCUBINSize)
#undef nvrtcGetPTX
#define nvrtcGetPTX (*VKG_CUDA_API.dl_nvrtcGetPTX)
#undef nvrtcGetPTXSize
#define nvrtcGetPTXSize (*VKG_CUDA_API.dl_nvrtcGetPTXSize)
#undef nvrtcAddNameExpression
#define nvrtcAddNameExpression (*VKG_CUDA_API.dl_nvrtcAddNameExpression)
#undef nvrtcGetLoweredName
#define nvrtcGetLoweredName (*VKG_CUDA_API.dl_nvrtcGetLoweredName)
#endif

#endif
