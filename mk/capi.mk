# C API: libvkfftgo.so, its headers and config files. Included by the Makefile.
#   make lib [BACKEND=opencl|cuda|vulkan]   -> $(BUILD)/lib/libvkfftgo.so.X.Y.Z, include/, pkgconfig, cmake
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make test-capi                          (part of make test)
PREFIX ?= /usr/local

# BACKEND=cuda takes its headers and libraries from mk/cuda.mk (CUDA_CFLAGS, CUDA_LDFLAGS,
# CUDA_LIBS) on top of CGO_CFLAGS/CGO_LDFLAGS from the environment; mk/cuda.mk also adds
# the headers' unpacking (CUDA_DEPS) to lib's prerequisites, which this file, read
# first, cannot name.
ifeq ($(BACKEND),cuda)
LIB_CGO_ENV = CGO_CFLAGS="$(CGO_CFLAGS) $(CUDA_CFLAGS)" CGO_LDFLAGS="$(CGO_LDFLAGS) $(CUDA_LDFLAGS) $(CUDA_LIBS)"
endif

.PHONY: lib install test-capi
lib: setup ## build the C shared library and its config files into $(BUILD)
	$(LIB_CGO_ENV) GO="$(GO)" scripts/build-lib.sh $(BACKEND) $(BUILD)

install: lib ## install library, headers, vkfftgo.pc and VkFFTGoConfig.cmake into $(DESTDIR)$(PREFIX)
	scripts/install-lib.sh $(BUILD) "$(DESTDIR)$(PREFIX)"

test-capi: lib ## C/C++ consumers, backend guards, install + relocation, threads, handles, ASan
	$(LIB_CGO_ENV) GO="$(GO)" MAKE="$(MAKE)" tests/capi/run.sh $(BUILD)

TEST_LANE += test-capi
