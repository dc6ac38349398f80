# cuFFT through CuPy on the anchor shapes, in the same call as the binding's bench.
if [ -f "$B/baselines/cufft_peers.py" ]; then
	PYTHONUNBUFFERED=1 PEERS_GPU_ONLY=1 step cufft 300 python3 "$B/baselines/cufft_peers.py"
else
	echo "baselines: no baselines/ in the bundle (build it beside ../shared/bench)"
fi
