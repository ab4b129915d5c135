package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Email verification: sign-up mails a single-use link (valid for
// verifyTokenTTL); until the account opens it, it can sign in but neither
// register names nor add funds (MayTransact). Tokens are made like reset
// tokens: HMAC(server secret, a random id), the job holds the id, the
// database only the token's hash.
const (
	verifyTokenTTL     = 48 * time.Hour
	purposeVerifyEmail = "verify-email"
	maxVerifyResends   = 3 // per account and throttle window (15 minutes)
)

// ErrEmailNotVerified refuses money and registrations to an account whose
// email address is not verified.
var ErrEmailNotVerified = apperr.New(apperr.Forbidden, "Verify your email address before registering names or adding funds.")

var errInvalidVerifyLink = apperr.New(apperr.Invalid, "This verification link is invalid or has expired. Ask for a new one.")

// emailVerification is one verification token.
type emailVerification struct {
	bun.BaseModel `bun:"table:email_verifications"`

	TokenHash string    `bun:"token_hash,pk"`
	UserID    int64     `bun:"user_id"`
	ExpiresAt time.Time `bun:"expires_at"`
	UsedAt    time.Time `bun:"used_at,nullzero"`
	CreatedAt time.Time `bun:"created_at"`
}

// EmailVerified reports whether u's email address is verified.
func (u *User) EmailVerified() bool { return !u.EmailVerifiedAt.IsZero() }

// MayTransact is the one rule of who may register names and add funds:
// accounts with a verified email address. Returns ErrEmailNotVerified
// (forbidden) otherwise.
func (u *User) MayTransact() error {
	if !u.EmailVerified() {
		return ErrEmailNotVerified
	}
	return nil
}

// sendVerification files a new verification of u and queues its mail, in
// tx.
func (s *Service) sendVerification(ctx context.Context, tx *db.Tx, u *User) error {
	id, err := newLinkID()
	if err != nil {
		return err
	}
	now := s.clock()
	v := &emailVerification{TokenHash: hashToken(s.linkToken(purposeVerifyEmail, id)), UserID: u.ID,
		ExpiresAt: now.Add(verifyTokenTTL), CreatedAt: now}
	if _, err := tx.NewInsert().Model(v).Exec(ctx); err != nil {
		return fmt.Errorf("email verification: %w", err)
	}
	return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: notify.KindVerifyEmail,
		Data: map[string]string{"verificationId": id}})
}

// ResendVerification mails u a new verification link. Returns conflict when
// the address is verified already and too_many_requests after a few mails
// in a short time.
func (s *Service) ResendVerification(ctx context.Context, u *User) error {
	if u.EmailVerified() {
		return apperr.New(apperr.Conflict, "Your email address is already verified.")
	}
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		n, err := countRequest(ctx, tx, "verify-user:"+strconv.FormatInt(u.ID, 10), s.clock())
		if err != nil {
			return err
		}
		if n > maxVerifyResends {
			return &apperr.Error{Code: apperr.TooManyRequests, RetryAfter: throttleWindow,
				Message: "Too many verification emails. Please try again in 15 minutes."}
		}
		return s.sendVerification(ctx, tx, u)
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: resend verification to %d: %w", u.ID, err)
	}
	return err
}

// VerifyEmail uses up the token of a verification link and marks its
// account's address verified. Returns invalid for an unknown, used or
// expired token, or one of a disabled account.
func (s *Service) VerifyEmail(ctx context.Context, token string) error {
	defer s.apiKeys.forget() // the account may change
	token = strings.TrimSpace(token)
	if token == "" {
		return errInvalidVerifyLink
	}
	now := s.clock()
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var v emailVerification
		err := tx.NewSelect().Model(&v).Where("token_hash = ?", hashToken(token)).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return errInvalidVerifyLink
		}
		if err != nil {
			return err
		}
		used, err := useLinkToken(ctx, tx, (*emailVerification)(nil), v.TokenHash, now)
		if err != nil {
			return err
		}
		if !used {
			return errInvalidVerifyLink
		}
		res, err := tx.NewUpdate().Model((*User)(nil)).Set("email_verified_at = COALESCE(email_verified_at, ?)", now).
			Set("updated_at = ?", now).Where("id = ?", v.UserID).Where("disabled_at IS NULL").Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errInvalidVerifyLink
		}
		return endLinkTokens(ctx, tx, (*emailVerification)(nil), v.UserID, now)
	})
	if err != nil && apperr.Code(err) == apperr.Internal {
		return fmt.Errorf("account: verify email: %w", err)
	}
	return err
}

// MarkEmailVerified marks the address of account id verified without a
// link: for operators (nameport admin create) and demo data, never the web.
func (s *Service) MarkEmailVerified(ctx context.Context, id int64) error {
	defer s.apiKeys.forget() // the account may change
	now := s.clock()
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("email_verified_at = COALESCE(email_verified_at, ?)", now).
			Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		// Links already mailed are done with (and not sent if still queued).
		return endLinkTokens(ctx, tx, (*emailVerification)(nil), id, now)
	})
	if err != nil {
		return fmt.Errorf("account: mark %d verified: %w", id, err)
	}
	return nil
}

// verifyLink makes, at send time, the link of the verification a
// verify_email mail's job names. One that is gone or used cancels the mail.
func (s *Service) verifyLink(ctx context.Context, userID int64, data map[string]string) (map[string]string, error) {
	token := s.linkToken(purposeVerifyEmail, data["verificationId"])
	n, err := s.db.Bun.NewSelect().Model((*emailVerification)(nil)).
		Where("token_hash = ?", hashToken(token)).Where("user_id = ?", userID).Where("used_at IS NULL").Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("account: verification link: %w", err)
	}
	if n == 0 {
		return nil, notify.ErrObsolete
	}
	return map[string]string{"link": s.publicURL + "/verify-email?token=" + url.QueryEscape(token)}, nil
}
