package vkfft

// Cache keys. Every cache of the package finds its entries by a key of one type,
// cacheKey: the in-memory plan cache (a device's plans by configuration), and in the
// kernel-cache directory (kcache.go) the kernels of a plan, a module of companion
// kernels, and a stored tuning. A key is text, one "name=value" line per field in a
// fixed order, after a first line naming the kind of entry ("entry=kernels"). Each field
// is written by one method below, whichever keys it goes into, so it has one name and
// one rendering everywhere; free text (a device's name, a hash) is quoted.
//
// A field at its zero value (0, false, "", an empty list, an array of zeros) is left
// out. The names keep the text unambiguous, and the plan cache's keys stay short enough
// to build, in a caller's stack buffer, on every lookup: a hit allocates nothing.

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// The kinds of entry, each key's first line.
const (
	planEntry         = "plan"          // the in-memory cache: a typed plan (Plan, RealPlan)
	bytePlanEntry     = "byte_plan"     // the in-memory cache: a BytePlan
	kernelsEntry      = "kernels"       // the kernel cache: a plan's compiled kernels
	moduleEntry       = "module"        // the kernel cache: a module of companion kernels
	kernelSourceEntry = "kernel_source" // the kernel cache's kernels/: one kernel by its source (kreuse.go)
	tuningEntry       = "tuning"        // the kernel cache: a stored tuning (tune_store.go)
)

// cacheKey is a key being written. Its methods take and return it by value, so a key
// written into a stack buffer stays there.
type cacheKey struct{ b []byte }

// newCacheKey starts a key of entry in buf (which may be nil, or a stack buffer).
func newCacheKey(buf []byte, entry string) cacheKey {
	return cacheKey{b: buf[:0]}.word("entry", entry)
}

// bytes is the key's text.
func (k cacheKey) bytes() []byte { return k.b }

func (k cacheKey) name(name string) cacheKey {
	k.b = append(k.b, name...)
	k.b = append(k.b, '=')
	return k
}

func (k cacheKey) end() cacheKey {
	k.b = append(k.b, '\n')
	return k
}

func (k cacheKey) int(name string, v int64) cacheKey {
	if v == 0 {
		return k
	}
	k = k.name(name)
	k.b = strconv.AppendInt(k.b, v, 10)
	return k.end()
}

func (k cacheKey) hex(name string, v uint64) cacheKey {
	if v == 0 {
		return k
	}
	k = k.name(name)
	k.b = append(k.b, "0x"...)
	k.b = strconv.AppendUint(k.b, v, 16)
	return k.end()
}

func (k cacheKey) bool(name string, v bool) cacheKey {
	if !v {
		return k
	}
	k = k.name(name)
	k.b = append(k.b, "true"...)
	return k.end()
}

// word writes one of the package's own names (a kind, a backend) as it is.
func (k cacheKey) word(name, v string) cacheKey {
	if v == "" {
		return k
	}
	k = k.name(name)
	k.b = append(k.b, v...)
	return k.end()
}

// str writes free text, quoted.
func (k cacheKey) str(name, v string) cacheKey {
	if v == "" {
		return k
	}
	k = k.name(name)
	k.b = strconv.AppendQuote(k.b, v)
	return k.end()
}

// ints writes a list of any length ("[8 8 16]"), left out when empty.
func (k cacheKey) ints(name string, v []int) cacheKey {
	if len(v) == 0 {
		return k
	}
	return k.list(name, len(v), func(i int) int64 { return int64(v[i]) })
}

// array writes a list of fixed length, left out when every element is 0.
func (k cacheKey) array(name string, n int, at func(i int) int64) cacheKey {
	for i := 0; i < n; i++ {
		if at(i) != 0 {
			return k.list(name, n, at)
		}
	}
	return k
}

// flags writes the indices of the true elements ("[0 2]"), left out when there is none.
func (k cacheKey) flags(name string, v []bool) cacheKey {
	var idx [maxRank]int
	n := 0
	for i, on := range v {
		if on && n < len(idx) {
			idx[n] = i
			n++
		}
	}
	return k.ints(name, idx[:n])
}

func (k cacheKey) list(name string, n int, at func(i int) int64) cacheKey {
	k = k.name(name)
	k.b = append(k.b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			k.b = append(k.b, ' ')
		}
		k.b = strconv.AppendInt(k.b, at(i), 10)
	}
	k.b = append(k.b, ']')
	return k.end()
}

// digest writes the SHA-256 of texts (each ended by a NUL), left out when all are empty.
func (k cacheKey) digest(name string, texts ...string) cacheKey {
	if !slices.ContainsFunc(texts, func(t string) bool { return t != "" }) {
		return k
	}
	h := sha256.New()
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return k.str(name, hex.EncodeToString(h.Sum(nil)))
}

// The groups of fields. A key writes each group it needs, always in this order:
// ident, transform, then the plan's own fields.

// ident writes the build and the device: what every kernel-cache entry depends on.
func (k cacheKey) ident(id *kcacheIdent) cacheKey {
	return k.int("format", kcacheFormat).
		int("vkfft", int64(id.vkfftVersion)).
		str("vkfft_headers", id.headerSHA).
		str("vkg_core", id.coreHash).
		word("backend", id.backend.String()).
		str("device", id.name).
		str("vendor", id.vendor).
		hex("vendor_id", uint64(id.vendorID)).
		str("driver", id.driver).
		str("platform", id.platform).
		int("compute_major", int64(id.computeMajor)).
		int("compute_minor", int64(id.computeMinor)).
		str("backend_tag", id.tag)
}

// transform writes what is transformed: the kind of plan, its precision, shape and batch.
func (k cacheKey) transform(kd kind, r2r R2RKind, double bool, shape []int, batch int) cacheKey {
	return k.word("kind", kindName(kd)).
		int("r2r", int64(r2r)).
		bool("double", double).
		ints("shape", shape).
		int("batch", int64(batch))
}

// tuning writes VkFFT's launch configuration.
func (k cacheKey) tuning(t *Tuning) cacheKey {
	return k.int("coalesced_memory", int64(t.CoalescedMemory)).
		int("aim_threads", int64(t.AimThreads)).
		int("register_boost", int64(t.RegisterBoost)).
		int("register_boost_4step", int64(t.RegisterBoost4Step)).
		array("grouped_batch", maxRank, func(i int) int64 { return int64(t.GroupedBatch[i]) }).
		int("bandwidth_boost", int64(t.BandwidthBoost)).
		int("swap_to_3stage_4step", int64(t.SwapTo3Stage4Step)).
		int("shared_memory", int64(t.SharedMemory)).
		int("bluestein_size", int64(t.BluesteinSize)).
		int("tuning_lut", int64(t.LUT))
}

// dataLayout writes the layout fields of a Config: the transformed axes (sel, resolved
// from Axes), the strides as given, the storage and the real in-place layout.
func (k cacheKey) dataLayout(sel []bool, cfg *Config) cacheKey {
	return k.flags("axes", sel).
		ints("in_strides", cfg.InStrides).
		ints("out_strides", cfg.OutStrides).
		int("storage", int64(cfg.Storage)).
		bool("real_inplace", cfg.RealInPlace)
}

// vkLayout writes what layout.go tells VkFFT, and the sizes of the buffers it runs on.
func (k cacheKey) vkLayout(l *layout) cacheKey {
	vk := &l.vk
	return k.bool("strided", l.strided).
		int("vk_dim", int64(vk.dim)).
		array("vk_size", maxRank, func(i int) int64 { return int64(vk.size[i]) }).
		flags("vk_omit", vk.omit[:]).
		int("vk_batch", int64(vk.batch)).
		array("vk_in_stride", maxRank, func(i int) int64 { return int64(vk.inStride[i]) }).
		array("vk_out_stride", maxRank, func(i int) int64 { return int64(vk.outStride[i]) }).
		int("complex_bytes", l.bufBytes).
		int("real_bytes", l.vkRealBytes())
}

// stages writes what a plan does besides a plain transform. The buffers bound at
// creation (InputBuffer, OutputBuffer, KernelBuffer, FuseWindow, FuseOut) change
// nothing in the kernels and are left out; keyfields_test.go checks that every other
// field of engine.StageParams is written.
func (k cacheKey) stages(s *engine.StageParams) cacheKey {
	u := func(v []uint64) func(int) int64 { return func(i int) int64 { return int64(v[i]) } }
	return k.bool("stage_separate_input", s.SeparateInput).
		bool("stage_separate_output", s.SeparateOutput).
		int("stage_input_bytes", s.InputBytes).
		int("stage_output_bytes", s.OutputBytes).
		array("stage_input_stride", len(s.InputStride), u(s.InputStride[:])).
		array("stage_output_stride", len(s.OutputStride), u(s.OutputStride[:])).
		array("stage_pad_left", len(s.PadLeft), u(s.PadLeft[:])).
		array("stage_pad_right", len(s.PadRight), u(s.PadRight[:])).
		int("stage_conv", int64(s.Conv)).
		bool("stage_conj", s.Conj).
		bool("stage_cross_power", s.CrossPower).
		int("stage_features", int64(s.Features)).
		int("stage_matrix", int64(s.Matrix)).
		int("stage_kernels", int64(s.Kernels)).
		int("stage_kernel_bytes", s.KernelBytes).
		bool("stage_forward_only", s.ForwardOnly).
		bool("stage_offsets_at_launch", s.OffsetsAtLaunch).
		bool("stage_no_reorder", s.NoReorder).
		bool("stage_return_to_input", s.ReturnToInput).
		int("stage_shared_memory", int64(s.SharedMemory)).
		int("stage_fuse_load", int64(s.FuseLoad)).
		int("stage_fuse_store", int64(s.FuseStore)).
		digest("stage_fuse", s.Fuse.Prelude, s.Fuse.InputDecl, s.Fuse.ExtraParams, s.Fuse.Entry, s.Fuse.InputVkFFT,
			s.Fuse.OutputVkFFT, s.Fuse.OutputDecl, s.Fuse.EntryPrelude).
		digest("stage_fuse_group", s.Fuse.GroupID, s.Fuse.GroupForbid).
		int("stage_fuse_group_shared", int64(s.Fuse.GroupShared))
}

// plan writes every plan parameter passed to VkFFT. A FullSpectrum plan runs the kernels
// of the plain plan of its VkFFT kind (vkKind), whose key it shares: its own expansion
// and folding are companion kernels.
func (k cacheKey) plan(p *planParams) cacheKey {
	l := &p.l
	return k.transform(l.vkKind(), l.r2r, l.double, l.cfg.Shape, l.cfg.Batch).
		bool("normalize", l.cfg.Norm == NormBackward).
		int("use_lut", int64(p.useLUT)).
		tuning(&l.cfg.Tuning).
		dataLayout(l.sel[:len(l.cfg.Shape)], &l.cfg).
		vkLayout(l).
		bool("out_of_place", p.outOfPlace).
		stages(&p.stages)
}

// The keys.

// planCacheKey is the in-memory plan cache's key of cfg for a plan of kind kd (r2r:
// a BytePlan's real-to-real kind) and precision; entry is planEntry or bytePlanEntry. It
// is written into buf, so a lookup allocates nothing. It is false when cfg cannot be
// valid, leaving the message to validate.
func planCacheKey(buf []byte, entry string, cfg *Config, kd kind, r2r R2RKind, double bool) (cacheKey, bool) {
	rank := len(cfg.Shape)
	if rank < 1 || rank > maxRank || cfg.Batch < 0 || cfg.Tuning.check(rank) != nil ||
		(cfg.InStrides != nil && len(cfg.InStrides) != rank) || (cfg.OutStrides != nil && len(cfg.OutStrides) != rank) {
		return cacheKey{}, false
	}
	sel, ok := axesOf(cfg)
	if !ok {
		return cacheKey{}, false
	}
	k := newCacheKey(buf, entry).
		transform(kd, r2r, double, cfg.Shape, max(cfg.Batch, 1)).
		int("norm", int64(cfg.Norm)).
		int("lut", int64(cfg.LUT)).
		tuning(&cfg.Tuning).
		dataLayout(sel[:rank], cfg).
		bool("full_spectrum", cfg.FullSpectrum).
		int("tune", int64(cfg.Tune))
	return k, true
}

// kernelKey is the kernel-cache key of a plan's kernels on a device.
func kernelKey(id *kcacheIdent, p *planParams) []byte {
	return newCacheKey(nil, kernelsEntry).ident(id).plan(p).bytes()
}

// tuningKey is the key of the tuning stored for plans of layout l on a device: the
// fields of the untuned plan's kernels, and the tuner's version.
func tuningKey(id *kcacheIdent, l *layout) []byte {
	base := *l
	base.cfg.Tuning = Tuning{}
	p := planParams{l: base, useLUT: lutSetting(base)}
	return newCacheKey(nil, tuningEntry).int("tuner", tunerVersion).ident(id).plan(&p).bytes()
}

// moduleKey is the kernel-cache key of a module of companion kernels built from source.
func moduleKey(id *kcacheIdent, source string) []byte {
	return newCacheKey(nil, moduleEntry).ident(id).digest("source", source).bytes()
}

// keyFields splits a key into its fields, unquoting free text; a field left out (at its
// zero value) is absent.
func keyFields(key []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(string(key), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if u, err := strconv.Unquote(v); err == nil {
			v = u
		}
		m[k] = v
	}
	return m
}

// kindName is how keys (and ListTunings) name a kind of plan.
func kindName(k kind) string {
	switch k {
	case kindR2C:
		return "r2c"
	case kindR2R:
		return "r2r"
	}
	return "c2c"
}

// kcacheIdent is everything about the build and the device that a cached kernel
// depends on.
type kcacheIdent struct {
	vkfftVersion int
	headerSHA    string
	coreHash     string
	backend      Backend
	name         string
	vendor       string
	vendorID     uint32
	driver       string
	platform     string
	computeMajor int
	computeMinor int
	tag          string
}

func identFor(info *DeviceInfo) kcacheIdent {
	return kcacheIdent{
		vkfftVersion: vkfftVersion(),
		headerSHA:    engine.HeaderIdent(),
		coreHash:     engine.CoreHash(),
		backend:      compiledBackend,
		name:         info.Name,
		vendor:       info.Vendor,
		vendorID:     info.VendorID,
		driver:       info.Driver,
		platform:     info.Platform,
		computeMajor: info.ComputeMajor,
		computeMinor: info.ComputeMinor,
		tag:          engine.CompilerIdent(),
	}
}
