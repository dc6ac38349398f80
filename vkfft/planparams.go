package vkfft

import "github.com/vkfftgo/vkfftgo/internal/engine"

// planParams is a plan as this package resolved it: the layout, the buffers it runs
// on, the kernels to load or keep, and the stages beyond a plain transform.
type planParams struct {
	l                  layout
	useLUT             int
	buffer, realBuffer uint64
	loadBlob           []byte
	save               bool
	outOfPlace         bool // C2C reading realBuffer's slot (VkFFT's inputBuffer), writing buffer
	stages             engine.StageParams
	herm               engine.Kernel // the C2R projection kernel (herm.go); not part of any key
	hermWhy            string        // why herm is nil where the plan needs it
}

// newPlanParams are the parameters of a plan of l on its buffers (outOfPlace: a C2C
// plan's second application, which reads an input buffer; oop.go).
func newPlanParams(l layout, buffer, realBuffer uint64, outOfPlace bool) planParams {
	return planParams{l: l, useLUT: lutSetting(l), buffer: buffer, realBuffer: realBuffer, outOfPlace: outOfPlace}
}

// lutSetting maps Config.LUT (or, when that is LUTDefault, Tuning.LUT) to VkFFT's useLUT
// (-1 off, 0 auto, 1 on).
func lutSetting(l layout) int {
	lut := l.cfg.LUT
	if lut == LUTDefault {
		lut = l.cfg.Tuning.LUT
	}
	switch lut {
	case LUTOn:
		return 1
	case LUTOff:
		return -1
	}
	if l.double {
		return 0
	}
	return 1
}

// engineParams is p in the engine's terms: numpy's shape, axes and strides as VkFFT's
// dimensions (layout.go), the tuning as VkFFT's launch configuration.
func (p *planParams) engineParams() engine.PlanParams {
	l := &p.l
	t := &l.cfg.Tuning
	ep := engine.PlanParams{
		Shape:        l.cfg.Shape,
		Batch:        l.cfg.Batch,
		Kind:         engine.KindC2C,
		Double:       l.double,
		Normalize:    l.cfg.Norm == NormBackward,
		UseLUT:       p.useLUT,
		ForwardScale: l.fwdScale,
		InverseScale: l.invScale,
		Launch: engine.Launch{
			CoalescedMemory: t.CoalescedMemory, AimThreads: t.AimThreads, RegisterBoost: t.RegisterBoost,
			RegisterBoost4Step: t.RegisterBoost4Step, SwapTo3Stage4Step: t.SwapTo3Stage4Step,
			GroupedBatch: t.GroupedBatch, BandwidthBoost: t.BandwidthBoost, SharedMemory: t.SharedMemory,
			BluesteinSize: t.BluesteinSize,
		},
		OutOfPlace:  p.outOfPlace,
		Buffer:      p.buffer,
		BufferBytes: l.bufBytes,
		RealBuffer:  p.realBuffer,
		RealBytes:   l.vkRealBytes(),
		LoadBlob:    p.loadBlob,
		Save:        p.save,
		VkDim:       l.vk.dim,
		VkBatch:     l.vk.batch,
		Strided:     l.strided,
		Storage:     int(l.cfg.Storage),
		RealInPlace: l.cfg.RealInPlace,
		Stages:      p.stages,
		Herm:        p.herm,
		HermWhy:     p.hermWhy,
	}
	switch l.vkKind() {
	case kindR2C:
		ep.Kind = engine.KindR2C
	case kindR2R:
		ep.Kind = engine.KindR2R
		ep.DCT, ep.DST = l.r2r.vkfftType()
	}
	for i := 0; i < l.vk.dim; i++ {
		ep.VkSize[i] = l.vk.size[i]
		ep.VkOmit[i] = l.vk.omit[i]
		ep.InStride[i] = uint64(l.vk.inStride[i])
		ep.OutStride[i] = uint64(l.vk.outStride[i])
	}
	return ep
}

// planCreate builds the engine's plan of p on h.
func planCreate(h engine.Device, p *planParams) (engine.Plan, error) {
	ep := p.engineParams()
	return engine.PlanCreate(h, &ep)
}
