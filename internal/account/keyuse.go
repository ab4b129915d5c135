package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// keyUses carries the last use of API keys from the requests that use them
// to RecordKeyUses, which writes them: a request only queues a use, at most
// once a keyUseInterval per key (see Service.noteUse), so /v1 never waits
// for a write.
type keyUses struct {
	mu sync.Mutex
	// marks hold, per key, when its last use was queued (Unix seconds);
	// the grants of the key cache point at them, so that they outlive the
	// cache's entries.
	marks   map[int64]*atomic.Int64
	pending map[int64]time.Time
	wake    chan struct{}
}

func newKeyUses() *keyUses {
	return &keyUses{wake: make(chan struct{}, 1)}
}

// mark returns the use mark of key id.
func (u *keyUses) mark(id int64) *atomic.Int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	if m, ok := u.marks[id]; ok {
		return m
	}
	// Bounded like the key cache: starting again costs a write per key.
	if u.marks == nil || len(u.marks) >= keyCacheMax {
		u.marks = map[int64]*atomic.Int64{}
	}
	m := new(atomic.Int64)
	u.marks[id] = m
	return m
}

func (u *keyUses) queue(id int64, at time.Time) {
	u.mu.Lock()
	if u.pending == nil {
		u.pending = map[int64]time.Time{}
	}
	u.pending[id] = at
	u.mu.Unlock()
	select {
	case u.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

func (u *keyUses) take() map[int64]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	p := u.pending
	u.pending = nil
	return p
}

// RecordKeyUses writes the last use of API keys as requests queue them,
// until ctx ends; then it writes what is left and returns. Every API
// process runs it (server.Run); logger nil means slog.Default.
func (s *Service) RecordKeyUses(ctx context.Context, logger *slog.Logger) {
	if logger == nil {
		logger = slog.Default()
	}
	// A write runs to its end even when ctx ends meanwhile: what it took
	// from the queue would be lost otherwise.
	write := func() {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := s.writeKeyUses(wctx); err != nil {
			logger.Warn("api keys: record last use", "err", err)
		}
	}
	for {
		select {
		case <-s.keyUses.wake:
			write()
		case <-ctx.Done():
			write()
			return
		}
	}
}

// writeKeyUses writes the queued uses. A use never moves a key's last use
// back (another process may have written a later one).
func (s *Service) writeKeyUses(ctx context.Context) error {
	var errs []error
	for id, at := range s.keyUses.take() {
		if _, err := s.db.Bun.NewUpdate().Model((*APIKey)(nil)).Set("last_used_at = ?", at).Where("id = ?", id).
			Where("last_used_at IS NULL OR last_used_at < ?", at).Exec(ctx); err != nil {
			errs = append(errs, fmt.Errorf("account: last use of api key %d: %w", id, err))
		}
	}
	return errors.Join(errs...)
}
