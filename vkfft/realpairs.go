package vkfft

// Go's generics cannot tie RealPlan's two type parameters together (float32 goes with
// complex64, float64 with complex128): NewRealPlan[float32, complex128] compiles and is
// refused at run time with ErrPrecision. These names fix the pairing at compile time.

// RealPlan32 is the single-precision real-to-complex plan: float32 data, complex64
// spectrum.
type RealPlan32 = RealPlan[float32, complex64]

// RealPlan64 is the double-precision real-to-complex plan: float64 data, complex128
// spectrum.
type RealPlan64 = RealPlan[float64, complex128]

// NewRealPlan32 is NewRealPlan[float32, complex64].
func NewRealPlan32(d *Device, cfg Config) (*RealPlan32, error) {
	return NewRealPlan[float32, complex64](d, cfg)
}

// NewRealPlan64 is NewRealPlan[float64, complex128].
func NewRealPlan64(d *Device, cfg Config) (*RealPlan64, error) {
	return NewRealPlan[float64, complex128](d, cfg)
}
