# Fuzz targets (issue 13): `make test` runs each for FUZZTIME. go test -fuzz takes one
# target per run, so each PACKAGE:TARGET entry is a run of its own; add yours with
#   FUZZ_TARGETS += ./pkg/:FuzzName
# Seed corpora live in the packages' testdata/fuzz/FuzzName/ (committed) besides f.Add.
FUZZTIME ?= 30s
FUZZ_TARGETS += ./capi/:FuzzParseDesc

.PHONY: test-fuzz
test-fuzz: setup ## run every fuzz target for FUZZTIME (default 30s)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  echo "fuzz $$name in $$pkg for $(FUZZTIME)"; \
	  $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

test: test-fuzz
