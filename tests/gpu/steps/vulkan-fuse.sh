# vulkan-fuse: the spectrometer's fused paths on Vulkan (NVIDIA's driver; VkFFT's GLSL
# rewritten, and the direct kernels as GLSL), group sums included, against our CUDA
# backend's default (the direct kernels) and cuFFT (baselines/psd_cufft.cu), complex
# int8, device-resident, 65536x4096, 2^20x256, 4096x65536 and 1024x262144, in one call
# (VULKAN_FUSE_SIZES, VULKAN_FUSE_FUSIONS and VULKAN_FUSE_GROUP=off narrow it). Then the fused paths' tests on NVIDIA's Vulkan driver, with
# VkFFT's GLSL for this device kept for the rewriter's samples. Goal: Vulkan >= 0.8x our
# CUDA backend. What to read:
#   vulkan-fuse-table.md    GS/s per size: Vulkan auto (the path it took) and each path,
#                           the direct kernels included, CUDA's default, cuFFT plain and its best (callbacks),
#                           and the ratios Vulkan auto / CUDA, Vulkan best / CUDA; then
#                           the Vulkan group sums: default, tuned (the choice in brackets)
#                           and off (an atomic add per element), their ratios to CUDA's
#                           fused default and the PSD's error against float64
#   vulkan-fuse-vk.log      the Vulkan rows: "spectro N B PATH(asked) chunk=... GS/s ...
#                           psd-diff=" (each path's PSD against the first row's), "group N
#                           B sweep SUM xK ... GS/s err=E" (the tuning's candidates; a
#                           shared sum refused on this device falls back to registers)
#   vulkan-fuse-cuda.log    the CUDA rows; vulkan-fuse-cufft-N.log the cuFFT ones
#   vulkan-fuse-tests.log   TestVulkanFused*, TestSpectrometer*, TestFuseRewrite* on Vulkan
#   vulkan-fuse-glsl.tgz    VkFFT's kernels and their rewrites (VKFFTGO_FUSE_DUMP)
#   vulkan-fuse-noatomics.log  the rows with the device's float atomics hidden
#                           (VKFFTGO_VULKAN_FLOAT_ATOMICS=0): FusionAuto, the direct
#                           kernels' rows, the power store
vf_sizes=${VULKAN_FUSE_SIZES:-65536x4096,1048576x256,4096x65536,1024x262144}
vf_fusions=${VULKAN_FUSE_FUSIONS:-auto,companion,load,power,atomic,direct}
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
# CUDA's group sums are step fuse's sweep: here its fused default only
VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_CONV=off VKFFTGO_FUSE_GROUP=off \
	VKFFTGO_FUSE_HOST=off VKFFTGO_FUSE_SIZES=$vf_sizes step vulkan-fuse-cuda 300 "$B/vkfft.test" -test.count=1 -test.v -test.run '^TestFuseBench$'

if vulkan_setup; then
	VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=$vf_fusions VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_GROUP=${VULKAN_FUSE_GROUP:-} \
		VKFFTGO_FUSE_CONV=off VKFFTGO_FUSE_HOST=off VKFFTGO_TUNE_BUDGET=30s VKFFTGO_FUSE_SIZES=$vf_sizes \
		VKFFTGO_CACHE_DIR=$W/vf-kcache step vulkan-fuse-vk 500 "$W/vk/vkfft-vulkan.test" -test.count=1 -test.v -test.run '^TestFuseBench$'
	mkdir -p "$W/vf-glsl"
	VKFFTGO_FUSE_DUMP=$W/vf-glsl VKFFTGO_CACHE_DIR=$W/vf-kcache-tests step vulkan-fuse-tests 300 \
		"$W/vk/vkfft-vulkan.test" -test.count=1 -test.v \
		-test.run 'TestVulkanFused|TestVulkanRefusesFusedStages|TestSpectrometer|TestFuseRewrite|TestFuseGroup|TestFusedGroup'
	tar czf "$OUT/vulkan-fuse-glsl.tgz" -C "$W/vf-glsl" . 2>/dev/null
	# the device's float atomics hidden, as on a GPU without them: the direct kernels'
	# rows and the power store, whose sum kernels write rows too (VULKAN_FUSE_NOATOMICS=off
	# leaves it out)
	if [ "${VULKAN_FUSE_NOATOMICS:-}" != off ]; then
		VKFFTGO_VULKAN_FLOAT_ATOMICS=0 VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto,direct,power VKFFTGO_FUSE_CHUNKS=auto \
			VKFFTGO_FUSE_GROUP=off VKFFTGO_FUSE_CONV=off VKFFTGO_FUSE_HOST=off \
			VKFFTGO_FUSE_SIZES=${VULKAN_FUSE_NOATOMICS_SIZES:-16x16777216,256x1048576,1024x262144,4096x65536,65536x4096} \
			VKFFTGO_CACHE_DIR=$W/vf-kcache-noatomics step vulkan-fuse-noatomics 300 "$W/vk/vkfft-vulkan.test" \
			-test.count=1 -test.v -test.run '^TestFuseBench$'
		grep -h 'GS/s' "$OUT/vulkan-fuse-noatomics.log" | sed -E 's/tuning=0:0:0 shared=0 order=auto //'
	fi
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
	print "| N x batch | Vulkan auto | Vulkan companion | load | power | atomic | direct | CUDA default | cuFFT plain | cuFFT best | Vulkan auto / CUDA | Vulkan best / CUDA | Vulkan best / cuFFT best |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
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
		split("companion load power atomic direct", ps, " ")
		for (j = 1; j <= 5; j++) if (v["vk", k, ps[j]] != "" && (vbest == "" || v["vk", k, ps[j]] + 0 > vbest + 0)) vbest = v["vk", k, ps[j]]
		printf "| %s | %s (%s) | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s |\n", k, \
			v["vk", k, "auto"], took["vk", k, "auto"], v["vk", k, "companion"], v["vk", k, "load"], \
			v["vk", k, "power"], v["vk", k, "atomic"], v["vk", k, "direct"], v["cu", k, "auto"], took["cu", k, "auto"], plain, best, \
			r(v["vk", k, "auto"], v["cu", k, "auto"]), r(vbest, v["cu", k, "auto"]), r(vbest, best)
	}
}' >"$OUT/vulkan-fuse-table.md"
# the Vulkan group sums: "group N B default|tuned|off CHOICE (SOURCE, fusion F) MS ms GS GS/s err=E"
[ "${VULKAN_FUSE_GROUP:-}" != off ] && awk -v vk="$OUT/vulkan-fuse-vk.log" -v cu="$OUT/vulkan-fuse-cuda.log" -v sizes="$vf_sizes" '
function gs(line,   w, n, i) {
	n = split(line, w, /[ \t]+/)
	for (i = 2; i <= n; i++) if (w[i] == "GS/s") return w[i - 1]
	return ""
}
function r(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-" }
BEGIN {
	while ((getline line < cu) > 0) {
		if (line !~ /^spectro /) continue
		split(line, w, /[ \t]+/)
		if (w[4] ~ /\(auto\)/) cuda[w[2] "x" w[3]] = gs(line)
	}
	while ((getline line < vk) > 0) {
		if (line !~ /^group [0-9]+ [0-9]+ (default|tuned|off) /) continue
		split(line, w, /[ \t]+/)
		k = w[2] "x" w[3]
		choice = line; sub(/^group [0-9]+ [0-9]+ [a-z]+ /, "", choice); sub(/ \(.*/, "", choice)
		g[k, w[4]] = gs(line); c[k, w[4]] = choice
		e = line; sub(/.*err=/, "", e)
		if (!(k in err) || e + 0 > err[k] + 0) err[k] = e
	}
	print ""
	print "| N x batch | Vulkan group default | tuned | off | CUDA fused default | default / CUDA | tuned / CUDA | max err |"
	print "|---|---|---|---|---|---|---|---|"
	n = split(sizes, sz, ",")
	for (i = 1; i <= n; i++) {
		k = sz[i]
		printf "| %s | %s (%s) | %s (%s) | %s | %s | %s | %s | %s |\n", k, g[k, "default"], c[k, "default"], \
			g[k, "tuned"], c[k, "tuned"], g[k, "off"], cuda[k], r(g[k, "default"], cuda[k]), r(g[k, "tuned"], cuda[k]), err[k]
	}
}' >>"$OUT/vulkan-fuse-table.md"
cat "$OUT/vulkan-fuse-table.md"
