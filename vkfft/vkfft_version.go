package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

// VkFFTVersion is the VkFFT version the headers must provide, as X.XX.XX (the engine's
// pin, cvendor/VERSION).
const VkFFTVersion = engine.VkFFTVersion
