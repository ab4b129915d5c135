package domainfwd

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/sealer"
)

func testSealer(t *testing.T) *sealer.Sealer {
	t.Helper()
	s, err := sealer.New([]byte(strings.Repeat("a test server secret ", 2)), "acme")
	require.NoError(t, err)
	return s
}

func TestStorage(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := NewStorage(d, testSealer(t), quiet)
		var _ certmagic.Storage = s

		_, err := s.Load(ctx, "certificates/ca/a.example/a.example.crt")
		require.ErrorIs(t, err, fs.ErrNotExist)
		require.False(t, s.Exists(ctx, "certificates"))
		_, err = s.List(ctx, "certificates", true)
		require.ErrorIs(t, err, fs.ErrNotExist)

		files := map[string]string{
			"certificates/ca/a.example/a.example.crt":   "-----BEGIN CERTIFICATE----- a",
			"certificates/ca/a.example/a.example.key":   "-----BEGIN PRIVATE KEY----- secret a",
			"certificates/ca/b_x.example/b.example.crt": "b",
			"acme/ca/users/me/me.json":                  `{"email":"me"}`,
		}
		for k, v := range files {
			require.NoError(t, s.Store(ctx, k, []byte(v)))
		}
		require.NoError(t, s.Store(ctx, "certificates/ca/a.example/a.example.crt", []byte("renewed")), "a store overwrites")
		files["certificates/ca/a.example/a.example.crt"] = "renewed"
		for k, v := range files {
			got, err := s.Load(ctx, k)
			require.NoError(t, err)
			require.Equal(t, v, string(got))
		}
		// Sealed at rest: no private key in the database's own text.
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_storage WHERE value LIKE '%PRIVATE%' OR value LIKE '%renewed%'"))
		// Another server secret opens nothing.
		other, err := sealer.New([]byte(strings.Repeat("another server secret", 2)), "acme")
		require.NoError(t, err)
		_, err = NewStorage(d, other, quiet).Load(ctx, "acme/ca/users/me/me.json")
		require.Error(t, err)

		info, err := s.Stat(ctx, "certificates/ca/a.example/a.example.key")
		require.NoError(t, err)
		require.True(t, info.IsTerminal)
		require.WithinDuration(t, time.Now(), info.Modified, time.Minute)
		info, err = s.Stat(ctx, "certificates/ca")
		require.NoError(t, err)
		require.False(t, info.IsTerminal)
		require.WithinDuration(t, time.Now(), info.Modified, time.Minute, "a directory's time is its newest value's")
		_, err = s.Stat(ctx, "certificates/c")
		require.ErrorIs(t, err, fs.ErrNotExist, "a prefix of a name is no directory")
		require.True(t, s.Exists(ctx, "acme"))
		require.False(t, s.Exists(ctx, "acm"))

		keys, err := s.List(ctx, "certificates/ca", false)
		require.NoError(t, err)
		require.Equal(t, []string{"certificates/ca/a.example", "certificates/ca/b_x.example"}, keys)
		keys, err = s.List(ctx, "certificates", true)
		require.NoError(t, err)
		require.Equal(t, []string{"certificates/ca", "certificates/ca/a.example", "certificates/ca/a.example/a.example.crt",
			"certificates/ca/a.example/a.example.key", "certificates/ca/b_x.example", "certificates/ca/b_x.example/b.example.crt"}, keys)
		keys, err = s.List(ctx, "", false)
		require.NoError(t, err)
		require.Equal(t, []string{"acme", "certificates"}, keys)

		// Deleting a directory deletes what is below it, and only that.
		require.NoError(t, s.Delete(ctx, "certificates/ca/a.example"))
		require.NoError(t, s.Delete(ctx, "certificates/ca/a.example"), "deleting what is gone is no error")
		require.False(t, s.Exists(ctx, "certificates/ca/a.example/a.example.key"))
		require.True(t, s.Exists(ctx, "certificates/ca/b_x.example/b.example.crt"))
		require.NoError(t, s.Delete(ctx, "acme/ca/users/me/me.json"))
		require.False(t, s.Exists(ctx, "acme"))
	})
}

func TestStorageLocks(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// Two nodes over one database.
		one, two := NewStorage(d, testSealer(t), quiet), NewStorage(d, testSealer(t), quiet)

		require.NoError(t, one.Lock(ctx, "issue_cert_a.example"))
		ok, err := two.TryLock(ctx, "issue_cert_a.example")
		require.NoError(t, err)
		require.False(t, ok, "held by the other node")
		ok, err = one.TryLock(ctx, "issue_cert_a.example")
		require.NoError(t, err)
		require.False(t, ok, "held by this node")
		ok, err = two.TryLock(ctx, "issue_cert_b.example")
		require.NoError(t, err)
		require.True(t, ok, "another name is free")

		// A waiter gets the lock once it is released.
		got := make(chan error, 1)
		go func() { got <- two.Lock(ctx, "issue_cert_a.example") }()
		require.NoError(t, one.Unlock(ctx, "issue_cert_a.example"))
		select {
		case err := <-got:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("the waiter never got the lock")
		}
		require.Error(t, one.Unlock(ctx, "issue_cert_a.example"), "not one's to release")

		// A waiter gives up with its context.
		short, cancel := context.WithCancel(ctx)
		cancel()
		require.ErrorIs(t, one.Lock(short, "issue_cert_a.example"), context.Canceled)

		// The lease is extended while held.
		require.NoError(t, two.RenewLockLease(ctx, "issue_cert_a.example", time.Hour))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_locks WHERE name = ? AND expires_at > ?",
			"issue_cert_a.example", time.Now().UTC().Add(50*time.Minute)))

		// A lock whose holder stopped extending it (a node that died) is
		// taken over once expired, and the old holder's release leaves the
		// new holder's lock alone.
		dbtest.MustExec(t, d, "UPDATE acme_locks SET expires_at = ? WHERE name = ?", time.Now().UTC().Add(-time.Second), "issue_cert_b.example")
		ok, err = one.TryLock(ctx, "issue_cert_b.example")
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, two.Unlock(ctx, "issue_cert_b.example"))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_locks WHERE name = ?", "issue_cert_b.example"))
		ok, err = two.TryLock(ctx, "issue_cert_b.example")
		require.NoError(t, err)
		require.False(t, ok)

		require.NoError(t, one.Unlock(ctx, "issue_cert_b.example"))
		require.NoError(t, two.Unlock(ctx, "issue_cert_a.example"))
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_locks"))
	})
}
