# The tuning prior (vkfft/tune_prior.go): with nothing stored, a plan on an NVIDIA GPU
# starts from 128-byte coalescing and 64 threads where VkFFT's defaults were measured
# slow (complex, 3+ axes under CUDA, 2+ under Vulkan). `vkfft bench` of each backend
# twice in one call — VKFFTGO_TUNE=off (VkFFT's defaults) and unset (the prior) — each
# into an empty kernel cache, so nothing stored is found. Compare the "device f+i"
# column per shape between prior-*-off.log and prior-*-on.log; 1-D and 2-D CUDA rows
# must not move (no prior there).
prior_shapes=${PRIOR_SHAPES:-256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128,243x243x243}
VKFFTGO_TUNE=off VKFFTGO_CACHE_DIR=$W/prior-cuda-off step prior-cuda-off 300 "$B/vkfft" bench -ref-limit 0 -shapes "$prior_shapes"
VKFFTGO_CACHE_DIR=$W/prior-cuda-on step prior-cuda-on 300 "$B/vkfft" bench -ref-limit 0 -shapes "$prior_shapes"
VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"
if vulkan_setup && [ -x "$W/vk/vkfft-vulkan" ]; then
	VKFFTGO_TUNE=off VKFFTGO_CACHE_DIR=$W/prior-vk-off step prior-vulkan-off 300 "$W/vk/vkfft-vulkan" bench -ref-limit 0 -shapes "$prior_shapes"
	VKFFTGO_CACHE_DIR=$W/prior-vk-on step prior-vulkan-on 300 "$W/vk/vkfft-vulkan" bench -ref-limit 0 -shapes "$prior_shapes"
else
	echo "prior: no Vulkan device or no vkfft-vulkan CLI in the bundle"
fi
for b in cuda vulkan; do
	[ -s "$OUT/prior-$b-on.log" ] || continue
	echo "prior, $b: shape, device f+i with VkFFT's defaults -> with the prior"
	# device f+i is the 5th and 4th fields from the end (then % floor, allocs, roundtrip, vs ref)
	awk 'FNR == NR && $2 ~ /^c(64|128)$/ { off[$1 " " $2] = $(NF-5) " " $(NF-4); next }
	     $2 ~ /^c(64|128)$/ && (($1 " " $2) in off) { printf "   %-16s %s %s -> %s\n", $1, $2, off[$1 " " $2], $(NF-5) " " $(NF-4) }' \
		"$OUT/prior-$b-off.log" "$OUT/prior-$b-on.log"
done
