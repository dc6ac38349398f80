/* vkg_cuda_dl.h — the CUDA driver and NVRTC functions of the cuda build, called through
 * pointers that vkg_cuda_load.c fills with dlsym, so that no binary links libcuda or
 * libnvrtc: the driver's libcuda.so.1 and the newest NVRTC found are opened at run time
 * (the first device query and the first device open), and one binary runs where only
 * CUDA 12 or only CUDA 13 is installed. The CUDA runtime (cudart) is linked statically
 * and opens the driver by itself.
 *
 * Include it after every CUDA header (cuda.h, cuda_runtime.h, nvrtc.h, ...) and before
 * the code that calls these functions (vkFFT.h included): from here on each name below
 * stands for its pointer. The pointers take their types from the headers' own
 * declarations, and their dlsym names from the headers' versioned names (cuMemAlloc is
 * cuMemAlloc_v2), so the same code builds against CUDA 12 and 13 headers. A function
 * called by VkFFT or by this package that is missing from the lists fails to link.
 */
#ifndef VKG_CUDA_DL_H
#define VKG_CUDA_DL_H

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

#define VKG_DL_DECLARE(f) extern __typeof__(f) *vkg_dl_##f;
VKG_CUDA_DRIVER_FUNCS(VKG_DL_DECLARE)
VKG_NVRTC_FUNCS(VKG_DL_DECLARE)
#undef VKG_DL_DECLARE

/* Open libcuda.so.1 and resolve the driver functions (once; later calls return the first
 * result). 0 on success, else a message in err. */
int vkg_cuda_dl_load_driver(char *err, size_t errlen);
/* Open NVRTC: $VKFFTGO_NVRTC if set (a path or a library name), else the newest of
 * libnvrtc.so.13, .12 and .11.2 found on the library path, in $CUDA_HOME/lib64 or in
 * /usr/local/cuda/lib64; it must be 11.2 or newer. Once, like the driver. */
int vkg_cuda_dl_load_nvrtc(char *err, size_t errlen);
/* The files the functions came from ("" before loading). */
const char *vkg_cuda_dl_driver_path(void);
const char *vkg_cuda_dl_nvrtc_path(void);

/* The toolkit folder whose include/cuda_fp16.h VkFFT's fp16 kernels include (found at
 * run time, vkg_cuda_load.c); VkFFT's default is "" (a file at /include/). */
const char *vkg_cuda_toolkit_root(void);

#ifndef VKG_CUDA_DL_LOADER
#undef CUDA_TOOLKIT_ROOT_DIR
#define CUDA_TOOLKIT_ROOT_DIR vkg_cuda_toolkit_root()
/* every call below goes through its pointer */
#undef cuInit
#define cuInit (*vkg_dl_cuInit)
#undef cuDriverGetVersion
#define cuDriverGetVersion (*vkg_dl_cuDriverGetVersion)
#undef cuGetErrorName
#define cuGetErrorName (*vkg_dl_cuGetErrorName)
#undef cuGetErrorString
#define cuGetErrorString (*vkg_dl_cuGetErrorString)
#undef cuDeviceGet
#define cuDeviceGet (*vkg_dl_cuDeviceGet)
#undef cuDeviceGetCount
#define cuDeviceGetCount (*vkg_dl_cuDeviceGetCount)
#undef cuDeviceGetName
#define cuDeviceGetName (*vkg_dl_cuDeviceGetName)
#undef cuDeviceGetAttribute
#define cuDeviceGetAttribute (*vkg_dl_cuDeviceGetAttribute)
#undef cuDeviceTotalMem
#define cuDeviceTotalMem (*vkg_dl_cuDeviceTotalMem)
#undef cuDevicePrimaryCtxRetain
#define cuDevicePrimaryCtxRetain (*vkg_dl_cuDevicePrimaryCtxRetain)
#undef cuDevicePrimaryCtxRelease
#define cuDevicePrimaryCtxRelease (*vkg_dl_cuDevicePrimaryCtxRelease)
#undef cuCtxPushCurrent
#define cuCtxPushCurrent (*vkg_dl_cuCtxPushCurrent)
#undef cuCtxPopCurrent
#define cuCtxPopCurrent (*vkg_dl_cuCtxPopCurrent)
#undef cuCtxGetDevice
#define cuCtxGetDevice (*vkg_dl_cuCtxGetDevice)
#undef cuCtxSynchronize
#define cuCtxSynchronize (*vkg_dl_cuCtxSynchronize)
#undef cuMemAlloc
#define cuMemAlloc (*vkg_dl_cuMemAlloc)
#undef cuMemFree
#define cuMemFree (*vkg_dl_cuMemFree)
#undef cuMemGetInfo
#define cuMemGetInfo (*vkg_dl_cuMemGetInfo)
#undef cuMemHostAlloc
#define cuMemHostAlloc (*vkg_dl_cuMemHostAlloc)
#undef cuMemFreeHost
#define cuMemFreeHost (*vkg_dl_cuMemFreeHost)
#undef cuMemHostRegister
#define cuMemHostRegister (*vkg_dl_cuMemHostRegister)
#undef cuMemHostUnregister
#define cuMemHostUnregister (*vkg_dl_cuMemHostUnregister)
#undef cuMemcpyHtoDAsync
#define cuMemcpyHtoDAsync (*vkg_dl_cuMemcpyHtoDAsync)
#undef cuMemcpyDtoHAsync
#define cuMemcpyDtoHAsync (*vkg_dl_cuMemcpyDtoHAsync)
#undef cuMemcpyDtoDAsync
#define cuMemcpyDtoDAsync (*vkg_dl_cuMemcpyDtoDAsync)
#undef cuStreamCreate
#define cuStreamCreate (*vkg_dl_cuStreamCreate)
#undef cuStreamDestroy
#define cuStreamDestroy (*vkg_dl_cuStreamDestroy)
#undef cuStreamSynchronize
#define cuStreamSynchronize (*vkg_dl_cuStreamSynchronize)
#undef cuStreamWaitEvent
#define cuStreamWaitEvent (*vkg_dl_cuStreamWaitEvent)
#undef cuEventCreate
#define cuEventCreate (*vkg_dl_cuEventCreate)
#undef cuEventDestroy
#define cuEventDestroy (*vkg_dl_cuEventDestroy)
#undef cuEventRecord
#define cuEventRecord (*vkg_dl_cuEventRecord)
#undef cuEventSynchronize
#define cuEventSynchronize (*vkg_dl_cuEventSynchronize)
#undef cuModuleLoadData
#define cuModuleLoadData (*vkg_dl_cuModuleLoadData)
#undef cuModuleLoadDataEx
#define cuModuleLoadDataEx (*vkg_dl_cuModuleLoadDataEx)
#undef cuModuleUnload
#define cuModuleUnload (*vkg_dl_cuModuleUnload)
#undef cuModuleGetFunction
#define cuModuleGetFunction (*vkg_dl_cuModuleGetFunction)
#undef cuModuleGetGlobal
#define cuModuleGetGlobal (*vkg_dl_cuModuleGetGlobal)
#undef cuFuncSetAttribute
#define cuFuncSetAttribute (*vkg_dl_cuFuncSetAttribute)
#undef cuLaunchKernel
#define cuLaunchKernel (*vkg_dl_cuLaunchKernel)
#undef cuMemcpyHtoD
#define cuMemcpyHtoD (*vkg_dl_cuMemcpyHtoD)
#undef nvrtcVersion
#define nvrtcVersion (*vkg_dl_nvrtcVersion)
#undef nvrtcGetErrorString
#define nvrtcGetErrorString (*vkg_dl_nvrtcGetErrorString)
#undef nvrtcCreateProgram
#define nvrtcCreateProgram (*vkg_dl_nvrtcCreateProgram)
#undef nvrtcCompileProgram
#define nvrtcCompileProgram (*vkg_dl_nvrtcCompileProgram)
#undef nvrtcDestroyProgram
#define nvrtcDestroyProgram (*vkg_dl_nvrtcDestroyProgram)
#undef nvrtcGetProgramLog
#define nvrtcGetProgramLog (*vkg_dl_nvrtcGetProgramLog)
#undef nvrtcGetProgramLogSize
#define nvrtcGetProgramLogSize (*vkg_dl_nvrtcGetProgramLogSize)
#undef nvrtcGetCUBIN
#define nvrtcGetCUBIN (*vkg_dl_nvrtcGetCUBIN)
#undef nvrtcGetCUBINSize
#define nvrtcGetCUBINSize (*vkg_dl_nvrtcGetCUBINSize)
#undef nvrtcGetPTX
#define nvrtcGetPTX (*vkg_dl_nvrtcGetPTX)
#undef nvrtcGetPTXSize
#define nvrtcGetPTXSize (*vkg_dl_nvrtcGetPTXSize)
#undef nvrtcAddNameExpression
#define nvrtcAddNameExpression (*vkg_dl_nvrtcAddNameExpression)
#undef nvrtcGetLoweredName
#define nvrtcGetLoweredName (*vkg_dl_nvrtcGetLoweredName)
#endif

#endif
