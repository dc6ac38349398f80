# The per-call cost of a tiny transform (1-D 1024 on a device buffer): enqueue only, and
# enqueue + synchronize, CUDA against Vulkan, Vulkan with its waits blocking at once
# (VKFFTGO_VULKAN_SPIN_US=0) and polling first (the default). Read the "binding small"
# lines of latency-*.log; the enqueue+sync figure of latency-vulkan-spin should come
# near CUDA's, well below latency-vulkan-block's.
step latency-cuda 120 "$B/bench" -only=none -lut=false -alloc=false -tune=false
VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"
if vulkan_setup; then
	VKFFTGO_VULKAN_SPIN_US=0 step latency-vulkan-block 120 "$W/vk/bench-vulkan" -only=none -lut=false -alloc=false -tune=false
	step latency-vulkan-spin 120 "$W/vk/bench-vulkan" -only=none -lut=false -alloc=false -tune=false
fi
grep -H 'binding small' "$OUT"/latency-*.log | sed 's/^/   /'
