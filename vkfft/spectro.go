package vkfft

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Fusion says how a Spectrometer joins the sample conversion and the power
// accumulation to VkFFT's transform.
type Fusion int

const (
	// FusionAuto picks the fastest path measured (FusionDirect where it runs on a GPU,
	// else FusionAtomic, see docs/convolution-spectrometer.md; FusionPower on a Vulkan
	// device without float atomics and on an OpenCL GPU, which adds floats by
	// compare-and-swap), falling back to FusionCompanion where VkFFT's kernels cannot
	// be rewritten.
	FusionAuto Fusion = iota
	// FusionCompanion runs separate kernels on the plan's queue: samples to complex
	// floats, VkFFT's FFT, then |X|² summed into the bins. Works for every format.
	FusionCompanion
	// FusionLoad rewrites VkFFT's first pass to read the samples itself; a companion
	// kernel sums |X|².
	FusionLoad
	// FusionPower also rewrites the last pass to store |X|² (4 bytes instead of 8) that a
	// companion kernel sums over the batch.
	FusionPower
	// FusionAtomic rewrites the last pass to add |X|² into the bins atomically: no
	// companion kernel at all. A Vulkan device without float atomics takes FusionPower.
	FusionAtomic
	// FusionDirect runs no VkFFT plan: one kernel of the package's own reads the
	// samples, transforms each in registers and sums |X|² per work-group before adding
	// it to the bins; beyond 4096 points two (columns, then rows through a chunk of
	// intermediate spectra). For complex samples and power-of-two N from 16 to 2^22,
	// where the device's shared memory per work-group holds the kernels (at most 17.5
	// KiB up to 1024 points, 16.5 KiB from 8192 to 65536, 34 KiB at the others; under
	// Vulkan 17.5 KiB up to 2048 and from 8192 to 2^17), beyond 4096 points on
	// Vulkan only with float atomics; elsewhere it takes FusionAuto's path.
	FusionDirect
)

var fusionNames = [...]string{"auto", "companion", "load", "power", "atomic", "direct"}

func (f Fusion) String() string {
	if f >= 0 && int(f) < len(fusionNames) {
		return fusionNames[f]
	}
	return fmt.Sprintf("Fusion(%d)", int(f))
}

// ParseFusion reads a Fusion's name.
func ParseFusion(s string) (Fusion, error) {
	for i, n := range fusionNames {
		if n == s {
			return Fusion(i), nil
		}
	}
	return 0, fmt.Errorf("%w: fusion %q; want one of %v", ErrInvalidArgument, s, fusionNames)
}

// SpectrometerConfig describes an integrating spectrometer: batches of N-point FFTs of
// integer (or half-float) samples whose power |X|² is summed into N bins.
type SpectrometerConfig struct {
	// N is the FFT length (at least 2; even for real input).
	N int
	// Batch is the number of FFTs each Accumulate call takes: it takes N*Batch samples.
	Batch int
	// Input is the sample format.
	Input SampleFormat
	// Window, when set, has N values; sample i of every FFT is multiplied by Window[i].
	Window []float32
	// Scale multiplies every sample (0 means 1).
	Scale float32
	// FFTShift reads the spectrum from the most negative frequency up (numpy's
	// fftshift order); complex input only.
	FFTShift bool
	// Fusion picks how conversion and accumulation join the FFT (default FusionAuto).
	Fusion Fusion
	// Chunk is the number of FFTs the device works on at a time; it must divide Batch.
	// 0 picks about 256 MiB of complex data per chunk (or the whole batch if smaller);
	// for the split direct kernels on a GPU a 32nd of its memory, up to 1 GiB, whose
	// host samples are still uploaded about 256 MiB at a time.
	Chunk int
	// BinOrder says who puts multi-pass spectra in frequency order (default BinOrderAuto).
	BinOrder BinOrder
	// SharedMemory, when set, is the shared memory per block (bytes) VkFFT plans its
	// kernels for, below the device's limit: a launch-configuration knob.
	SharedMemory int
	// LUT and Tuning configure VkFFT's kernels as in Config.
	LUT    LUT
	Tuning Tuning
	// GroupSum and GroupTransforms shape FusionAtomic's store: each work-group of VkFFT's
	// last pass runs GroupTransforms consecutive transforms and sums their |X|² (in
	// registers or shared memory, GroupSum says) before adding to the bins, so the bins
	// take 1/GroupTransforms of the atomic adds. GroupSumAuto with GroupTransforms 0
	// takes the device's stored spectrometer tuning (TuneSpectrometer), else a default;
	// GroupTransforms 1 is one atomic add per element (GroupSumOff). Where VkFFT's kernel
	// is not one the rewriter can loop, the store falls back to an atomic add per element
	// (Spectrometer.Group says why).
	GroupSum        GroupSum
	GroupTransforms int
	// Tune says whether an automatic group sum may be measured when none is stored:
	// TuneMeasure and TuneRefresh measure (TuneSpectrometer, seconds) and store the
	// winner; TuneCached (the default, or VKFFTGO_TUNE's) uses a stored one or the
	// default; TuneOff always the default.
	Tune TuneMode
}

// defaultChunkBytes is the complex data of one automatic chunk: on the H200 chunks of
// 256 MiB ran as fast as the whole 2 GiB batch, and 32 MiB ones 15-25 % slower
// (tests/gpu/RESULTS-fuse.md).
const defaultChunkBytes = 256 << 20

// Spectrometer accumulates power spectra of sample streams on a device. Its device
// memory is the bins, the window, one chunk of complex data (plus, for FusionPower, one
// chunk of powers, and for host input two chunks of samples) — never a float copy of a
// whole batch. Calls are serialised; it is safe for concurrent use.
type Spectrometer struct {
	mu      sync.Mutex
	dev     *Device
	cfg     SpectrometerConfig
	bins    int
	chunk   int
	turn    int // FFTs a turn of host streaming uploads: the chunk, or fewer (hostTurn)
	fusion  Fusion
	group   GroupTuning    // the fused atomic store's group sum (Sum GroupSumOff elsewhere)
	s       engine.Spectro // nil once closed
	psd     uint64         // the bins, device memory
	plan    engine.Plan
	module  engine.Module
	st      engine.Status
	scratch []float32 // Read's download, before reordering
	perm    []int32   // perm[position] = bin, where VkFFT leaves the bins in its own order

	// device memory: bytes of each allocation for the working-set report
	mem []devMem
	// host streaming, made on first use
	in  [2]uint64
	pin [2]hostMem
	// stagedCalls counts the Accumulate calls whose samples were copied into the pinned
	// chunks first (pageable memory); pinned and registered samples are uploaded as they are
	stagedCalls int64
}

type devMem struct {
	m     uint64
	bytes int64
}

type hostMem struct {
	p      unsafe.Pointer
	handle uint64
	bytes  int64
}

// validateSpectrometer checks cfg and fills its defaults.
func validateSpectrometer(cfg SpectrometerConfig) (SpectrometerConfig, error) {
	switch {
	case !cfg.Input.valid():
		return cfg, fmt.Errorf("%w: unknown input format %d; want %s", ErrInvalidArgument, int(cfg.Input),
			formatChoices(SampleFormat.String))
	case cfg.N < 2 || cfg.N > 1<<28:
		return cfg, fmt.Errorf("%w: N = %d; the spectrometer supports 2 to 2^28 points", ErrUnsupported, cfg.N)
	case !cfg.Input.Complex() && cfg.N%2 != 0:
		return cfg, fmt.Errorf("%w: N = %d; real input needs an even N", ErrUnsupported, cfg.N)
	case cfg.Batch < 0:
		return cfg, fmt.Errorf("%w: batch %d is negative", ErrInvalidBatch, cfg.Batch)
	case cfg.Window != nil && len(cfg.Window) != cfg.N:
		return cfg, fmt.Errorf("%w: window has %d values, N is %d", ErrLength, len(cfg.Window), cfg.N)
	case math.IsNaN(float64(cfg.Scale)) || math.IsInf(float64(cfg.Scale), 0):
		return cfg, fmt.Errorf("%w: scale %v", ErrInvalidArgument, cfg.Scale)
	case cfg.FFTShift && !cfg.Input.Complex():
		return cfg, fmt.Errorf("%w: FFTShift needs complex input (real input has only non-negative frequencies)", ErrInvalidArgument)
	case cfg.Fusion < FusionAuto || cfg.Fusion > FusionDirect:
		return cfg, fmt.Errorf("%w: unknown fusion %d", ErrInvalidArgument, int(cfg.Fusion))
	case cfg.Chunk < 0:
		return cfg, fmt.Errorf("%w: chunk %d is negative", ErrInvalidBatch, cfg.Chunk)
	case cfg.BinOrder < BinOrderAuto || cfg.BinOrder > BinOrderOnRead:
		return cfg, fmt.Errorf("%w: unknown bin order %d", ErrInvalidArgument, int(cfg.BinOrder))
	case cfg.SharedMemory < 0:
		return cfg, fmt.Errorf("%w: shared memory %d is negative", ErrInvalidArgument, cfg.SharedMemory)
	}
	if err := validateGroup(&cfg); err != nil {
		return cfg, err
	}
	if cfg.Batch == 0 {
		cfg.Batch = 1
	}
	if cfg.Scale == 0 {
		cfg.Scale = 1
	}
	if cfg.Chunk == 0 {
		cfg.Chunk = autoChunk(cfg.N, cfg.Batch, defaultChunkBytes)
	} else if cfg.Batch%cfg.Chunk != 0 {
		return cfg, fmt.Errorf("%w: chunk %d does not divide batch %d", ErrInvalidBatch, cfg.Chunk, cfg.Batch)
	}
	cfg.Window = append([]float32(nil), cfg.Window...)
	if len(cfg.Window) == 0 {
		cfg.Window = nil
	}
	spectroTuning(&cfg)
	return cfg, nil
}

// chunkBytes is the complex data of an automatic chunk for cfg on d: defaultChunkBytes,
// or splitChunkBytes where the split direct kernels take cfg, within what a kernel can
// bind whole (a chunk's complex data is one binding of the companion kernels on Vulkan).
func chunkBytes(d *Device, cfg *SpectrometerConfig) int64 {
	bytes := int64(defaultChunkBytes)
	if _, _, split := directSplit(cfg.N); split && takesDirect(d, cfg) {
		bytes = splitChunkBytes(d)
	}
	return min(bytes, companionMaxBinding(d))
}

// hostTurn is the FFTs of an automatic chunk for cfg on d (of cfg.Batch, already
// chosen) that host streaming uploads at a time: of defaultChunkBytes where the split
// direct kernels take larger chunks (they take any count up to a chunk), because the
// last turn's work is not overlapped with an upload — on the H200 1 GiB turns fed
// 65536 points from pinned memory at 94.7 % of the DMA rate, 256 MiB ones at 101 %.
func hostTurn(d *Device, cfg *SpectrometerConfig) int {
	if _, _, split := directSplit(cfg.N); !split || !takesDirect(d, cfg) {
		return cfg.Chunk
	}
	return autoChunk(cfg.N, cfg.Batch, min(hostTurnBytes, companionMaxBinding(d)))
}

// hostTurnBytes is the complex data of hostTurn's turns (a variable for tests).
var hostTurnBytes int64 = defaultChunkBytes

// autoChunk is the largest divisor of batch whose FFTs of n points hold at most bytes of
// complex data (at least 1).
func autoChunk(n, batch int, bytes int64) int {
	want := int(max(1, bytes/(8*int64(n))))
	for c := min(want, batch); c > 1; c-- {
		if batch%c == 0 {
			return c
		}
	}
	return 1
}

// NewSpectrometer builds a spectrometer on d: its FFT plan (rewritten for fusion where
// that is possible), its companion kernels and its device memory, with the bins zeroed.
func NewSpectrometer(d *Device, cfg SpectrometerConfig) (*Spectrometer, error) {
	const op = "new spectrometer"
	autoChunked := cfg.Chunk == 0
	cfg, err := validateSpectrometer(cfg)
	if err != nil {
		return nil, opError(op, err)
	}
	if d == nil {
		return nil, opError(op, fmt.Errorf("%w: nil device", ErrInvalidArgument))
	}
	group, err := chooseGroup(d, &cfg) // before taking the device: a measurement builds spectrometers
	if err != nil {
		return nil, opError(op, err)
	}
	h, err := d.use(op)
	if err != nil {
		return nil, err
	}
	defer d.mu.RUnlock()
	turn := cfg.Chunk
	if autoChunked {
		cfg.Chunk = autoChunk(cfg.N, cfg.Batch, chunkBytes(d, &cfg))
		turn = hostTurn(d, &cfg)
	}
	sp := &Spectrometer{dev: d, cfg: cfg, chunk: cfg.Chunk, turn: turn, bins: cfg.N, group: group}
	if !cfg.Input.Complex() {
		sp.bins = cfg.N/2 + 1
	}
	// VkFFT's own bin order first (no temporary buffer), checked by probing; VkFFT's
	// reordering where the order is not recognised
	onRead := cfg.BinOrder != BinOrderVkFFT && cfg.Input.Complex()
	err = sp.build(h, onRead)
	if err == nil && onRead && sp.plan != nil && engine.PlanAxisUploads(sp.plan) > 1 {
		if sp.perm, err = sp.probeOrder(h); err != nil && cfg.BinOrder == BinOrderAuto {
			sp.releaseLocked()
			sp = &Spectrometer{dev: d, cfg: cfg, chunk: cfg.Chunk, turn: turn, bins: sp.bins, group: group}
			err = sp.build(h, false)
		}
	}
	if err != nil {
		sp.releaseLocked()
		return nil, opError(op, err)
	}
	d.track(sp)
	return sp, nil
}

func (sp *Spectrometer) alloc(bytes int64) (uint64, error) {
	m, err := sp.dev.alloc(bytes)
	if err == nil {
		sp.mem = append(sp.mem, devMem{m, bytes})
	}
	return m, err
}

// build makes everything (with VkFFT's bin order left as it is when noReorder); on
// failure the caller releases what was made.
func (sp *Spectrometer) build(h engine.Device, noReorder bool) error {
	cfg := &sp.cfg
	d := sp.dev
	ks := kernelsFor(&d.info)
	sp.st = engine.NewStatus()
	sp.scratch = make([]float32, 2*sp.bins) // the second half for reordering
	f := engine.SpectroFields{N: cfg.N, Bins: sp.bins, Chunk: sp.chunk, Turn: sp.turn, SampleBytes: cfg.Input.sampleBytes(),
		RealInput: !cfg.Input.Complex()}
	want := cfg.Fusion
	if takesDirect(d, cfg) {
		want = FusionDirect
	} else if want == FusionDirect {
		want = FusionAuto
	}
	if want == FusionAuto || (want == FusionAtomic && !companionFloatAtomics(d)) {
		want = defaultFusion(d)
	}
	fuse := want != FusionCompanion && cfg.Input.Complex() && fusedStagesAvailable(d, cfg)
	// GLSL's fused kernels read the window after the data of the bins and of the chunk's
	// complex data (glslFusedText)
	var tail int64
	if fuse && compiledBackend == Vulkan && cfg.Window != nil {
		tail = windowTail(cfg.N)
	}
	var err error
	if f.PSD, err = sp.alloc(int64(sp.bins)*4 + tail); err != nil {
		return err
	}
	sp.psd = f.PSD
	if cfg.Window != nil {
		if f.Window, err = sp.alloc(int64(cfg.N) * 4); err != nil {
			return err
		}
		if err = engine.MemUpload(h, sp.st, f.Window, unsafe.Pointer(&cfg.Window[0]), int64(cfg.N)*4); err != nil {
			return err
		}
	}
	spec := loadSpec{format: cfg.Input, n: cfg.N, scale: float64(cfg.Scale), window: cfg.Window != nil, chunk: sp.chunk}
	if want == FusionDirect {
		return sp.buildDirect(h, spec, &f)
	}
	spectrum := sp.chunk * sp.bins // complex elements of one chunk's spectra
	if f.CBuf, err = sp.alloc(int64(spectrum)*8 + tail); err != nil {
		return err
	}
	if f.RealInput {
		if f.RBuf, err = sp.alloc(int64(sp.chunk*cfg.N) * 4); err != nil {
			return err
		}
	}
	atomics := companionFloatAtomics(d)
	if sp.module, err = ks.module(h, companionSource(compiledBackend, spec, atomics)); err != nil {
		return err
	}
	for _, k := range []struct {
		name string
		dst  *engine.Kernel
	}{{"vkg_convert", &f.Convert}, {"vkg_sum_c", &f.SumC}, {"vkg_sum_f", &f.SumF}, {"vkg_zero", &f.Zero}} {
		if *k.dst, err = engine.ModuleKernel(sp.module, k.name); err != nil {
			return err
		}
	}
	f.SumGroups = sumGroups(d, sp.chunk, sp.bins)
	if err = sp.allocSums(&f, sp.bins); err != nil {
		return err
	}

	kind := kindC2C
	if f.RealInput {
		kind = kindR2C
	}
	l, err := validate(Config{Shape: []int{cfg.N}, Batch: sp.chunk, LUT: cfg.LUT, Tuning: cfg.Tuning}, kind, 8)
	if err != nil {
		return err
	}
	if fuse {
		err = sp.buildFused(h, l, want, spec, &f, noReorder, tail)
		if err == nil {
			sp.fusion = want
		} else if !errors.Is(err, ErrUnsupported) {
			return err
		}
	}
	if sp.plan == nil {
		params := planParams{l: l, useLUT: lutSetting(l), buffer: f.CBuf, realBuffer: f.RBuf,
			stages: engine.StageParams{ForwardOnly: true, NoReorder: noReorder, SharedMemory: cfg.SharedMemory}}
		if sp.plan, err = ks.plan(h, &params); err != nil {
			return err
		}
		sp.fusion = FusionCompanion
	}
	f.Plan = sp.plan
	return sp.finish(h, &f)
}

// finish hands the C side its spectrometer and zeroes the bins.
func (sp *Spectrometer) finish(h engine.Device, f *engine.SpectroFields) error {
	f.Path = int(sp.fusion) - int(FusionCompanion)
	if sp.s = engine.SpectroNew(h, f); sp.s == nil {
		return fmt.Errorf("%w: out of host memory", ErrOutOfMemory)
	}
	return engine.SpectroZero(sp.s, sp.st)
}

// buildFused makes the rewritten plan of fusion mode want; ErrUnsupported when VkFFT's
// kernels for this size are not ones the rewriter knows. tail is the bytes after the
// data of the bins and the complex buffer that hold the window for GLSL's kernels (0: no
// window, or not Vulkan).
func (sp *Spectrometer) buildFused(h engine.Device, l layout, want Fusion, spec loadSpec, f *engine.SpectroFields,
	noReorder bool, tail int64) error {
	store, out, outBytes := storeNone, uint64(0), int64(0)
	switch want {
	case FusionPower:
		outBytes = int64(sp.chunk*sp.cfg.N)*4 + tail
		var err error
		if f.PBuf, err = sp.alloc(outBytes); err != nil {
			return err
		}
		store, out = storePower, f.PBuf
	case FusionAtomic:
		store, out, outBytes = storeAtomic, f.PSD, int64(sp.bins)*4+tail
	}
	if compiledBackend == Vulkan && tail > 0 {
		// a shader's buffers are VkFFT's bindings: the window lies after the data of the
		// buffers the first pass may write
		for _, at := range []struct {
			m   uint64
			off int64
		}{{f.CBuf, l.complexBytes}, {f.PSD, int64(sp.bins) * 4}, {f.PBuf, outBytes - tail}} {
			if at.m == 0 {
				continue
			}
			err := engine.MemUploadRange(h, sp.st, at.m, at.off, unsafe.Pointer(&sp.cfg.Window[0]), int64(sp.cfg.N)*4)
			if err != nil {
				return err
			}
		}
	}
	ks := kernelsFor(&sp.dev.info)
	build := func(store int, g groupSpec) (engine.Plan, error) {
		if store == storeGroup && groupBuildHook != nil {
			if err := groupBuildHook(g); err != nil {
				return nil, err
			}
		}
		st := engine.StageParams{
			SeparateInput: true, InputBuffer: f.CBuf, InputBytes: l.complexBytes,
			ForwardOnly: true, OffsetsAtLaunch: true,
			FuseLoad: int(sp.cfg.Input), FuseStore: store, Fuse: fusedText(compiledBackend, spec, store, g),
			FuseWindow: f.Window, FuseOut: out, NoReorder: noReorder, SharedMemory: sp.cfg.SharedMemory,
		}
		pl := l
		if compiledBackend == Vulkan {
			if !glslStores(store) {
				return nil, fmt.Errorf("%w: the fused store %d has no GLSL", ErrUnsupported, store)
			}
			if store == storeGroup && g.sum == GroupSumShared && !sp.dev.props.SharedFloatAtomics {
				return nil, fmt.Errorf("%w: shared sums on Vulkan add floats atomically in shared memory "+
					"(shaderSharedFloat32AtomicAdd), which this device lacks", ErrUnsupported)
			}
			// a shader's buffers are VkFFT's bindings: the store target is the plan's
			// output, and the window follows the data of the buffers bound
			if store != storeNone {
				st.SeparateOutput, st.OutputBuffer, st.OutputBytes = true, out, outBytes
			}
			pl.bufBytes += tail
		}
		return ks.plan(h, &planParams{l: pl, useLUT: lutSetting(pl), buffer: f.CBuf, stages: st})
	}
	var ph engine.Plan
	var err error
	if store != storeAtomic || sp.group.Sum == GroupSumOff {
		ph, err = build(store, groupSpec{})
	} else {
		// the group sum is an optimisation only: sums in shared memory that do not fit
		// beside VkFFT's go to registers, and a kernel the rewriter cannot loop takes an
		// atomic add per element
		tries := []groupSpec{sp.group.spec()}
		if sp.group.Sum == GroupSumShared {
			tries = append(tries, groupSpec{sum: GroupSumRegisters, transforms: sp.group.Transforms})
		}
		tries = append(tries, groupSpec{sum: GroupSumOff, transforms: 1})
		refused := ""
		for _, g := range tries {
			s := storeGroup
			if g.sum == GroupSumOff {
				s = storeAtomic
			}
			if ph, err = build(s, g); err == nil {
				if refused != "" {
					sp.group = GroupTuning{Sum: g.sum, Transforms: g.transforms, Source: sp.group.Source, Refused: refused}
				}
				break
			}
			if refused == "" {
				refused = fmt.Sprintf("%v x%d: %v", g.sum, g.transforms, err)
			}
		}
	}
	if err != nil {
		return err
	}
	if engine.PlanFusedKernels(ph) == 0 {
		engine.PlanDestroy(ph)
		return fmt.Errorf("%w: no kernel fused", ErrUnsupported)
	}
	sp.plan = ph
	return nil
}

// groupBuildHook, when set, refuses the group sums it returns an error for before they
// are built (tests: the fallbacks); nil in normal use.
var groupBuildHook func(groupSpec) error

// defaultFusion is FusionAuto's choice before falling back: the fastest path at every
// size measured on the H200 (atomic adds beat a power store and a sum kernel by 10-25 %),
// where d can add floats atomically without contention; else the power store.
func defaultFusion(d *Device) Fusion {
	if !companionFloatAtomics(d) || floatAddsContend(d) {
		return FusionPower
	}
	return FusionAtomic
}

// sumGroups is how many work-groups of the sum kernel share a chunk of items rows of
// bins, each adding its share into the bins: enough for about 2^18 work-items; at most
// contendedSumGroups where its adds contend (floatAddsContend), which at 16 bins and
// 16384 groups ran the power store at 0.3 GS/s on the H200's OpenCL driver. Without
// float atomics each group writes its row instead (allocSums): one work-item per bin
// summing a chunk alone ran the power store at 2.4 GS/s at 256 points on the H200's
// Vulkan driver.
func sumGroups(d *Device, items, bins int) int {
	if floatAddsContend(d) {
		return min(items, contendedSumGroups, max(1, (1<<18+bins-1)/bins))
	}
	return min(items, max(1, (1<<18+bins-1)/bins))
}

// allocSums gives f, on a device without float atomics, the rows of bins its sum
// kernel's y-groups write (f.SumGroups of them), which a second launch adds into the bins.
func (sp *Spectrometer) allocSums(f *engine.SpectroFields, bins int) error {
	if companionFloatAtomics(sp.dev) || f.SumGroups <= 1 {
		return nil
	}
	var err error
	f.Sums, err = sp.alloc(int64(f.SumGroups) * int64(bins) * 4)
	return err
}

// contendedSumGroups bounds the adds by compare-and-swap that meet on a bin from the sum
// kernel, whose failures are retried, so that their cost grows faster than their
// number; 64 added the direct kernel's rows on the H200's OpenCL driver within its
// 270-452 GS/s.
const contendedSumGroups = 64

// floatAddsContend says whether d adds floats atomically only by compare-and-swap with
// thousands of work-items retrying on the same bins: an OpenCL GPU (OpenCL C has no
// float atomic add; a CPU device runs few work-items at once). On the H200's OpenCL
// driver VkFFT's fused atomic store, an add per |X|², ran at 1.8, 4.1 and 9.7 GS/s at
// 4096, 8192 and 16384 points, the power store at 169, 179 and 150.
func floatAddsContend(d *Device) bool { return compiledBackend == OpenCL && !d.props.HostMemory }

// spectroTuning is the launch configuration measured fastest for the spectrometer's
// multi-pass FFTs on an NVIDIA H200 (CUDA), used unless the configuration sets its own:
// 65536 points with VkFFT planning for 16 KiB of shared memory (147 -> 168 GS/s), 2^20
// with 32 KiB and 64-byte coalescing (110 -> 144 GS/s). Elsewhere VkFFT's defaults.
func spectroTuning(cfg *SpectrometerConfig) {
	if compiledBackend != CUDA || cfg.SharedMemory != 0 || cfg.Tuning != (Tuning{}) {
		return
	}
	switch {
	case cfg.N >= 1<<15 && cfg.N < 1<<18:
		cfg.SharedMemory = 16 << 10
	case cfg.N >= 1<<18:
		cfg.SharedMemory = 32 << 10
		cfg.Tuning.CoalescedMemory = 64
	}
}

// Bins is the length of the power spectrum: N for complex input, N/2+1 for real.
func (sp *Spectrometer) Bins() int { return sp.bins }

// Samples is the number of samples one Accumulate call takes: N*Batch (times 2
// numbers for complex formats).
func (sp *Spectrometer) Samples() int { return sp.cfg.N * sp.cfg.Batch }

// Fusion reports the path in use: the one asked for (FusionPower for FusionAtomic on a
// Vulkan device without float atomics; FusionAuto's path for FusionDirect where the
// direct kernel does not take the configuration), or FusionCompanion where VkFFT's
// kernels for this size could not be rewritten.
func (sp *Spectrometer) Fusion() Fusion { return sp.fusion }

// Chunk is the number of FFTs the device works on at a time.
func (sp *Spectrometer) Chunk() int { return sp.chunk }

// Group reports how the fused atomic store sums over transforms and where that came
// from: GroupSumOff (an atomic add per element) on every other path, or where the
// rewriter refused the group sum chosen (Refused says why).
func (sp *Spectrometer) Group() GroupTuning {
	g := sp.group
	if sp.fusion != FusionAtomic {
		g.Sum, g.Transforms = GroupSumOff, 1
	}
	g.Candidates = append([]GroupTiming(nil), g.Candidates...)
	return g
}

// Config returns the configuration with its defaults filled in.
func (sp *Spectrometer) Config() SpectrometerConfig {
	c := sp.cfg
	c.Window = append([]float32(nil), c.Window...)
	return c
}

// WorkingSet is the device memory the spectrometer holds, in bytes (the input of
// AccumulateBuffer, which the caller owns, not included).
func (sp *Spectrometer) WorkingSet() int64 {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var n int64
	for _, m := range sp.mem {
		n += m.bytes
	}
	if sp.plan != nil {
		n += engine.PlanOwnBytes(sp.plan)
	}
	return n
}

// scalarTypeName names the type of z without fmt (no allocation).
func scalarTypeName(z any) string {
	switch z.(type) {
	case int8:
		return "int8"
	case int16:
		return "int16"
	case uint8:
		return "uint8"
	case Float16:
		return "Float16"
	case float32:
		return "float32"
	case float64:
		return "float64"
	case complex64:
		return "complex64"
	}
	return "complex128"
}

// Accumulate adds the power spectra of one batch of samples in host memory to the bins:
// interleaved re, im pairs for complex formats (len = 2*N*Batch), N*Batch numbers for
// real ones. The samples stream through pinned chunk buffers, the copy of one chunk
// overlapping the device's work on the other; it returns when the device is done.
func (sp *Spectrometer) Accumulate(samples []int8) error {
	return sp.accumulateHost("int8", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateInt16 is Accumulate for ComplexInt16 and RealInt16 samples.
func (sp *Spectrometer) AccumulateInt16(samples []int16) error {
	return sp.accumulateHost("int16", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateUint8 is Accumulate for ComplexUint8 (offset-binary) samples.
func (sp *Spectrometer) AccumulateUint8(samples []uint8) error {
	return sp.accumulateHost("uint8", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateFloat16 is Accumulate for ComplexFloat16 samples (IEEE half bits).
func (sp *Spectrometer) AccumulateFloat16(samples []Float16) error {
	return sp.accumulateHost("Float16", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// numbers is how many scalars one batch has.
func (sp *Spectrometer) numbers() int {
	n := sp.cfg.N * sp.cfg.Batch
	if sp.cfg.Input.Complex() {
		n *= 2
	}
	return n
}

func (sp *Spectrometer) checkInput(op, typ string, isNil bool, n int) error {
	if want := sp.cfg.Input.goType(); typ != want {
		return fmt.Errorf("vkfft: %s: %w: %s samples need []%s, got []%s", op, ErrInvalidArgument, sp.cfg.Input, want, typ)
	}
	return checkLen(op, "samples", isNil, n, sp.numbers())
}

func (sp *Spectrometer) accumulateHost(typ string, p unsafe.Pointer, n int, isNil bool) error {
	const op = "accumulate"
	if err := sp.checkInput(op, typ, isNil, n); err != nil {
		return err
	}
	d := sp.dev
	if _, err := d.use(op); err != nil {
		return err
	}
	defer d.mu.RUnlock()
	bytes := int64(n * sp.cfg.Input.scalarBytes())
	pinned := d.pinned.contains(p, bytes)
	var pool engine.Pool
	if !pinned { // the device's copy threads, before the spectrometer's lock
		var err error
		if pool, err = d.copyPool(); err != nil {
			return opError(op, err)
		}
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError(op, "spectrometer")
	}
	if err := sp.hostBuffers(); err != nil {
		return opError(op, err)
	}
	if !pinned {
		sp.stagedCalls++
	}
	if err := engine.SpectroHost(sp.s, pool, sp.st, p, pinned, sp.cfg.Batch); err != nil {
		return opError(op, err)
	}
	return nil
}

// hostBuffers makes the device and pinned chunk buffers, queue and events of host
// streaming on first use; the caller holds sp.mu and the device.
func (sp *Spectrometer) hostBuffers() error {
	if engine.SpectroHostReady(sp.s) {
		return nil
	}
	d := sp.dev
	bytes := int64(sp.turn * sp.cfg.N * sp.cfg.Input.sampleBytes())
	var pins [2]unsafe.Pointer
	for k := range sp.in {
		if sp.in[k] == 0 {
			var err error
			if sp.in[k], err = sp.alloc(bytes); err != nil {
				return err
			}
		}
		if sp.pin[k].p == nil {
			p, handle, err := engine.HostmemAlloc(d.h, bytes)
			if err != nil {
				return err
			}
			sp.pin[k] = hostMem{p, handle, bytes}
		}
		pins[k] = sp.pin[k].p
	}
	return engine.SpectroSetHost(sp.s, sp.st, sp.in, pins)
}

// DeviceBuffer is a device Buffer of any element type (*Buffer[T]).
type DeviceBuffer interface {
	raw() (b *buffer, zero any)
}

func (b *Buffer[T]) raw() (*buffer, any) {
	var z T
	return &b.b, z
}

// AccumulateBuffer adds the power spectra of one batch of samples in device memory to
// the bins; buf is a *Buffer[int8] (ComplexInt8, RealInt8), *Buffer[int16],
// *Buffer[uint8] or *Buffer[Float16] (ComplexFloat16) of as many numbers as Accumulate
// takes. The work is queued on the device's queue, after earlier uploads to buf.
func (sp *Spectrometer) AccumulateBuffer(buf DeviceBuffer) error {
	const op = "accumulate buffer"
	if buf == nil {
		return fmt.Errorf("vkfft: %s: %w: buffer is nil", op, ErrNilBuffer)
	}
	b, z := buf.raw()
	if b == nil {
		return fmt.Errorf("vkfft: %s: %w: buffer is nil", op, ErrNilBuffer)
	}
	if err := sp.checkInput(op, scalarTypeName(z), false, b.n); err != nil {
		return err
	}
	if _, err := sp.dev.use(op); err != nil {
		return err
	}
	defer sp.dev.mu.RUnlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError(op, "spectrometer")
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.m == 0 {
		return closedError(op, "buffer")
	}
	if b.dev != sp.dev {
		return opError(op, ErrWrongDevice)
	}
	if err := engine.SpectroDevice(sp.s, sp.st, b.m, 0, sp.cfg.Batch); err != nil {
		return opError(op, err)
	}
	return nil
}

// Read waits for the queued work and copies the accumulated power spectrum (Bins
// values, lowest frequency first — or the most negative first with FFTShift) into psd.
func (sp *Spectrometer) Read(psd []float32) error {
	const op = "read"
	if err := checkLen(op, "psd", psd == nil, len(psd), sp.bins); err != nil {
		return err
	}
	h, err := sp.dev.use(op)
	if err != nil {
		return err
	}
	defer sp.dev.mu.RUnlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError(op, "spectrometer")
	}
	if err := engine.MemDownload(h, sp.st, unsafe.Pointer(&sp.scratch[0]), sp.psd, int64(sp.bins)*4); err != nil {
		return opError(op, err)
	}
	src := sp.scratch
	if sp.perm != nil { // VkFFT's order: through the other half of scratch
		ordered := sp.scratch[sp.bins:]
		for p, k := range sp.perm {
			ordered[k] = sp.scratch[p]
		}
		src = ordered
	}
	if !sp.cfg.FFTShift {
		copy(psd, src)
		return nil
	}
	s := sp.bins / 2 // numpy's fftshift: bin k moves to (k + N/2) mod N
	copy(psd[s:], src[:sp.bins-s])
	copy(psd[:s], src[sp.bins-s:])
	return nil
}

// Reset zeroes the accumulated spectrum (queued on the device's queue).
func (sp *Spectrometer) Reset() error {
	if _, err := sp.dev.use("reset"); err != nil {
		return err
	}
	defer sp.dev.mu.RUnlock()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.s == nil {
		return closedError("reset", "spectrometer")
	}
	if err := engine.SpectroZero(sp.s, sp.st); err != nil {
		return opError("reset", err)
	}
	return nil
}

// Close frees the spectrometer's plan, kernels and memory. It is idempotent.
func (sp *Spectrometer) Close() error {
	sp.dev.closeResource(sp)
	return nil
}

// release frees everything; the caller holds sp.dev.mu.
func (sp *Spectrometer) release() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.releaseLocked()
}

func (sp *Spectrometer) releaseLocked() {
	d := sp.dev
	if sp.s != nil || sp.st != nil {
		_ = engine.DeviceSync(d.h)
	}
	if sp.s != nil {
		engine.SpectroFree(sp.s) // waits for the copy queue
		sp.s = nil
	}
	for k := range sp.pin {
		if sp.pin[k].p != nil {
			engine.HostmemFree(d.h, sp.pin[k].p, sp.pin[k].bytes, sp.pin[k].handle)
			sp.pin[k] = hostMem{}
		}
	}
	if sp.plan != nil {
		engine.PlanDestroy(sp.plan)
		sp.plan = nil
	}
	if sp.module != nil {
		engine.ModuleDestroy(sp.module)
		sp.module = nil
	}
	for _, m := range sp.mem {
		d.free(m.m, m.bytes)
	}
	sp.mem, sp.in = nil, [2]uint64{}
	if sp.st != nil {
		engine.FreeStatus(sp.st)
		sp.st = nil
	}
}

// companionFloatAtomics reports whether companion kernels on d can add floats
// atomically in device memory: always on CUDA and OpenCL (a compare-and-swap loop
// there), a device feature on Vulkan (VK_EXT_shader_atomic_float).
func companionFloatAtomics(d *Device) bool { return d.props.FloatAtomics }

// fusedStagesAvailable reports whether a spectrometer of cfg on d can take a fused path
// (where VkFFT's kernels for its size are ones the rewriter knows). On Vulkan the fused
// first pass binds the caller's whole batch of samples, which must fit one storage buffer
// binding (maxStorageBufferRange); the companion kernels, which bind it too, then refuse
// the device-resident call, and host samples, streamed in chunks, still run.
func fusedStagesAvailable(d *Device, cfg *SpectrometerConfig) bool {
	if compiledBackend != Vulkan {
		return true
	}
	return int64(cfg.N)*int64(cfg.Batch)*int64(cfg.Input.sampleBytes()) <= companionMaxBinding(d)
}

// companionMaxBinding is the largest buffer, in bytes, a companion kernel on d can bind
// (Vulkan's maxStorageBufferRange); unlimited elsewhere.
var companionMaxBinding = func(d *Device) int64 {
	if d.props.MaxBinding == 0 {
		return math.MaxInt64
	}
	return int64(d.props.MaxBinding)
}
