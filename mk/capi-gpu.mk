# The C API on the GPU: libvkfftgo.so built for cuda, and against it the C consumers of
# tests/capi and the per-call / registered-memory benchmark (tests/gpu/capibench.c).
#   make cuda-build-check   also builds and links these (no GPU needed)
#   make gpu-bundle         puts them into $(GPU_BUNDLE)/capi/; tests/gpu/steps/capi.sh runs them
CAPI_GPU_CONSUMERS := c_consumer threads handles hostreg parity oop fork c2r fuse full

# capi_gpu_build OUT CFLAGS LDFLAGS: the cuda library into $(BUILD)/capi-cuda, then the
# programs into OUT (finding the library in OUT/lib, where it is copied)
define capi_gpu_build
	$(MAKE) --no-print-directory lib BACKEND=cuda BUILD=$(BUILD)/capi-cuda CUDA_CFLAGS="$(2)" CUDA_LDFLAGS="$(3)" CUDA_DEPS=
	rm -rf $(1) && mkdir -p $(1)/lib
	cp -P $(BUILD)/capi-cuda/lib/libvkfftgo.so* $(1)/lib/
	scripts/api-syms.sh check $(BUILD)/capi-cuda/lib/libvkfftgo.so cuda
	for t in $(CAPI_GPU_CONSUMERS); do \
	  $(CC) -std=c99 -O2 -Wall -Wextra -Werror -pthread -I$(BUILD)/capi-cuda/include tests/capi/$$t.c \
	    -L$(1)/lib -Wl,-rpath,'$$ORIGIN/lib' -Wl,--allow-shlib-undefined -lvkfftgo -ldl -lm -o $(1)/$$t || exit 1; \
	done
	mkdir -p $(1)/src && cp capi/*.c capi/*.h include/vkfftgo.h tests/gpu/capibench.c $(1)/src/
	$(CC) -O2 -c $(2) $(CUDA_INCLUDES) internal/backend/cuda/vkg_cuda_load.c -o $(1)/vkg_cuda_load.o
	$(CC) -O2 -Wall -DVKFFT_BACKEND=1 $(2) -Icvendor/include $(CUDA_INCLUDES) -I$(BUILD)/capi-cuda/include \
	  -include tests/gpu/rawbench_dl.h tests/gpu/capibench.c $(1)/vkg_cuda_load.o \
	  -o $(1)/capibench -L$(1)/lib -Wl,-rpath,'$$ORIGIN/lib' -Wl,--allow-shlib-undefined -lvkfftgo $(3) $(CUDA_LIBS) 2>$(1)/capibench.warnings
	rm -f $(1)/vkg_cuda_load.o
endef

.PHONY: cuda-capi-check gpu-bundle-capi
cuda-capi-check: setup cuda-sdk ## the cuda C library and its C programs, against Debian's CUDA 12.4
	$(call capi_gpu_build,$(BUILD)/cuda/capi,$(SDK_CFLAGS),$(SDK_LDFLAGS))

gpu-bundle-capi: setup $(CUDA_DEPS) ## the C API's part of the GPU bundle
	$(call capi_gpu_build,$(GPU_BUNDLE)/capi,$(CUDA_CFLAGS),$(CUDA_LDFLAGS))
