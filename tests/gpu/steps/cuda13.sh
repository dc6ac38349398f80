# cuda13 — the test binary on this machine's own CUDA (13 on the H200), with no bundled
# or named NVRTC: the binaries link neither libcuda nor libnvrtc and open the newest
# NVRTC installed. Look for, in cuda13.log:
#   "driver ... NVRTC 13.x from /usr/local/cuda.../libnvrtc.so.13..."  (TestCUDALoadedLibraries)
#   "VKFFTGO_NVRTC=/nonexistent/libnvrtc.so.99 could not be used"     (TestCUDAMissingNVRTC)
#   ldd lines showing no libcuda/libnvrtc in the binaries, and every test PASS.
{
	echo "ldd of the binaries (no libcuda, no libnvrtc expected):"
	for f in vkfft.test vkfft-race.test bench vkfft rawbench; do
		[ -x "$B/$f" ] && echo "$f: $(ldd "$B/$f" | grep -cE 'libcuda|libnvrtc') CUDA libraries linked"
	done
	ls -l "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so* 2>/dev/null
} >"$OUT/cuda13-ldd.log" 2>&1
cat "$OUT/cuda13-ldd.log"
step cuda13 600 env -u VKFFTGO_NVRTC LD_LIBRARY_PATH="$LD_ORIG" VKFFTGO_EXPECT_NVRTC_MAJOR=13 \
	"$B/vkfft.test" -test.count=1 -test.v -test.timeout=10m \
	-test.run 'TestCUDALoadedLibraries|TestCUDAMissingNVRTC|TestCUDAPrimaryContext|TestAccuracyC2C|TestAccuracyR2C|TestSizesThatCrashedPoCL'
grep -q 'could not be used' "$OUT/cuda13.log" && grep -q 'NVRTC 13\.' "$OUT/cuda13.log" || res[cuda13]="rc=1 (NVRTC 13 not proven; see cuda13.log)"
