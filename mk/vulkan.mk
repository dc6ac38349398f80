# mk/vulkan.mk — the vulkan backend: set-up, tests on Mesa's llvmpipe, and its part of the
# GPU bundle. Included by the Makefile.
#   make setup BACKEND=vulkan   Mesa's Vulkan drivers, the loader and headers, glslang (scripts/setup-vulkan.sh)
#   make lib BACKEND=vulkan     libvkfftgo.so of the vulkan backend
#   make test-vulkan            (part of make test, beside test-go) the vkfft tests under -tags vulkan on llvmpipe,
#                               then the C API's tests against a vulkan libvkfftgo
# The vulkan tests are the package's full test run once, on llvmpipe, under Khronos'
# validation layer (VKFFTGO_VULKAN_VALIDATE=1: the first API misuse aborts). Not repeated for
# vulkan: -race, cgocheck2 and AddressSanitizer (the Go layer they check is the same for
# every backend and runs under them on PoCL), and the top-level CMakeLists.txt build of the
# C API (the same build-lib.sh as make lib, checked for opencl).
VULKAN_BUILD ?= $(BUILD)/vulkan

.PHONY: setup-vulkan test-vulkan test-vulkan-go test-vulkan-capi

setup-vulkan: ## install Mesa's Vulkan drivers (llvmpipe), the Vulkan loader and headers, and glslang
	@scripts/setup-vulkan.sh

ifeq ($(BACKEND),vulkan)
setup: setup-vulkan
endif

test-vulkan-go: setup setup-vulkan
	$(GO) vet -tags vulkan ./...
	@mkdir -p $(BUILD) && for t in vulkan,cuda vulkan,opencl; do \
	  if $(GO) build -tags $$t ./vkfft/ >$(BUILD)/tags-conflict.log 2>&1; then echo "-tags $$t compiled" >&2; exit 1; fi; \
	  grep -q "build tags $${t%,*} and $${t#*,} both given" $(BUILD)/tags-conflict.log || { cat $(BUILD)/tags-conflict.log; exit 1; }; \
	done; echo "two backend tags: compile errors naming both (vulkan+cuda, vulkan+opencl)"
	VKFFTGO_VULKAN_VALIDATE=1 $(GO) test -tags vulkan -count=1 -timeout 20m ./vkfft/

test-vulkan-capi: setup setup-vulkan
	@$(MAKE) --no-print-directory lib BACKEND=vulkan BUILD=$(VULKAN_BUILD)
	VKFFTGO_VULKAN_VALIDATE=1 VKFFTGO_CAPI_TOPLEVEL_CMAKE=0 VKFFTGO_CAPI_ASAN=0 GO="$(GO)" MAKE="$(MAKE)" tests/capi/run.sh $(VULKAN_BUILD)

test-vulkan: test-vulkan-go test-vulkan-capi ## the vulkan backend's tests on llvmpipe (part of make test)

# The Go tests first in the second lane, where llvmpipe's compiles meet test-go's PoCL
# ones (each one kernel at a time); the C consumers at the end of the Go lane, which is
# the shorter one without them (the packages were installed before the lanes started).
TEST_LANE := test-vulkan-go $(TEST_LANE)
GO_LANE += test-vulkan-capi

# vulkan_bundle DIR: the vulkan-tagged test binary, benchmark and CLI (glslang linked in
# statically; gzip'd, they are a third of the size) and the Vulkan loader and glvnd .debs
# a GPU machine without them needs. Called by gpu-bundle (mk/cuda.mk).
define vulkan_bundle
	@mkdir -p $(1)/vulkan/debs
	$(GO) test -c -tags vulkan -ldflags='-s -w' -o $(1)/vulkan/vkfft-vulkan.test ./vkfft/
	$(GO) build -tags vulkan -ldflags='-s -w' -o $(1)/vulkan/bench-vulkan ./tests/gpu/bench/
	$(GO) build -tags vulkan -ldflags='-s -w' -o $(1)/vulkan/vkfft-vulkan ./cmd/vkfft/
	gzip -9f $(1)/vulkan/vkfft-vulkan.test $(1)/vulkan/bench-vulkan $(1)/vulkan/vkfft-vulkan
	scripts/vulkan-gpu-debs.sh $(VKFFTGO_CACHE)/debs-vulkan
	cp $(VKFFTGO_CACHE)/debs-vulkan/*.deb $(1)/vulkan/debs/
	# the backend's sources for reference, apart from src/ (whose C the syntax step
	# compiles as CUDA, where no Vulkan headers need be)
	@mkdir -p $(1)/vulkan/src
	cp internal/backend/vulkan/*.[ch] $(1)/vulkan/src/
endef

gpu-bundle: setup-vulkan
