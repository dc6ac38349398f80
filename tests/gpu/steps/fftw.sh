# libvkfftgo_fftw3 on the GPU. Sourced by run.sh (uses step, $B, $W, $OUT, res).
# Needs fftw3/fftw3.tar.xz in the bundle (scripts/gpu-bundle-fftw3.sh, via make gpu-bundle).
#   fftw-preload   an FFTW program as built vs LD_PRELOAD=libvkfftgo_fftw3 (results agree)
#   fftw-verify-*  FFTW's own verifier (bench --verify) on the GPU, single and double
#   fftw-bench-*   FFTW's 256^3 r2c+c2r: FFTW on all cores vs preloaded (same binary)
#   itk-*          unmodified ITK 5.2: 256^3 float forward+inverse per Update(), and
#                  FFTConvolutionImageFilter 256^3 and 128^3 with a 15^3 kernel: as built
#                  (FFTW, all cores), preloaded (GPU), and preloaded with every plan on
#                  FFTW (VKFFTGO_FFTW_MIN_SIZE huge) to split FFT time from ITK's own work
# Read $OUT/fftw-summary.log (printed last): the timing table against the anchors.
# FFTW_STEP_N / FFTW_STEP_M (default 256 / 128) shrink the sizes for a dry run elsewhere.
fftw_step() {
	local F=$W/fftw3 L nth n=${FFTW_STEP_N:-256} m=${FFTW_STEP_M:-128}
	if [ ! -f "$B/fftw3/fftw3.tar.xz" ]; then
		echo "fftw: the bundle has no fftw3/fftw3.tar.xz (make gpu-bundle on a machine with ITK: make setup ITK=1)"
		res[fftw]="rc=1 missing fftw3.tar.xz"
		return
	fi
	mkdir -p "$F" && tar -xJf "$B/fftw3/fftw3.tar.xz" -C "$F"
	L=$F/lib
	nth=$(nproc)
	local lib="$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	# bookworm's libstdc++ only where the host's is older than what ITK was built with
	if LD_LIBRARY_PATH=$lib ldd "$F/bin/itk_fft" 2>&1 | grep -q 'GLIBCXX.*not found'; then
		lib="$L:$F/compat${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		echo "fftw: the host's libstdc++ is older than ITK needs; using the bundle's"
	fi
	local pre="$L/libvkfftgo_fftw3.so.0" huge=999999999999999
	# ITK must not read or write FFTW wisdom files in this machine's home
	local base=(env "LD_LIBRARY_PATH=$lib" ITK_FFTW_READ_WISDOM_CACHE=n ITK_FFTW_WRITE_WISDOM_CACHE=n)
	local gpu=("${base[@]}" "LD_PRELOAD=$pre" VKFFTGO_FFTW_LOG=2 VKFFTGO_FFTW_STATS=1)
	local cpu=("${gpu[@]}" "VKFFTGO_FFTW_MIN_SIZE=$huge")
	LD_LIBRARY_PATH=$lib ldd "$F/bin/itk_fft" "$pre" | grep 'not found' && echo "fftw: MISSING LIBRARIES (above)"

	step fftw-preload 300 bash -c "cd '$W' &&
		env LD_LIBRARY_PATH='$lib' '$F/bin/preload' p-fftw.out 96 &&
		env LD_LIBRARY_PATH='$lib' LD_PRELOAD='$pre' VKFFTGO_FFTW_MIN_SIZE=4096 VKFFTGO_FFTW_LOG=1 '$F/bin/preload' p-gpu.out 96 &&
		env LD_LIBRARY_PATH='$lib' '$F/bin/preload' compare p-fftw.out p-gpu.out"

	local probs vrc=""
	probs=$(sed -e '/^#/d' -e '/^ *$/d' -e '/# fftw/d' -e 's/ *#.*//' -e 's/^/--verify /' "$F/verify-problems.txt" | tr '\n' ' ')
	for prec in single double; do
		step fftw-verify-$prec 300 env "LD_LIBRARY_PATH=$lib" VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1 \
			"$F/bin/bench-$prec" -v1 $probs
		vrc="$vrc $prec:${res[fftw-verify-$prec]%% *}"
		echo "fftw-verify-$prec: $(awk 'NF == 4 && $2 ~ /^[0-9.e+-]+$/' "$OUT/fftw-verify-$prec.log" | wc -l) problems verified," \
			"$(grep -c -- '-> gpu' "$OUT/fftw-verify-$prec.log") GPU plans, $(grep -cE -- '-> (fftw|NULL)' "$OUT/fftw-verify-$prec.log") elsewhere"
	done

	step fftw-bench-fftw 300 "${base[@]}" "$F/bin/fftbench" "$n" 10 "$nth"
	step fftw-bench-gpu 300 "${gpu[@]}" VKFFTGO_FFTW_LOG=1 "$F/bin/fftbench" "$n" 10 "$nth"

	# The GPU runs plan with the threshold measured above (fftw-bench-gpu). Should it keep
	# ITK's plans on FFTW, the run is repeated with every plan on the GPU (NAME-forced),
	# so this one run still times the GPU; the summary then says so.
	gpurun() {
		local name=$1
		shift
		step "$name" 300 "${gpu[@]}" "$@"
		if ! grep -q -- '-> gpu' "$OUT/$name.log"; then
			echo "fftw: $name: no plan went to the GPU with the measured threshold; again with VKFFTGO_FFTW_MIN_SIZE=0"
			step "$name-forced" 300 "${gpu[@]}" VKFFTGO_FFTW_MIN_SIZE=0 "$@"
			cp "$OUT/$name-forced.log" "$OUT/$name.log"
		fi
	}
	step itk-fft-fftw 300 "${base[@]}" "$F/bin/itk_fft" bench "$n" 15 10 fft
	gpurun itk-fft-gpu "$F/bin/itk_fft" bench "$n" 15 10 fft
	step itk-fft-split 300 "${cpu[@]}" "$F/bin/itk_fft" bench "$n" 15 5 fft
	step itk-conv-m-fftw 300 "${base[@]}" "$F/bin/itk_fft" bench "$m" 15 3 conv
	gpurun itk-conv-m-gpu "$F/bin/itk_fft" bench "$m" 15 3 conv
	step itk-conv-m-split 300 "${cpu[@]}" "$F/bin/itk_fft" bench "$m" 15 2 conv
	step itk-conv-n-fftw 300 "${base[@]}" "$F/bin/itk_fft" bench "$n" 15 1 conv
	gpurun itk-conv-n-gpu "$F/bin/itk_fft" bench "$n" 15 3 conv
	step itk-conv-n-split 300 "${cpu[@]}" "$F/bin/itk_fft" bench "$n" 15 1 conv

	# Per Update (round >= 1): the filter's time, and how much of it our library spent in
	# planning + executing (LOG=2 lines); the rest is ITK's own work. Medians over rounds.
	cat >"$W/split.awk" <<'AWK'
/vkfftgo-fftw3: execute .* ms$/ { fft += $(NF-1) }
/planned in [0-9.]+ ms/ { match($0, /planned in [0-9.]+ ms/); s = substr($0, RSTART + 11); fft += s + 0 }
/^bench (fft|conv) .* round [0-9]+:/ {
	if ($1 == "bench" && $2 == "fft") { split($0, a, "forward "); t = a[2] + 0; split($0, b, "inverse "); t += b[2] + 0 }
	else { split($0, a, ": "); t = a[2] + 0 }
	r = $0; sub(/.* round /, "", r); r += 0
	if (r >= 1) { n++; tot[n] = t; eng[n] = fft }
	fft = 0
}
function med(x, k,   i, j, y, tmp) { for (i = 1; i <= k; i++) y[i] = x[i]; for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (y[j] < y[i]) { tmp = y[i]; y[i] = y[j]; y[j] = tmp } return y[int((k + 1) / 2)] }
END { if (n) printf "%.1f %.1f %.1f\n", med(tot, n), med(eng, n), med(tot, n) - med(eng, n); else print "- - -" }
AWK
	step fftw-summary 30 bash -c "cd '$OUT'; W='$W'; VRC='$vrc'; n=$n; m=$m; $(declare -f fftw_summary); fftw_summary"
	cat "$OUT/fftw-summary.log"
}

# The table; every figure from this run's logs.
fftw_summary() {
	r() { grep -h "^RESULT $2" "$1.log" 2>/dev/null | tail -n1; }
	num() { sed -n "s/.*$2 \([0-9.]*\) ms.*/\1/p" <<<"$1" | head -n1; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", a / b; else print "-" }'; }
	sp() { awk -f "$W/split.awk" "$1.log"; }
	echo "fftw step: $( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo no nvidia-smi) | head -n1), $(nproc) host threads"
	echo "== FFTW's verifier on the GPU"
	for p in single double; do
		echo "   $p: $(awk 'NF == 4 && $2 ~ /^[0-9.e+-]+$/' fftw-verify-$p.log | wc -l) problems passed ($(tr ' ' '\n' <<<"$VRC" | grep "^$p:" | cut -d: -f2); rc=0 means all), worst error $(awk 'NF == 4 && $2 ~ /^[0-9.e+-]+$/ { for (i = 2; i <= 4; i++) if ($i + 0 > m) m = $i + 0 } END { printf "%.2e", m }' fftw-verify-$p.log)"
	done
	echo "== an FFTW program, $n^3 float r2c+c2r (fftbench, same binary)"
	local a b
	a=$(r fftw-bench-fftw "fftbench $n^3 f32 estimate threads [0-9]* kept"); b=$(r fftw-bench-gpu "fftbench $n^3 f32 estimate threads [0-9]* kept")
	echo "   kept plan:    FFTW $(num "$a" pair) ms, preloaded $(num "$b" pair) ms -> $(ratio "$(num "$a" pair)" "$(num "$b" pair)")"
	a=$(r fftw-bench-fftw "fftbench $n^3 f32 estimate threads [0-9]* ITK"); b=$(r fftw-bench-gpu "fftbench $n^3 f32 estimate threads [0-9]* ITK")
	echo "   ITK pattern:  FFTW $(num "$a" pair) ms, preloaded $(num "$b" pair) ms -> $(ratio "$(num "$a" pair)" "$(num "$b" pair)") (plan+execute+destroy per call)"
	echo "== ITK 5.2, $n^3 float, per filter Update() (median of rounds after the first)"
	a=$(r itk-fft-fftw "fft"); b=$(r itk-fft-gpu "fft")
	echo "   forward:         FFTW $(num "$a" 'forward median') ms, vkfftgo $(num "$b" 'forward median') ms   (anchor FFTW 105-121 ms)"
	echo "   inverse:         FFTW $(num "$a" 'inverse median') ms, vkfftgo $(num "$b" 'inverse median') ms   (anchor FFTW 55-61 ms)"
	echo "   forward+inverse: FFTW $(num "$a" 'pair median') ms, vkfftgo $(num "$b" 'pair median') ms -> $(ratio "$(num "$a" 'pair median')" "$(num "$b" 'pair median')") (goal >= 5x)"
	echo "   first Update with vkfftgo (cold: device, threshold, kernel compile): $(sed -n 's/.*round 0: \(.*\)/\1/p' itk-fft-gpu.log | head -n1)"
	for c in n m; do
		a=$(r itk-conv-$c-fftw "conv"); b=$(r itk-conv-$c-gpu "conv")
		echo "== ITK FFTConvolutionImageFilter ${!c}^3, 15^3 kernel (double-precision FFTs inside)"
		echo "   FFTW $(num "$a" median) ms, vkfftgo $(num "$b" median) ms -> $(ratio "$(num "$a" median)" "$(num "$b" median)") (goal >= 10x; anchor FFTW at 256^3 18.6-19.1 s, at 128^3 3.6 s)"
	done
	echo "== where the time goes: per Update, total = in libvkfftgo_fftw3 (plan + execute) + ITK's own work, ms"
	for s in itk-fft-split:"fwd+inv $n, FFTW" itk-fft-gpu:"fwd+inv $n, GPU " itk-conv-n-split:"conv $n,    FFTW" itk-conv-n-gpu:"conv $n,    GPU " itk-conv-m-split:"conv $m,    FFTW" itk-conv-m-gpu:"conv $m,    GPU "; do
		set -- $(sp "${s%%:*}")
		echo "   ${s#*:}: total $1 = FFT $2 + ITK $3"
	done
	echo "== engines and plan cache (GPU runs)"
	grep -h 'stats:' itk-fft-gpu.log itk-conv-n-gpu.log | sed 's/^/   /'
	grep -h 'threshold: ' fftw-bench-gpu.log itk-fft-gpu.log | sed 's/^/   measured /'
	ls itk-*-forced.log >/dev/null 2>&1 && echo "   NOTE: the measured threshold kept ITK's plans on FFTW: $(ls itk-*-forced.log | tr '\n' ' ')ran with VKFFTGO_FFTW_MIN_SIZE=0"
	grep -h -m1 -- "f32 r2c ${n}x${n}x${n}.* -> " itk-fft-gpu.log | sed 's/^/   /'
	grep -h -m1 -- "f64 r2c .* -> " itk-conv-n-gpu.log | sed 's/^/   /'
}

fftw_step
