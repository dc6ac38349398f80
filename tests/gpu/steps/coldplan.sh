# Cold plans kernel by kernel (vkfft/kreuse.go): a plan never seen, built in an empty
# kernel cache as VkFFT builds it alone (each kernel compiled as it is generated, one
# after another: VKFFTGO_COMPILE_JOBS=off) against its kernels compiled several at once
# (one job per CPU), then in a fresh process whose cache holds only the kernels, found by
# their source's hash; the three results of a forward and an inverse transform must agree
# bit for bit (vkfft cache bench fails otherwise). Read the table "cold plans kernel by
# kernel" at the end of coldplan.log: serial ms (the baseline: today's cold plan),
# parallel ms (goal: <= 300 for the 3-D shapes), by source ms, identical (must be true).
# coldplan-jobs*.log repeat the two 3-D shapes with 4 and 8 jobs, for the scaling.
# coldplan-fork1.log, coldplan-threads.log and coldplan-fork2.log build the same shapes
# with the compiles in forked children (VKFFTGO_COMPILE_FORK=on), on threads, and forked
# again, in this call: the "parallel" columns decide the fork's default; coldplan-fork-reuse.log runs the
# kernel-reuse tests through forked compiles (results bit for bit).
cold_shapes=${COLDPLAN_SHAPES:-256x256x256,512x512x512,4096x4096,4096:16384,256x256x256@c128}
VKFFTGO_CACHE_DIR=$W/coldplan step coldplan 300 "$B/vkfft" cache bench -runs 2 -shapes "$cold_shapes"
for j in 4 8; do
	VKFFTGO_COMPILE_JOBS=$j VKFFTGO_CACHE_DIR=$W/coldplan-$j step coldplan-jobs$j 120 "$B/vkfft" cache bench -runs 1 \
		-shapes 256x256x256,256x256x256@c128
done
for mode in fork1 threads fork2; do
	[ $mode = threads ] && on=off || on=on
	VKFFTGO_COMPILE_FORK=$on VKFFTGO_CACHE_DIR=$W/coldplan-$mode step coldplan-$mode 300 "$B/vkfft" cache bench \
		-runs 2 -shapes "$cold_shapes"
done
VKFFTGO_COMPILE_FORK=on VKFFTGO_CACHE_DIR=$W/coldplan-fork-reuse step coldplan-fork-reuse 300 "$B/vkfft.test" \
	-test.count=1 -test.run KernelReuse -test.v
for f in "$OUT"/coldplan.log "$OUT"/coldplan-jobs*.log "$OUT"/coldplan-fork1.log "$OUT"/coldplan-threads.log \
	"$OUT"/coldplan-fork2.log; do
	[ -s "$f" ] || continue
	echo "== ${f##*/}"
	sed -n '/^cold plans kernel by kernel/,$p' "$f" | sed 's/^/   /'
done
