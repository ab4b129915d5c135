package reports_test

import (
	"context"
	"encoding/csv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/reports"
)

// clock is a test clock the test moves; every service shares it, so the
// ledger's dates, the domains' expiries and the report's "now" agree.
type clock struct{ now atomic.Pointer[time.Time] }

func (c *clock) set(t time.Time) { c.now.Store(&t) }
func (c *clock) Now() time.Time  { return *c.now.Load() }

type bundle struct {
	db      *db.DB
	clock   *clock
	catalog *catalog.Service
	billing *billing.Service
	reg     *registration.Service
	reports *reports.Service
}

func setup(t *testing.T, d *db.DB, start time.Time) bundle {
	t.Helper()
	c := new(clock)
	c.set(start)
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: []byte(strings.Repeat("k", 32)), Now: c.Now})
	require.NoError(t, err)
	require.NoError(t, cat.Load(context.Background()))
	require.NoError(t, cat.SeedDemo(context.Background()))
	bill := billing.NewService(d, billing.Options{DemoPayments: true, Now: c.Now})
	reg := registration.NewService(d, cat, bill, c.Now)
	return bundle{db: d, clock: c, catalog: cat, billing: bill, reg: reg, reports: reports.NewService(d, reg, bill, c.Now)}
}

var basic = catalog.Buyer{Tier: "basic"}

// register registers full for userID at the clock's time, through the
// registration service.
func (b bundle) register(t *testing.T, userID int64, full string, autoRenew bool) *registration.Domain {
	t.Helper()
	label, ext, ok := registration.SplitName(full)
	require.True(t, ok)
	r, err := b.reg.Register(context.Background(), userID, basic, registration.Request{Name: label, Extension: ext, AutoRenew: &autoRenew})
	require.NoError(t, err, full)
	return r.Domain
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }

// A registrar's year, lived through the real services on a moving clock:
// registrations, a premium name, a renewal and deposits in different
// months, then the report at 22 November 2026.
func TestReport(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		b := setup(t, d, day(2025, 10, 1))
		me := dbtest.User(t, d, "reseller", "registrar")
		other := dbtest.User(t, d, "rival", "registrar")
		at := func(tm time.Time) { b.clock.set(tm) }

		_, _, err := b.billing.Deposit(ctx, me, 100000, "credit_card")
		require.NoError(t, err)
		_, _, err = b.billing.Deposit(ctx, other, 5000, "credit_card")
		require.NoError(t, err)
		b.register(t, me, "gone.inf.nz", true) // its grace ends 31 Oct 2026: being released, not renewed
		at(day(2025, 11, 20))
		b.register(t, me, "oldie.inf.nz", true) // expired two days before the report, in its grace
		at(day(2025, 12, 15))
		b.register(t, me, "soonish.inf.nz", true) // 23 days left: the 30-day window
		at(day(2026, 1, 10))
		b.register(t, me, "middle.biz.ee", false) // 49 days: the 60-day window, renews by hand
		at(day(2026, 1, 12))
		cloud := b.register(t, me, "cloud.inf.nz", true) // premium, 51 days
		require.True(t, cloud.IsPremium)
		at(day(2026, 2, 5))
		b.register(t, me, "later.inf.nz", true) // 75 days: the 90-day window
		at(day(2026, 3, 1))
		far := b.register(t, me, "faraway.inf.nz", true) // 99 days: in no window
		at(day(2026, 6, 1))
		_, err = b.reg.Renew(ctx, me, far.ID, basic, "")
		require.NoError(t, err)
		at(day(2026, 11, 2))
		b.register(t, me, "fresh1.inf.nz", true)
		b.register(t, me, "fresh2.orgn.uk", true)
		b.register(t, other, "rivals.inf.nz", true) // another account's: in none of my figures
		now := day(2026, 11, 22)
		at(now)

		r, err := b.reports.Report(ctx, me, basic)
		require.NoError(t, err)
		require.Equal(t, now, r.GeneratedAt)

		// Months: the twelve from December 2025, every one present.
		require.Len(t, r.Months, reports.Months)
		require.Equal(t, "2025-12", r.Months[0].Month)
		require.Equal(t, "2026-11", r.Months[11].Month)
		byMonth := map[string]reports.Month{}
		for _, m := range r.Months {
			byMonth[m.Month] = m
		}
		premium := int64(50000) // cloud.inf.nz's list price; basic has no premium discount
		require.Equal(t, reports.Month{Month: "2025-12", Registrations: 1, RegistrationCents: 600}, byMonth["2025-12"])
		require.Equal(t, reports.Month{Month: "2026-01", Registrations: 2, RegistrationCents: 600 + premium}, byMonth["2026-01"])
		require.Equal(t, reports.Month{Month: "2026-02", Registrations: 1, RegistrationCents: 600}, byMonth["2026-02"])
		require.Equal(t, reports.Month{Month: "2026-03", Registrations: 1, RegistrationCents: 600}, byMonth["2026-03"])
		require.Equal(t, reports.Month{Month: "2026-06", Renewals: 1, RenewalCents: 600}, byMonth["2026-06"])
		require.Equal(t, reports.Month{Month: "2026-11", Registrations: 2, RegistrationCents: 1200}, byMonth["2026-11"])
		require.Equal(t, reports.Month{Month: "2026-04"}, byMonth["2026-04"])
		require.Equal(t, int64(50600), byMonth["2026-01"].SpendCents())

		// Extensions: every domain held; gone and oldie have expired.
		require.Equal(t, []reports.Extension{{".inf.nz", 7, 5}, {".biz.ee", 1, 1}, {".orgn.uk", 1, 1}}, r.Extensions)

		// Balance: 1000.00 less 8 names at 6.00, the premium name and one renewal.
		require.Equal(t, int64(100000-8*600-premium-600), r.BalanceCents)
		require.Equal(t, int64(44600), r.BalanceCents)

		// Renewals, soonest first, priced by the owner of prices.
		var names []string
		for _, n := range r.Renewals {
			names = append(names, n.Domain)
			label, ext, _ := registration.SplitName(n.Domain)
			require.Equal(t, b.catalog.RenewalTerms(label, ext, basic).PriceCents, n.PriceCents, n.Domain)
		}
		require.Equal(t, []string{"oldie.inf.nz", "soonish.inf.nz", "middle.biz.ee", "cloud.inf.nz", "later.inf.nz"}, names)
		oldie, soonish, middle, prem, later := r.Renewals[0], r.Renewals[1], r.Renewals[2], r.Renewals[3], r.Renewals[4]
		require.Equal(t, registration.StatusExpired, oldie.Status)
		require.Equal(t, 30, oldie.WindowDays)
		require.Equal(t, day(2026, 11, 20), oldie.ExpiresAt)
		require.Equal(t, registration.StatusExpiringSoon, soonish.Status)
		require.Equal(t, 30, soonish.WindowDays)
		require.Equal(t, int64(600), soonish.PriceCents)
		require.False(t, middle.AutoRenew)
		require.Equal(t, 60, middle.WindowDays)
		require.Equal(t, premium, prem.PriceCents)
		require.True(t, prem.IsPremium)
		require.Equal(t, 60, prem.WindowDays)
		require.Equal(t, 90, later.WindowDays)
		require.Equal(t, registration.StatusActive, later.Status)

		// Windows are cumulative; needed is what the balance lacks.
		require.Equal(t, []reports.Window{
			{Days: 30, Domains: 2, TotalCents: 1200, AutoRenewCents: 1200, NeededCents: 0},
			{Days: 60, Domains: 4, TotalCents: 51800, AutoRenewCents: 51200, NeededCents: 51800 - 44600},
			{Days: 90, Domains: 5, TotalCents: 52400, AutoRenewCents: 51800, NeededCents: 52400 - 44600},
		}, r.Windows)

		// The allowance is registration's, and agrees with this month's count.
		require.Equal(t, "basic", r.Allowance.Tier)
		require.Equal(t, 100, r.Allowance.Limit)
		require.Equal(t, 2, r.Allowance.Used)
		require.Equal(t, r.Months[11].Registrations, r.Allowance.Used)
		require.Equal(t, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), r.Allowance.ResetsAt)

		// The rival sees only its own.
		theirs, err := b.reports.Report(ctx, other, basic)
		require.NoError(t, err)
		require.Equal(t, []reports.Extension{{".inf.nz", 1, 1}}, theirs.Extensions)
		require.Equal(t, 1, theirs.Months[11].Registrations)
		require.Empty(t, theirs.Renewals)
		require.Equal(t, int64(4400), theirs.BalanceCents)

		// CSV carries the same figures.
		rows := csvRows(t, r, reports.CSVActivity)
		require.Len(t, rows, 13)
		require.Equal(t, []string{"month", "registrations", "renewals"}, rows[0])
		require.Equal(t, []string{"2026-01", "2", "0"}, rows[2])
		require.Equal(t, []string{"2026-06", "0", "1"}, rows[7])
		rows = csvRows(t, r, reports.CSVSpend)
		require.Equal(t, []string{"month", "registrations", "renewals", "other", "total"}, rows[0])
		require.Equal(t, []string{"2026-01", "506.00", "0.00", "0.00", "506.00"}, rows[2])
		rows = csvRows(t, r, reports.CSVExtensions)
		require.Equal(t, [][]string{{"extension", "domains", "active", "expired"}, {".inf.nz", "7", "5", "2"},
			{".biz.ee", "1", "1", "0"}, {".orgn.uk", "1", "1", "0"}}, rows)
		rows = csvRows(t, r, reports.CSVRenewals)
		require.Len(t, rows, 6)
		require.Equal(t, []string{"domain", "expires_at", "status", "window_days", "renewal_price", "auto_renew", "premium"}, rows[0])
		require.Equal(t, []string{"middle.biz.ee", "2027-01-10T12:00:00Z", "active", "60", "6.00", "false", "false"}, rows[3])
		require.Equal(t, []string{"cloud.inf.nz", "2027-01-12T12:00:00Z", "active", "60", "500.00", "true", "true"}, rows[4])
		rows = csvRows(t, r, reports.CSVAllowance)
		require.Equal(t, [][]string{{"tier", "limit", "used", "remaining", "period_start", "resets_at"},
			{"basic", "100", "2", "98", "2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"}}, rows)
		_, err = r.CSV("nonsense")
		require.Equal(t, apperr.NotFound, apperr.Code(err))
	})
}

// A new registrar has a report of zeros and empty lists, and an enterprise
// one no limit.
func TestReportOfNewRegistrar(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d, day(2026, 3, 31))
		me := dbtest.User(t, d, "newcomer", "registrar")
		r, err := b.reports.Report(context.Background(), me, catalog.Buyer{Tier: "enterprise"})
		require.NoError(t, err)
		require.Len(t, r.Months, 12)
		require.Equal(t, "2025-04", r.Months[0].Month)
		for _, m := range r.Months {
			require.Zero(t, m.SpendCents())
			require.Zero(t, m.Registrations)
		}
		require.NotNil(t, r.Extensions)
		require.Empty(t, r.Extensions)
		require.NotNil(t, r.Renewals)
		require.Empty(t, r.Renewals)
		require.Equal(t, []reports.Window{{Days: 30}, {Days: 60}, {Days: 90}}, r.Windows)
		require.True(t, r.Allowance.Unlimited())
		rows := csvRows(t, r, reports.CSVAllowance)
		require.Equal(t, []string{"enterprise", "unlimited", "0", "unlimited", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"}, rows[1])
		require.Len(t, csvRows(t, r, reports.CSVRenewals), 1, "the header alone")
	})
}

func csvRows(t *testing.T, r *reports.Report, name string) [][]string {
	t.Helper()
	raw, err := r.CSV(name)
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	require.NoError(t, err)
	return rows
}
