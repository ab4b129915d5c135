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

// Store keeps the answers of requests sent with an Idempotency-Key.
type Store struct {
	db  *db.DB
	now func() time.Time
	// lease is how long a claim holds before a retry may take it over: a
	// request still "running" after that died with its process.
	lease time.Duration
}

// NewStore returns a store over d; now may be nil (the real clock).
func NewStore(d *db.DB, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{db: d, now: now, lease: 2 * time.Minute}
}

func (s *Store) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Begin claims (userID, key) for a request with fingerprint. It returns nil
// when the caller now runs the request (and must call Finish or Abandon),
// or the saved answer of the first request with this key. Returns
// ErrReused when the key was used for a different request, ErrInProgress
// while the first is still running.
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
	case now.Sub(old.ClaimedAt.UTC()) < s.lease:
		return nil, ErrInProgress
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
	return nil, ErrInProgress
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
