# The autotuner on the tuner's shapes, with cuFFT (CuPy) in the same call:
# one table of shape, VkFFT defaults, tuned, cuFFT, tuned/cuFFT, out of place / in place,
# chosen parameters and tuning time (device forward+inverse, ms). A second, fresh process
# then finds every tuning stored and measures nothing (source "stored").
tune_shapes=${TUNE_SHAPES:-256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128,243x243x243,1031:65536}
if [ ! -s "$OUT/cufft.log" ] && [ -f "$B/baselines/cufft_peers.py" ]; then
	PYTHONUNBUFFERED=1 PEERS_GPU_ONLY=1 step cufft 300 python3 "$B/baselines/cufft_peers.py"
fi
[ -s "$OUT/cufft.log" ] || echo "tune: no cuFFT timings (no baselines/ in the bundle): the cuFFT columns stay empty"
step tune 600 "$B/vkfft" tune -cufft "$OUT/cufft.log" -shapes "$tune_shapes"
step tune-stored 300 "$B/vkfft" tune -q -cufft "$OUT/cufft.log" -shapes "$tune_shapes"
grep -h 'done in' "$OUT/tune.log" | sed 's/^/   /'
