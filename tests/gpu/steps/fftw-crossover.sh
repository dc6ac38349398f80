# libvkfftgo_fftw3's engine choice on the GPU. Sourced by run.sh (uses step, $B, $W, $OUT,
# res). Needs fftw3/fftw3.tar.xz in the bundle (scripts/gpu-bundle-fftw3.sh).
# Unmodified ITK 5.2 (tests/itk/itk_fft), each case as a user runs it: LD_PRELOAD and no
# VKFFTGO_ variable but VKFFTGO_FFTW_LOG=1 (which only writes the decisions):
#   FFTConvolutionImageFilter 128^3 and 256^3 with a 15^3 kernel, and the 256^3
#   ForwardFFTImageFilter/InverseFFTImageFilter pair, each run
#     xover-cold-*    the cost rule in a fresh cache directory: the crossover's
#                     measurements and the kernels' compile fall in the first Update
#     xover-warm-*    the cost rule again, with what the cold run cached
#     xover-legacy-*  VKFFTGO_FFTW_CROSSOVER=legacy: the former size threshold
#     xover-fftw-*    as built: FFTW alone
# Read $OUT/xover-summary.log: per run the first Update, the median of the rest, and the
# engines the log shows with each problem's first logged decision and costs.
# XOVER_N / XOVER_M (default 256 / 128) shrink the sizes for a dry run elsewhere;
# XOVER_CASES (e.g. "fft-256") runs only the cases it names.
xover_step() {
	local F=$W/fftw3 L n=${XOVER_N:-256} m=${XOVER_M:-128}
	if [ ! -f "$B/fftw3/fftw3.tar.xz" ]; then
		echo "fftw-crossover: the bundle has no fftw3/fftw3.tar.xz (make gpu-bundle on a machine with ITK)"
		res[fftw-crossover]="rc=1 missing fftw3.tar.xz"
		return
	fi
	[ -d "$F" ] || { mkdir -p "$F" && tar -xJf "$B/fftw3/fftw3.tar.xz" -C "$F"; }
	L=$F/lib
	local lib="$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	if LD_LIBRARY_PATH=$lib ldd "$F/bin/itk_fft" 2>&1 | grep -q 'GLIBCXX.*not found'; then
		lib="$L:$F/compat${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	fi
	local pre="$L/libvkfftgo_fftw3.so.0" cache="$W/xover-cache"
	rm -rf "$cache"
	# no VKFFTGO_ variable from run.sh either (it sets VKFFTGO_CACHE_DIR); the cache is
	# the default one under XDG_CACHE_HOME, fresh for the cold runs; ITK reads and writes
	# no wisdom file in this machine's home
	local base=(env -u VKFFTGO_CACHE_DIR "LD_LIBRARY_PATH=$lib" "XDG_CACHE_HOME=$cache"
		ITK_FFTW_READ_WISDOM_CACHE=n ITK_FFTW_WRITE_WISDOM_CACHE=n)
	local gpu=("${base[@]}" "LD_PRELOAD=$pre" VKFFTGO_FFTW_LOG=1)
	local cases=("conv-$m:bench $m 15 3 conv" "conv-$n:bench $n 15 1 conv" "fft-$n:bench $n 15 5 fft")
	local c name args
	for c in "${cases[@]}"; do
		name=${c%%:*} args=${c#*:}
		[[ " ${XOVER_CASES:-$name} " == *" $name "* ]] || continue
		rm -rf "$cache" # every case starts cold: its own measurements and compiles
		# shellcheck disable=SC2086
		step "xover-cold-$name" 300 "${gpu[@]}" "$F/bin/itk_fft" $args
		# shellcheck disable=SC2086
		step "xover-warm-$name" 300 "${gpu[@]}" "$F/bin/itk_fft" $args
		# shellcheck disable=SC2086
		step "xover-legacy-$name" 300 "${gpu[@]}" VKFFTGO_FFTW_CROSSOVER=legacy "$F/bin/itk_fft" $args
		# shellcheck disable=SC2086
		step "xover-fftw-$name" 300 "${base[@]}" "$F/bin/itk_fft" $args
	done
	step xover-summary 30 bash -c "cd '$OUT'; F='$F'; n=$n; m=$m; $(declare -f xover_summary); xover_summary"
	cat "$OUT/xover-summary.log"
}

# The table; every figure from this run's logs.
xover_summary() {
	local c run log
	echo "fftw-crossover: $( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo no nvidia-smi) | head -n1), $(nproc) host threads"
	for c in "conv-$m" "conv-$n" "fft-$n"; do
		echo "== ITK $c (per Update: the first, then the median of the rest)"
		for run in cold warm legacy fftw; do
			log=xover-$run-$c.log
			[ -f "$log" ] || continue
			local first median engines
			first=$(sed -n 's/^bench .* round 0: //p' "$log" | head -n1)
			median=$(grep -h '^RESULT' "$log" | tail -n1 | sed 's/^RESULT //')
			engines="$(grep -c -- ' -> gpu' "$log") plans on the GPU, $(grep -c -- ' -> fftw' "$log") on FFTW"
			printf '   %-7s first Update %s; %s; %s\n' "$run" "${first:--}" "${median:--}" "$engines"
		done
		echo "   measured by the cold run:"
		grep -h 'crossover: ' "xover-cold-$c.log" | sed 's/^vkfftgo-fftw3: /      /'
		echo "   decisions (the cold run's first and last plan of each problem):"
		grep -h -- ' -> ' "xover-cold-$c.log" | sed 's/^vkfftgo-fftw3: //' |
			awk '{ p = $0; sub(/ -> .*/, "", p); if (!(p in first)) { first[p] = $0; order[++k] = p } last[p] = $0 }
			     END { for (i = 1; i <= k; i++) { print "      " first[order[i]]; if (last[order[i]] != first[order[i]]) print "      " last[order[i]] } }'
		echo "   legacy rule:"
		grep -h -- ' -> ' "xover-legacy-$c.log" | sed 's/^vkfftgo-fftw3: /      /' | head -n 2
		awk -f "$F/decisions.awk" "xover-cold-$c.log" "xover-warm-$c.log" | tail -n 1 | sed 's/^/   consistency (cold + warm): /'
	done
}

xover_step
