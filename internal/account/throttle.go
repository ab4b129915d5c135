package account

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/apperr"
)

// Failed logins are counted per username (against guessing one account's
// password) and per client address (against trying many accounts) in fixed
// windows. The counts live in the database so every API node sees them.
const (
	throttleWindow    = 15 * time.Minute
	maxUserFailures   = 5
	maxClientFailures = 20
)

type loginThrottleKeys struct{ user, client string }

func throttleKeys(username, ip string) loginThrottleKeys {
	return loginThrottleKeys{user: "user:" + strings.ToLower(username), client: "client:" + ip}
}

type loginFailures struct {
	ThrottleKey string    `bun:"throttle_key"`
	Failures    int       `bun:"failures"`
	WindowStart time.Time `bun:"window_start"`
}

// checkThrottle returns too_many_requests while either key has used up its
// failures in the current window.
func (s *Service) checkThrottle(ctx context.Context, keys loginThrottleKeys) error {
	now := s.clock()
	var rows []loginFailures
	if err := s.db.Bun.NewSelect().Table("login_failures").Column("throttle_key", "failures", "window_start").
		Where("throttle_key IN (?, ?)", keys.user, keys.client).
		Where("window_start > ?", now.Add(-throttleWindow)).Scan(ctx, &rows); err != nil {
		return fmt.Errorf("account: read login throttle: %w", err)
	}
	for _, r := range rows {
		limit := maxClientFailures
		if r.ThrottleKey == keys.user {
			limit = maxUserFailures
		}
		if r.Failures >= limit {
			wait := r.WindowStart.Add(throttleWindow).Sub(now)
			minutes := int(wait.Round(time.Minute) / time.Minute)
			if minutes < 1 {
				minutes = 1
			}
			unit := "minutes"
			if minutes == 1 {
				unit = "minute"
			}
			return &apperr.Error{Code: apperr.TooManyRequests, RetryAfter: wait,
				Message: fmt.Sprintf("Too many failed login attempts. Please try again in %d %s.", minutes, unit)}
		}
	}
	return nil
}

// recordFailure counts a failed login for both keys, starting a new window
// where the old one has passed. One upsert per key keeps it right under
// concurrency on both engines.
func (s *Service) recordFailure(ctx context.Context, keys loginThrottleKeys) error {
	now := s.clock()
	windowOpen := now.Add(-throttleWindow)
	for _, key := range []string{keys.user, keys.client} {
		if _, err := s.db.Bun.ExecContext(ctx, `INSERT INTO login_failures (throttle_key, failures, window_start)
			VALUES (?, 1, ?)
			ON CONFLICT (throttle_key) DO UPDATE SET
				failures = CASE WHEN login_failures.window_start <= ? THEN 1 ELSE login_failures.failures + 1 END,
				window_start = CASE WHEN login_failures.window_start <= ? THEN excluded.window_start ELSE login_failures.window_start END`,
			key, now, windowOpen, windowOpen); err != nil {
			return fmt.Errorf("account: record login failure: %w", err)
		}
	}
	return nil
}

func (s *Service) clearFailures(ctx context.Context, key string) error {
	if _, err := s.db.Bun.NewDelete().Table("login_failures").Where("throttle_key = ?", key).Exec(ctx); err != nil {
		return fmt.Errorf("account: clear login failures: %w", err)
	}
	return nil
}
