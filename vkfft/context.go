package vkfft

import "context"

// context.Context forms of the calls that can block for long: building a plan (a
// second or more of kernel compilation, seconds more when it autotunes), and waiting for
// a device or stream. Neither VkFFT's kernel compilation nor a GPU wait can be
// interrupted, so cancellation is honoured at the caller: the call returns ctx.Err() as
// soon as ctx is done, while the work it started finishes in the background (a plan
// built after its caller gave up is closed; a wait simply ends). A ctx that is already
// done starts nothing.

// NewPlanContext is NewPlan with cancellation: see the note above.
func NewPlanContext[T Complex](ctx context.Context, d *Device, cfg Config) (*Plan[T], error) {
	return buildContext(ctx, func() (*Plan[T], error) { return NewPlan[T](d, cfg) })
}

// NewRealPlanContext is NewRealPlan with cancellation.
func NewRealPlanContext[R Real, C Complex](ctx context.Context, d *Device, cfg Config) (*RealPlan[R, C], error) {
	return buildContext(ctx, func() (*RealPlan[R, C], error) { return NewRealPlan[R, C](d, cfg) })
}

// NewR2RPlanContext is NewR2RPlan with cancellation.
func NewR2RPlanContext[T Real](ctx context.Context, d *Device, cfg Config, kind R2RKind) (*R2RPlan[T], error) {
	return buildContext(ctx, func() (*R2RPlan[T], error) { return NewR2RPlan[T](d, cfg, kind) })
}

// SyncContext is Sync with cancellation: it returns ctx.Err() when ctx is done first
// (the device's work goes on).
func (d *Device) SyncContext(ctx context.Context) error { return waitContext(ctx, d.Sync) }

// WaitContext is Wait with cancellation: it returns ctx.Err() when ctx is done first
// (the stream's work goes on; its host buffers stay in use until a Wait returns nil).
func (s *Stream) WaitContext(ctx context.Context) error { return waitContext(ctx, s.Wait) }

func waitContext(ctx context.Context, wait func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ctx.Done() == nil { // never cancelled: no goroutine
		return wait()
	}
	done := make(chan error, 1)
	go func() { done <- wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func buildContext[P interface{ Close() error }](ctx context.Context, build func() (P, error)) (P, error) {
	var zero P
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil {
		return build()
	}
	type result struct {
		p   P
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := build()
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.p, r.err
	case <-ctx.Done():
		go func() { // the compile cannot be stopped: close what it builds
			if r := <-done; r.err == nil {
				r.p.Close()
			}
		}()
		return zero, ctx.Err()
	}
}
