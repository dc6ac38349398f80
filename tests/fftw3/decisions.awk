# decisions.awk — checks libvkfftgo_fftw3's log (VKFFTGO_FFTW_LOG=1): every plan decided
# by the cost rule went to the engine whose logged total is smaller. Prints one line per
# such plan ("gpu|fftw FFTW-total GPU-total problem") and, at the end, "decisions N bad M";
# exits 1 if a decision contradicts its figures or no decision was logged.
function seconds(t) {
	if (t == "impossible") return 1e300
	if (t == "0") return 0
	split(t, a, " ")
	return a[1] * (a[2] == "s" ? 1 : a[2] == "ms" ? 1e-3 : 1e-6)
}
/ -> (gpu|fftw)[ :(].*; FFTW: plan .* = .*; GPU: plan .* = / {
	engine = $0 ~ / -> gpu: / ? "gpu" : "fftw"
	f = $0; sub(/.*; FFTW: plan /, "", f); sub(/; GPU: plan .*/, "", f); sub(/.* = /, "", f)
	g = $0; sub(/.*; GPU: plan /, "", g); sub(/; flags .*/, "", g); sub(/.* = /, "", g)
	problem = $0; sub(/^vkfftgo-fftw3: /, "", problem); sub(/ -> .*/, "", problem)
	fs = seconds(f); gs = seconds(g)
	want = gs < fs ? "gpu" : "fftw"
	n++
	# printed to 3 digits: a near tie may round either way
	near = fs > 0 && gs > 0 && (fs - gs < 0.01 * fs && gs - fs < 0.01 * fs)
	if (engine != want && !near) { bad++; printf "WRONG: %s -> %s, but FFTW %s and the GPU %s\n", problem, engine, f, g }
	else printf "%s FFTW %s GPU %s %s\n", engine, f, g, problem
}
END { printf "decisions %d bad %d\n", n, bad + 0; exit (bad > 0 || n == 0) }
