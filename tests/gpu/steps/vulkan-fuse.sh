# vulkan-fuse: the spectrometer's fused paths on Vulkan (NVIDIA's driver; VkFFT's GLSL
# rewritten) against our CUDA backend's fused default and cuFFT (baselines/psd_cufft.cu),
# complex int8, device-resident, 65536x4096, 2^20x256 and 4096x65536, in one call. Then
# the fused paths' tests on NVIDIA's Vulkan driver, with VkFFT's GLSL for this device
# kept for the rewriter's samples. Goal: Vulkan >= 0.8x our CUDA backend. What to read:
#   vulkan-fuse-table.md    GS/s per size: Vulkan auto (the path it took) and each path,
#                           CUDA's fused default, cuFFT plain and its best (callbacks),
#                           and the ratios Vulkan auto / CUDA, Vulkan best / CUDA
#   vulkan-fuse-vk.log      the Vulkan rows: "spectro N B PATH(asked) chunk=... GS/s ...
#                           psd-diff=" (each path's PSD against the first row's)
#   vulkan-fuse-cuda.log    the CUDA rows; vulkan-fuse-cufft-N.log the cuFFT ones
#   vulkan-fuse-tests.log   TestVulkanFused*, TestSpectrometer*, TestFuseRewrite* on Vulkan
#   vulkan-fuse-glsl.tgz    VkFFT's kernels and their rewrites (VKFFTGO_FUSE_DUMP)
vf_sizes=${VULKAN_FUSE_SIZES:-65536x4096,1048576x256,4096x65536}
VULKAN_SETUP_ONLY=1 source "$B/steps/vulkan.sh"

if command -v nvcc >/dev/null && [ -f "$B/baselines/psd_cufft.cu" ]; then
	step vulkan-fuse-nvcc 300 nvcc -O3 -arch=sm_90 -rdc=true "$B/baselines/psd_cufft.cu" -o "$W/psd" \
		-lcufft_static -lculibos
	for s in ${vf_sizes//,/ }; do
		step "vulkan-fuse-cufft-${s%x*}" 60 "$W/psd" "${s%x*}" "${s#*x}"
	done
else
	echo "vulkan-fuse: no nvcc or no baselines/psd_cufft.cu: no cuFFT baseline"
fi
VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_CONV=off \
	VKFFTGO_FUSE_SIZES=$vf_sizes step vulkan-fuse-cuda 300 "$B/vkfft.test" -test.count=1 -test.v -test.run '^TestFuseBench$'

if vulkan_setup; then
	VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto,companion,load,power,atomic VKFFTGO_FUSE_CHUNKS=auto \
		VKFFTGO_FUSE_CONV=off VKFFTGO_FUSE_SIZES=$vf_sizes VKFFTGO_CACHE_DIR=$W/vf-kcache \
		step vulkan-fuse-vk 400 "$W/vk/vkfft-vulkan.test" -test.count=1 -test.v -test.run '^TestFuseBench$'
	mkdir -p "$W/vf-glsl"
	VKFFTGO_FUSE_DUMP=$W/vf-glsl VKFFTGO_CACHE_DIR=$W/vf-kcache-tests step vulkan-fuse-tests 300 \
		"$W/vk/vkfft-vulkan.test" -test.count=1 -test.v \
		-test.run 'TestVulkanFused|TestVulkanRefusesFusedStages|TestSpectrometer|TestFuseRewrite'
	tar czf "$OUT/vulkan-fuse-glsl.tgz" -C "$W/vf-glsl" . 2>/dev/null
	grep -hE '^(--- FAIL|FAIL|ok|PASS)' "$OUT/vulkan-fuse-tests.log" | tail -n 10
fi

# the table: GS/s of each row, keyed by size and path
awk -v vk="$OUT/vulkan-fuse-vk.log" -v cu="$OUT/vulkan-fuse-cuda.log" -v sizes="$vf_sizes" -v out="$OUT" '
function gs(line,   w, n, i) {
	n = split(line, w, /[ \t]+/)
	for (i = 2; i <= n; i++) if (w[i] == "GS/s") return w[i - 1]
	return ""
}
function rows(file, tag,   line, w, p) {
	while ((getline line < file) > 0) {
		if (line !~ /^spectro /) continue
		split(line, w, /[ \t]+/)
		split(w[4], p, /[()]/) # PATH(asked)
		key = w[2] "x" w[3]
		v[tag, key, p[2]] = gs(line)
		took[tag, key, p[2]] = p[1]
	}
	close(file)
}
function r(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
BEGIN {
	rows(vk, "vk"); rows(cu, "cu")
	print "| N x batch | Vulkan auto | Vulkan companion | load | power | atomic | CUDA fused default | cuFFT plain | cuFFT best | Vulkan auto / CUDA | Vulkan best / CUDA | Vulkan best / cuFFT best |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	n = split(sizes, sz, ",")
	for (i = 1; i <= n; i++) {
		k = sz[i]; split(k, nb, "x")
		plain = ""; best = ""
		f = out "/vulkan-fuse-cufft-" nb[1] ".log"
		while ((getline line < f) > 0) {
			g = gs(line)
			if (g == "") continue
			if (line ~ /^plain/) plain = g
			if (best == "" || g + 0 > best + 0) best = g
		}
		close(f)
		vbest = ""
		split("companion load power atomic", ps, " ")
		for (j = 1; j <= 4; j++) if (v["vk", k, ps[j]] != "" && (vbest == "" || v["vk", k, ps[j]] + 0 > vbest + 0)) vbest = v["vk", k, ps[j]]
		printf "| %s | %s (%s) | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s |\n", k, \
			v["vk", k, "auto"], took["vk", k, "auto"], v["vk", k, "companion"], v["vk", k, "load"], \
			v["vk", k, "power"], v["vk", k, "atomic"], v["cu", k, "auto"], took["cu", k, "auto"], plain, best, \
			r(v["vk", k, "auto"], v["cu", k, "auto"]), r(vbest, v["cu", k, "auto"]), r(vbest, best)
	}
}' >"$OUT/vulkan-fuse-table.md"
cat "$OUT/vulkan-fuse-table.md"
