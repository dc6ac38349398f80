# pool — a batch split across a pool of every GPU against one GPU (BenchmarkPoolSpeedup):
# host round trips (Forward then Inverse on Go slices, complex64) of 1-D 4096 × 16384 and
# 256³ × 8. Read the "speed-up" lines of pool.log: one GPU's time over the pool's, per
# shape (goal: 1.8 or more on two H200s). On a machine with one GPU the pool is that GPU
# ("pool of 1 device"), and the figure is about 1.
nvidia-smi -L 2>/dev/null | sed 's/^/   /'
step pool 600 "$B/vkfft.test" -test.run '^$' -test.bench 'PoolSpeedup' -test.benchtime 10x
grep -h 'speed-up' "$OUT/pool.log" | sed 's/^ */   /'
