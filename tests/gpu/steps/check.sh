# check — the accuracy sweep on the H200, about 4 minutes:
#  1. `vkfft check -full`: every size class (powers of 2/3/5/7/11/13, Rader and Bluestein
#     primes, large 1-D, 2-D/3-D, odd and even R2C, the eight DCT/DST kinds, axes) in both
#     precisions and every storage mode, against the float64 reference, 8 child processes
#     at a time; a crash is recorded against its case. Read: $OUT/check.log (the summary
#     table per class: cases, pass, fail, crash, unsupported, worst error/tolerance),
#     $OUT/check.jsonl (one line per case), $OUT/check.html (error-vs-size plots).
#  2. `vkfft storage`: device-resident forward+inverse time and forward error of fp16
#     storage and float data with fp64 arithmetic against the default (and complex128).
#     Read: $OUT/storage.log.
# Plans compile cold (run.sh starts with an empty kernel cache): 0.4-1.3 s each.
step check 210 "$B/vkfft" check -full -j 8 -deadline 150s -case-timeout 60s -q \
	-json "$OUT/check.jsonl" -html "$OUT/check.html"
step storage 90 "$B/vkfft" storage -shapes 4096:16384,4096x4096,256x256x256 -time 300ms
