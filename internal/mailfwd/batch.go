package mailfwd

import (
	"context"
	"sync"
)

// maxBatch bounds one group commit, so that one transaction stays short.
const maxBatch = 256

// group commits items in batches: the items that arrive while a batch is
// being written go together in the next one. Accepting a message and
// finishing a delivery each cost a transaction, and on SQLite most of that
// is preparing the statements and syncing the log; writing what several
// SMTP sessions (or delivery jobs) have ready in one transaction pays that
// once for all of them. A goroutine writes while items wait, and ends when
// none do.
type group[T any] struct {
	write func(ctx context.Context, items []T) error

	mu      sync.Mutex
	pending []*groupCall[T]
	running bool
}

type groupCall[T any] struct {
	item T
	err  error
	done chan struct{}
}

// do returns once item is written (in a batch that committed: nil), or the
// batch it was in failed (that batch's error).
func (g *group[T]) do(ctx context.Context, item T) error {
	c := &groupCall[T]{item: item, done: make(chan struct{})}
	g.mu.Lock()
	g.pending = append(g.pending, c)
	if !g.running {
		g.running = true
		// A batch carries other callers' items: this caller's
		// cancellation must not fail theirs.
		go g.drain(context.WithoutCancel(ctx))
	}
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.err
	case <-ctx.Done():
		// Its batch may still commit it; the caller treats the item as
		// not written, which is safe: a message is sent again by its
		// client, a delivery's job retried.
		return ctx.Err()
	}
}

// drain writes batches until nothing waits, then ends.
func (g *group[T]) drain(ctx context.Context) {
	g.mu.Lock()
	for len(g.pending) > 0 {
		n := min(len(g.pending), maxBatch)
		batch := g.pending[:n:n]
		g.pending = g.pending[n:]
		g.mu.Unlock()
		items := make([]T, len(batch))
		for i, b := range batch {
			items[i] = b.item
		}
		err := g.write(ctx, items)
		for _, b := range batch {
			b.err = err
			close(b.done)
		}
		g.mu.Lock()
	}
	g.running = false
	g.mu.Unlock()
}
