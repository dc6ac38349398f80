# The VkFFTBackend ITK module (itk/): ITK filters on libvkfftgo, source-compatible with
# ITKVkFFTBackend. Included by the Makefile.
#   make test-itk-module   build itk/ against $(BUILD)'s library and ITK 5.2 (make setup
#                          ITK=1 installs it), run its ctest suite, install it and build
#                          an ITKVkFFTBackend program against the installed copy
#                          (tests/itk-module/run.sh)
#   make gpu-bundle-itk-module   the GPU bundle's part for tests/gpu/steps/itk-module.sh
.PHONY: test-itk-module gpu-bundle-itk-module

test-itk-module: lib ## the ITK module's ctest suite, install and a consumer of its API
	@$(MAKE) --no-print-directory setup ITK=1
	tests/itk-module/run.sh $(BUILD)

TEST_LANE += test-itk-module

# the module (Release) and its benchmark against the cuda library, with the ITK
# libraries they load (scripts/gpu-bundle-itk-module.sh). make gpu-bundle calls it.
gpu-bundle-itk-module: vendor
	@$(MAKE) --no-print-directory setup ITK=1
	$(MAKE) --no-print-directory lib BACKEND=cuda BUILD=$(BUILD)/cuda-lib
	scripts/gpu-bundle-itk-module.sh $(BUILD)/cuda-lib $(GPU_BUNDLE)
