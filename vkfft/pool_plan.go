package vkfft

import "fmt"

// poolLayout checks a pool plan's Config as a whole, before any device builds its
// shard: a pool plan runs on host slices, whose batch it splits.
func poolLayout(cfg Config, k kind, complexSize uintptr) (layout, error) {
	if err := checkPoolBatch(cfg.Batch); err != nil {
		return layout{}, err
	}
	l, err := validate(cfg, k, complexSize)
	if err != nil {
		return l, err
	}
	if l.strided {
		return l, fmt.Errorf("%w: a pool plan transforms host slices, which are contiguous: drop InStrides/OutStrides",
			ErrUnsupported)
	}
	if cfg.RealInPlace {
		return l, fmt.Errorf("%w: a pool plan transforms host slices out of place: drop RealInPlace", ErrUnsupported)
	}
	return l, nil
}

// shardConfig is cfg for the shard sh: its batch, and the rest as given.
func shardConfig(cfg Config, sh *poolShard) Config {
	c := cloneConfig(cfg)
	c.Batch = sh.batch
	return c
}

// planJob is one call of a PoolPlan: both slices whole, each shard takes its part.
type planJob[T Complex] struct {
	inverse  bool
	dst, src []T
}

// PoolPlan is a complex-to-complex transform whose batch is split across the devices
// of a Pool: each device runs a Plan of its share of the transforms, all at once. Its
// host slices are those of a Plan of the same Config on one device, and so are its
// results (bit for bit where the devices are of one model: the same kernels run).
type PoolPlan[T Complex] struct {
	core  poolCore[planJob[T]]
	plans []*Plan[T]
	cfg   Config
	n     int // elements per transform
	len   int
}

// NewPoolPlan builds a PoolPlan: cfg.Batch (at least 1) shared among the pool's
// devices as evenly as possible — a device gets no shard when Batch is below the
// number of devices — and one Plan per shard on its device, built at once. Strided
// and RealInPlace configurations are refused: a pool plan takes host slices.
func NewPoolPlan[T Complex](pool *Pool, cfg Config) (*PoolPlan[T], error) {
	const op = "new pool plan"
	l, err := poolLayout(cfg, kindC2C, sizeOf[T]())
	if err != nil {
		return nil, opError(op, err)
	}
	devs, err := pool.use(op)
	if err != nil {
		return nil, err
	}
	defer pool.mu.RUnlock()
	shards := splitBatch(devs, l.cfg.Batch, 1)
	plans, err := buildShards("new plan", shards, func(sh *poolShard) (*Plan[T], error) {
		return NewPlan[T](sh.dev, shardConfig(cfg, sh))
	}, func(p *Plan[T]) { p.Close() })
	if err != nil {
		return nil, err
	}
	l.cfg.Tuning = shardTuning(l.cfg.Tuning, plans, func(p *Plan[T]) Tuning { return p.p.l.cfg.Tuning })
	p := &PoolPlan[T]{plans: plans, cfg: l.cfg, n: l.n, len: l.complexLen}
	p.core.init(pool, "pool plan", shards, p.runShard, func(i int) { plans[i].Close() })
	return p, nil
}

func (p *PoolPlan[T]) runShard(i int, j planJob[T]) error {
	sh := &p.core.shards[i]
	lo, hi := sh.first*p.n, (sh.first+sh.batch)*p.n
	if j.inverse {
		return p.plans[i].Inverse(j.dst[lo:hi], j.src[lo:hi])
	}
	return p.plans[i].Forward(j.dst[lo:hi], j.src[lo:hi])
}

// Len is the number of elements Forward and Inverse take and return: Batch × prod(Shape).
func (p *PoolPlan[T]) Len() int { return p.len }

// Config returns the plan's configuration (the whole batch), with the tuning its
// devices' plans run where they agree.
func (p *PoolPlan[T]) Config() Config { return cloneConfig(p.cfg) }

// Batches reports how many transforms of the batch each of the pool's devices runs, in
// the pool's order (0 for a device without a shard).
func (p *PoolPlan[T]) Batches() []int { return p.core.batches() }

// Forward computes the forward transform of src into dst (host slices of Len elements;
// dst may be src), each device its share, and returns when all are done. If shards
// fail, the error is their ShardErrors, each naming its device; the other shards'
// parts of dst are complete.
func (p *PoolPlan[T]) Forward(dst, src []T) error { return p.run(false, dst, src) }

// Inverse computes the inverse transform of src into dst, scaled as Config.Norm says.
func (p *PoolPlan[T]) Inverse(dst, src []T) error { return p.run(true, dst, src) }

func (p *PoolPlan[T]) run(inverse bool, dst, src []T) error {
	op := direction(inverse)
	if err := checkLen(op, "src", src == nil, len(src), p.len); err != nil {
		return err
	}
	if err := checkLen(op, "dst", dst == nil, len(dst), p.len); err != nil {
		return err
	}
	return p.core.call(op, planJob[T]{inverse: inverse, dst: dst, src: src})
}

// Close frees the shards' plans. It is idempotent; Pool.Close closes it too.
func (p *PoolPlan[T]) Close() error { return p.core.close() }

// realJob is one call of a PoolRealPlan.
type realJob[R Real, C Complex] struct {
	inverse bool
	r       []R
	c       []C
}

// PoolRealPlan is a RealPlan whose batch is split across the devices of a Pool, as
// PoolPlan does for complex plans.
type PoolRealPlan[R Real, C Complex] struct {
	core       poolCore[realJob[R, C]]
	plans      []*RealPlan[R, C]
	cfg        Config
	rn, cn     int // real and spectrum elements per transform
	rlen, clen int
}

// NewPoolRealPlan builds a PoolRealPlan, sharing cfg.Batch as NewPoolPlan does; cfg.Shape
// is the real data's shape.
func NewPoolRealPlan[R Real, C Complex](pool *Pool, cfg Config) (*PoolRealPlan[R, C], error) {
	const op = "new pool plan"
	if 2*sizeOf[R]() != sizeOf[C]() {
		var r R
		var c C
		return nil, opError(op, fmt.Errorf("%w: real %T with complex %T", ErrPrecision, r, c))
	}
	l, err := poolLayout(cfg, kindR2C, sizeOf[C]())
	if err != nil {
		return nil, opError(op, err)
	}
	devs, err := pool.use(op)
	if err != nil {
		return nil, err
	}
	defer pool.mu.RUnlock()
	shards := splitBatch(devs, l.cfg.Batch, realUnit(&l))
	plans, err := buildShards("new plan", shards, func(sh *poolShard) (*RealPlan[R, C], error) {
		return NewRealPlan[R, C](sh.dev, shardConfig(cfg, sh))
	}, func(p *RealPlan[R, C]) { p.Close() })
	if err != nil {
		return nil, err
	}
	l.cfg.Tuning = shardTuning(l.cfg.Tuning, plans, func(p *RealPlan[R, C]) Tuning { return p.p.l.cfg.Tuning })
	b := l.cfg.Batch
	p := &PoolRealPlan[R, C]{plans: plans, cfg: l.cfg, rn: l.realLen / b, cn: l.complexLen / b, rlen: l.realLen,
		clen: l.complexLen}
	p.core.init(pool, "pool plan", shards, p.runShard, func(i int) { plans[i].Close() })
	return p, nil
}

// shardTuning is the tuning the shards' plans run where they all run the same one (a
// prior they start from on NVIDIA where the configuration gives none), so that a pool
// plan's Config reports what a one-device plan's does; else given.
func shardTuning[P any](given Tuning, plans []P, tuning func(P) Tuning) Tuning {
	if len(plans) == 0 {
		return given
	}
	first := tuning(plans[0])
	for _, p := range plans[1:] {
		if tuning(p) != first {
			return given
		}
	}
	return first
}

// realUnit is the number of transforms a real plan's shards take in whole multiples of
// (the last shard taking the rest), so that each device computes what one device's plan
// of the whole batch computes, bit for bit. VkFFT transforms the real lines of a 1-D R2C
// (its last axis, lines one after another across the batch) in pairs, each pair as one
// complex FFT, and the odd line at the end alone: a shard must start on a pair's first
// line, and only the last shard may end on a lone line. With an odd number of lines per
// transform that takes shards of an even number of transforms.
func realUnit(l *layout) int {
	last := len(l.cfg.Shape) - 1
	if !l.sel[last] || transformedAxes(l) > 1 {
		return 1 // multi-axis: no pairs across transforms
	}
	if lines := l.n / l.cfg.Shape[last]; lines%2 == 1 {
		return 2
	}
	return 1
}

func (p *PoolRealPlan[R, C]) runShard(i int, j realJob[R, C]) error {
	sh := &p.core.shards[i]
	r := j.r[sh.first*p.rn : (sh.first+sh.batch)*p.rn]
	c := j.c[sh.first*p.cn : (sh.first+sh.batch)*p.cn]
	if j.inverse {
		return p.plans[i].Inverse(r, c)
	}
	return p.plans[i].Forward(c, r)
}

// RealLen is the number of real elements: Batch × prod(Shape).
func (p *PoolRealPlan[R, C]) RealLen() int { return p.rlen }

// ComplexLen is the number of spectrum elements: Batch × prod(Shape[:-1]) × (Shape[-1]/2+1).
func (p *PoolRealPlan[R, C]) ComplexLen() int { return p.clen }

// Config returns the plan's configuration (the whole batch), with the tuning its
// devices' plans run where they agree.
func (p *PoolRealPlan[R, C]) Config() Config { return cloneConfig(p.cfg) }

// Batches reports how many transforms each of the pool's devices runs (see PoolPlan).
func (p *PoolRealPlan[R, C]) Batches() []int { return p.core.batches() }

// Forward computes the half spectrum of real src into dst, each device its share.
func (p *PoolRealPlan[R, C]) Forward(dst []C, src []R) error {
	if err := checkLen("forward", "src", src == nil, len(src), p.rlen); err != nil {
		return err
	}
	if err := checkLen("forward", "dst", dst == nil, len(dst), p.clen); err != nil {
		return err
	}
	return p.core.call("forward", realJob[R, C]{r: src, c: dst})
}

// Inverse computes the real signal of half spectrum src into dst, as RealPlan.Inverse
// does (src is not modified).
func (p *PoolRealPlan[R, C]) Inverse(dst []R, src []C) error {
	if err := checkLen("inverse", "src", src == nil, len(src), p.clen); err != nil {
		return err
	}
	if err := checkLen("inverse", "dst", dst == nil, len(dst), p.rlen); err != nil {
		return err
	}
	return p.core.call("inverse", realJob[R, C]{inverse: true, r: dst, c: src})
}

// Close frees the shards' plans. It is idempotent; Pool.Close closes it too.
func (p *PoolRealPlan[R, C]) Close() error { return p.core.close() }
