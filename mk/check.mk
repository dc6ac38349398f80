# vkfft check -quick: the accuracy sweep over every size class, each R2R kind,
# both precisions and every storage mode, on the default device (PoCL without a GPU);
# part of make test. Results: $(BUILD)/check-quick.{jsonl,html}. `vkfft check -full`
# is the GPU sweep (tests/gpu/steps/check.sh).
.PHONY: test-check
test-check: setup
	$(GO) build -o $(BUILD)/bin/vkfft ./cmd/vkfft
	$(BUILD)/bin/vkfft check -quick -j 2 -json $(BUILD)/check-quick.jsonl -html $(BUILD)/check-quick.html

# after test-go, in its lane: it installs nothing, and the two lanes come out even
GO_LANE += test-check
