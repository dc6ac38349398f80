# The public API's checked-in lists (api/, doc/API.md). Included by the Makefile.
#   make api        regenerate api/v1.txt (package vkfft's exported Go API, default build)
#                   and api/vkfftgo.sym (libvkfftgo.so's C symbols, opencl and cuda builds)
#   make test-api   compare both with the code (also part of make test: the Go test runs
#                   in test-go, the symbol check in test-capi and cuda-capi-check)
.PHONY: api test-api
api: lib cuda-capi-check ## regenerate the API lists in api/ after a deliberate API change
	$(GO) test -count=1 ./api/ -run '^TestGoAPI$$' -update
	scripts/api-syms.sh update opencl=$(BUILD)/lib/libvkfftgo.so cuda=$(BUILD)/capi-cuda/lib/libvkfftgo.so
	git diff --stat -- api/

test-api: lib
	$(GO) test -count=1 ./api/
	scripts/api-syms.sh check $(BUILD)/lib/libvkfftgo.so $(BACKEND)
