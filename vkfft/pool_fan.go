package vkfft

import "sync"

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
