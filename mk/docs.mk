# The documentation check: README.md stays a front page (at most 16,000 bytes, giving
# `make run` and `make test`), relative links in README.md and docs/ resolve, and no page
# cites an internal issue number. Included by the Makefile; part of make test.
#   make test-docs   scripts/check-docs.sh, then its self-test (well under a second)
.PHONY: test-docs
test-docs: ## check README.md's size and commands and the links in README.md and docs/
	@scripts/check-docs.sh
	@out=$$(scripts/check-docs.sh --self-test) || { echo "$$out"; exit 1; }; echo "$${out##*$$'\n'}"

TEST_LANE += test-docs
