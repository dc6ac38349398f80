# race — the concurrency tests of the cuda build under Go's race detector (the
# vkfft-race.test binary of make gpu-bundle). race.log must end in PASS and hold no
# "WARNING: DATA RACE".
step race 900 "$B/vkfft-race.test" -test.count=1 -test.v -test.timeout=15m \
	-test.run 'Concurrent|Race|Stream|Pipeline|Staged|Cache|PlanOrder|CUDAInterleaved|CUDAPointers|CUDAPtrOrdered|HostBufferSliceAfterClose'
if grep -q 'WARNING: DATA RACE' "$OUT/race.log"; then res[race]="rc=1 (data race; see race.log)"; fi
