# slab — slab plans on a pool of every GPU: their tests (TestSlab*), then
# BenchmarkSlabOverlap's host round trips (Forward then Inverse on Go slices, complex64) of
# 512³, 256³ × 8 and 8192²: the stages whole with one goroutine a device (the plan before
# pipelining), whole with the host's copies spread over the CPUs, and pipelined (the host
# transposing one chunk while the device transforms those before), beside one device's
# plan of the same shape, and pipelined with untiled transposes. Read the "slab" lines of
# slab.log.
nvidia-smi -L 2>/dev/null | sed 's/^/   /'
step slabtests 600 "$B/vkfft.test" -test.count=1 -test.v -test.run 'Slab'
step slab 600 "$B/vkfft.test" -test.run '^$' -test.bench 'SlabOverlap' -test.benchtime 3x
grep -h 'slab ' "$OUT/slab.log" | sed 's/^ */   /'
