# vkfftgo — build, test and install. `make run` and `make test` do all set-up on a
# fresh Debian machine (as root, or with sudo).
SHELL := /bin/bash
GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
BACKEND ?= opencl
BUILD ?= build
export CGO_CFLAGS ?= -O2 -g
# PoCL compiles kernels with all cores; keep tests deterministic and quiet.
export POCL_DEBUG ?= 0
# The tests have PoCL compile each kernel once, not twice: by default it builds a generic
# work-group function and then one specialised to each launch's local size, which runs
# faster but is compiled anew for every kernel (about a third of the compile time). The
# tests that reproduce PoCL's own crashes run their child processes with its default.
test test-%: export POCL_WORK_GROUP_SPECIALIZATION ?= 0

.PHONY: all setup vendor build vet test test-go run bench clean
all: build

setup: ## install system packages (PoCL, OpenCL headers, cmake, pkg-config) and vendor VkFFT
	@scripts/setup.sh
	@$(MAKE) --no-print-directory vendor

vendor: ## unpack the pinned VkFFT headers into cvendor/include
	@cvendor/fetch.sh

build: setup
	$(GO) build ./...
	$(GO) build -o $(BUILD)/bin/vkfft ./cmd/vkfft

vet: setup
	$(GO) vet ./...

# Go tests again under the race detector (the concurrent ones, and the injected faults of
# -tags vkfftgo_faults, whose sites are inert unless a test arms them), and in one binary built
# with AddressSanitizer over the Go and C code together (leaks too; tests/asan/lsan.supp)
# and cgocheck2 (every pointer passed to C checked): one build and one run of the slow
# sanitized suite instead of two, each of which rebuilt every package it imports. These
# builds compile the C at -O1 (ASan's advice), which halves the engine's compile time.
CHECK_CGO_CFLAGS = $(subst -O2,-O1,$(CGO_CFLAGS))
test-go: setup
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...
	# a build without cgo compiles and reports ErrNoBackend (internal/engine/nocgo.go)
	CGO_ENABLED=0 $(GO) vet ./vkfft/ ./internal/engine/
	CGO_ENABLED=0 $(GO) test -count=1 ./vkfft/ ./internal/engine/
	CGO_CFLAGS="$(CHECK_CGO_CFLAGS)" $(GO) test -count=1 -timeout 30m -race -tags vkfftgo_faults -run 'Concurrent|Race|Stream|Pipeline|Staged|Cache|PlanOrder|Fault|SlabPipelined|SlabSpread' ./vkfft/
	CGO_CFLAGS="$(CHECK_CGO_CFLAGS)" GOEXPERIMENT=cgocheck2 $(GO) test -c -asan -o $(BUILD)/vkfft-asan.test ./vkfft/
	cd vkfft && ASAN_OPTIONS=intercept_tls_get_addr=0:no_huge_pages_for_shadow=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/asan/lsan.supp \
		$(CURDIR)/$(BUILD)/vkfft-asan.test -test.count=1 -test.timeout=30m

# Each fuzz target for FUZZTIME (seed corpora in vkfft/testdata/fuzz; new finds land in
# the Go build cache, a failing input in testdata/fuzz to commit with its fix). A count
# (Nx) rather than a duration: Go 1.26's fuzz coordinator can report its own -fuzztime
# deadline as "context deadline exceeded" on a loaded machine (golang/go#75804, fixed
# in Go 1.27); a count has no deadline to race.
FUZZTIME ?= 500000x
FUZZ_TARGETS ?= ./vkfft/:FuzzConfig ./vkfft/:FuzzKernelCacheEntry
.PHONY: fuzz
fuzz: setup
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($${t%%:*}, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) $${t%%:*}; \
	done

# make test runs two lanes side by side, one per core, each line of output kept whole:
# the Go tests on PoCL (test-go, then the parts in GO_LANE), and every other part one
# after another (TEST_LANE). Each mk/*.mk fragment adds its part to one of them, so that
# the two lanes take about as long, from empty caches and from warm ones. Both keep a
# core busy for most of their time with the drivers' kernel compiles (PoCL's and
# llvmpipe's compile one kernel at a time per process).
GO_LANE =
TEST_LANE =
.PHONY: test-go-lane test-lane
# vet first, on both cores: it compiles the standard library and the dependencies into
# Go's cache once, which two lanes starting cold would each compile.
test: setup setup-vulkan ## everything CI runs: the Go tests beside the C, C++, Vulkan, FFTW3, ITK and MPI ones
	@echo "make test: set up at $$(date +%T)"
	$(GO) vet ./...
	@$(MAKE) --no-print-directory -j2 -Oline test-go-lane test-lane

# One part at a time in each lane: two parts' package installs must not meet, so a part
# that installs packages belongs in TEST_LANE. A part's own prerequisites may take the
# core the other lane leaves once it is done.
# Each part prints how long it took, so that the lanes can be kept even.
test-go-lane: test-go
	@echo "make test: test-go done at $$(date +%T)"
	@set -e; for t in $(GO_LANE); do s=$$(date +%s); $(MAKE) --no-print-directory $$t; \
	  echo "make test: $$t took $$(( $$(date +%s) - s )) s (Go lane, done at $$(date +%T))"; done
test-lane:
	@set -e; for t in $(TEST_LANE); do s=$$(date +%s); $(MAKE) --no-print-directory $$t; \
	  echo "make test: $$t took $$(( $$(date +%s) - s )) s (other lane, done at $$(date +%T))"; done

run: build ## the main job: device list, benchmark and accuracy check on the default device
	$(BUILD)/bin/vkfft info
	$(BUILD)/bin/vkfft bench

bench: setup
	$(GO) test -run '^$$' -bench . -benchmem ./vkfft/

clean:
	rm -rf $(BUILD)

-include mk/*.mk
