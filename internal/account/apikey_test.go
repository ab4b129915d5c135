package account_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func TestParseAddressList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want []string // nil: invalid
	}{
		{[]string{}, []string{}},
		{[]string{"203.0.113.7"}, []string{"203.0.113.7"}},
		{[]string{" 203.0.113.0/24 "}, []string{"203.0.113.0/24"}},
		{[]string{"10.1.2.3/8"}, []string{"10.0.0.0/8"}},
		{[]string{"203.0.113.7/32"}, []string{"203.0.113.7"}},
		{[]string{"2001:db8::1"}, []string{"2001:db8::1"}},
		{[]string{"2001:DB8::/32", "2001:db8::/32"}, []string{"2001:db8::/32"}},
		{[]string{"::ffff:192.0.2.1"}, []string{"192.0.2.1"}},
		{[]string{"::ffff:192.0.2.0/120"}, []string{"192.0.2.0/24"}},
		{[]string{"fe80::1%eth0"}, nil},
		{[]string{"example.com"}, nil},
		{[]string{"203.0.113.0/33"}, nil},
		{[]string{""}, nil},
		{[]string{"1.2.3.4", "' OR 1=1 --"}, nil},
	}
	for _, tt := range tests {
		l, err := account.ParseAddressList(tt.in)
		if tt.want == nil {
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%q", tt.in)
			continue
		}
		require.NoError(t, err, "%q", tt.in)
		require.Equal(t, tt.want, l.Strings(), "%q", tt.in)
	}
	_, err := account.ParseAddressList(make([]string, account.MaxKeyAddresses+1))
	require.Equal(t, "A key may allow at most 20 addresses or prefixes", apperr.Message(err))
	_, err = account.ParseAddressList([]string{strings.Repeat("x", 5000)})
	require.Less(t, len(apperr.Message(err)), 200, "the message does not echo a huge input")

	l, err := account.ParseAddressList([]string{"203.0.113.0/24", "2001:db8::/32", "192.0.2.9"})
	require.NoError(t, err)
	for ip, want := range map[string]bool{
		"203.0.113.200": true, "203.0.114.1": false, "2001:db8:1::5": true, "2001:db9::1": false,
		"192.0.2.9": true, "192.0.2.10": false, "::ffff:203.0.113.5": true, "not an address": false, "": false,
	} {
		require.Equal(t, want, l.Allows(ip), ip)
	}
	require.True(t, account.AddressList{}.Allows("198.51.100.1"), "an empty list allows any address")
}

func TestScopes(t *testing.T) {
	t.Parallel()
	s, err := account.ParseScopes([]string{"wallet", "read", "READ"})
	require.NoError(t, err)
	require.Equal(t, []string{"read", "wallet"}, s.Names())
	require.Equal(t, "the dns scope", s.Missing(account.ScopeDNS|account.ScopeRead).Describe())
	require.Equal(t, "the dns and register scopes", s.Missing(account.AllScopes).Describe())
	require.Equal(t, "the read, dns and register scopes", account.ScopeWallet.Missing(account.AllScopes).Describe())
	_, err = account.ParseScopes(nil)
	require.Equal(t, "Choose at least one scope", apperr.Message(err))
	_, err = account.ParseScopes([]string{"admin"})
	require.Equal(t, `Unknown scope "admin": the scopes are read, dns, register, wallet`, apperr.Message(err))
}

func TestAPIKeysCreateListRotateRevoke(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("keyholder", "registrar"))
		require.NoError(t, err)
		other, err := b.svc.Register(ctx, signUp("otherkeys", "registrar"))
		require.NoError(t, err)
		plain, err := b.svc.Register(ctx, signUp("plainuser", "user"))
		require.NoError(t, err)

		// The first key: every scope, shown again, not revocable.
		keys, err := b.svc.APIKeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, keys, 1)
		first := keys[0]
		require.Equal(t, account.PrimaryKeyName, first.Name)
		require.Equal(t, account.AllScopes, first.Scopes)
		require.True(t, first.Primary())
		require.Empty(t, first.Allowed)
		require.True(t, first.ExpiresAt.IsZero())
		shown, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		_, g, err := b.svc.ByAPIKey(ctx, shown)
		require.NoError(t, err)
		require.Equal(t, first.ID, g.ID)
		require.Equal(t, "The Default key is the one the API Access tab shows: rotate it instead of revoking it",
			apperr.Message(b.svc.RevokeKey(ctx, u, first.ID)))

		expires := b.clock.Now().Add(48 * time.Hour)
		k, secret, err := b.svc.CreateAPIKey(ctx, u, account.NewKey{Name: "  CI deploys ", Scopes: []string{"dns", "read"},
			Allowed: []string{"203.0.113.0/24", "2001:db8::1"}, ExpiresAt: expires})
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(secret, account.APIKeyPrefix))
		require.Equal(t, "CI deploys", k.Name)
		require.Equal(t, account.ScopeRead|account.ScopeDNS, k.Scopes)
		require.Equal(t, []string{"203.0.113.0/24", "2001:db8::1"}, k.Allowed.Strings())
		require.False(t, k.Primary(), "a key made later is shown once")
		owner, g, err := b.svc.ByAPIKey(ctx, secret)
		require.NoError(t, err)
		require.Equal(t, u.ID, owner.ID)
		require.Equal(t, k.ID, g.ID)
		require.Equal(t, account.ScopeRead|account.ScopeDNS, g.Scopes)
		require.True(t, g.Allowed.Allows("203.0.113.9"))
		require.False(t, g.Allowed.Allows("198.51.100.1"))
		require.True(t, g.ExpiresAt.Equal(expires.Truncate(time.Second)))

		// Nothing at rest holds a later key, sealed or plain.
		var sealed []string
		require.NoError(t, d.Bun.NewRaw("SELECT COALESCE(sealed, '') FROM api_keys WHERE id = ?", k.ID).Scan(ctx, &sealed))
		require.Equal(t, []string{""}, sealed)

		keys, err = b.svc.APIKeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, keys, 2)
		require.Equal(t, []int64{first.ID, k.ID}, []int64{keys[0].ID, keys[1].ID}, "oldest first")

		// Another account's key is not found, whatever it tries.
		_, _, err = b.svc.RotateKey(ctx, other, k.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.RevokeKey(ctx, other, k.ID)))
		_, _, err = b.svc.CreateAPIKey(ctx, plain, account.NewKey{Name: "x", Scopes: []string{"read"}})
		require.Equal(t, apperr.Forbidden, apperr.Code(err))
		_, err = b.svc.APIKeys(ctx, plain)
		require.Equal(t, apperr.Forbidden, apperr.Code(err))

		// Rotating: the old secret stops at once, though the cache holds
		// it; the key keeps its name, scopes and addresses.
		rotated, next, err := b.svc.RotateKey(ctx, u, k.ID)
		require.NoError(t, err)
		require.NotEqual(t, secret, next)
		require.Equal(t, k.ID, rotated.ID)
		require.Equal(t, "CI deploys", rotated.Name)
		require.Equal(t, k.Scopes, rotated.Scopes)
		_, _, err = b.svc.ByAPIKey(ctx, secret)
		require.Equal(t, "Invalid API key", apperr.Message(err))
		_, g, err = b.svc.ByAPIKey(ctx, next)
		require.NoError(t, err)
		require.Equal(t, k.ID, g.ID)

		// Rotating the first key changes the key the tab shows.
		_, again, err := b.svc.RotateKey(ctx, u, first.ID)
		require.NoError(t, err)
		now, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		require.Equal(t, again, now)
		_, _, err = b.svc.ByAPIKey(ctx, shown)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))

		// Revoking: refused at once (cached or not), as revoked, and gone
		// from the list.
		require.NoError(t, b.svc.RevokeKey(ctx, u, k.ID))
		_, _, err = b.svc.ByAPIKey(ctx, next)
		require.Equal(t, "This API key was revoked", apperr.Message(err))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.RevokeKey(ctx, u, k.ID)))
		_, _, err = b.svc.RotateKey(ctx, u, k.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err), "a revoked key cannot come back")
		keys, err = b.svc.APIKeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, keys, 1)
	})
}

func TestAPIKeyValidation(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("validkeys", "registrar"))
		require.NoError(t, err)
		ok := account.NewKey{Name: "ok", Scopes: []string{"read"}}
		for _, tt := range []struct {
			change func(*account.NewKey)
			want   string
		}{
			{func(k *account.NewKey) { k.Name = "   " }, "Key name is required"},
			{func(k *account.NewKey) { k.Name = "a\nb" }, "Key name cannot contain line breaks or control characters"},
			{func(k *account.NewKey) { k.Name = strings.Repeat("é", 65) }, "Key name must be at most 64 characters"},
			{func(k *account.NewKey) { k.Scopes = nil }, "Choose at least one scope"},
			{func(k *account.NewKey) { k.Scopes = []string{"read", "root"} }, `Unknown scope "root": the scopes are read, dns, register, wallet`},
			{func(k *account.NewKey) { k.Allowed = []string{"10.0.0.0/40"} },
				`"10.0.0.0/40" is not an IP address or prefix (like 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32)`},
			{func(k *account.NewKey) { k.ExpiresAt = b.clock.Now() }, "Expiry must be in the future"},
		} {
			in := ok
			tt.change(&in)
			_, _, err := b.svc.CreateAPIKey(ctx, u, in)
			require.Equal(t, apperr.Invalid, apperr.Code(err), tt.want)
			require.Equal(t, tt.want, apperr.Message(err))
		}
		keys, err := b.svc.APIKeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, keys, 1, "nothing was made")

		// At most MaxAPIKeys keys; revoking one makes room.
		var last int64
		for range account.MaxAPIKeys - 1 {
			k, _, err := b.svc.CreateAPIKey(ctx, u, ok)
			require.NoError(t, err)
			last = k.ID
		}
		_, _, err = b.svc.CreateAPIKey(ctx, u, ok)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "You have 50 API keys, the most an account may have: revoke one first", apperr.Message(err))
		require.NoError(t, b.svc.RevokeKey(ctx, u, last))
		_, _, err = b.svc.CreateAPIKey(ctx, u, ok)
		require.NoError(t, err)
	})
}

func TestAPIKeyExpires(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("expiring", "registrar"))
		require.NoError(t, err)
		_, secret, err := b.svc.CreateAPIKey(ctx, u, account.NewKey{Name: "short", Scopes: []string{"read"},
			ExpiresAt: b.clock.Now().Add(time.Hour)})
		require.NoError(t, err)
		_, _, err = b.svc.ByAPIKey(ctx, secret)
		require.NoError(t, err)
		b.clock.Advance(time.Hour - time.Second)
		_, _, err = b.svc.ByAPIKey(ctx, secret)
		require.NoError(t, err, "a second before it expires")
		b.clock.Advance(time.Second)
		_, _, err = b.svc.ByAPIKey(ctx, secret)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err), "at its expiry, though the cache holds it")
		require.Equal(t, "This API key expired on 2026-11-22 13:00 UTC", apperr.Message(err))
		b.clock.Advance(time.Minute)
		_, _, err = b.svc.ByAPIKey(ctx, secret)
		require.Equal(t, "This API key expired on 2026-11-22 13:00 UTC", apperr.Message(err), "read again from the database")
	})
}

// A key's last use is written at most once a minute, by RecordKeyUses,
// never by the request.
func TestAPIKeyLastUseOnceAMinute(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("lastuse", "registrar"))
		require.NoError(t, err)
		key, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		lastUse := func() time.Time {
			t.Helper()
			keys, err := b.svc.APIKeys(ctx, u)
			require.NoError(t, err)
			return keys[0].LastUsedAt
		}
		use := func() {
			t.Helper()
			_, _, err := b.svc.ByAPIKey(ctx, key)
			require.NoError(t, err)
		}
		require.True(t, lastUse().IsZero(), "never used")

		start := b.clock.Now()
		use()
		require.True(t, lastUse().IsZero(), "the request writes nothing")
		require.NoError(t, b.svc.FlushKeyUses(ctx))
		require.True(t, lastUse().Equal(start), "written: %v", lastUse())

		b.clock.Advance(59 * time.Second)
		use()
		require.NoError(t, b.svc.FlushKeyUses(ctx))
		require.True(t, lastUse().Equal(start), "within the minute: not written again")

		b.clock.Advance(time.Second)
		use()
		use()
		require.NoError(t, b.svc.FlushKeyUses(ctx))
		require.True(t, lastUse().Equal(start.Add(time.Minute)), "a minute later: written again")

		// RecordKeyUses writes what requests queue, and what is left
		// when it stops.
		b.clock.Advance(2 * time.Minute)
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); b.svc.RecordKeyUses(runCtx, nil) }()
		use()
		stop()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("RecordKeyUses did not stop")
		}
		require.True(t, lastUse().Equal(start.Add(3*time.Minute)), "written by RecordKeyUses: %v", lastUse())
	})
}

// The key a registrar had before keys had names and scopes (one per
// account, in the users table) becomes its first key, and works unchanged.
func TestMigrationKeepsTheSingleKey(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("oldkey", "registrar"))
		require.NoError(t, err)
		key, err := b.svc.APIKey(ctx, u)
		require.NoError(t, err)
		var hash, sealed string
		require.NoError(t, d.Bun.NewRaw("SELECT hash, sealed FROM api_keys WHERE user_id = ?", u.ID).Scan(ctx, &hash, &sealed))

		// The schema as it was: the key in the users table. Should a later
		// table refer to api_keys, PostgreSQL drops that reference with it
		// (SQLite checks none on DROP).
		drop := "DROP TABLE api_keys"
		if d.Engine == db.Postgres {
			drop += " CASCADE"
		}
		for _, stmt := range []string{
			drop,
			"ALTER TABLE users ADD COLUMN api_key_hash TEXT",
			"ALTER TABLE users ADD COLUMN api_key_sealed TEXT",
			"CREATE UNIQUE INDEX users_api_key_hash_key ON users (api_key_hash)",
			"DELETE FROM schema_migrations WHERE version = '0022_api_keys'",
		} {
			dbtest.MustExec(t, d, stmt)
		}
		dbtest.MustExec(t, d, "UPDATE users SET api_key_hash = ?, api_key_sealed = ? WHERE id = ?", hash, sealed, u.ID)
		require.NoError(t, d.Migrate(ctx))

		// A fresh service: nothing cached.
		svc, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("s", 32)), Now: b.clock.Now})
		require.NoError(t, err)
		owner, g, err := svc.ByAPIKey(ctx, key)
		require.NoError(t, err)
		require.Equal(t, u.ID, owner.ID)
		require.Equal(t, account.AllScopes, g.Scopes)
		shown, err := svc.APIKey(ctx, u)
		require.NoError(t, err)
		require.Equal(t, key, shown, "the API Access tab shows the same key")
		keys, err := svc.APIKeys(ctx, u)
		require.NoError(t, err)
		require.Len(t, keys, 1)
		require.Equal(t, account.PrimaryKeyName, keys[0].Name)
		require.True(t, keys[0].Primary())
		require.True(t, keys[0].CreatedAt.Equal(u.CreatedAt), "made when the account was")
	})
}
