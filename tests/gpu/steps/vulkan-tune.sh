# The autotuner on the Vulkan backend (NVIDIA's Vulkan driver): the tune step's shapes,
# cuFFT of this call beside them. The figure to read is "tuned / defaults" per shape and
# the chosen parameters, against the CUDA backend's tune table of the same call (run the
# `tune` step first): the Vulkan and CUDA defaults differ (VkFFT's NVIDIA defaults under
# Vulkan: 48 KiB shared memory, register boost 4).
vulkan_tune_shapes=${VULKAN_TUNE_SHAPES:-256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128}
VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"
if vulkan_setup && [ -x "$W/vk/vkfft-vulkan" ]; then
	if [ ! -s "$OUT/cufft.log" ] && [ -f "$B/baselines/cufft_peers.py" ]; then
		PYTHONUNBUFFERED=1 PEERS_GPU_ONLY=1 step cufft 300 python3 "$B/baselines/cufft_peers.py"
	fi
	VKFFTGO_CACHE_DIR=$W/vk-tune-kcache step vulkan-tune 600 "$W/vk/vkfft-vulkan" tune -cufft "$OUT/cufft.log" \
		-shapes "$vulkan_tune_shapes"
	grep -h 'done in' "$OUT/vulkan-tune.log" | sed 's/^/   /'
else
	echo "vulkan-tune: no Vulkan device or no vkfft-vulkan CLI in the bundle"
	res[vulkan-tune]="rc=1 not run"
fi
