# opencl-fuse: the spectrometer under OpenCL on this GPU — NVIDIA's OpenCL driver, which
# the bundle's ICD loader (opencl/libOpenCL.so.1) finds through an ICD file written in $W —
# FusionAuto and each path asked for, complex int8, device-resident, beside the CUDA
# backend's FusionAuto in the same call. OpenCL C adds floats by compare-and-swap: there
# the direct kernel writes a row of sums per work-group that the sum kernel adds, and
# FusionAuto takes the power store where the direct kernels do not run. Sizes and paths:
# OPENCL_FUSE_SIZES, OPENCL_FUSE_FUSIONS (add "atomic" for VkFFT's fused store, which
# contends). What to read:
#   opencl-fuse-ocl.log     "spectro N B PATH(asked) chunk=... GS/s ... psd-diff=" (each
#                           path's PSD against the first row's of its size)
#   opencl-fuse-cuda.log    the CUDA backend's rows
#   opencl-fuse-tests.log   TestSpectrometerDirect -full and TestDefaultsByDevice under
#                           OpenCL: the direct kernels' PSD against float64
of_sizes=${OPENCL_FUSE_SIZES:-16x16777216,256x1048576,1024x262144,4096x65536,8192x32768,65536x4096,1048576x256}
of_fusions=${OPENCL_FUSE_FUSIONS:-auto,power,direct}
of_driver=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1 \
	/usr/local/nvidia/lib64/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
[ -z "$of_driver" ] && of_driver=$(find / -xdev -name 'libnvidia-opencl.so.1' 2>/dev/null | head -n 1)
if [ ! -f "$B/opencl/vkfft-opencl.test.gz" ]; then
	echo "opencl-fuse: no OpenCL binaries in the bundle (make gpu-bundle builds them)"
	res[opencl-fuse]="rc=1 no binaries"
elif [ -z "$of_driver" ]; then
	echo "opencl-fuse: no libnvidia-opencl.so.1 on this machine"
	res[opencl-fuse]="rc=1 no OpenCL driver"
else
	mkdir -p "$W/ocl/vendors"
	echo "$of_driver" >"$W/ocl/vendors/nvidia.icd"
	gzip -dc "$B/opencl/vkfft-opencl.test.gz" >"$W/ocl/vkfft-opencl.test" && chmod +x "$W/ocl/vkfft-opencl.test"
	VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_CONV=off VKFFTGO_FUSE_GROUP=off \
		VKFFTGO_FUSE_HOST=off VKFFTGO_FUSE_SIZES=$of_sizes step opencl-fuse-cuda 300 "$B/vkfft.test" -test.count=1 -test.v \
		-test.run '^TestFuseBench$'
	OCL_ICD_VENDORS=$W/ocl/vendors LD_LIBRARY_PATH=$B/opencl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=$of_fusions VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_CONV=off \
		VKFFTGO_FUSE_GROUP=off VKFFTGO_FUSE_HOST=off VKFFTGO_FUSE_SIZES=$of_sizes VKFFTGO_CACHE_DIR=$W/ocl/kcache \
		step opencl-fuse-ocl 500 "$W/ocl/vkfft-opencl.test" -test.count=1 -test.v -test.run '^TestFuseBench$'
	OCL_ICD_VENDORS=$W/ocl/vendors LD_LIBRARY_PATH=$B/opencl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		VKFFTGO_CACHE_DIR=$W/ocl/kcache-tests step opencl-fuse-tests 300 "$W/ocl/vkfft-opencl.test" -test.count=1 \
		-test.v -full -test.run 'TestSpectrometerDirect|TestDefaultsByDevice|TestDirectShapes'
	grep -h 'GS/s' "$OUT/opencl-fuse-cuda.log" "$OUT/opencl-fuse-ocl.log" | sed -E 's/tuning=0:0:0 shared=0 order=auto //'
fi
