package vkfft

// The VkFFT release this package is built and tested against, and the Debian package
// its headers come from (see cvendor/). Changing these invalidates Go's build cache,
// which does not track headers outside the package.
const (
	// VkFFTVersion is the VkFFT version the headers must provide, as X.XX.XX.
	VkFFTVersion = 10304
	// vkfftDebSHA256 pins libvkfft-dev_1.3.4+ds2-1_all.deb (cvendor/VERSION).
	vkfftDebSHA256 = "6da7363e9461f8d19e6c8b7ece51c3b13d58a74849bb547a2a7b87b540fcaee7"
)
