//go:build cgo && cuda

// Package cuda is the CUDA backend (VKFFT_BACKEND 1), chosen with -tags cuda: importing
// it registers it with the engine. Headers and link libraries come from
// CGO_CFLAGS/CGO_LDFLAGS when set (make cuda-build-check and make test-cuda point them at
// CUDA_HOME or at the Debian nvidia-cuda-dev unpacked by make cuda-sdk), else from
// /usr/local/cuda. The runtime is linked statically (VkFFT calls cudaMalloc & co.);
// libcuda (the driver) and libnvrtc (VkFFT's kernel compiler) are opened at run time
// (vkg_cuda_load.c), so a binary built with CUDA 12 headers runs where only CUDA 13's
// NVRTC is installed, and the other way round.
package cuda

// #cgo CFLAGS: -I${SRCDIR}/../../engine -I/usr/local/cuda/include
// #cgo LDFLAGS: -L/usr/local/cuda/lib64
// #cgo LDFLAGS: -Wl,-Bstatic -lcudart_static -Wl,-Bdynamic -lm -lpthread -ldl -lrt
// #include "vkg_backend.h"
// const vkg_backend *vkg_cuda_backend(void);
import "C"

import (
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

func init() { engine.Register(unsafe.Pointer(C.vkg_cuda_backend())) }
