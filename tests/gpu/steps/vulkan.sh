# The Vulkan backend on the GPU, sourced by run.sh: device probe, the benchmark
# with cold plans and then plans from the disk cache (fresh processes), the same figures
# from the CUDA backend and cuFFT of this call side by side, the vulkan-tagged tests and
# the leak test at 10,000 round trips (plan churn at length: vulkan-churn.sh), and the
# spectrometer's default and companion paths (GS/s; its fused paths: vulkan-fuse.sh).
# Logs: $OUT/vulkan-*.log; table: $OUT/vulkan-table.md.
# VULKAN_BENCH_ONLY=NAME limits the benchmarks to shapes whose name contains NAME.
# vulkan_setup unpacks the Vulkan binaries into $W/vk, installs the loader where the
# machine has none and points it at NVIDIA's ICD; it fails when no NVIDIA device shows.
vulkan_setup() {
	local V=$B/vulkan VK=$W/vk f j
	if [ ! -f "$V/vkfft-vulkan.test.gz" ]; then
		echo "vulkan: no vulkan binaries in the bundle (make gpu-bundle builds them)"
		res[vulkan]="rc=1 no binaries"
		return 1
	fi
	mkdir -p "$VK"
	for f in vkfft-vulkan.test bench-vulkan vkfft-vulkan; do
		[ -f "$V/$f.gz" ] && gzip -dc "$V/$f.gz" >"$VK/$f" && chmod +x "$VK/$f"
	done

	# The Vulkan loader and glvnd (NVIDIA's Vulkan driver needs them for vkCreateInstance):
	# the bundle's .debs, else the .gl folder beside it (device README), unpacked into /.
	if ! ldconfig -p | grep -q 'libvulkan\.so\.1 '; then
		local debs
		debs=$(ls "$V"/debs/*.deb 2>/dev/null || ls "$B"/../.gl/*.deb 2>/dev/null || true)
		echo "vulkan: no libvulkan.so.1 here; unpacking $(echo $debs | wc -w) loader/glvnd .debs into /"
		for f in $debs; do dpkg -x "$f" /; done
		ldconfig
	fi
	ldconfig -p | grep -E 'libvulkan\.so\.1 |libGLX\.so\.0 |libGLdispatch' | sed 's/^/vulkan: /'

	# Device presence: the test binary opens device 0 before any test. No device, or not
	# the NVIDIA GPU (llvmpipe listed first, say): point the loader at NVIDIA's ICD manifest.
	vulkan_probe() { "$VK/vkfft-vulkan.test" -test.run '^TestVulkanDeviceInfo$' -test.v >"$OUT/vulkan-probe.log" 2>&1; }
	if ! vulkan_probe || { [ -e /dev/nvidia0 ] && ! grep -q 'device 0: .*NVIDIA' "$OUT/vulkan-probe.log"; }; then
		echo "vulkan: no NVIDIA device 0 with the default loader search:"; tail -n 3 "$OUT/vulkan-probe.log"
		for j in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
			/etc/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/etc/vulkan/icd.d/nvidia_icd.json; do
			if [ -f "$j" ]; then export VK_DRIVER_FILES=$j; break; fi
		done
		j=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
		[ -f "$j" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$j
		echo "vulkan: VK_DRIVER_FILES=${VK_DRIVER_FILES:-<no nvidia_icd.json found>}"
		if ! vulkan_probe; then
			cat "$OUT/vulkan-probe.log"
			ls -la /usr/local/nvidia/share/vulkan/icd.d /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>&1 | sed 's/^/vulkan: /'
			res[vulkan]="rc=1 no Vulkan device"
			return 1
		fi
	fi
	grep -h 'device 0:' "$OUT/vulkan-probe.log"
}

vulkan_step() {
	local VK=$W/vk
	vulkan_setup || return 1

	# Plans: cold into an empty kernel cache, then from it in a second process.
	local only=${VULKAN_BENCH_ONLY:+-only=$VULKAN_BENCH_ONLY}
	VKFFTGO_CACHE_DIR=$W/vk-kcache step vulkan-bench-cold 600 "$VK/bench-vulkan" -lut=false $only
	VKFFTGO_CACHE_DIR=$W/vk-kcache step vulkan-bench-disk 300 "$VK/bench-vulkan" -lut=false -alloc=false $only
	# the CUDA backend's figures of this call (the bench step's, or our own run)
	if ! grep -q '^binding 256\^3 ' "$OUT/bench.log" 2>/dev/null; then
		VKFFTGO_CACHE_DIR=$W/vk-cuda-kcache step vulkan-cuda-bench 600 "$B/bench" -lut=false -alloc=false $only
		cp "$OUT/vulkan-cuda-bench.log" "$W/cuda-bench.log"
	else
		cp "$OUT/bench.log" "$W/cuda-bench.log"
	fi
	# cuFFT (the baselines step's, or our own run)
	if ! grep -q '^c2c 3d 256^3 fp32 |' "$OUT/cufft.log" 2>/dev/null && [ -f "$B/baselines/cufft_peers.py" ]; then
		PYTHONUNBUFFERED=1 PEERS_GPU_ONLY=1 step vulkan-cufft 300 python3 "$B/baselines/cufft_peers.py"
		cp "$OUT/vulkan-cufft.log" "$W/cufft.log"
	else
		cp "$OUT/cufft.log" "$W/cufft.log" 2>/dev/null || : >"$W/cufft.log"
	fi
	vulkan_table >"$OUT/vulkan-table.md"
	cat "$OUT/vulkan-table.md"

	step vulkan-tests 900 "$VK/vkfft-vulkan.test" -test.count=1 -test.timeout=14m -test.v
	# plan create/close churn at length is a step of its own (vulkan-churn.sh)
	VKFFTGO_LEAK_ROUNDS=10000 step vulkan-leak 600 "$VK/vkfft-vulkan.test" -test.count=1 -test.v \
		-test.run 'TestRepeatedTransformsDoNotLeak'
	# the spectrometer on Vulkan (its default, a fused path, and the companion kernels:
	# int8 convert, FFT, |X|^2 sums with float atomics), device-resident and from host
	# memory, GS/s per size; beside it the CUDA backend's companion rows of the fuse step of
	# this call, when it ran (every fused path against CUDA and cuFFT: step vulkan-fuse)
	VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto,companion VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_CONV=off \
		step vulkan-fuse-bench 600 "$VK/vkfft-vulkan.test" -test.count=1 -test.v -test.run '^TestFuseBench$'
	grep -hE '^spectro(-host)? ' "$OUT/vulkan-fuse-bench.log" | sed 's/^/vulkan spectrometer: /'
	grep -hE '^spectro(-host)? .*companion' "$OUT/fuse-bench.log" 2>/dev/null | sed 's/^/cuda spectrometer: /'
	grep -hE '^(--- FAIL|FAIL|ok|PASS)' "$OUT/vulkan-tests.log" | tail -n 20
	grep -hE 'round trips|memory_budget|drift' "$OUT/vulkan-leak.log"
	local k bad=
	for k in "${!res[@]}"; do
		case $k in vulkan-*) [[ ${res[$k]} == rc=0* ]] || bad="$bad $k" ;; esac
	done
	if [ -n "$bad" ]; then
		res[vulkan]="rc=1 failed:$bad"
		return 1
	fi
	res[vulkan]="rc=0 (see vulkan-*)"
}

# vulkan_table prints fwd+inv per shape (device-resident), cold plan and plan from disk,
# host round trips and the per-call cost, Vulkan against CUDA and cuFFT of this call.
vulkan_table() {
	awk -v cold="$OUT/vulkan-bench-cold.log" -v disk="$OUT/vulkan-bench-disk.log" \
		-v cuda="$W/cuda-bench.log" -v cufft="$W/cufft.log" '
	function read_bench(file, dev, plan, host,   line, w, q) {
		while ((getline line < file) > 0) {
			n = split(line, w, /[ \t]+/)
			if (w[1] == "binding" && w[3] == "cold" && w[4] == "plan") {
				plan[w[2]] = w[5]; dev[w[2]] = w[9]; host[w[2]] = w[14]
			}
			if (line ~ /^binding small 1-D 1024:/) { split(line, q, /[ ,]+/); dev["enq"] = q[6]; dev["syn"] = q[9] }
		}
		close(file)
	}
	BEGIN {
		read_bench(cold, vdev, vcold, vhost)
		read_bench(disk, ddev, vdisk, dhost)
		read_bench(cuda, cdev, ccold, chost)
		map["c2c 3d 256^3 fp32"] = "256^3"; map["c2c 3d 512^3 fp32"] = "512^3"
		map["c2c 2d 4096^2 fp32"] = "4096^2"; map["c2c 1d 4096 x16384 fp32"] = "4096x16384"
		map["c2c 3d 256^3 fp64"] = "256^3-c128"
		while ((getline line < cufft) > 0) {
			n = split(line, w, / \| /)
			if (n >= 3 && (w[1] in map)) fft[map[w[1]]] = w[3]
		}
		print "| shape | Vulkan fwd+inv (ms) | CUDA fwd+inv (ms) | cuFFT fwd+inv (ms) | Vulkan / CUDA | Vulkan / cuFFT | Vulkan cold plan (ms) | Vulkan plan from disk (ms) | CUDA cold plan (ms) | Vulkan host round trip (ms) | CUDA host round trip (ms) |"
		print "|---|---|---|---|---|---|---|---|---|---|---|"
		split("256^3 512^3 4096^2 4096x16384 256^3-c128", order, " ")
		for (i = 1; i <= 5; i++) {
			k = order[i]
			if (!(k in vdev)) continue
			r1 = (k in cdev) && cdev[k] > 0 ? sprintf("%.3f", vdev[k] / cdev[k]) : "-"
			r2 = (k in fft) && fft[k] > 0 ? sprintf("%.3f", vdev[k] / fft[k]) : "-"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k, vdev[k], \
				(k in cdev) ? cdev[k] : "-", (k in fft) ? fft[k] : "-", r1, r2, vcold[k], \
				(k in vdisk) ? vdisk[k] : "-", (k in ccold) ? ccold[k] : "-", vhost[k], (k in chost) ? chost[k] : "-"
		}
		print ""
		print "| small 1-D 1024 on a device buffer | Vulkan (us/call) | CUDA (us/call) |"
		print "|---|---|---|"
		printf "| enqueue only | %s | %s |\n", vdev["enq"], ("enq" in cdev) ? cdev["enq"] : "-"
		printf "| enqueue + synchronize | %s | %s |\n", vdev["syn"], ("syn" in cdev) ? cdev["syn"] : "-"
	}'
}

# steps/vulkan-tune.sh and vulkan-churn.sh source this file for vulkan_setup only
[ -n "${VULKAN_SETUP_ONLY:-}" ] || vulkan_step
