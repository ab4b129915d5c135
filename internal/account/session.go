package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
)

// session is a login session. Only the SHA-256 of its token is stored, so a
// copy of the database does not let anyone log in.
type session struct {
	bun.BaseModel `bun:"table:sessions"`

	TokenHash string    `bun:"token_hash,pk"`
	UserID    int64     `bun:"user_id"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
	ClientIP  string    `bun:"client_ip"`
	UserAgent string    `bun:"user_agent"`
	// PublicID names the session to its owner (Sessions, EndSession); the
	// token's hash never leaves the server.
	PublicID   string    `bun:"public_id"`
	LastSeenAt time.Time `bun:"last_seen_at"`
}

// Client describes where a request comes from.
type Client struct {
	IP        string
	UserAgent string
	// Device is the browser's long-lived random id (a cookie), empty for
	// clients without one; see noteDevice.
	Device string
}

var errInvalidLogin = apperr.New(apperr.Unauthenticated, "Invalid username or password")

// Login checks a username and password and opens a new session, returning its
// token. oldToken, the session the browser had before (if any), is ended so
// every login gets a fresh session id. Returns invalid for malformed input,
// too_many_requests while throttled, unauthenticated for wrong credentials and
// forbidden for a disabled account.
func (s *Service) Login(ctx context.Context, username, password, oldToken string, c Client) (*User, string, error) {
	username = strings.TrimSpace(username)
	if utf8Len(username) < MinUsername {
		return nil, "", invalid(UsernameTooShort)
	}
	if err := validatePassword(password); err != nil {
		return nil, "", err
	}
	g, err := s.reserveGuess(ctx, username, c.IP, failedLoginMessage)
	if err != nil {
		return nil, "", err
	}

	u := new(User)
	err = s.db.Bun.NewSelect().Model(u).Where("lower(username) = lower(?)", username).Scan(ctx)
	hash := u.PasswordHash
	if errors.Is(err, sql.ErrNoRows) {
		hash = dummyHash
	} else if err != nil {
		return nil, "", s.giveBack(ctx, g, false, fmt.Errorf("account: login %s: %w", username, err))
	}
	ok, err := s.verify(ctx, hash, password)
	if err != nil {
		// Not checked (the hash pool is busy): the attempt does not count.
		return nil, "", s.giveBack(ctx, g, false, err)
	}
	if !ok || u.ID == 0 {
		return nil, "", errInvalidLogin
	}
	if err := s.giveBack(ctx, g, true, nil); err != nil {
		return nil, "", err
	}
	if !u.DisabledAt.IsZero() {
		return nil, "", apperr.New(apperr.Forbidden, "This account is disabled")
	}
	// An account with a second factor gets no session yet: the answer is a
	// challenge that FinishTwoFactor turns into one.
	if err := s.challengeIfTwoFactor(ctx, u); err != nil {
		return nil, "", err
	}
	if oldToken != "" {
		if err := s.Logout(ctx, oldToken); err != nil {
			return nil, "", err
		}
	}
	token, err := s.StartSession(ctx, u, c)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// StartSession opens a session for u and returns its token.
func (s *Service) StartSession(ctx context.Context, u *User, c Client) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	publicID, err := newPublicID()
	if err != nil {
		return "", err
	}
	now := s.clock()
	sess := &session{TokenHash: hashToken(token), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(s.sessionTTL),
		ClientIP: truncate(c.IP, 64), UserAgent: truncate(c.UserAgent, 256), PublicID: publicID, LastSeenAt: now}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(sess).Exec(ctx); err != nil {
			return err
		}
		return s.noteDevice(ctx, tx, u, c, now)
	})
	if err != nil {
		return "", fmt.Errorf("account: start session for %s: %w", u.Username, err)
	}
	return token, nil
}

// sessionRefreshEvery bounds how often a used session's expiry is pushed
// forward, so that reads do not all turn into writes.
const sessionRefreshEvery = time.Hour

// Authenticate returns the account of a session token and keeps the session
// alive. Returns unauthenticated when the session does not exist, has
// expired, or its account is disabled.
func (s *Service) Authenticate(ctx context.Context, token string) (*User, error) {
	if token == "" {
		return nil, errNotLoggedIn
	}
	now := s.clock()
	sess := new(session)
	err := s.db.Bun.NewSelect().Model(sess).Where("token_hash = ?", hashToken(token)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotLoggedIn
	}
	if err != nil {
		return nil, fmt.Errorf("account: authenticate: %w", err)
	}
	if !now.Before(sess.ExpiresAt) {
		return nil, errNotLoggedIn
	}
	u, err := s.ByID(ctx, sess.UserID)
	if apperr.Code(err) == apperr.NotFound || err == nil && !u.DisabledAt.IsZero() {
		return nil, errNotLoggedIn
	}
	if err != nil {
		return nil, err
	}
	// One write at most a minute per session, for "last seen" and the
	// sliding expiry together; the other requests only read.
	if sess.ExpiresAt.Sub(now) < s.sessionTTL-sessionRefreshEvery || now.Sub(sess.LastSeenAt) >= lastSeenEvery {
		q := s.db.Bun.NewUpdate().Model(sess).Set("last_seen_at = ?", now).Where("token_hash = ?", sess.TokenHash)
		if sess.ExpiresAt.Sub(now) < s.sessionTTL-sessionRefreshEvery {
			q = q.Set("expires_at = ?", now.Add(s.sessionTTL))
		}
		if _, err := q.Exec(ctx); err != nil {
			return nil, fmt.Errorf("account: refresh session: %w", err)
		}
	}
	return u, nil
}

var errNotLoggedIn = apperr.New(apperr.Unauthenticated, "Not authenticated")

// Logout ends the session of token; ending an unknown session is no error.
func (s *Service) Logout(ctx context.Context, token string) error {
	if _, err := s.db.Bun.NewDelete().Model((*session)(nil)).Where("token_hash = ?", hashToken(token)).Exec(ctx); err != nil {
		return fmt.Errorf("account: logout: %w", err)
	}
	return nil
}

// PurgeExpired deletes expired sessions, stale throttle windows, expired
// two-factor challenges and long-unused browsers.
func (s *Service) PurgeExpired(ctx context.Context) (int64, error) {
	now := s.clock()
	res, err := s.db.Bun.NewDelete().Model((*session)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("account: purge sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	if _, err := s.db.Bun.NewDelete().Table("login_failures").Where("window_start <= ?", now.Add(-throttleWindow)).Exec(ctx); err != nil {
		return n, fmt.Errorf("account: purge login failures: %w", err)
	}
	if err := s.purgeThrottle(ctx); err != nil {
		return n, err
	}
	if err := s.purgeResets(ctx); err != nil {
		return n, err
	}
	if _, err := s.db.Bun.NewDelete().Model((*challenge)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return n, fmt.Errorf("account: purge two-factor challenges: %w", err)
	}
	return n, s.purgeDevices(ctx, now)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func utf8Len(s string) int { return len([]rune(s)) }

// ChangePassword replaces u's password after checking the current one, and
// ends every other session of the account; keepToken (the session making
// the change) stays. Wrong current passwords are throttled like failed
// logins of u from c's network (someone holding a session must not get to
// guess the password at leisure). Returns invalid for a wrong current
// confirmPassword checks that password is u's, for a change that asks
// for it again; wrong ones are throttled like logins from c.
func (s *Service) confirmPassword(ctx context.Context, u *User, password string, c Client) error {
	if password == "" {
		return invalid("Enter your password")
	}
	return s.checkPassword(ctx, u, password, c, "Password is incorrect", "Too many wrong passwords.")
}

// checkPassword checks password against u's, throttled like logins from
// c: wrong is the refusal of a wrong one, tooMany that of a throttled one.
func (s *Service) checkPassword(ctx context.Context, u *User, password string, c Client, wrong, tooMany string) error {
	g, err := s.reserveGuess(ctx, u.Username, c.IP, tooMany)
	if err != nil {
		return err
	}
	ok, err := s.verify(ctx, u.PasswordHash, password)
	if err != nil {
		return s.giveBack(ctx, g, false, fmt.Errorf("account: check the password of %s: %w", u.Username, err))
	}
	if !ok {
		return invalid(wrong)
	}
	return s.giveBack(ctx, g, true, nil)
}

// password or a bad new one, too_many_requests while throttled.
func (s *Service) ChangePassword(ctx context.Context, u *User, current, next, confirm, keepToken string, c Client) error {
	defer s.apiKeys.forget() // the account may change
	if err := s.checkPassword(ctx, u, current, c, "Current password is incorrect", "Too many wrong current passwords."); err != nil {
		return err
	}
	if err := validatePassword(next); err != nil {
		return err
	}
	if next != confirm {
		return invalid(PasswordsMismatch)
	}
	hash, err := s.hash(ctx, next)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewUpdate().Model(u).Set("password_hash = ?", hash).Set("updated_at = ?", s.clock()).
			Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		ended, err := endOtherSessions(ctx, tx, u, keepToken)
		if err != nil {
			return err
		}
		return recordSecurity(ctx, tx, u, audit.ActionPasswordChange, nil, map[string]any{"sessionsEnded": ended})
	})
	if err != nil {
		return fmt.Errorf("account: change password of %s: %w", u.Username, err)
	}
	u.PasswordHash = hash
	return nil
}
