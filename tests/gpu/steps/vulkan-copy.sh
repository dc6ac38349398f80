# Device-to-device copies under Vulkan, sourced by run.sh: `vkfft bench` (whose copy rate
# is the memory floor of its "% floor" column) of the vulkan CLI with every copy through
# vkCmdCopyBuffer (VKFFTGO_VULKAN_COPY=transfer) and with the default (the copy shader on
# a discrete device), beside the CUDA CLI's of this call; then the copy tests on the
# GPU's Vulkan driver. Logs: $OUT/vcopy-*.log.
vcopy_shapes=${VCOPY_SHAPES:-256x256x256,4096x4096,4096:16384}
step vcopy-cuda 300 "$B/vkfft" bench -ref-limit 0 -shapes "$vcopy_shapes"
VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"
if vulkan_setup; then
	VKFFTGO_VULKAN_COPY=transfer step vcopy-vulkan-transfer 300 "$W/vk/vkfft-vulkan" bench -ref-limit 0 -shapes "$vcopy_shapes"
	step vcopy-vulkan-shader 300 "$W/vk/vkfft-vulkan" bench -ref-limit 0 -shapes "$vcopy_shapes"
	for mb in 4 1024; do
		VKFFTGO_VULKAN_COPY=transfer step vcopy-vulkan-transfer-$mb 120 "$W/vk/vkfft-vulkan" bench -shapes 64 -copy-bytes $((mb << 20))
		step vcopy-vulkan-shader-$mb 120 "$W/vk/vkfft-vulkan" bench -shapes 64 -copy-bytes $((mb << 20))
	done
	step vcopy-vulkan-tests 300 "$W/vk/vkfft-vulkan.test" -test.count=1 -test.v \
		-test.run 'TestVulkanShaderCopy|TestBufferCopyFrom|TestConvolution|TestRepeatedTransformsDoNotLeak'
	grep -hE '^(--- FAIL|FAIL|ok|PASS|--- PASS: TestVulkanShaderCopy)' "$OUT/vcopy-vulkan-tests.log"
else
	echo "vulkan-copy: no Vulkan device"
fi
for f in "$OUT"/vcopy-*.log; do
	grep -H 'device copy rate' "$f" | sed "s|^$OUT/||"
done
