# hostfed: the spectrometer fed from host memory, against the bus. For each size, the CLI
# measures the host-to-device DMA rate from pinned memory in the same process, then times
# Accumulate from a HostBuffer (pinned: uploaded straight from it, no staging copy) and
# from ordinary Go memory (pageable: copied into pinned chunks first), and device-resident
# samples for scale. Goal: pinned >= 90 % of the DMA rate. The C API's calls (registered
# memory, staged) are in capibench's third table (step capi). What to read:
#   hostfed-N-INPUT.log   "host-to-device DMA ...: X GB/s", "... GS/s", "samples moved at
#                         Y GB/s: P % of the DMA rate"
for s in "4096 65536" "65536 4096" "1048576 256"; do
	for in in pinned pageable device; do
		step "hostfed-${s% *}-$in" 120 "$B/vkfft" spectrometer -n "${s% *}" -batch "${s#* }" -window none \
			-calls 10 -input "$in"
	done
done
grep -h "DMA\|GS/s\|moved" "$OUT"/hostfed-*.log > "$OUT/hostfed-summary.log"
