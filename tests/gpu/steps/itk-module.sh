# The VkFFTBackend ITK module (itk/) on the GPU. Sourced by run.sh (uses step, $B, $W,
# $OUT, res). Needs itk-module/itk-module.tar.xz in the bundle
# (scripts/gpu-bundle-itk-module.sh, via make gpu-bundle). Each benchmark times ITK's
# default (FFTW on all cores; the spatial DiscreteGaussian) against the module's filter,
# per Update, and splits the module's time into transfer, GPU and ITK's own work
# (tests/itk-module/bench/itk_vk_bench.cxx says how):
#   itkmod-fft        256^3 float ForwardFFT + InverseFFT through ITK
#   itkmod-gaussian   DiscreteGaussian 256^3, sigma 4
#   itkmod-conv       FFTConvolutionImageFilter 256^3 with a 15^3 kernel
#   itkmod-pyramid    a 4-level MultiResolutionPyramid of a 256^3 image
# Read $OUT/itkmod-summary.log (printed last). ITKMOD_N (default 256) shrinks the size
# for a dry run elsewhere; ITKMOD_REPS (default 5) sets the timed Updates.
itkmod_step() {
	local F=$W/itk-module n=${ITKMOD_N:-256} reps=${ITKMOD_REPS:-5}
	if [ ! -f "$B/itk-module/itk-module.tar.xz" ]; then
		echo "itk-module: the bundle has no itk-module/itk-module.tar.xz (make gpu-bundle on a machine with ITK: make setup ITK=1)"
		res[itk-module]="rc=1 missing itk-module.tar.xz"
		return
	fi
	mkdir -p "$F" && tar -xJf "$B/itk-module/itk-module.tar.xz" -C "$F"
	local lib="$F/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	if LD_LIBRARY_PATH=$lib ldd "$F/bin/itk_vk_bench" 2>&1 | grep -q 'GLIBCXX.*not found'; then
		lib="$F/lib:$F/compat${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		echo "itk-module: the host's libstdc++ is older than ITK needs; using the bundle's"
	fi
	LD_LIBRARY_PATH=$lib ldd "$F/bin/itk_vk_bench" | grep 'not found' && echo "itk-module: MISSING LIBRARIES (above)"
	# no FFTW wisdom files in this machine's home; the module's filters are used directly
	local run=(env -u ITK_AUTOLOAD_PATH "LD_LIBRARY_PATH=$lib" ITK_FFTW_READ_WISDOM_CACHE=n ITK_FFTW_WRITE_WISDOM_CACHE=n
		"$F/bin/itk_vk_bench")
	step itkmod-fft 600 "${run[@]}" fft "$n" "$reps"
	step itkmod-gaussian 600 "${run[@]}" gaussian "$n" "$reps" 4
	step itkmod-conv 900 "${run[@]}" conv "$n" 3 15
	step itkmod-pyramid 600 "${run[@]}" pyramid "$n" "$reps" 4
	step itkmod-summary 30 bash -c "cd '$OUT'; n=$n; $(declare -f itkmod_summary); itkmod_summary"
	cat "$OUT/itkmod-summary.log"
}

# The table: every figure from this run's logs.
itkmod_summary() {
	echo "itk-module step: $( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo no nvidia-smi) | head -n1), $(nproc) host threads"
	echo "per Update, median (ms); ITK = its default (FFTW on all cores / spatial Gaussian); split: transfer + gpu + ITK's own work"
	local f lines
	for f in itkmod-fft itkmod-gaussian itkmod-conv itkmod-pyramid; do
		lines=$(grep -h '^RESULT\|^INFO' "$f.log" 2>/dev/null)
		if [ -n "$lines" ]; then
			sed 's/^RESULT /   /; s/^INFO /   (info) /' <<<"$lines"
		else
			echo "   $f: no result (see $f.log)"
		fi
	done
}

itkmod_step
