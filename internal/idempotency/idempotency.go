// Package idempotency lets clients retry safely. It owns two tables:
//
//   - idempotency_keys: a key claimed by an operation with an effect (a
//     registration, a deposit) in the same transaction as that effect, so a
//     retry finds the effect and never repeats it, even after a crash;
//   - idempotent_requests: the saved answer of each /v1 operation with an
//     effect sent with an Idempotency-Key (read-only calls store nothing), so a retry gets the first answer byte for
//     byte, and a key reused for a different request is refused.
//
// Both are kept for at least KeepFor.
package idempotency

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// KeepFor is how long keys and saved answers are kept.
const KeepFor = 24 * time.Hour

// MaxKeyLength bounds an Idempotency-Key.
const MaxKeyLength = 255

// CheckKey returns invalid for a key that is too long or not printable
// ASCII. The empty key is valid: it means no idempotency.
func CheckKey(key string) error {
	if len(key) > MaxKeyLength {
		return apperr.New(apperr.Invalid, "Idempotency-Key must be at most %d characters", MaxKeyLength)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return apperr.New(apperr.Invalid, "Idempotency-Key must be printable ASCII without spaces")
		}
	}
	return nil
}

// Key is an idempotency key claimed by an operation with an effect.
type Key struct {
	bun.BaseModel `bun:"table:idempotency_keys"`

	UserID      int64     `bun:"user_id,pk"`
	Key         string    `bun:"idem_key,pk"`
	Operation   string    `bun:"operation"`
	RequestHash string    `bun:"request_hash"`
	ResultID    int64     `bun:"result_id,nullzero"` // what the operation made
	CreatedAt   time.Time `bun:"created_at"`
}

// ErrTaken is returned by Claim when the key was claimed before (perhaps a
// moment ago, by a concurrent retry).
var ErrTaken = errors.New("idempotency: key already claimed")

// Claim records k inside tx, the transaction of the effect it guards.
// Returns ErrTaken when the key exists.
func Claim(ctx context.Context, tx bun.IDB, k *Key) error {
	if _, err := tx.NewInsert().Model(k).Exec(ctx); err != nil {
		if _, dup := db.UniqueViolation(err); dup {
			return ErrTaken
		}
		return fmt.Errorf("idempotency: claim key: %w", err)
	}
	return nil
}

// SetResult records what the operation of (userID, key) made, inside its
// transaction.
func SetResult(ctx context.Context, tx bun.IDB, userID int64, key string, resultID int64) error {
	_, err := tx.NewUpdate().Model((*Key)(nil)).Set("result_id = ?", resultID).
		Where("user_id = ?", userID).Where("idem_key = ?", key).Exec(ctx)
	if err != nil {
		return fmt.Errorf("idempotency: set result: %w", err)
	}
	return nil
}

// Find returns the key (userID, key) claimed by operation with requestHash;
// nil when there is none. Returns invalid when the key was claimed for a
// different operation or request.
func Find(ctx context.Context, q bun.IDB, userID int64, key, operation, requestHash string) (*Key, error) {
	k := new(Key)
	err := q.NewSelect().Model(k).Where("user_id = ?", userID).Where("idem_key = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency: look up key: %w", err)
	}
	if k.Operation != operation || k.RequestHash != requestHash {
		return nil, ErrReused
	}
	return k, nil
}

// ErrReused is the answer to a key sent again with a different request.
var ErrReused = apperr.New(apperr.Invalid, "This Idempotency-Key was already used for a different request")

// ErrInProgress is the answer to a key sent again while its first request
// is still running.
var ErrInProgress = apperr.New(apperr.Conflict, "A request with this Idempotency-Key is still in progress; retry shortly")

// Normalize trims a key as clients type it.
func Normalize(key string) string { return strings.TrimSpace(key) }
