package registration_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/registration"
)

func isRegistered(t *testing.T, n *registration.Names, name string) bool {
	t.Helper()
	taken, err := n.IsRegistered(context.Background(), name, ".inf.nz")
	require.NoError(t, err)
	return taken
}

// Two API processes over one database: each answers checks from memory,
// sees its own registrations and releases at once and the other's once it
// reads the journal; the journal keeps an hour.
func TestRegisteredNamesFollowEveryProcess(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := setupLifecycle(t, d)
		ctx := context.Background()
		here := registration.NewNames(d, nil).Following()
		there := registration.NewNames(d, nil).Following()
		l.reg.Names = here
		require.NoError(t, here.Tick(ctx))
		require.NoError(t, there.Tick(ctx))

		alice := l.user(t, "alice", 5000)
		l.register(t, alice, "gone", false)
		two := 2
		_, err := l.reg.Register(ctx, alice, retail, registration.Request{Name: "kept", Extension: ".inf.nz", Years: &two})
		require.NoError(t, err)
		require.True(t, isRegistered(t, here, "gone"), "this process sees its registration at once")
		require.True(t, isRegistered(t, here, "kept"))
		require.False(t, isRegistered(t, there, "gone"), "the other answers from memory until it reads the journal")
		require.NoError(t, there.Tick(ctx))
		require.True(t, isRegistered(t, there, "gone"))
		require.True(t, isRegistered(t, there, "kept"))
		require.False(t, isRegistered(t, there, "never"))

		// A year and a grace period later "gone" is released.
		l.advance(400 * 24 * time.Hour)
		report, err := l.reg.Scan(ctx, 0)
		require.NoError(t, err)
		require.Equal(t, 1, report.Released)
		require.False(t, isRegistered(t, here, "gone"), "this process sees its release at once")
		require.True(t, isRegistered(t, there, "gone"))
		require.NoError(t, there.Tick(ctx))
		require.False(t, isRegistered(t, there, "gone"))
		require.True(t, isRegistered(t, there, "kept"))

		// The scan pruned the journal's rows older than an hour: only the
		// release is left.
		var left []string
		require.NoError(t, d.Bun.NewSelect().Table("name_changes").Column("name").Scan(ctx, &left))
		require.Equal(t, []string{"gone"}, left)

		// A fresh process loads every name.
		fresh := registration.NewNames(d, nil).Following()
		require.NoError(t, fresh.Tick(ctx))
		require.False(t, isRegistered(t, fresh, "gone"))
		require.True(t, isRegistered(t, fresh, "kept"))
	})
}

// An index that has not read the journal for a while lets the database
// answer, and loads every name again after reloadAfter: a name written to
// the table by other means (an operator's SQL) is seen then.
func TestRegisteredNamesFallBackToTheDatabase(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		now := time.Now()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		advance := func(by time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(by) }

		n := registration.NewNames(d, clock)
		require.False(t, isRegistered(t, n, "quiet"), "before Watch, the database answers")
		n.Following()
		require.NoError(t, n.Tick(ctx))

		owner := dbtest.User(t, d, "owner", "user")
		dbtest.MustExec(t, d, `INSERT INTO domains (user_id, name, extension, price_cents, registered_at, expires_at, created_at, updated_at)
			VALUES (?, 'quiet', '.inf.nz', 800, ?, ?, ?, ?)`, owner, now, now.AddDate(1, 0, 0), now, now)
		require.False(t, isRegistered(t, n, "quiet"), "not in the journal: memory does not know it")
		advance(registration.NamesStaleAfter)
		require.True(t, isRegistered(t, n, "quiet"), "a stale index asks the database")
		require.NoError(t, n.Tick(ctx))
		require.False(t, isRegistered(t, n, "quiet"), "read the journal: fresh again, still unaware")
		advance(registration.NamesReloadAfter)
		require.NoError(t, n.Tick(ctx))
		require.True(t, isRegistered(t, n, "quiet"), "the periodic reload finds it")

		// The fixture keeps the journal as registration does.
		dbtest.Domain(t, d, "fixture", ".inf.nz", now.AddDate(1, 0, 0))
		require.NoError(t, n.Tick(ctx))
		require.True(t, isRegistered(t, n, "fixture"))
	})
}
