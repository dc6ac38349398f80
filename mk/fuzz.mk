# Fuzz targets (the Makefile's fuzz target; make test-fuzz is the same). go test -fuzz
# takes one target per run, so each PACKAGE:TARGET entry is a run of its own; add yours with
#   FUZZ_TARGETS += ./pkg/:FuzzName
# Seed corpora live in the packages' testdata/fuzz/FuzzName/ (committed) besides f.Add.
FUZZ_TARGETS += ./capi/:FuzzParseDesc

.PHONY: test-fuzz
test-fuzz: fuzz ## run every fuzz target for FUZZTIME (default 500000x executions)

# make test runs every seed corpus (go test does, as ordinary test cases) but does not
# fuzz: from empty caches the instrumented builds alone take ~4 minutes of its 30.
