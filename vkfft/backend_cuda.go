//go:build cgo && cuda && !opencl

package vkfft

// CUDA backend (VKFFT_BACKEND 1), chosen with -tags cuda. Headers and link libraries come
// from CGO_CFLAGS/CGO_LDFLAGS when set (make cuda-build-check and make test-cuda point
// them at CUDA_HOME or at the Debian nvidia-cuda-dev unpacked by make cuda-sdk), else
// from /usr/local/cuda. The runtime is linked statically (VkFFT calls cudaMalloc & co.);
// libcuda (the driver) and libnvrtc (VkFFT's kernel compiler) are opened at run time
// (vkg_cuda_load.c), so a binary built with CUDA 12 headers runs where only CUDA 13's
// NVRTC is installed, and the other way round.

// #cgo CFLAGS: -DVKFFT_BACKEND=1 -I${SRCDIR}/../cvendor/include -I/usr/local/cuda/include
// #cgo LDFLAGS: -L/usr/local/cuda/lib64
// #cgo LDFLAGS: -Wl,-Bstatic -lcudart_static -Wl,-Bdynamic -lm -lpthread -ldl -lrt
import "C"

const compiledBackend = CUDA
