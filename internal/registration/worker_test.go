package registration_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/registration"
)

// The renewal worker run by River's own test helper: a paid term completes
// the job, an unpaid one snoozes it a day. rivertest works a job inside a
// transaction of River's pgx driver, so this runs on PostgreSQL (the worker
// writes through its own connections; on SQLite the test's transaction
// would hold the only writer).
func TestRenewWorkerWithRiverTest(t *testing.T) {
	t.Parallel()
	if os.Getenv(dbtest.EnvURL) == "" {
		t.Skip("needs PostgreSQL (" + dbtest.EnvURL + ")")
	}
	ctx := context.Background()
	url := dbtest.URL(t, db.Postgres)
	d, err := db.Open(ctx, url)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	require.NoError(t, d.Migrate(ctx))
	l := setupLifecycle(t, d)
	pool, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

	rich := l.user(t, "rich", 1600)
	paid := l.register(t, rich, "paid", true)
	poor := l.user(t, "poor", 800)
	unpaid := l.register(t, poor, "unpaid", true)
	l.advance(paid.ExpiresAt.Sub(l.now()) - 10*24*time.Hour)

	worker := rivertest.NewWorker(t, riverpgxv5.New(pool), &river.Config{}, &registration.RenewWorker{Domains: l.reg})
	work := func(args registration.RenewArgs) *rivertest.WorkResult {
		tx, err := pool.Begin(ctx)
		require.NoError(t, err)
		defer tx.Rollback(ctx)
		res, err := worker.Work(ctx, t, tx, args, nil)
		require.NoError(t, err)
		return res
	}

	res := work(registration.RenewArgs{DomainID: paid.ID, ExpiresAt: paid.ExpiresAt})
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	require.Equal(t, paid.ExpiresAt.AddDate(1, 0, 0), l.get(t, rich, paid.ID).ExpiresAt)
	require.EqualValues(t, 0, l.balance(t, rich))

	res = work(registration.RenewArgs{DomainID: unpaid.ID, ExpiresAt: unpaid.ExpiresAt})
	require.Equal(t, river.EventKindJobSnoozed, res.EventKind)
	require.WithinDuration(t, time.Now().Add(registration.RetryAfter), res.Job.ScheduledAt, time.Hour)
	require.Equal(t, unpaid.ExpiresAt, l.get(t, poor, unpaid.ID).ExpiresAt)
	l.requireLedgerBalanced(t)
}
