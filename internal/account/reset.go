package account

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Password resets: a single-use token, valid for resetTokenTTL, mailed as a
// link. Only the SHA-256 of the token is stored. The token is not kept
// anywhere else either: the mail job holds a random reset id, and the token
// is HMAC(server secret, id), made again when the mail is sent (MailSecrets).
// The server secret is not in the database, so neither a reader of the job
// table (River UI, /api/admin/jobs, a backup) nor of the outbox can make it.
const (
	resetTokenTTL = time.Hour
	// Requests are counted in the login throttle's table and window: per
	// email address (beyond the limit, further requests send nothing, so a
	// mailbox cannot be flooded) and per client (beyond it, 429).
	maxResetMailsPerEmail     = 3
	maxResetRequestsPerClient = 10
)

// passwordReset is one reset token.
type passwordReset struct {
	bun.BaseModel `bun:"table:password_resets"`

	TokenHash string    `bun:"token_hash,pk"`
	UserID    int64     `bun:"user_id"`
	ExpiresAt time.Time `bun:"expires_at"`
	UsedAt    time.Time `bun:"used_at,nullzero"`
	CreatedAt time.Time `bun:"created_at"`
}

var errInvalidResetLink = apperr.New(apperr.Invalid, "This reset link is invalid or has expired. Ask for a new one.")

// RequestPasswordReset mails a reset link to the enabled account with email,
// if there is one. It answers the same whether or not there is (nil), so
// nobody learns which addresses have accounts; both paths commit one
// transaction. Returns invalid for a malformed address and
// too_many_requests when the client has asked too often.
func (s *Service) RequestPasswordReset(ctx context.Context, email string, c Client) error {
	email = strings.TrimSpace(email)
	if err := validateEmail(email); err != nil {
		return err
	}
	resetID, err := newLinkID()
	if err != nil {
		return err
	}
	token := s.linkToken(purposePasswordReset, resetID)
	now := s.clock()
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		perClient, err := countRequest(ctx, tx, "reset-client:"+clientNetwork(c.IP), now)
		if err != nil {
			return err
		}
		if perClient > maxResetRequestsPerClient {
			return &apperr.Error{Code: apperr.TooManyRequests, RetryAfter: throttleWindow,
				Message: "Too many password reset requests. Please try again in 15 minutes."}
		}
		perEmail, err := countRequest(ctx, tx, "reset-email:"+strings.ToLower(email), now)
		if err != nil {
			return err
		}
		var u User
		err = tx.NewSelect().Model(&u).Column("id", "username").
			Where("lower(email) = lower(?)", email).Where("disabled_at IS NULL").Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) || perEmail > maxResetMailsPerEmail {
			return nil // the same answer: nothing to send, or enough sent already
		}
		if err != nil {
			return err
		}
		reset := &passwordReset{TokenHash: hashToken(token), UserID: u.ID, ExpiresAt: now.Add(resetTokenTTL), CreatedAt: now}
		if _, err := tx.NewInsert().Model(reset).Exec(ctx); err != nil {
			return err
		}
		return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: notify.KindPasswordReset,
			Data: map[string]string{"resetId": resetID}})
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: request password reset: %w", err)
	}
	return err
}

// countRequest counts one request against key in the current throttle
// window and returns the count so far.
func countRequest(ctx context.Context, tx *db.Tx, key string, now time.Time) (int, error) {
	windowOpen := now.Add(-throttleWindow)
	var n int
	err := tx.QueryRowContext(ctx, `INSERT INTO login_failures (throttle_key, failures, window_start)
		VALUES (?, 1, ?)
		ON CONFLICT (throttle_key) DO UPDATE SET
			failures = CASE WHEN login_failures.window_start <= ? THEN 1 ELSE login_failures.failures + 1 END,
			window_start = CASE WHEN login_failures.window_start <= ? THEN excluded.window_start ELSE login_failures.window_start END
		RETURNING failures`, key, now, windowOpen, windowOpen).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count %s: %w", key, err)
	}
	return n, nil
}

// ResetPassword sets a new password with a token from a reset link, uses the
// token up and ends every session of the account. Returns invalid for an
// unknown, used or expired token (and for a disabled account), or for a new
// password the usual rules refuse.
func (s *Service) ResetPassword(ctx context.Context, token, newPassword, confirmPassword string) error {
	token = strings.TrimSpace(token)
	if token == "" {
		return errInvalidResetLink
	}
	now := s.clock()
	var reset passwordReset
	err := s.db.Bun.NewSelect().Model(&reset).Where("token_hash = ?", hashToken(token)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return errInvalidResetLink
	}
	if err != nil {
		return fmt.Errorf("account: reset password: %w", err)
	}
	if !reset.UsedAt.IsZero() || !now.Before(reset.ExpiresAt) {
		return errInvalidResetLink
	}
	if err := validatePassword(newPassword); err != nil {
		return err
	}
	if newPassword != confirmPassword {
		return invalid(PasswordsMismatch)
	}
	hash, err := hashPassword(newPassword)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		used, err := useLinkToken(ctx, tx, (*passwordReset)(nil), reset.TokenHash, now)
		if err != nil {
			return err
		}
		if !used {
			return errInvalidResetLink
		}
		var u User
		if err := tx.NewSelect().Model(&u).Where("id = ?", reset.UserID).Where("disabled_at IS NULL").Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errInvalidResetLink
			}
			return err
		}
		// The link came by mail, so the address is the account's: verified.
		if _, err := tx.NewUpdate().Model(&u).Set("password_hash = ?", hash).Set("updated_at = ?", now).
			Set("email_verified_at = COALESCE(email_verified_at, ?)", now).
			Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		// Other links sent to the account die with this one, every session
		// ends, and the login throttle of the account starts afresh.
		if err := endLinkTokens(ctx, tx, (*passwordReset)(nil), u.ID, now); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*session)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		return clearLoginThrottle(ctx, tx, u.Username)
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: reset password: %w", err)
	}
	return err
}

// purgeResets deletes reset and email verification tokens that expired a
// day ago or more.
func (s *Service) purgeResets(ctx context.Context) error {
	if _, err := s.db.Bun.NewDelete().Model((*passwordReset)(nil)).
		Where("expires_at <= ?", s.clock().Add(-24*time.Hour)).Exec(ctx); err != nil {
		return fmt.Errorf("account: purge password resets: %w", err)
	}
	if _, err := s.db.Bun.NewDelete().Model((*emailVerification)(nil)).
		Where("expires_at <= ?", s.clock().Add(-24*time.Hour)).Exec(ctx); err != nil {
		return fmt.Errorf("account: purge email verifications: %w", err)
	}
	return nil
}

// resetLink makes, at send time, the link of the reset a password_reset
// mail's job names. A reset that is gone (purged) cancels the mail.
func (s *Service) resetLink(ctx context.Context, userID int64, data map[string]string) (map[string]string, error) {
	token := s.linkToken(purposePasswordReset, data["resetId"])
	n, err := s.db.Bun.NewSelect().Model((*passwordReset)(nil)).
		Where("token_hash = ?", hashToken(token)).Where("user_id = ?", userID).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("account: reset link: %w", err)
	}
	if n == 0 {
		return nil, notify.ErrObsolete
	}
	return map[string]string{"link": s.publicURL + "/reset-password?token=" + url.QueryEscape(token)}, nil
}

// newLinkID returns 32 random bytes, URL-safe: the id of a reset or a
// verification, from which its link's token is made (linkToken).
func newLinkID() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: link id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// useLinkToken uses up the unused, unexpired link token tokenHash of table
// model (password resets, email verifications) and reports whether it did.
// It is one conditional update, so two tabs racing with the same link
// cannot both succeed.
func useLinkToken(ctx context.Context, tx *db.Tx, model any, tokenHash string, now time.Time) (bool, error) {
	res, err := tx.NewUpdate().Model(model).Set("used_at = ?", now).
		Where("token_hash = ?", tokenHash).Where("used_at IS NULL").Where("expires_at > ?", now).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// endLinkTokens uses up every unused link token of userID in table model:
// once one link has done its work, the account's others are done with.
func endLinkTokens(ctx context.Context, tx *db.Tx, model any, userID int64, now time.Time) error {
	_, err := tx.NewUpdate().Model(model).Set("used_at = ?", now).
		Where("user_id = ?", userID).Where("used_at IS NULL").Exec(ctx)
	return err
}
