# The public API's checked-in lists (api/, docs/api-stability.md). Included by the Makefile.
#   make api        regenerate api/v1.txt (package vkfft's exported Go API, default build),
#                   api/vkfftgo.sym (libvkfftgo.so's C symbols, opencl, cuda and vulkan builds)
#                   and capi/exports_gen.c (the C wrappers of the Go-written entry points)
#   make test-api   compare them with the code (also part of make test: the Go test runs
#                   in test-go, the symbol check in test-capi and cuda-capi-check)
.PHONY: api test-api
api: cuda-sdk ## regenerate the API lists in api/ after a deliberate API change
	$(GO) test -count=1 ./capi/ -run '^TestExportWrappers$$' -update
	$(MAKE) --no-print-directory lib
	$(MAKE) --no-print-directory lib BACKEND=cuda BUILD=$(BUILD)/capi-cuda CUDA_CFLAGS="$(SDK_CFLAGS)" CUDA_LDFLAGS="$(SDK_LDFLAGS)" CUDA_DEPS=
	$(MAKE) --no-print-directory lib BACKEND=vulkan BUILD=$(BUILD)/vulkan-lib
	$(GO) test -count=1 ./api/ -run '^TestGoAPI$$' -update
	scripts/api-syms.sh update opencl=$(BUILD)/lib/libvkfftgo.so cuda=$(BUILD)/capi-cuda/lib/libvkfftgo.so \
		vulkan=$(BUILD)/vulkan-lib/lib/libvkfftgo.so
	git diff --stat -- api/ capi/exports_gen.c

test-api: lib
	$(GO) test -count=1 ./api/
	$(GO) test -count=1 ./capi/ -run '^TestExportWrappers$$|^TestEntryPointsGuarded$$'
	scripts/api-syms.sh check $(BUILD)/lib/libvkfftgo.so $(BACKEND)
