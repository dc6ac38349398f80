# Fuzz targets: `make test` runs each for FUZZTIME (Makefile's fuzz target,
# called by test-go). go test -fuzz takes one target per run, so each PACKAGE:TARGET
# entry is a run of its own; add yours with
#   FUZZ_TARGETS += ./pkg/:FuzzName
# Seed corpora live in the packages' testdata/fuzz/FuzzName/ (committed) besides f.Add.
FUZZ_TARGETS += ./capi/:FuzzParseDesc

.PHONY: test-fuzz
test-fuzz: fuzz ## run every fuzz target for FUZZTIME (default 500000x executions)
