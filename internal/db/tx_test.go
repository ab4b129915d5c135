package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

type probeArgs struct {
	Note string `json:"note"`
}

func (probeArgs) Kind() string { return "probe" }

func setup(t *testing.T, d *db.DB) {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
}

func insertUser(ctx context.Context, tx *db.Tx, username string) error {
	now := time.Now().UTC()
	_, err := tx.ExecContext(ctx, `INSERT INTO users
		(username, email, full_name, password_hash, user_type, created_at, updated_at)
		VALUES (?, ?, 'Probe', 'x', 'user', ?, ?)`, username, username+"@example.com", now, now)
	return err
}

func counts(t *testing.T, d *db.DB, username string) (users, jobs int) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM users WHERE username = ?", username).Scan(ctx, &users))
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM river_job WHERE kind = 'probe'").Scan(ctx, &jobs))
	return users, jobs
}

func TestInTxCommitsRowAndJobTogether(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		setup(t, d)
		err := d.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			if err := insertUser(ctx, tx, "committed"); err != nil {
				return err
			}
			return tx.Enqueue(ctx, probeArgs{Note: "committed"}, nil)
		})
		require.NoError(t, err)
		users, jobs := counts(t, d, "committed")
		require.Equal(t, 1, users)
		require.Equal(t, 1, jobs)
	})
}

func TestEnqueueManyCommitsAndRollsBackWithTheTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		setup(t, d)
		ctx := context.Background()
		three := []river.InsertManyParams{{Args: probeArgs{Note: "a"}}, {Args: probeArgs{Note: "b"}}, {Args: probeArgs{Note: "c"}}}
		failure := errors.New("disk full")
		err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			require.NoError(t, tx.EnqueueMany(ctx, three))
			return failure
		})
		require.ErrorIs(t, err, failure)
		_, jobs := counts(t, d, "nobody")
		require.Zero(t, jobs)

		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			require.NoError(t, tx.EnqueueMany(ctx, nil))
			return tx.EnqueueMany(ctx, three)
		}))
		_, jobs = counts(t, d, "nobody")
		require.Equal(t, 3, jobs)
	})
}

func TestInTxRollsBackRowAndJobTogether(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		setup(t, d)
		failure := errors.New("payment declined")
		err := d.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			if err := insertUser(ctx, tx, "rolledback"); err != nil {
				return err
			}
			if err := tx.Enqueue(ctx, probeArgs{Note: "rolledback"}, nil); err != nil {
				return err
			}
			// Both writes are visible inside the transaction...
			users, jobs := 0, 0
			require.NoError(t, tx.NewRaw("SELECT count(*) FROM users WHERE username = 'rolledback'").Scan(ctx, &users))
			require.NoError(t, tx.NewRaw("SELECT count(*) FROM river_job WHERE kind = 'probe'").Scan(ctx, &jobs))
			require.Equal(t, 1, users)
			require.Equal(t, 1, jobs)
			return failure
		})
		require.ErrorIs(t, err, failure)
		// ...and neither survives the rollback.
		users, jobs := counts(t, d, "rolledback")
		require.Zero(t, users)
		require.Zero(t, jobs)
	})
}

func TestInTxRollsBackOnPanic(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		setup(t, d)
		require.Panics(t, func() {
			_ = d.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
				require.NoError(t, insertUser(ctx, tx, "panicked"))
				require.NoError(t, tx.Enqueue(ctx, probeArgs{Note: "panicked"}, nil))
				panic("boom")
			})
		})
		users, jobs := counts(t, d, "panicked")
		require.Zero(t, users)
		require.Zero(t, jobs)
		// The connection went back to the pool clean: a new transaction works.
		require.NoError(t, d.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			return insertUser(ctx, tx, "after")
		}))
	})
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		require.NoError(t, d.Migrate(context.Background()))
		var versions []string
		require.NoError(t, d.Bun.NewRaw("SELECT version FROM schema_migrations ORDER BY version").Scan(context.Background(), &versions))
		require.Equal(t, "0001_accounts", versions[0])
	})
}

func TestOpenRejectsUnknownURL(t *testing.T) {
	t.Parallel()
	_, err := db.Open(context.Background(), "mysql://root:hunter2@localhost/x")
	require.ErrorContains(t, err, "unsupported database url")
	require.NotContains(t, err.Error(), "hunter2")
}

var _ river.JobArgs = probeArgs{}

// Finally's statements run last, in order, and commit with the rest; one
// that fails rolls everything back and its error comes back translated.
// Afterwards the connection serves the next transaction as usual.
func TestFinallyRunsLastAndFailsTheWholeTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		setup(t, d)
		ctx := context.Background()
		var id, after int64
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if err := insertUser(ctx, tx, "last"); err != nil {
				return err
			}
			require.NoError(t, tx.NewRaw("SELECT id FROM users WHERE username = 'last'").Scan(ctx, &id))
			now := time.Now().UTC()
			tx.Finally(nil, "INSERT INTO wallets (user_id, balance_cents, currency, updated_at) VALUES (?, 500, 'USD', ?)", id, now)
			tx.FinallyReturning(&after, nil, "UPDATE wallets SET balance_cents = balance_cents - ? WHERE user_id = ? RETURNING balance_cents", 200, id)
			if err := tx.Enqueue(ctx, probeArgs{Note: "last"}, nil); err != nil {
				return err
			}
			require.Zero(t, after, "known once committed")
			return nil
		}))
		require.EqualValues(t, 300, after, "what the statement returned")
		var balance int64
		require.NoError(t, d.Bun.NewRaw("SELECT balance_cents FROM wallets WHERE user_id = ?", id).Scan(ctx, &balance))
		require.EqualValues(t, 300, balance, "both ran, in order")

		overdrawn := errors.New("overdrawn")
		for range 3 { // the connection is reused after each failure
			err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
				if err := insertUser(ctx, tx, "rolled-back"); err != nil {
					return err
				}
				tx.Finally(nil, "UPDATE wallets SET balance_cents = balance_cents + 1 WHERE user_id = ?", id)
				tx.Finally(func(err error) error {
					require.True(t, db.CheckViolation(err, "wallets_balance_cents_check", "balance_cents >= 0"), "%v", err)
					return overdrawn
				}, "UPDATE wallets SET balance_cents = balance_cents - ? WHERE user_id = ?", 1000, id)
				tx.Finally(nil, "UPDATE wallets SET balance_cents = 0 WHERE user_id = ?", id)
				return tx.Enqueue(ctx, probeArgs{Note: "rolled back"}, nil)
			})
			require.ErrorIs(t, err, overdrawn)
			users, _ := counts(t, d, "rolled-back")
			require.Zero(t, users, "nothing of the transaction stays")
			require.NoError(t, d.Bun.NewRaw("SELECT balance_cents FROM wallets WHERE user_id = ?", id).Scan(ctx, &balance))
			require.EqualValues(t, 300, balance, "neither the statements before the failing one nor after")
		}
		users, jobs := counts(t, d, "last")
		require.Equal(t, 1, users)
		require.Equal(t, 1, jobs, "the rolled-back jobs are gone")
	})
}
