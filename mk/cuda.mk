# mk/cuda.mk — the cuda backend's build check, GPU bundle and GPU test run.
#
#   make cuda-sdk           unpack Debian's nvidia-cuda-dev 12.4 headers + stubs (no toolkit needed)
#   make cuda-build-check   build the cuda-tagged packages and link their test binaries (CI, no GPU),
#                           then cuda-kernel-check
#   make cuda-kernel-check  compile the CUDA text of the companion kernels and fused rewrites of
#                           every sample format with Debian's NVRTC 12.4 (no GPU; needs the
#                           OpenCL test device that writes them), then compile them in forked
#                           children as a cold plan does (tests/nvrtc/forkcheck.c)
#   make gpu-bundle         test binaries (a -race one too) + benchmark + raw VkFFT C baseline in .gpu/
#                           (+ the cuda C library and its C programs: mk/capi-gpu.mk, the vulkan
#                           and opencl test binaries, the OpenCL ICD loader);
#                           NVRTC_DEBS=1 adds Debian's NVRTC 12.4 for GPU machines without an NVRTC
#   make test-cuda          gpu-bundle, then tests/gpu/run.sh on this machine's GPU
#
# Headers and libraries: CUDA_HOME (default /usr/local/cuda) when it has include/cuda.h,
# else the Debian packages under CUDA_SDK. cuda-build-check always uses the Debian ones.
VKFFTGO_CACHE ?= $(HOME)/.cache/vkfftgo
CUDA_SDK ?= $(VKFFTGO_CACHE)/cuda-12.4
CUDA_HOME ?= /usr/local/cuda
GPU_BUNDLE ?= .gpu
OPENCL_LOADER ?= /usr/lib/x86_64-linux-gnu/libOpenCL.so.1
# libcuda and libnvrtc are opened at run time (internal/backend/cuda/vkg_cuda_load.c): never linked
CUDA_LIBS := -Wl,-Bstatic -lcudart_static -Wl,-Bdynamic -lm -lpthread -ldl -lrt
NVRTC_DEBS ?=

SDK_CFLAGS := -I$(CUDA_SDK)/include
SDK_LDFLAGS := -L$(CUDA_SDK)/lib -L$(CUDA_SDK)/lib/stubs
ifneq ($(wildcard $(CUDA_HOME)/include/cuda.h),)
CUDA_CFLAGS ?= -I$(CUDA_HOME)/include
CUDA_LDFLAGS ?= -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib64/stubs
CUDA_DEPS ?=
else
CUDA_CFLAGS ?= $(SDK_CFLAGS)
CUDA_LDFLAGS ?= $(SDK_LDFLAGS)
CUDA_DEPS ?= cuda-sdk
endif
# make lib BACKEND=cuda alone: the headers first (prerequisites are expanded as rules are
# read, and mk/capi.mk's lib rule is read before CUDA_DEPS exists)
ifeq ($(BACKEND),cuda)
lib: $(CUDA_DEPS)
endif
CUDA_PKGS := ./vkfft/ ./internal/... ./cuinterop/ ./tests/gpu/bench/
# the cuda backend's loader and the engine's contract, for the C baselines built beside the binding
CUDA_INCLUDES := -Iinternal/engine -Iinternal/backend/cuda

.PHONY: cuda-sdk cuda-build-check cuda-kernel-check gpu-bundle test-cuda

cuda-sdk: ## unpack Debian's CUDA 12.4 headers, link stubs and static runtime into $(CUDA_SDK)
	@scripts/cuda-sdk.sh $(CUDA_SDK)

# cuda_build BUILD_DIR CFLAGS LDFLAGS: the cuda-tagged packages and their linked test binaries
define cuda_build
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) build -tags cuda $(CUDA_PKGS)
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) vet -tags cuda $(CUDA_PKGS)
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) test -c -tags cuda -ldflags='-s -w' -o $(1)/vkfft.test ./vkfft/
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) test -c -tags cuda -ldflags='-s -w' -o $(1)/cuinterop.test ./cuinterop/
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) build -tags cuda -ldflags='-s -w' -o $(1)/bench ./tests/gpu/bench/
	CGO_CFLAGS="-O2 -g $(2)" CGO_LDFLAGS="$(3)" $(GO) build -tags cuda -ldflags='-s -w' -o $(1)/vkfft ./cmd/vkfft/
	$(CC) -O2 -c $(2) $(CUDA_INCLUDES) internal/backend/cuda/vkg_cuda_load.c -o $(1)/vkg_cuda_load.o
	$(CC) -O2 -DVKFFT_BACKEND=1 $(2) -Icvendor/include $(CUDA_INCLUDES) -include tests/gpu/rawbench_dl.h tests/gpu/rawbench.c \
		$(1)/vkg_cuda_load.o -o $(1)/rawbench $(3) $(CUDA_LIBS) 2>$(1)/rawbench.warnings
	rm -f $(1)/vkg_cuda_load.o && strip $(1)/rawbench
endef

cuda-build-check: setup cuda-sdk ## compile and link everything cuda-tagged against Debian's CUDA 12.4 (no GPU needed)
	@mkdir -p $(BUILD)/cuda
	$(call cuda_build,$(BUILD)/cuda,$(SDK_CFLAGS),$(SDK_LDFLAGS))
	$(MAKE) --no-print-directory cuda-capi-check
	$(MAKE) --no-print-directory cuda-kernel-check
	@echo "cuda-build-check: ok ($$(ls $(BUILD)/cuda | tr '\n' ' '))"

# The texts are what an H200 (sm_90) gets; the tests write them (VKFFTGO_REWRITE_OUT)
NVRTC_DIR := $(BUILD)/nvrtc
cuda-kernel-check: setup cuda-sdk ## compile every sample format's CUDA kernel texts with NVRTC 12.4 (no GPU needed)
	rm -rf $(NVRTC_DIR) && mkdir -p $(NVRTC_DIR)/root $(NVRTC_DIR)/src
	for d in $(VKFFTGO_CACHE)/debs/libnvrtc12_12.4*.deb $(VKFFTGO_CACHE)/debs/libnvrtc-builtins12.4_*.deb; do \
	  dpkg-deb -x $$d $(NVRTC_DIR)/root || exit 1; done
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror $(SDK_CFLAGS) tests/nvrtc/check.c -ldl -o $(NVRTC_DIR)/check
	VKFFTGO_REWRITE_OUT=$(abspath $(NVRTC_DIR)/src) $(GO) test -count=1 ./vkfft/ \
	  -run '^(TestStageKernelsBuildForEveryFormat|TestFuseRewriteVkFFTKernels|TestFuseGroupRewriteVkFFTKernels|TestDirectShapes)$$'
	LD_LIBRARY_PATH=$(abspath $(NVRTC_DIR)/root/usr/lib/x86_64-linux-gnu) \
	  $(NVRTC_DIR)/check $(NVRTC_DIR)/root/usr/lib/x86_64-linux-gnu/libnvrtc.so.12 sm_90 $(NVRTC_DIR)/src/*.cu
	# a cold plan's compiles in forked children (internal/engine/vkg_fork_compile.c)
	$(CC) -std=c99 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined $(SDK_CFLAGS) -Iinternal/engine \
	  tests/nvrtc/forkcheck.c internal/engine/vkg_fork_compile.c -ldl -lpthread -o $(NVRTC_DIR)/forkcheck
	LD_LIBRARY_PATH=$(abspath $(NVRTC_DIR)/root/usr/lib/x86_64-linux-gnu) \
	  $(NVRTC_DIR)/forkcheck $(NVRTC_DIR)/root/usr/lib/x86_64-linux-gnu/libnvrtc.so.12 sm_90 $(NVRTC_DIR)/src/*.cu

gpu-bundle: setup $(CUDA_DEPS) ## pack the GPU test run into $(GPU_BUNDLE)/ and $(BUILD)/vkfftgo-gpu-bundle.tar.gz
	@scripts/cuda-sdk.sh $(CUDA_SDK) # also fetches the libnvrtc .debs
	@rm -rf $(GPU_BUNDLE) && mkdir -p $(GPU_BUNDLE)/src $(BUILD)
	$(call cuda_build,$(GPU_BUNDLE),$(CUDA_CFLAGS),$(CUDA_LDFLAGS))
	$(call vulkan_bundle,$(GPU_BUNDLE))
	# the opencl build and the ICD loader (ocl-icd, from make setup) for steps/opencl-fuse.sh,
	# on the GPU machine's NVIDIA OpenCL driver
	@mkdir -p $(GPU_BUNDLE)/opencl
	$(GO) test -c -ldflags='-s -w' -o $(GPU_BUNDLE)/opencl/vkfft-opencl.test ./vkfft/
	gzip -9f $(GPU_BUNDLE)/opencl/vkfft-opencl.test
	cp -L $(OPENCL_LOADER) $(GPU_BUNDLE)/opencl/libOpenCL.so.1
	# the concurrency tests under the race detector (GPU step race)
	CGO_CFLAGS="-O2 -g $(CUDA_CFLAGS)" CGO_LDFLAGS="$(CUDA_LDFLAGS)" $(GO) test -c -race -tags cuda -ldflags='-s -w' -o $(GPU_BUNDLE)/vkfft-race.test ./vkfft/
	if [ -n "$(NVRTC_DEBS)" ]; then mkdir -p $(GPU_BUNDLE)/debs && cp $(VKFFTGO_CACHE)/debs/libnvrtc12_12.4*.deb $(VKFFTGO_CACHE)/debs/libnvrtc-builtins12.4_*.deb $(GPU_BUNDLE)/debs/; fi
	# the C the CUDA syntax step compiles: the engine's and the cuda backend's, by directory
	cp internal/engine/*.[ch] internal/backend/cuda/*.[ch] tests/gpu/rawbench.c tests/gpu/nvrtcprobe.c $(GPU_BUNDLE)/src/
	tar -czf $(GPU_BUNDLE)/src/vkfft-headers.tgz -C cvendor/include .
	cp tests/gpu/run.sh $(GPU_BUNDLE)/
	$(MAKE) --no-print-directory gpu-bundle-capi
	mkdir -p $(GPU_BUNDLE)/steps && cp tests/gpu/steps/*.sh $(GPU_BUNDLE)/steps/
	# the cuFFT baselines beside the checkout (../shared/bench), where there is one
	if [ -d ../shared/bench ]; then mkdir -p $(GPU_BUNDLE)/baselines && cp ../shared/bench/* $(GPU_BUNDLE)/baselines/; fi
	# libvkfftgo_fftw3 + ITK for steps/fftw.sh (mk/fftw3.mk); the rest of the bundle works without it
	$(MAKE) --no-print-directory gpu-bundle-fftw3 || echo "gpu-bundle: no fftw3 part (steps/fftw.sh will say so)"
	# the VkFFTBackend ITK module and its benchmark for steps/itk-module.sh (mk/itk-module.mk)
	$(MAKE) --no-print-directory gpu-bundle-itk-module || echo "gpu-bundle: no itk-module part (steps/itk-module.sh will say so)"
	tar -czf $(BUILD)/vkfftgo-gpu-bundle.tar.gz -C $(GPU_BUNDLE) .
	@du -sh $(GPU_BUNDLE) $(BUILD)/vkfftgo-gpu-bundle.tar.gz

test-cuda: gpu-bundle ## build the bundle and run it on this machine's GPU
	$(GPU_BUNDLE)/run.sh
