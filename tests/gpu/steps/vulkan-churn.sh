# Plan create/close churn on the GPU's Vulkan driver (host memory grew by ~114 KB
# per plan on the H200), sourced by run.sh; run it alone with `run.sh vulkan-churn`.
# TestVulkanPlanChurnDoesNotLeak only, with 1,000 and then 5,000 plans per window
# (VKFFTGO_LEAK_ROUNDS / 4): after a warm-up it measures two equal windows, A and B, and
# prints for each the C heap's and the RSS's growth per plan (readings taken after Go and
# glibc gave memory back). A leak grows as much in B as in A, and does not shrink per plan
# when the window is five times longer; caching grows in A and then stops. The test fails
# when B's C heap grows by more than 384 KiB + 1 KiB per plan, or its RSS by more than
# 8 MiB + 16 KiB per plan. Logs: $OUT/vulkan-churn-*.log. VULKAN_CHURN_ROUNDS="4000 20000"
# (the default) sets the runs.
vulkan_churn_step() {
	local n bad=
	if ! vulkan_setup; then
		res[vulkan-churn]="rc=1 no Vulkan device"
		return 1
	fi
	for n in ${VULKAN_CHURN_ROUNDS:-4000 20000}; do
		VKFFTGO_LEAK_ROUNDS=$n step vulkan-churn-$n 600 "$W/vk/vkfft-vulkan.test" -test.count=1 -test.v \
			-test.timeout=9m -test.run '^TestVulkanPlanChurnDoesNotLeak$' || bad="$bad $n"
	done
	grep -hE 'plan churn:|backend buffers|memory_budget|Error:|Messages:' "$OUT"/vulkan-churn-*.log
	if [ -n "$bad" ]; then
		res[vulkan-churn]="rc=1 failed:$bad"
		return 1
	fi
	res[vulkan-churn]="rc=0 (see vulkan-churn-*)"
}

VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"
vulkan_churn_step
