package vkfft

import (
	"fmt"
	"sync"
	"unsafe"
)

// spectroOp is what a PoolSpectrometer call asks of its shards.
type spectroOp int

const (
	spectroAccumulate spectroOp = iota
	spectroRead
	spectroReset
)

// spectroJob is one call of a PoolSpectrometer: samples (of Go type typ) of the whole
// batch for Accumulate, each shard taking its FFTs.
type spectroJob struct {
	op      spectroOp
	typ     string
	samples unsafe.Pointer
}

// PoolSpectrometer is a Spectrometer whose batch is split across the devices of a
// Pool: each device integrates the power of its share of every Accumulate call's FFTs
// in bins of its own, and Read adds the devices' bins (in float64, then rounded to
// float32). It is safe for concurrent use; calls are serialised.
type PoolSpectrometer struct {
	core   poolCore[spectroJob]
	sps    []*Spectrometer
	cfg    SpectrometerConfig
	bins   int
	perFFT int // sample numbers per FFT (2N for complex formats)
	readMu sync.Mutex
	psds   [][]float32 // each shard's bins, read by Read
}

// NewPoolSpectrometer builds a PoolSpectrometer: cfg.Batch (at least 1) shared among the
// pool's devices as NewPoolPlan shares a plan's — in whole chunks when cfg.Chunk is set
// (0 lets each device pick its own) — and a Spectrometer of its share on each device.
func NewPoolSpectrometer(pool *Pool, cfg SpectrometerConfig) (*PoolSpectrometer, error) {
	const op = "new pool spectrometer"
	if err := checkPoolBatch(cfg.Batch); err != nil {
		return nil, opError(op, err)
	}
	whole, err := validateSpectrometer(cfg)
	if err != nil {
		return nil, opError(op, err)
	}
	devs, err := pool.use(op)
	if err != nil {
		return nil, err
	}
	defer pool.mu.RUnlock()
	unit := max(cfg.Chunk, 1)
	shards := splitBatch(devs, cfg.Batch, unit)
	sps, err := buildShards("new spectrometer", shards, func(sh *poolShard) (*Spectrometer, error) {
		c := cfg
		c.Batch = sh.batch
		return NewSpectrometer(sh.dev, c)
	}, func(sp *Spectrometer) { sp.Close() })
	if err != nil {
		return nil, err
	}
	whole.Chunk = cfg.Chunk
	s := &PoolSpectrometer{sps: sps, cfg: whole, bins: sps[0].Bins(), perFFT: whole.N}
	if whole.Input.Complex() {
		s.perFFT *= 2
	}
	s.psds = make([][]float32, len(sps))
	for i := range s.psds {
		s.psds[i] = make([]float32, s.bins)
	}
	s.core.init(pool, "pool spectrometer", shards, s.runShard, func(i int) { sps[i].Close() })
	return s, nil
}

func (s *PoolSpectrometer) runShard(i int, j spectroJob) error {
	sp := s.sps[i]
	switch j.op {
	case spectroAccumulate:
		sh := &s.core.shards[i]
		at := unsafe.Add(j.samples, sh.first*s.perFFT*s.cfg.Input.scalarBytes())
		return sp.accumulateHost(j.typ, at, sh.batch*s.perFFT, false)
	case spectroRead:
		return sp.Read(s.psds[i])
	}
	return sp.Reset()
}

// Bins is the length of the power spectrum: N for complex input, N/2+1 for real.
func (s *PoolSpectrometer) Bins() int { return s.bins }

// Samples is the number of samples one Accumulate call takes: N*Batch (times 2 numbers
// for complex formats).
func (s *PoolSpectrometer) Samples() int { return s.cfg.N * s.cfg.Batch }

// Config returns the configuration with its defaults filled in; Chunk is as given (0:
// each device's own).
func (s *PoolSpectrometer) Config() SpectrometerConfig {
	c := s.cfg
	c.Window = append([]float32(nil), c.Window...)
	return c
}

// Batches reports how many FFTs of each Accumulate call each of the pool's devices
// runs, in the pool's order (0 for a device without a shard).
func (s *PoolSpectrometer) Batches() []int { return s.core.batches() }

// Fusion reports the path the first device's spectrometer took (see
// Spectrometer.Fusion); devices of one model take the same.
func (s *PoolSpectrometer) Fusion() Fusion { return s.sps[0].Fusion() }

// Accumulate adds the power spectra of one batch of samples in host memory to the bins,
// as Spectrometer.Accumulate does, each device its share of the FFTs; it returns when
// all devices are done.
func (s *PoolSpectrometer) Accumulate(samples []int8) error {
	return s.accumulate("int8", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateInt16 is Accumulate for ComplexInt16 and RealInt16 samples.
func (s *PoolSpectrometer) AccumulateInt16(samples []int16) error {
	return s.accumulate("int16", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateUint8 is Accumulate for ComplexUint8 (offset-binary) samples.
func (s *PoolSpectrometer) AccumulateUint8(samples []uint8) error {
	return s.accumulate("uint8", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

// AccumulateFloat16 is Accumulate for ComplexFloat16 samples (IEEE half bits).
func (s *PoolSpectrometer) AccumulateFloat16(samples []Float16) error {
	return s.accumulate("Float16", unsafe.Pointer(unsafe.SliceData(samples)), len(samples), samples == nil)
}

func (s *PoolSpectrometer) accumulate(typ string, p unsafe.Pointer, n int, isNil bool) error {
	const op = "accumulate"
	if want := s.cfg.Input.goType(); typ != want {
		return fmt.Errorf("vkfft: %s: %w: %s samples need []%s, got []%s", op, ErrInvalidArgument, s.cfg.Input, want, typ)
	}
	if err := checkLen(op, "samples", isNil, n, s.perFFT*s.cfg.Batch); err != nil {
		return err
	}
	return s.core.call(op, spectroJob{op: spectroAccumulate, typ: typ, samples: p})
}

// Read waits for every device's work and stores the sum of their bins in psd (Bins
// values, in Spectrometer.Read's order), added in float64 and rounded once.
func (s *PoolSpectrometer) Read(psd []float32) error {
	const op = "read"
	if err := checkLen(op, "psd", psd == nil, len(psd), s.bins); err != nil {
		return err
	}
	s.readMu.Lock() // the shards' bins are read into s.psds
	defer s.readMu.Unlock()
	if err := s.core.call(op, spectroJob{op: spectroRead}); err != nil {
		return err
	}
	for k := range psd {
		var sum float64
		for _, b := range s.psds {
			sum += float64(b[k])
		}
		psd[k] = float32(sum)
	}
	return nil
}

// Reset zeroes every device's bins.
func (s *PoolSpectrometer) Reset() error {
	return s.core.call("reset", spectroJob{op: spectroReset})
}

// Close frees the devices' spectrometers. It is idempotent; Pool.Close closes it too.
func (s *PoolSpectrometer) Close() error { return s.core.close() }
