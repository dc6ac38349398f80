package engine

// DeviceInfo is what the backend reports of a device (vkg_device_info).
type DeviceInfo struct {
	Name, Vendor, Driver, Platform string
	GlobalMemory, MaxAllocation    uint64
	VendorID                       uint32
	ComputeMajor, ComputeMinor     int
	DoublePrecision                bool
	HalfPrecision                  bool
	HostMemory                     bool   // computes in host memory (a CPU device)
	LocalMemory                    uint64 // local/shared memory per work-group; 0 unknown
	FloatAtomics                   bool   // companion kernels may add floats atomically
	SharedFloatAtomics             bool   // and in shared memory (only reported on Vulkan)
	MaxBinding                     uint64 // largest buffer a companion kernel binds; 0 no limit
}

// Plan kinds (VKG_C2C, VKG_R2C, VKG_R2R).
const (
	KindC2C = 0
	KindR2C = 1
	KindR2R = 2
)

// Launch is VkFFT's launch configuration; 0 keeps VkFFT's default (package vkfft's
// Tuning says what each field does).
type Launch struct {
	CoalescedMemory, AimThreads, RegisterBoost int
	RegisterBoost4Step, SwapTo3Stage4Step      int
	GroupedBatch                               [4]int // per VkFFT dimension, fastest first
	BandwidthBoost                             int    // -1 off, >0 a factor
	SharedMemory                               int    // sharedMemorySize cap in bytes
	BluesteinSize                              int    // forceBluesteinSequenceSize
}

// PlanParams is everything vkg_plan_create needs (vkg_plan_params), resolved by package
// vkfft from a user's configuration: the transform, VkFFT's view of its layout, the
// buffers, and the kernel binaries to load or keep.
type PlanParams struct {
	Shape        []int // row-major, last axis contiguous
	Batch        int
	Kind         int // KindC2C, KindR2C, KindR2R
	Double       bool
	Normalize    bool    // VkFFT's own 1/N on the inverse (numpy "backward")
	UseLUT       int     // -1 off, 0 VkFFT's choice, 1 on
	ForwardScale float64 // applied after VkFFT's own normalisation; 0 = 1
	InverseScale float64
	Launch       Launch
	// OutOfPlace: a C2C plan reads RealBuffer's slot (VkFFT's inputBuffer) and writes
	// Buffer, leaving the input untouched.
	OutOfPlace  bool
	Buffer      uint64 // complex data
	BufferBytes int64
	RealBuffer  uint64 // R2C's real data
	RealBytes   int64
	LoadBlob    []byte // kernel binaries to load; nil compiles
	Save        bool   // keep the compiled binaries (PlanBinary)
	// VkFFT's terms for the layout (axes, strides), fastest dimension first; VkDim 0
	// keeps Shape and Batch as they are.
	VkDim     int
	VkSize    [4]int
	VkOmit    [4]bool
	VkBatch   int
	Strided   bool      // src through inputBuffer (InStride), dst in buffer (OutStride)
	InStride  [4]uint64 // VkFFT's inputBufferStride: dims 1..VkDim-1, then the batch
	OutStride [4]uint64 // VkFFT's bufferStride
	DCT, DST  int       // performDCT / performDST type 1..4 (KindR2R)
	Storage   int       // VKG_STORAGE_*: 0 default, 1 half, 2 float compute double
	// RealInPlace: R2C in one buffer with FFTW's padded rows.
	RealInPlace bool
	Stages      StageParams
	// Herm is the companion kernel that projects a C2R inverse's input onto Hermitian
	// symmetry (FFTW's c2r of any half spectrum); nil where the plan needs none or it
	// could not be built, HermWhy then saying why. Not part of any key.
	Herm    Kernel
	HermWhy string
	// Kernels, when set, finds and compiles the plan's kernels one by one, several at
	// once, before VkFFT builds the application (srckernels.go); nil leaves every compile
	// to VkFFT, one after another. Not part of any key.
	Kernels KernelReuse
}

// SourceKernel is one of a plan's kernels as VkFFT generates it: what the compiler gets.
type SourceKernel struct {
	Source  string // after the fuse rewriter
	Options string // the compiler's options, one per line
	Name    string // the program's name (NVRTC's; "" elsewhere)
}

// KernelReuse is where a plan's kernels are found by their source, and where the ones
// compiled for it are kept. Its methods may be called from several goroutines at once.
type KernelReuse interface {
	// Load returns the binary compiled from k before, or nil.
	Load(k *SourceKernel) []byte
	// Keep is given each binary compiled for the plan: ahead is true for those compiled
	// before VkFFT built the application, false for those VkFFT compiled itself.
	Keep(k *SourceKernel, binary []byte, ahead bool)
	// Jobs is how many kernels may compile at once (at least 1).
	Jobs() int
	// Fork says whether kernels may compile in child processes forked from this one,
	// where the backend allows it (NVRTC's compiles on threads of one process wait on
	// each other; in processes they do not).
	Fork() bool
	// Forked is told how many of the kernels kept ahead were compiled in forked children.
	Forked(n int)
}

// StageParams is what a plan does besides a plain transform (struct vkg_plan_stages):
// separate input/output buffers with their own strides, zero padding, VkFFT's
// convolution stages and the fused load/store of vkg_core_fuse.h.
type StageParams struct {
	SeparateInput, SeparateOutput bool
	InputBuffer, OutputBuffer     uint64 // bound at creation; not part of the plan's identity
	InputBytes, OutputBytes       int64
	InputStride, OutputStride     [4]uint64
	PadLeft, PadRight             [3]uint64
	Conv                          int // ConvKernel, ConvApply
	Conj, CrossPower              bool
	Features, Matrix, Kernels     int
	KernelBuffer                  uint64
	KernelBytes                   int64
	ForwardOnly, OffsetsAtLaunch  bool
	NoReorder, ReturnToInput      bool
	SharedMemory                  int // bytes VkFFT plans kernels for; 0 = the device's
	FuseLoad, FuseStore           int // the load's sample format, the store mode
	Fuse                          FuseText
	FuseWindow, FuseOut           uint64
}

// What a zero-padded convolution's padding holds beyond the data (VKG_BOUNDARY_*).
const (
	BoundaryZero      = 0
	BoundaryReplicate = 1
	BoundaryPeriodic  = 2
)

// Convolution stages (VKG_CONV_*).
const (
	ConvKernel = 1
	ConvApply  = 2
)

// Roles of the fuse rewriter (VKG_FUSE_LOAD, VKG_FUSE_STORE).
const (
	FuseLoadRole  = 1
	FuseStoreRole = 2
)

// FuseText is what the rewriter splices into VkFFT's kernels for a fused load and/or
// store (vkg_fuse.h): the prelude, the input's new declaration and the parameters
// appended on backends that pass the window and the store target as arguments. GLSL,
// whose kernels take no parameters, also names the entry point, VkFFT's declarations of
// the input and output buffers, the output's new declaration and the text inserted
// before the entry point (empty in the C dialects: the rewriter's defaults). For a
// group-accumulating store (GroupID set), GroupID is how the dialect reads the
// work-group's index along the batch and GroupForbid lists, space-separated, other reads
// of the batch position that make the rewriter refuse; GroupShared is the bytes of
// shared memory the store declares beside VkFFT's (checked against the device's limit
// on Vulkan, whose compiler does not).
type FuseText struct {
	Prelude, InputDecl, ExtraParams string

	Entry, InputVkFFT, OutputVkFFT, OutputDecl, EntryPrelude string

	GroupID, GroupForbid string
	GroupShared          int
}

// FuseGroupRole is the rewriter's group-accumulation role (VKG_FUSE_GROUP), added to
// FuseStoreRole.
const FuseGroupRole = 4

// SpectroFields is what the C side of a spectrometer needs (vkg_spectro).
type SpectroFields struct {
	Plan                          Plan
	Path                          int
	RealInput                     bool
	N, Bins, Chunk, SampleBytes   int
	Turn                          int // FFTs per upload of host streaming (a divisor of the batch, at most Chunk)
	SumGroups                     int
	Convert, SumC, SumF, Zero     Kernel
	CBuf, RBuf, PBuf, PSD, Window uint64
	// the direct path's kernel and twiddles; a work-group's size and the transforms it
	// runs at once; the work-groups a launch aims at
	Direct                                      Kernel
	Twiddles                                    uint64
	DirectLocal, DirectTransforms, DirectGroups int
	// the split direct path's column kernel (Direct its row kernel), its columns' length,
	// work-group size and columns at once, and the chunk's intermediate spectra
	Columns                                   Kernel
	Columns1, ColumnsLocal, ColumnsTransforms int
	Mid                                       uint64
	// where the direct kernel writes a row of sums per work-group (OpenCL), the rows
	// that SumF adds into the bins
	Partials uint64
	// without float atomics (Vulkan), SumGroups rows of bins: a row per y-group of a sum
	// kernel, which a second launch of SumF adds into the bins
	Sums uint64
}

// Whole-spectrum modes (VKG_FULL_*).
const (
	FullNone   = 0
	FullExpand = 1 // an R2C plan: the half spectrum expanded, a whole one folded
	FullWiden  = 2 // a C2C plan on real data: widened forward, real part inverse
)

// FullParams makes a plan a whole-spectrum real plan (vkg_full_params): its two companion
// kernels, its buffer (Expand: the whole spectrum; Widen: the real data) and the
// geometry the kernels walk.
type FullParams struct {
	Mode             int
	ToFull, FromFull Kernel
	Buffer           uint64
	Bytes            int64
	Batch            int
	Dims             [3]int // row-major, leading 1s below rank 4 (Expand)
	N                int    // the halved axis (Expand)
	Mirror           uint64 // bit i: Dims[i] is transformed (Expand)
	Count            int    // reals in all batches (Widen)
}
