package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// throttleWindow is the fixed window of the password-reset request counts
// (countRequest, in the login_failures table).
const throttleWindow = 15 * time.Minute

// Password guesses (logins and change-password) are throttled with growing
// delays rather than a hard lock, so that nobody can lock a chosen account
// (an admin's) by failing on purpose. Every attempt reserves a place under
// three keys, each with one atomic upsert, before the password hash runs;
// a success gives the places back, a failure leaves them counted. So
// parallel guesses cannot all slip past a check made before the hash.
//
//   - pair (account, client network): 5 attempts, then one attempt after
//     1 minute, the next after 2, 4, 8… minutes, at most an hour apart.
//     This is the key that stops one network guessing one password.
//   - client network (across accounts): 20 attempts, then the same growing
//     delays. This stops one network trying a password on many accounts.
//     It forgets after an hour without attempts (shared networks, offices
//     behind one NAT, would otherwise stay slowed for a day).
//   - account (across networks): 10 attempts, then the same growing delays,
//     but only for networks that are not clean. A clean network has no
//     failure counted on this account nor anywhere else; a correct password
//     from it always gets through however many others fail, so failures by
//     others never lock the owner out. A botnet of fresh addresses still
//     gets one guess per network once the account is under attack, and
//     5 while it is not; that is what remains of a distributed guess, and
//     it is bounded by the number of networks (IPv6 /64s) the attacker has.
//
// Pair and account keys forget a streak after a day without attempts. A
// login costs three reservations, a lookup and, on success or when refused
// half way, one statement giving places back.
//
// Sign-ups are counted per client network (SignUpLimit an hour): every
// sign-up that passes validation counts, taken names too, which bounds how
// fast anyone can ask whether a username or email exists.
type throttlePolicy struct {
	prefix   string
	free     int           // attempts before any delay
	delay    time.Duration // the first delay; it doubles with each further attempt
	maxDelay time.Duration
	forget   time.Duration // a key quiet this long starts afresh
}

var (
	pairPolicy    = throttlePolicy{prefix: "login-pair:", free: 5, delay: time.Minute, maxDelay: time.Hour, forget: 24 * time.Hour}
	networkPolicy = throttlePolicy{prefix: "login-net:", free: 20, delay: time.Minute, maxDelay: 30 * time.Minute, forget: time.Hour}
	accountPolicy = throttlePolicy{prefix: "login-acct:", free: 10, delay: time.Minute, maxDelay: time.Hour, forget: 24 * time.Hour}
)

// DefaultSignUpLimit is how many sign-ups one client network may make in an
// hour unless Options say otherwise.
const DefaultSignUpLimit = 10

func signUpPolicy(limit int) throttlePolicy {
	return throttlePolicy{prefix: "signup:", free: limit, delay: time.Hour, maxDelay: time.Hour, forget: time.Hour}
}

// throttleForget is the longest any key is remembered; older rows are purged.
const throttleForget = 24 * time.Hour

// notBlocked is blocked_until of a key that may be tried at once: long ago,
// rather than now, so that a request whose clock reading is a moment older
// than another's is not taken for blocked.
var notBlocked = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// blockedUntil returns when the attempt after the nth may be made.
func (p throttlePolicy) blockedUntil(now time.Time, n int) time.Time {
	if n < p.free {
		return notBlocked
	}
	d := p.delay
	for i := p.free; i < n && d < p.maxDelay; i++ {
		d *= 2
	}
	return now.Add(min(d, p.maxDelay))
}

// clientNetwork is the part of a client address that throttles key on: the
// address for IPv4, its /64 for IPv6 (one subscriber usually has a whole
// /64, so a /128 key would give an attacker 2^64 fresh keys).
func clientNetwork(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return truncate(ip, 64)
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// accountKey is how throttles name an account: its username as typed,
// folded (names that exist are at most 32 characters; longer ones exist
// nowhere and are cut so they cannot bloat the table).
func accountKey(username string) string { return truncate(strings.ToLower(username), 64) }

// reserve counts one attempt under p's key and returns how many the
// current streak holds, in one statement. When enforce is set and the key
// is blocked, nothing is counted and it returns too_many_requests (with
// message) carrying the wait; without enforce the attempt is always
// counted.
func (s *Service) reserve(ctx context.Context, idb bun.IDB, p throttlePolicy, key string, enforce bool, now time.Time,
	message string) (int, error) {
	key = p.prefix + key
	forgotten := now.Add(-p.forget)
	// The delay after the new count: a CASE over the counts the ladder of
	// doubling delays passes through, with each time as a parameter, which
	// both engines run alike (no date arithmetic in SQL).
	// PostgreSQL reads a CASE of quoted literals as text: say they are times.
	ts := "?"
	if s.db.Engine == db.Postgres {
		ts = "CAST(? AS TIMESTAMPTZ)"
	}
	var ladder strings.Builder
	args := []any{key, now, p.blockedUntil(now, 1), forgotten, forgotten, p.blockedUntil(now, 1)}
	ladder.WriteString("CASE WHEN auth_throttle.attempts + 1 < ? THEN " + ts)
	args = append(args, p.free, notBlocked)
	n := p.free
	for ; p.blockedUntil(now, n).Sub(now) < p.maxDelay; n++ {
		ladder.WriteString(" WHEN auth_throttle.attempts + 1 = ? THEN " + ts)
		args = append(args, n, p.blockedUntil(now, n))
	}
	ladder.WriteString(" ELSE " + ts + " END")
	args = append(args, p.blockedUntil(now, n), forgotten, now)
	where := ""
	if enforce {
		where = "WHERE auth_throttle.blocked_until <= ? OR auth_throttle.last_at <= ?"
		args = append(args, now, forgotten)
	}
	query := `INSERT INTO auth_throttle (throttle_key, attempts, last_at, blocked_until) VALUES (?, 1, ?, ?)
		ON CONFLICT (throttle_key) DO UPDATE SET
			attempts = CASE WHEN auth_throttle.last_at <= ? THEN 1 ELSE auth_throttle.attempts + 1 END,
			blocked_until = CASE WHEN auth_throttle.last_at <= ? THEN ` + ts + ` ELSE ` + ladder.String() + ` END,
			last_at = CASE WHEN auth_throttle.last_at <= ? THEN excluded.last_at ELSE ` + ts + ` END
		` + where + ` RETURNING attempts`
	var count int
	err := idb.NewRaw(query, args...).Scan(ctx, &count)
	if err == nil {
		return count, nil
	}
	if !enforce || !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("account: throttle %s: %w", p.prefix, err)
	}
	// Blocked: the update's condition failed, so nothing was counted.
	var until time.Time
	err = idb.NewRaw("SELECT blocked_until FROM auth_throttle WHERE throttle_key = ?", key).Scan(ctx, &until)
	if errors.Is(err, sql.ErrNoRows) {
		until = now.Add(time.Second) // purged meanwhile: try again at once
	} else if err != nil {
		return 0, fmt.Errorf("account: throttle %s: %w", p.prefix, err)
	}
	return 0, tooMany(message, until.Sub(now))
}

// tooMany is a too_many_requests error whose message ends "try again in N
// minutes", rounded (at least 1); Retry-After has the seconds.
func tooMany(message string, wait time.Duration) error {
	wait = max(wait, time.Second)
	minutes := max(int(wait.Round(time.Minute)/time.Minute), 1)
	unit := "minutes"
	if minutes == 1 {
		unit = "minute"
	}
	return &apperr.Error{Code: apperr.TooManyRequests, RetryAfter: wait,
		Message: fmt.Sprintf("%s Please try again in %d %s.", message, minutes, unit)}
}

const failedLoginMessage = "Too many failed login attempts."

// guess is the throttle's hold on one password attempt: the places it
// reserved, to give back when the password was right or was never checked.
type guess struct {
	pair, network, account string
	reserved               []string
}

// reserveGuess reserves a password attempt at username from client before
// the hash runs. Returns too_many_requests (with message) while the attempt
// must wait.
func (s *Service) reserveGuess(ctx context.Context, username, clientIP, message string) (*guess, error) {
	now := s.clock()
	net, acct := clientNetwork(clientIP), accountKey(username)
	g := &guess{pair: pairPolicy.prefix + acct + "|" + net, network: networkPolicy.prefix + net,
		account: accountPolicy.prefix + acct}
	pairCount, err := s.reserve(ctx, s.db.Bun, pairPolicy, acct+"|"+net, true, now, message)
	if err != nil {
		return nil, err
	}
	g.reserved = append(g.reserved, g.pair)
	netCount, err := s.reserve(ctx, s.db.Bun, networkPolicy, net, true, now, message)
	if err != nil {
		return nil, s.giveBack(ctx, g, false, err)
	}
	g.reserved = append(g.reserved, g.network)
	clean := pairCount == 1 && netCount == 1
	if _, err := s.reserve(ctx, s.db.Bun, accountPolicy, acct, !clean, now, message); err != nil {
		return nil, s.giveBack(ctx, g, false, err)
	}
	g.reserved = append(g.reserved, g.account)
	return g, nil
}

// giveBack returns the places g reserved, in one statement; with clearPair
// (the password was right) the pair's streak ends. A key that falls below
// its free attempts is no longer blocked. It returns cause, or the error of
// giving back.
func (s *Service) giveBack(ctx context.Context, g *guess, clearPair bool, cause error) error {
	if len(g.reserved) == 0 {
		return cause
	}
	ts := "?"
	if s.db.Engine == db.Postgres {
		ts = "CAST(? AS TIMESTAMPTZ)"
	}
	pairAttempts := "attempts - 1"
	if clearPair {
		pairAttempts = "0"
	}
	_, err := s.db.Bun.NewRaw(`UPDATE auth_throttle SET
			attempts = CASE WHEN throttle_key = ? THEN `+pairAttempts+` ELSE attempts - 1 END,
			blocked_until = CASE WHEN (CASE WHEN throttle_key = ? THEN `+pairAttempts+` ELSE attempts - 1 END) <
				(CASE throttle_key WHEN ? THEN ? WHEN ? THEN ? ELSE ? END) THEN `+ts+` ELSE blocked_until END
		WHERE throttle_key IN (?) AND attempts > 0`,
		g.pair, g.pair, g.pair, pairPolicy.free, g.network, networkPolicy.free, accountPolicy.free, notBlocked,
		bun.In(g.reserved)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: give back throttle: %w", err)
	}
	return cause
}

// reserveSignUp counts a sign-up from client; too_many_requests once its
// network has made SignUpLimit in the last hour.
func (s *Service) reserveSignUp(ctx context.Context, clientIP string) error {
	_, err := s.reserve(ctx, s.db.Bun, signUpPolicy(s.signUpLimit), clientNetwork(clientIP), true, s.clock(),
		"Too many sign-ups from your network.")
	return err
}

// clearLoginThrottle ends the streaks of username's account and of every
// (account, network) pair of it: after a password reset the owner starts
// afresh everywhere. Network keys stay: they are not the account's.
func clearLoginThrottle(ctx context.Context, idb bun.IDB, username string) error {
	acct := accountKey(username)
	pairs := pairPolicy.prefix + acct + "|"
	// '}' follows '|': the range holds exactly the keys starting with pairs,
	// without LIKE's wildcards (usernames may hold '_').
	if _, err := idb.NewDelete().Table("auth_throttle").
		Where("throttle_key = ? OR (throttle_key >= ? AND throttle_key < ?)",
			accountPolicy.prefix+acct, pairs, pairPolicy.prefix+acct+"}").Exec(ctx); err != nil {
		return fmt.Errorf("account: clear login throttle: %w", err)
	}
	return nil
}

// purgeThrottle deletes throttle rows nobody has touched for longer than
// any key remembers.
func (s *Service) purgeThrottle(ctx context.Context) error {
	if _, err := s.db.Bun.NewDelete().Table("auth_throttle").
		Where("last_at <= ?", s.clock().Add(-throttleForget)).Exec(ctx); err != nil {
		return fmt.Errorf("account: purge throttle: %w", err)
	}
	return nil
}
