package idempotency

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// Answer is a saved response.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// request is a saved /v1 request: claimed while it runs (status 0), then its
// answer.
type request struct {
	bun.BaseModel `bun:"table:idempotent_requests"`

	UserID      int64     `bun:"user_id,pk"`
	Key         string    `bun:"idem_key,pk"`
	Fingerprint string    `bun:"fingerprint"`
	Status      int       `bun:"status"`
	ContentType string    `bun:"content_type"`
	Body        string    `bun:"body"`
	ClaimedAt   time.Time `bun:"claimed_at"`
	CreatedAt   time.Time `bun:"created_at"`
}

// Claims: a running request renews its claim every Heartbeat (Hold); a
// claim not renewed for Lease belongs to a request that died with its
// process, and a retry takes it over. A crash blocks its key for Lease at
// most, and the answer to a retry says how long.
const (
	Heartbeat = 5 * time.Second
	Lease     = 3 * Heartbeat
)

// Store keeps the answers of requests sent with an Idempotency-Key.
type Store struct {
	db  *db.DB
	now func() time.Time
}

// NewStore returns a store over d; now may be nil (the real clock).
func NewStore(d *db.DB, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: d, now: now}
}

// InProgressError is ErrInProgress with when to retry: soon while the first
// request is alive (its claim was renewed within a Heartbeat), else when its
// claim runs out and a retry may take it over.
type InProgressError struct {
	RetryAfter time.Duration
}

func (e *InProgressError) Error() string { return ErrInProgress.Error() }
func (e *InProgressError) Unwrap() error { return ErrInProgress }

func inProgress(age time.Duration) error {
	if age < Heartbeat {
		return &InProgressError{RetryAfter: time.Second}
	}
	return &InProgressError{RetryAfter: max(Lease-age, time.Second)}
}

func (s *Store) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Begin claims (userID, key) for a request with fingerprint. It returns nil
// when the caller now runs the request (and must call Finish or Abandon),
// or the saved answer of the first request with this key. Returns
// ErrReused when the key was used for a different request, and an
// *InProgressError (ErrInProgress) while the first holds its claim.
func (s *Store) Begin(ctx context.Context, userID int64, key, fingerprint string) (*Answer, error) {
	now := s.clock()
	r := &request{UserID: userID, Key: key, Fingerprint: fingerprint, ClaimedAt: now, CreatedAt: now}
	res, err := s.db.Bun.NewInsert().Model(r).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("idempotency: claim request: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil, nil
	}
	old := new(request)
	err = s.db.Bun.NewSelect().Model(old).Where("user_id = ?", userID).Where("idem_key = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		// Abandoned and deleted between our insert and select: try again.
		return s.Begin(ctx, userID, key, fingerprint)
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency: load request: %w", err)
	}
	switch {
	case old.Fingerprint != fingerprint:
		return nil, ErrReused
	case old.Status != 0:
		return &Answer{Status: old.Status, ContentType: old.ContentType, Body: []byte(old.Body)}, nil
	case now.Sub(old.ClaimedAt.UTC()) < Lease:
		return nil, inProgress(now.Sub(old.ClaimedAt.UTC()))
	}
	// The first request's process died: take its claim over, unless another
	// retry just did.
	res, err = s.db.Bun.NewUpdate().Model((*request)(nil)).Set("claimed_at = ?", now).
		Where("user_id = ?", userID).Where("idem_key = ?", key).Where("status = 0").
		Where("claimed_at = ?", old.ClaimedAt).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("idempotency: take over request: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil, nil
	}
	return nil, inProgress(0) // another retry took it over just now
}

// Touch renews the claim of a running request.
func (s *Store) Touch(ctx context.Context, userID int64, key string) error {
	_, err := s.db.Bun.NewUpdate().Model((*request)(nil)).Set("claimed_at = ?", s.clock()).
		Where("user_id = ?", userID).Where("idem_key = ?", key).Where("status = 0").Exec(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: renew claim: %w", err)
	}
	return nil
}

// Hold renews the claim taken by Begin every Heartbeat until the returned
// function is called (when the request ends), so that a slow request keeps
// its key while a dead one frees it within Lease.
func (s *Store) Hold(ctx context.Context, userID int64, key string, logf func(error)) (release func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := s.Touch(ctx, userID, key); err != nil && ctx.Err() == nil && logf != nil {
					logf(err)
				}
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// Finish saves the answer of the request claimed by Begin.
func (s *Store) Finish(ctx context.Context, userID int64, key string, a Answer) error {
	_, err := s.db.Bun.NewUpdate().Model((*request)(nil)).Set("status = ?", a.Status).
		Set("content_type = ?", a.ContentType).Set("body = ?", string(a.Body)).
		Where("user_id = ?", userID).Where("idem_key = ?", key).Exec(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: save answer: %w", err)
	}
	return nil
}

// Abandon releases the claim of a request that failed without an effect, so
// that a retry with the same key runs it again.
func (s *Store) Abandon(ctx context.Context, userID int64, key string) error {
	_, err := s.db.Bun.NewDelete().Model((*request)(nil)).
		Where("user_id = ?", userID).Where("idem_key = ?", key).Where("status = 0").Exec(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: abandon request: %w", err)
	}
	return nil
}

// Purge deletes keys and answers older than KeepFor.
func (s *Store) Purge(ctx context.Context) (int64, error) {
	cutoff := s.clock().Add(-KeepFor)
	var total int64
	for _, model := range []any{(*request)(nil), (*Key)(nil)} {
		res, err := s.db.Bun.NewDelete().Model(model).Where("created_at < ?", cutoff).Exec(ctx)
		if err != nil {
			return total, fmt.Errorf("idempotency: purge: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
