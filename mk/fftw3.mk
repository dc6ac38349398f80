# libvkfftgo_fftw3: FFTW 3.3's API over libvkfftgo. Included by the Makefile.
# `make lib` builds it beside libvkfftgo.so (scripts/build-lib.sh calls
# scripts/build-fftw3.sh) and `make install` installs it.
#   make test-fftw3   exports, ABI, semantics, pkg-config/CMake consumers, LD_PRELOAD,
#                     threshold, FFTW's own verifier (installs libfftw3-dev)
#   make test-itk     unmodified ITK 5.2 programs, as built and preloaded (installs
#                     libinsighttoolkit5-dev through make setup ITK=1)
#   make test-fftw3-apps  GNU Octave, vips and ImageMagick (Debian's, linked with FFTW), as
#                     installed and preloaded (installs them: scripts/setup-fftw3.sh apps)
.PHONY: test-fftw3 test-itk test-fftw3-apps setup-fftw3 gpu-bundle-fftw3

setup-fftw3:
	@scripts/setup-fftw3.sh

test-fftw3: lib setup-fftw3 ## FFTW3-compatible library: API, semantics, preload, FFTW's verifier
	MAKE="$(MAKE)" tests/fftw3/run.sh $(BUILD)

test-itk: lib ## unmodified ITK 5.2 FFT filters with and without libvkfftgo_fftw3 preloaded
	@$(MAKE) --no-print-directory setup ITK=1
	tests/itk/run.sh $(BUILD)

test-fftw3-apps: lib ## GNU Octave, vips and ImageMagick with and without libvkfftgo_fftw3 preloaded
	@scripts/setup-fftw3.sh apps
	tests/apps/run.sh $(BUILD)

TEST_LANE += test-fftw3 test-itk test-fftw3-apps

# The GPU bundle's part for tests/gpu/steps/fftw.sh: the ITK program, FFTW programs and
# FFTW's verifier, with libvkfftgo (cuda) + libvkfftgo_fftw3 and the ITK/FFTW libraries
# they load (scripts/gpu-bundle-fftw3.sh). make gpu-bundle calls it.
gpu-bundle-fftw3: setup $(CUDA_DEPS)
	@$(MAKE) --no-print-directory setup ITK=1
	$(MAKE) --no-print-directory lib BACKEND=cuda BUILD=$(BUILD)/cuda-lib
	scripts/gpu-bundle-fftw3.sh $(BUILD) $(BUILD)/cuda-lib $(GPU_BUNDLE)
