package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// `nameport jobs run-renewals --now` scans as of that time: an auto-renewing
// domain due within the renew-ahead window gets its renewal queued, one that
// does not renew itself gets its warning, and a later run releases what the
// grace period no longer covers.
func TestJobsRunRenewals(t *testing.T) {
	t.Chdir(t.TempDir())
	url := dbtest.URL(t, db.SQLite)
	common := []string{"--database-url", url, "--data-dir", filepath.Join(t.TempDir(), "data"), "--log-level", "error"}
	_, err := run(t, append([]string{"migrate"}, common...)...)
	require.NoError(t, err)

	d, err := db.Open(context.Background(), url)
	require.NoError(t, err)
	defer d.Close()
	expires := time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC)
	dbtest.MustExec(t, d, `INSERT INTO users (id, username, email, full_name, password_hash, user_type, created_at, updated_at)
		VALUES (1, 'owner', 'owner@example.com', 'Owner', 'x', 'user', ?, ?)`, expires, expires)
	for i, name := range []string{"auto", "manual"} {
		dbtest.MustExec(t, d, `INSERT INTO domains (user_id, name, extension, is_premium, price_cents, auto_renew,
			registered_at, expires_at, created_at, updated_at) VALUES (1, ?, '.inf.nz', false, 800, ?, ?, ?, ?, ?)`,
			name, i == 0, expires.AddDate(-1, 0, 0), expires, expires, expires)
	}

	_, err = run(t, append([]string{"jobs", "run-renewals", "--now", "yesterday"}, common...)...)
	require.ErrorContains(t, err, "RFC 3339")

	out, err := run(t, append([]string{"jobs", "run-renewals", "--now", "2027-05-20T00:00:00Z"}, common...)...)
	require.NoError(t, err)
	require.Contains(t, out, "1 renewals queued, 1 expiry warnings, 0 expired, 0 released")
	var queued int
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM river_job WHERE kind = 'registration.renew'").Scan(context.Background(), &queued))
	require.Equal(t, 1, queued)

	out, err = run(t, append([]string{"jobs", "run-renewals", "--now", "2027-07-15T00:00:00Z"}, common...)...)
	require.NoError(t, err)
	require.Contains(t, out, "2 released", "30 days' grace ended on 1 July")
	var left int
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM domains").Scan(context.Background(), &left))
	require.Zero(t, left)
}
