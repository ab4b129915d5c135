package account_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type bundle struct {
	svc   *account.Service
	db    *db.DB
	clock *fakeClock
}

func setup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: sign-up queues its verification mail
	clock := &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	svc, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("s", 32)), SessionTTL: 24 * time.Hour, Now: clock.Now})
	require.NoError(t, err)
	return bundle{svc: svc, db: d, clock: clock}
}

func signUp(username, userType string) account.SignUp {
	return account.SignUp{Username: username, Email: username + "@example.com", Password: "secret1",
		ConfirmPassword: "secret1", FullName: "Test Person", UserType: userType}
}

var client = account.Client{IP: "192.0.2.1", UserAgent: "test"}

func TestRegisterValidation(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		tests := []struct {
			name   string
			change func(*account.SignUp)
			want   string
		}{
			{"short full name", func(s *account.SignUp) { s.FullName = " A " }, "Full name is required"},
			{"line break in full name", func(s *account.SignUp) { s.FullName = "Eve\r\nSubject: hi" }, "Full name cannot contain line breaks or control characters"},
			{"tab in full name", func(s *account.SignUp) { s.FullName = "Eve\tSmith" }, "Full name cannot contain line breaks or control characters"},
			{"line separator in full name", func(s *account.SignUp) { s.FullName = "Eve\u2028Smith" }, "Full name cannot contain line breaks or control characters"},
			{"bidi override in full name", func(s *account.SignUp) { s.FullName = "Eve\u202eSmith" }, "Full name cannot contain line breaks or control characters"},
			{"invalid UTF-8 in full name", func(s *account.SignUp) { s.FullName = "Eve\xffSmith" }, "Full name cannot contain line breaks or control characters"},
			{"line break in username", func(s *account.SignUp) { s.Username = "eve\nsmith" }, "Username can only contain letters, numbers, dots, hyphens and underscores"},
			{"line break in email", func(s *account.SignUp) { s.Email = "eve@example.com\r\nBcc: x@example.com" }, "Invalid email address"},
			{"short username", func(s *account.SignUp) { s.Username = "ab" }, "Username must be at least 3 characters"},
			{"long username", func(s *account.SignUp) { s.Username = strings.Repeat("a", 33) }, "Username must be at most 32 characters"},
			{"username charset", func(s *account.SignUp) { s.Username = "bob smith" }, "Username can only contain letters, numbers, dots, hyphens and underscores"},
			{"bad email", func(s *account.SignUp) { s.Email = "bob@" }, "Invalid email address"},
			{"email without dot", func(s *account.SignUp) { s.Email = "bob@localhost" }, "Invalid email address"},
			{"email with name", func(s *account.SignUp) { s.Email = "Bob <bob@example.com>" }, "Invalid email address"},
			{"short password", func(s *account.SignUp) { s.Password, s.ConfirmPassword = "12345", "12345" }, "Password must be at least 6 characters"},
			{"mismatch", func(s *account.SignUp) { s.ConfirmPassword = "secret2" }, "Passwords do not match"},
			{"admin sign-up", func(s *account.SignUp) { s.UserType = "admin" }, "Account type must be user or registrar"},
			{"bad tier", func(s *account.SignUp) { s.UserType, s.Tier = "registrar", "gold" }, "Tier must be basic, premium or enterprise"},
		}
		for _, tt := range tests {
			in := signUp("valid_name", "user")
			tt.change(&in)
			_, err := b.svc.Register(context.Background(), in)
			require.Equal(t, apperr.Invalid, apperr.Code(err), tt.name)
			require.Equal(t, tt.want, apperr.Message(err), tt.name)
		}
		var n int
		require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM users").Scan(context.Background(), &n))
		require.Zero(t, n, "a refused sign-up stores nothing")
	})
}

func TestRegisterConflicts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("alice", "user"))
		require.NoError(t, err)

		dup := signUp("ALICE", "user")
		dup.Email = "other@example.com"
		_, err = b.svc.Register(ctx, dup)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "Username is already taken", apperr.Message(err))

		dup = signUp("alice2", "user")
		dup.Email = "Alice@Example.com"
		_, err = b.svc.Register(ctx, dup)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "An account with this email already exists", apperr.Message(err))
	})
}

func TestRegisterConcurrentSameUsernameCreatesOne(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				in := signUp("racer", "user")
				in.Email = strings.Repeat("x", i+1) + "@example.com"
				_, errs[i] = b.svc.Register(context.Background(), in)
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				require.Equal(t, apperr.Conflict, apperr.Code(err), err)
			}
		}
		require.Equal(t, 1, ok)
	})
}

func TestRegistrarGetsTierAndSealedAPIKey(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("reseller", "registrar"))
		require.NoError(t, err)
		require.Equal(t, account.TierBasic, u.Tier)

		key, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(key, account.APIKeyPrefix))
		require.Len(t, key, len(account.APIKeyPrefix)+40)

		// Nothing in the row holds the key in plain text.
		var hash, sealed string
		require.NoError(t, d.Bun.NewRaw("SELECT hash, sealed FROM api_keys WHERE user_id = ?", u.ID).Scan(ctx, &hash, &sealed))
		require.NotContains(t, hash, key[3:])
		require.NotContains(t, sealed, key[3:])

		owner, _, err := b.svc.ByAPIKey(ctx, key)
		require.NoError(t, err)
		require.Equal(t, u.ID, owner.ID)
		_, _, err = b.svc.ByAPIKey(ctx, key+"x")
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))

		premium := signUp("reseller2", "registrar")
		premium.Tier = account.TierPremium
		p, err := b.svc.Register(ctx, premium)
		require.NoError(t, err)
		require.Equal(t, account.TierBasic, p.Tier, "premium is applied for, not taken")
		app, err := b.svc.LatestTierApplication(ctx, p)
		require.NoError(t, err)
		require.Equal(t, account.TierPremium, app.RequestedTier)
		require.Equal(t, account.ApplicationPending, app.Status)

		// A user never gets a tier or a key, whatever the form sent.
		plain := signUp("enduser", "user")
		plain.Tier = account.TierEnterprise
		eu, err := b.svc.Register(ctx, plain)
		require.NoError(t, err)
		require.Empty(t, eu.Tier)
		k, err := b.svc.APIKey(ctx, eu)
		require.NoError(t, err)
		require.Empty(t, k)
		apps, err := b.svc.TierApplications(ctx, "")
		require.NoError(t, err)
		require.Len(t, apps, 1, "only the registrar applied")
	})
}

func TestAPIKeyDoesNotOpenWithAnotherSecret(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	b := setup(t, d)
	u, err := b.svc.Register(context.Background(), signUp("reseller", "registrar"))
	require.NoError(t, err)
	other, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("t", 32))})
	require.NoError(t, err)
	_, err = other.APIKey(context.Background(), u)
	require.Error(t, err)
}

func TestLoginSessionsAndLogout(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		created, err := b.svc.Register(ctx, signUp("bob", "user"))
		require.NoError(t, err)

		u, first, err := b.svc.Login(ctx, "BOB", "secret1", "", client)
		require.NoError(t, err)
		require.Equal(t, created.ID, u.ID)
		got, err := b.svc.Authenticate(ctx, first)
		require.NoError(t, err)
		require.Equal(t, "bob", got.Username)

		// Logging in again from the same browser replaces the session id.
		_, second, err := b.svc.Login(ctx, "bob", "secret1", first, client)
		require.NoError(t, err)
		require.NotEqual(t, first, second)
		_, err = b.svc.Authenticate(ctx, first)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))

		require.NoError(t, b.svc.Logout(ctx, second))
		_, err = b.svc.Authenticate(ctx, second)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))

		var stored int
		require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM sessions WHERE token_hash = ?", second).Scan(ctx, &stored))
		require.Zero(t, stored, "tokens are stored hashed")
	})
}

func TestLoginFailures(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("carol", "user"))
		require.NoError(t, err)

		_, _, err = b.svc.Login(ctx, "carol", "wrong-password", "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		require.Equal(t, "Invalid username or password", apperr.Message(err))
		_, _, err = b.svc.Login(ctx, "nobody", "whatever", "", client)
		require.Equal(t, "Invalid username or password", apperr.Message(err))
		_, _, err = b.svc.Login(ctx, "ca", "whatever", "", client)
		require.Equal(t, "Username must be at least 3 characters", apperr.Message(err))
		_, _, err = b.svc.Login(ctx, "carol", "short", "", client)
		require.Equal(t, "Password must be at least 6 characters", apperr.Message(err))
	})
}

// Five failures of one (account, network) pair slow that pair down with
// growing delays; the owner on another network is not blocked by them.
func TestLoginThrottlePerAccountAndNetwork(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("dave", "user"))
		require.NoError(t, err)
		attacker := account.Client{IP: "198.51.100.1"}
		for range 5 {
			_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		}
		// Even the right password is refused from there now, for a minute.
		_, _, err = b.svc.Login(ctx, "Dave", "secret1", "", attacker)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.Equal(t, "Too many failed login attempts. Please try again in 1 minute.", apperr.Message(err))
		// The owner, elsewhere, logs in.
		_, _, err = b.svc.Login(ctx, "dave", "secret1", "", client)
		require.NoError(t, err)

		// After the delay one more guess; a wrong one doubles the delay.
		b.clock.Advance(time.Minute)
		_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
		require.Equal(t, "Too many failed login attempts. Please try again in 2 minutes.", apperr.Message(err))
		b.clock.Advance(2 * time.Minute)
		_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
		require.Equal(t, "Too many failed login attempts. Please try again in 4 minutes.", apperr.Message(err))

		// The right password after the wait ends the pair's streak: the
		// next guess is checked at once (the account's own count, 8 failures
		// from a network that has failed, is still below its 10).
		b.clock.Advance(4 * time.Minute)
		_, _, err = b.svc.Login(ctx, "dave", "secret1", "", attacker)
		require.NoError(t, err)
		_, _, err = b.svc.Login(ctx, "dave", "wrong-password", "", attacker)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
	})
}

// Failures of an account from many networks slow down the networks that
// have failed, never a clean one: nobody can lock the owner out.
func TestLoginFailuresFromManyNetworksDoNotLockTheOwner(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("root", "user"))
		require.NoError(t, err)
		for i := range 30 {
			_, _, err = b.svc.Login(ctx, "root", "wrong-password", "", account.Client{IP: fmt.Sprintf("203.0.113.%d", i+1)})
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err), i)
		}
		// A network that has failed on it waits...
		_, _, err = b.svc.Login(ctx, "root", "secret1", "", account.Client{IP: "203.0.113.1"})
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		// ...and so does a new network that has failed elsewhere.
		elsewhere := account.Client{IP: "192.0.2.200"}
		_, _, err = b.svc.Login(ctx, "nobody-here", "wrong-password", "", elsewhere)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "root", "secret1", "", elsewhere)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		// The owner's clean network gets in at once.
		_, _, err = b.svc.Login(ctx, "root", "secret1", "", client)
		require.NoError(t, err)
	})
}

// IPv6 clients are keyed by their /64: a subscriber's many addresses are one
// client.
func TestLoginThrottleKeysIPv6Per64(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	b := setup(t, d)
	ctx := context.Background()
	_, err := b.svc.Register(ctx, signUp("ivan", "user"))
	require.NoError(t, err)
	for i := range 5 {
		_, _, err = b.svc.Login(ctx, "ivan", "wrong-password", "", account.Client{IP: fmt.Sprintf("2001:db8:0:1::%x", i+1)})
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
	}
	_, _, err = b.svc.Login(ctx, "ivan", "secret1", "", account.Client{IP: "2001:db8:0:1:ffff:ffff:ffff:ffff"})
	require.Equal(t, apperr.TooManyRequests, apperr.Code(err), "the same /64")
	_, _, err = b.svc.Login(ctx, "ivan", "secret1", "", account.Client{IP: "2001:db8:0:2::1"})
	require.NoError(t, err, "the next /64 is another client")
}

func TestLoginThrottlePerClient(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("erin", "user"))
		require.NoError(t, err)
		for i := range 20 {
			_, _, err = b.svc.Login(ctx, "guess"+strings.Repeat("x", i), "wrong-password", "", client)
			require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		}
		_, _, err = b.svc.Login(ctx, "erin", "secret1", "", client)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		// Another client is not affected.
		_, _, err = b.svc.Login(ctx, "erin", "secret1", "", account.Client{IP: "203.0.113.9"})
		require.NoError(t, err)
	})
}

func TestSessionsExpireAndSlide(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.Register(ctx, signUp("frank", "user"))
		require.NoError(t, err)
		_, token, err := b.svc.Login(ctx, "frank", "secret1", "", client)
		require.NoError(t, err)

		// Used after 20 hours of a 24-hour session: it is extended.
		b.clock.Advance(20 * time.Hour)
		_, err = b.svc.Authenticate(ctx, token)
		require.NoError(t, err)
		b.clock.Advance(20 * time.Hour)
		_, err = b.svc.Authenticate(ctx, token)
		require.NoError(t, err)

		// Left alone for a whole TTL: it has expired, and the purge removes it.
		b.clock.Advance(24 * time.Hour)
		_, err = b.svc.Authenticate(ctx, token)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		n, err := b.svc.PurgeExpired(ctx)
		require.NoError(t, err)
		require.EqualValues(t, 1, n)
	})
}

func TestDisabledAccountCannotLogIn(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("mallory", "registrar"))
		require.NoError(t, err)
		_, token, err := b.svc.Login(ctx, "mallory", "secret1", "", client)
		require.NoError(t, err)
		key, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)

		dbtest.MustExec(t, d, "UPDATE users SET disabled_at = ? WHERE id = ?", b.clock.Now(), u.ID)
		_, err = b.svc.Authenticate(ctx, token)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "mallory", "secret1", "", client)
		require.Equal(t, apperr.Forbidden, apperr.Code(err))
		_, _, err = b.svc.ByAPIKey(ctx, key)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
	})
}

func TestCreateAdmin(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.CreateAdmin(ctx, "root", "root@example.com", "hunter22")
		require.NoError(t, err)
		require.True(t, u.IsAdmin())
		_, err = b.svc.CreateAdmin(ctx, "root", "root2@example.com", "hunter22")
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "root", "hunter22", "", client)
		require.NoError(t, err)
	})
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("gina", "user"))
		require.NoError(t, err)
		_, here, err := b.svc.Login(ctx, "gina", "secret1", "", client)
		require.NoError(t, err)
		_, elsewhere, err := b.svc.Login(ctx, "gina", "secret1", "", account.Client{IP: "198.51.100.7"})
		require.NoError(t, err)

		require.Equal(t, "Current password is incorrect", apperr.Message(b.svc.ChangePassword(ctx, u, "wrong1", "newpass1", "newpass1", here, client)))
		require.Equal(t, "Password must be at least 6 characters", apperr.Message(b.svc.ChangePassword(ctx, u, "secret1", "short", "short", here, client)))
		require.Equal(t, "Passwords do not match", apperr.Message(b.svc.ChangePassword(ctx, u, "secret1", "newpass1", "newpass2", here, client)))
		_, err = b.svc.Authenticate(ctx, elsewhere)
		require.NoError(t, err, "refused changes end no session")

		require.NoError(t, b.svc.ChangePassword(ctx, u, "secret1", "newpass1", "newpass1", here, client))
		_, err = b.svc.Authenticate(ctx, here)
		require.NoError(t, err, "the session that changed it stays")
		_, err = b.svc.Authenticate(ctx, elsewhere)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "other sessions end")
		_, _, err = b.svc.Login(ctx, "gina", "secret1", "", client)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
		_, _, err = b.svc.Login(ctx, "gina", "newpass1", "", client)
		require.NoError(t, err)
	})
}

// An API key's account is read from the database at most once a second per
// process: a change made elsewhere (here: SQL) shows within the second, one
// made through this service (disabling, rotating the key) at once.
func TestAPIKeyAccountsAreReadOnceASecond(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		admin, err := b.svc.CreateAdmin(ctx, "root", "root@example.com", "secret12")
		require.NoError(t, err)
		u, err := b.svc.Register(ctx, signUp("burst", "registrar"))
		require.NoError(t, err)
		key, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		_, _, err = b.svc.ByAPIKey(ctx, key)
		require.NoError(t, err)

		dbtest.MustExec(t, d, "UPDATE users SET tier = 'premium' WHERE id = ?", u.ID)
		owner, _, err := b.svc.ByAPIKey(ctx, key)
		require.NoError(t, err)
		require.Equal(t, account.TierBasic, owner.Tier, "within the second: as read")
		b.clock.Advance(time.Second)
		owner, _, err = b.svc.ByAPIKey(ctx, key)
		require.NoError(t, err)
		require.Equal(t, account.TierPremium, owner.Tier, "a second later: read again")

		_, err = b.svc.SetDisabled(ctx, admin, u.ID, true)
		require.NoError(t, err)
		_, _, err = b.svc.ByAPIKey(ctx, key)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "disabled here: refused at once")
		_, err = b.svc.SetDisabled(ctx, admin, u.ID, false)
		require.NoError(t, err)
		_, _, err = b.svc.ByAPIKey(ctx, key)
		require.NoError(t, err)

		next, err := b.svc.RotateAPIKey(ctx, u)
		require.NoError(t, err)
		_, _, err = b.svc.ByAPIKey(ctx, key)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "rotated here: the old key is refused at once")
		_, _, err = b.svc.ByAPIKey(ctx, next)
		require.NoError(t, err)
	})
}
