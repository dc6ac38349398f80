package vkfft

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/vkfftgo/vkfftgo/internal/engine"
)

// Pool is several devices of one host that share the work of pool plans
// (NewPoolPlan, NewPoolRealPlan) and pool spectrometers (NewPoolSpectrometer): each
// splits its batch across the devices, and every device runs its share — its shard —
// with a plan, queue and staging of its own, all devices at once. A Pool opens its
// devices and closes them with Close; it is safe for concurrent use.
type Pool struct {
	// mu is held shared while a pool object is built and exclusively by Close. Lock
	// order: Pool.mu, then a pool object's mutex, then the devices' locks.
	mu        sync.RWMutex
	devs      []*Device // nil once closed
	resMu     sync.Mutex
	resources map[poolResource]struct{}
}

// poolResource is something a Pool frees when it closes: a pool plan or spectrometer.
// release is called with Pool.mu held and takes the object's own lock.
type poolResource interface{ release() }

// OpenPool opens the devices of the given indices (as Devices numbers them) as one
// Pool, in that order; with no indices it opens every device of the backend. An index
// listed twice, an empty (non-nil) list and an index with no device are errors.
func OpenPool(indices ...int) (*Pool, error) { return openPool(indices, false) }

// openPool is OpenPool; repeats lets an index appear more than once (each time a Device
// of its own on the same hardware), which tests use where only one device exists.
func openPool(indices []int, repeats bool) (*Pool, error) {
	const op = "open pool"
	if indices == nil {
		n, err := engine.DeviceCount()
		if err != nil {
			return nil, opError(op, err)
		}
		if n == 0 {
			return nil, opError(op, fmt.Errorf("%w: the %s backend lists no device", ErrNoDevice, compiledBackend))
		}
		indices = make([]int, n)
		for i := range indices {
			indices[i] = i
		}
	}
	if len(indices) == 0 {
		return nil, opError(op, fmt.Errorf("%w: no device indices: a pool needs at least one device (OpenPool() opens them all)",
			ErrInvalidArgument))
	}
	for i, ix := range indices {
		if !repeats && slices.Contains(indices[:i], ix) {
			return nil, opError(op, fmt.Errorf("%w: device %d is listed twice in %v", ErrInvalidArgument, ix, indices))
		}
	}
	p := &Pool{resources: make(map[poolResource]struct{})}
	for _, ix := range indices {
		d, err := Open(ix)
		if err != nil {
			for _, d := range p.devs {
				d.Close()
			}
			return nil, fmt.Errorf("vkfft: %s: device %d: %w", op, ix, err)
		}
		p.devs = append(p.devs, d)
	}
	return p, nil
}

// Devices returns the pool's devices in the order OpenPool opened them (nil once the
// pool is closed). They belong to the pool: Pool.Close closes them.
func (p *Pool) Devices() []*Device {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.devs)
}

// Len is the number of devices in the pool (0 once it is closed).
func (p *Pool) Len() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.devs)
}

// Close closes the pool's plans and spectrometers, then its devices. It is idempotent;
// afterwards every call on the pool or its objects returns an error wrapping ErrClosed.
func (p *Pool) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.devs == nil {
		return nil
	}
	p.resMu.Lock()
	rs := p.resources
	p.resources = nil
	p.resMu.Unlock()
	for r := range rs {
		r.release()
	}
	var errs []error
	for _, d := range p.devs {
		if err := d.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	p.devs = nil
	return errors.Join(errs...)
}

// use takes the pool's shared lock and returns its devices; the caller must
// p.mu.RUnlock() when it has no error.
func (p *Pool) use(op string) ([]*Device, error) {
	if p == nil {
		return nil, opError(op, fmt.Errorf("%w: nil pool", ErrInvalidArgument))
	}
	p.mu.RLock()
	if p.devs == nil {
		p.mu.RUnlock()
		return nil, closedError(op, "pool")
	}
	return p.devs, nil
}

// track registers r to be released by Close; the caller holds p.mu shared.
func (p *Pool) track(r poolResource) {
	p.resMu.Lock()
	p.resources[r] = struct{}{}
	p.resMu.Unlock()
}

// closeResource closes r on behalf of its own Close: a no-op once the pool has closed
// (which released r already).
func (p *Pool) closeResource(r poolResource) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.devs == nil {
		return
	}
	r.release()
	p.resMu.Lock()
	delete(p.resources, r)
	p.resMu.Unlock()
}

// ShardError is the error of one device's share of a pool call. A call whose shards
// fail returns their ShardErrors (joined, when there are several), each wrapping what
// the device's own call returned, so errors.Is sees the sentinel and errors.As the
// device.
type ShardError struct {
	Op     string // the pool call: "forward", "accumulate", ...
	Shard  int    // the device's place in the pool: Pool.Devices()[Shard]
	Device int    // the device's index, as Devices numbers it
	Name   string // the device's name
	Err    error
}

func (e *ShardError) Error() string {
	return fmt.Sprintf("vkfft: pool %s: device %d (%s): %v", e.Op, e.Device, e.Name, e.Err)
}

func (e *ShardError) Unwrap() error { return e.Err }

// poolShard is one device's share of a pool object's batch.
type poolShard struct {
	dev   *Device
	first int // its first transform (or FFT) of the batch
	batch int // how many
}

// splitBatch shares batch among devs as evenly as possible in whole units of unit
// transforms: the first devices take one unit more where the units do not divide
// evenly, devices beyond the number of units take none, and the last shard also takes
// the transforms that make no whole unit.
func splitBatch(devs []*Device, batch, unit int) []poolShard {
	units, rest := batch/unit, batch%unit
	n := min(len(devs), max(units, 1))
	shards := make([]poolShard, 0, n)
	first := 0
	for i := 0; i < n; i++ {
		b := units / n
		if i < units%n {
			b++
		}
		b *= unit
		if i == n-1 {
			b += rest
		}
		shards = append(shards, poolShard{dev: devs[i], first: first, batch: b})
		first += b
	}
	return shards
}

// shardError wraps the error of shard i's part of op (shard i runs on the pool's device
// i).
func shardError(op string, i int, sh *poolShard, err error) error {
	return &ShardError{Op: op, Shard: i, Device: sh.dev.info.Index, Name: sh.dev.info.Name, Err: err}
}

// joinShardErrors is the error of a pool call from its shards' errors: nil if none
// failed, the one ShardError if one did, else them all joined.
func joinShardErrors(op string, shards []poolShard, errs []error) error {
	var failed []error
	for i, err := range errs {
		if err != nil {
			failed = append(failed, shardError(op, i, &shards[i], err))
		}
	}
	switch len(failed) {
	case 0:
		return nil
	case 1:
		return failed[0]
	}
	return errors.Join(failed...)
}

// checkPoolBatch refuses a batch a pool cannot split: Batch 0 means one transform to a
// plan of one device, which a pool has nothing to share out of.
func checkPoolBatch(batch int) error {
	if batch < 1 {
		return fmt.Errorf("%w: batch %d; a pool splits Batch across its devices, so it must be set (at least 1)",
			ErrInvalidBatch, batch)
	}
	return nil
}

// buildShards makes one object per shard with build, the shards' builds running at
// once. With the disk kernel cache on, the first shard of each distinct build (device
// model and batch) is built before the others, which then load its kernels instead of
// compiling them again. If any build fails, the objects made are closed with undo and
// the shards' errors returned. A build's panic is raised again in the caller.
func buildShards[S any](op string, shards []poolShard, build func(sh *poolShard) (S, error), undo func(S)) ([]S, error) {
	out := make([]S, len(shards))
	errs := make([]error, len(shards))
	made := make([]bool, len(shards))
	panics := make([]any, len(shards))
	run := func(which []int) {
		var wg sync.WaitGroup
		for _, i := range which {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { panics[i] = recover() }()
				out[i], errs[i] = build(&shards[i])
				made[i] = errs[i] == nil
			}()
		}
		wg.Wait()
	}
	firsts, rest := buildOrder(shards)
	run(firsts)
	if joinShardErrors(op, shards, errs) == nil && !slices.ContainsFunc(panics, func(v any) bool { return v != nil }) {
		run(rest)
	}
	for i, v := range panics {
		if v != nil {
			undoMade(out, made, undo)
			panic(fmt.Sprintf("vkfft: %s: building the shard on device %d: %v", op, shards[i].dev.info.Index, v))
		}
	}
	if err := joinShardErrors(op, shards, errs); err != nil {
		undoMade(out, made, undo)
		return nil, err
	}
	return out, nil
}

func undoMade[S any](out []S, made []bool, undo func(S)) {
	for i := range out {
		if made[i] {
			undo(out[i])
		}
	}
}

// buildOrder splits the shards into those built first and those built after them: with
// the disk kernel cache on, a shard whose device model and batch an earlier shard shares
// waits for it, so that it loads the kernels the first one stored.
func buildOrder(shards []poolShard) (firsts, rest []int) {
	_, cached := KernelCacheDir()
	seen := map[string]bool{}
	for i, sh := range shards {
		k := fmt.Sprintf("%s|%s|%s|%d", sh.dev.info.Name, sh.dev.info.Driver, sh.dev.info.Platform, sh.batch)
		if cached && seen[k] {
			rest = append(rest, i)
		} else {
			seen[k] = true
			firsts = append(firsts, i)
		}
	}
	return firsts, rest
}

// shardFan runs one call of a pool object on all its shards at once: the caller's
// goroutine runs the first shard and a worker goroutine of each other shard runs its
// own, started when the object was made, so a call starts no goroutine and allocates
// nothing. A call returns when every shard is done, never earlier: the shards write
// into the caller's memory. Calls must not overlap (poolCore serialises them).
type shardFan[J any] struct {
	run  func(shard int, job J) error
	jobs []chan J           // jobs[i] for shard i >= 1; closed by stop
	done []chan shardResult // the workers' answers
	errs []error            // the last call's, per shard
	wg   sync.WaitGroup
}

// shardResult is a shard's answer: its error, or the value of the panic it recovered,
// raised again in the caller's goroutine.
type shardResult struct {
	err      error
	panicked any
}

func newShardFan[J any](shards int, run func(shard int, job J) error) *shardFan[J] {
	f := &shardFan[J]{run: run, jobs: make([]chan J, shards), done: make([]chan shardResult, shards),
		errs: make([]error, shards)}
	for i := 1; i < shards; i++ {
		f.jobs[i] = make(chan J, 1)
		f.done[i] = make(chan shardResult, 1)
		f.wg.Add(1)
		go f.work(i)
	}
	return f
}

func (f *shardFan[J]) work(i int) {
	defer f.wg.Done()
	for job := range f.jobs[i] {
		f.done[i] <- f.call(i, job)
	}
}

// call runs one shard's part; a panic there becomes the result, so that a worker never
// dies and leaves the caller waiting.
func (f *shardFan[J]) call(i int, job J) (r shardResult) {
	defer func() {
		if v := recover(); v != nil {
			r = shardResult{panicked: v}
		}
	}()
	faultPoint(faultPoolShard)
	if err := faultError(faultPoolShard); err != nil {
		return shardResult{err: err}
	}
	return shardResult{err: f.run(i, job)}
}

// do runs job on every shard and returns their errors (the fan's own slice, valid until
// the next call). A shard's panic is raised again here once all shards are done.
func (f *shardFan[J]) do(job J) []error {
	for i := 1; i < len(f.jobs); i++ {
		f.jobs[i] <- job
	}
	r := f.call(0, job)
	f.errs[0] = r.err
	panicked := r.panicked
	for i := 1; i < len(f.jobs); i++ {
		r := <-f.done[i]
		f.errs[i] = r.err
		if panicked == nil {
			panicked = r.panicked
		}
	}
	if panicked != nil {
		panic(panicked)
	}
	return f.errs
}

// stop ends the workers; no call may be running.
func (f *shardFan[J]) stop() {
	for i := 1; i < len(f.jobs); i++ {
		close(f.jobs[i])
	}
	f.wg.Wait()
}

// poolCore is what every pool object has: its pool, its shards and the fan that runs
// them, and the lock that serialises its calls.
type poolCore[J any] struct {
	mu      sync.Mutex
	pool    *Pool
	what    string       // "pool plan", "pool spectrometer": the object in errors
	shards  []poolShard  // shard i runs on the pool's device i
	devices int          // the pool's devices, some maybe without a shard
	fan     *shardFan[J] // nil once closed

	closeShard func(shard int)
}

func (c *poolCore[J]) init(pool *Pool, what string, shards []poolShard, run func(int, J) error,
	closeShard func(int)) {
	c.pool, c.what, c.shards, c.closeShard = pool, what, shards, closeShard
	c.devices = len(pool.devs)
	c.fan = newShardFan(len(shards), run)
	pool.track(c)
}

// call runs job on every shard; the shards' errors, each naming its device, if any
// failed.
func (c *poolCore[J]) call(op string, job J) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fan == nil {
		return closedError(op, c.what)
	}
	errs := c.fan.do(job)
	for _, err := range errs {
		if err != nil {
			return joinShardErrors(op, c.shards, errs)
		}
	}
	return nil
}

// release stops the workers and closes the shards' objects; the caller holds the pool's
// lock.
func (c *poolCore[J]) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fan == nil {
		return
	}
	c.fan.stop()
	c.fan = nil
	for i := range c.shards {
		c.closeShard(i)
	}
}

func (c *poolCore[J]) close() error {
	c.pool.closeResource(c)
	return nil
}

// batches is how many transforms each of the pool's devices runs: 0 for a device
// without a shard.
func (c *poolCore[J]) batches() []int {
	out := make([]int, c.devices)
	for i, sh := range c.shards {
		out[i] = sh.batch
	}
	return out
}
