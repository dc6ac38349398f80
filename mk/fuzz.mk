# Fuzz targets: `make test` runs each for 100000 executions (test-fuzz, in the Go tests'
# lane; the Makefile's fuzz target). go test -fuzz takes one target per run, so each
# PACKAGE:TARGET entry is a run of its own; add yours with
#   FUZZ_TARGETS += ./pkg/:FuzzName
# Seed corpora live in the packages' testdata/fuzz/FuzzName/ (committed) besides f.Add.
FUZZ_TARGETS += ./capi/:FuzzParseDesc

.PHONY: test-fuzz
test-fuzz: fuzz ## run every fuzz target for FUZZTIME (default 500000x executions)

# after test-go, in its lane (it installs nothing): from empty caches its instrumented
# builds take ~4 minutes, which the other lane cannot spare
GO_LANE += test-fuzz
test-go-lane: export FUZZTIME = 100000x
