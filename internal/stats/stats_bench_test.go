package stats_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/stats"
)

// seed fills d with one registrar, n domains spread over three extensions
// and the last 60 days (one in ten premium), and a purchase transaction per
// domain, generated in SQL so that seeding takes seconds.
func seed(tb testing.TB, d *db.DB, n int) {
	tb.Helper()
	now := time.Now().UTC()
	dbtest.MustExec(tb, d, `INSERT INTO users (username, email, full_name, password_hash, user_type, tier, created_at, updated_at)
		VALUES ('bench', 'bench@example.com', 'Bench', 'x', 'registrar', 'basic', ?, ?)`, now, now)
	// Times are computed in Go per day bucket so both engines store them the way the services do.
	const days = 60
	for day := 0; day < days; day++ {
		at := now.AddDate(0, 0, -day)
		from, to := day*n/days, (day+1)*n/days
		dbtest.MustExec(tb, d, `WITH RECURSIVE seq(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < ?)
			INSERT INTO domains (user_id, name, extension, is_premium, price_cents, auto_renew, registered_at, expires_at, created_at, updated_at)
			SELECT 1, 'name' || i, CASE i % 3 WHEN 0 THEN '.inf.nz' WHEN 1 THEN '.biz.ee' ELSE '.orgn.uk' END,
				i % 10 = 0, 800, TRUE, ?, ?, ?, ? FROM seq`, from, to, at, at.AddDate(1, 0, 0), at, at)
		dbtest.MustExec(tb, d, `INSERT INTO transactions (user_id, type, amount_cents, status, domain_id, created_at)
			SELECT 1, 'domain_purchase', -price_cents, 'completed', id, registered_at FROM domains WHERE id > ? AND id <= ?`,
			from, to)
	}
}

func TestOverviewCounts(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		seed(t, d, 600)
		o, err := stats.NewService(d).Overview(context.Background(), time.Now())
		require.NoError(t, err)
		require.Equal(t, int64(600), o.TotalDomains)
		require.Equal(t, int64(60), o.PremiumSales)
		require.Equal(t, int64(300), o.RegistrationsPeriod, "30 of 60 days")
		require.Equal(t, int64(300*800), o.RevenuePeriodCents)
		require.Equal(t, int64(1), o.ActiveRegistrars)
		require.Len(t, o.Days, stats.Days)
		require.Len(t, o.Extensions, 3)
		for _, day := range o.Days {
			require.Equal(t, int64(10), day.Registrations, day.Date)
		}
	})
}

// BenchmarkOverview measures the Statistics tab's one query set over
// 100,000 domains and as many transactions on SQLite.
func BenchmarkOverview(b *testing.B) {
	d := dbtest.Open(b, db.SQLite)
	seed(b, d, 100_000)
	svc := stats.NewService(d)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		o, err := svc.Overview(ctx, time.Now())
		if err != nil || o.TotalDomains != 100_000 {
			b.Fatal(err, o.TotalDomains)
		}
	}
}
