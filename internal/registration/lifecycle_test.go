package registration_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
)

// lifecycle is a bundle whose clock the test moves, and which captures the
// notices the service sends.
type lifecycle struct {
	bundle
	mu      sync.Mutex
	clock   time.Time
	notices []string // "kind domain"
}

func (l *lifecycle) now() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.clock
}

func (l *lifecycle) advance(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clock = l.clock.Add(d)
}

func (l *lifecycle) sent() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.notices
	l.notices = nil
	return out
}

func setupLifecycle(t *testing.T, d *db.DB) *lifecycle {
	t.Helper()
	l := &lifecycle{clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // renewals are queued, not worked, here
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: []byte(strings.Repeat("k", 32)), Now: l.now})
	require.NoError(t, err)
	require.NoError(t, cat.Load(context.Background()))
	require.NoError(t, cat.SeedDemo(context.Background()))
	bill := billing.NewService(d, billing.Options{DemoPayments: true, Now: l.now})
	reg := registration.NewService(d, cat, bill, l.now)
	reg.Notify = func(_ context.Context, _ *db.Tx, m notify.Message) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.notices = append(l.notices, m.Kind+" "+m.Data["domain"]+suffix(m.Data["days"]))
		return nil
	}
	l.bundle = bundle{db: d, catalog: cat, billing: bill, reg: reg, now: l.clock}
	return l
}

func suffix(days string) string {
	if days == "" {
		return ""
	}
	return " " + days
}

func (l *lifecycle) register(t *testing.T, userID int64, name string, autoRenew bool) *registration.Domain {
	t.Helper()
	r, err := l.reg.Register(context.Background(), userID, retail,
		registration.Request{Name: name, Extension: ".inf.nz", AutoRenew: &autoRenew})
	require.NoError(t, err)
	// A record, so that DNS serves the domain (one without is NXDOMAIN).
	_, err = zone.NewService(l.db, zone.Options{}).Create(context.Background(),
		zone.Domain{ID: r.Domain.ID, Name: r.Domain.Name, Extension: r.Domain.Extension},
		zone.Input{Type: zone.TypeA, Name: "@", Content: "192.0.2.1"})
	require.NoError(t, err)
	return r.Domain
}

func (l *lifecycle) get(t *testing.T, userID, id int64) *registration.Domain {
	t.Helper()
	d, err := l.reg.Get(context.Background(), userID, id)
	require.NoError(t, err)
	return d
}

func (l *lifecycle) served(t *testing.T) []string {
	t.Helper()
	data, err := zone.Load(context.Background(), l.db, l.now())
	require.NoError(t, err)
	var names []string
	for _, z := range data.Zones {
		for _, d := range z.Domains {
			names = append(names, strings.TrimSuffix(d.FQDN(z.Origin), "."))
		}
	}
	return names
}

func TestAutomaticRenewalChargesOncePerTerm(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := setupLifecycle(t, d)
		ctx := context.Background()
		alice := l.user(t, "alice", 2400)
		auto := l.register(t, alice, "renew-me", true)
		manual := l.register(t, alice, "lapse", false)
		require.EqualValues(t, 800, l.balance(t, alice))
		l.sent()

		// 20 days before expiry: the renewal is queued and the domain that
		// does not renew itself is warned (30 days).
		l.advance(auto.ExpiresAt.Sub(l.now()) - 20*24*time.Hour)
		require.Equal(t, registration.StatusExpiringSoon, l.reg.TermsOf(auto, retail).Status)
		report, err := l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, 2, report.RenewalsQueued+report.Warned)
		require.Equal(t, []string{"expiry_warning lapse.inf.nz 30"}, l.sent())
		report, err = l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		require.Zero(t, report.Warned, "each warning once")
		require.Empty(t, l.sent())

		// The job renews once, however often it runs or races.
		args := registration.RenewArgs{DomainID: auto.ID, ExpiresAt: auto.ExpiresAt}
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = l.reg.AutoRenew(ctx, args) }()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		require.NoError(t, l.reg.AutoRenew(ctx, args), "a retry of a renewed term")
		require.EqualValues(t, 0, l.balance(t, alice))
		renewed := l.get(t, alice, auto.ID)
		require.Equal(t, auto.ExpiresAt.AddDate(1, 0, 0), renewed.ExpiresAt)
		require.Equal(t, []string{"renewal_succeeded renew-me.inf.nz"}, l.sent())
		require.Equal(t, registration.StatusActive, l.reg.TermsOf(renewed, retail).Status)
		require.Equal(t, 1, l.count(t, "SELECT count(*) FROM transactions WHERE type = 'domain_renewal'"))
		l.requireLedgerBalanced(t)

		// 7 and 1 days before: one warning each.
		l.advance(13 * 24 * time.Hour)
		_, err = l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		l.advance(6 * 24 * time.Hour)
		_, err = l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, []string{"expiry_warning lapse.inf.nz 7", "expiry_warning lapse.inf.nz 1"}, l.sent())

		// At expiry it leaves DNS but stays its owner's for the grace period.
		require.Contains(t, l.served(t), "lapse.inf.nz")
		l.advance(2 * 24 * time.Hour)
		require.NotContains(t, l.served(t), "lapse.inf.nz")
		report, err = l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, 1, report.Expired)
		require.Equal(t, []string{"domain_expired lapse.inf.nz"}, l.sent())
		lapsed := l.get(t, alice, manual.ID)
		terms := l.reg.TermsOf(lapsed, retail)
		require.Equal(t, registration.StatusExpired, terms.Status)
		require.Equal(t, lapsed.ExpiresAt.AddDate(0, 0, 30), terms.GraceEndsAt)
		taken, err := registration.NewNames(d, nil).IsRegistered(ctx, "lapse", ".inf.nz")
		require.NoError(t, err)
		require.True(t, taken, "not on sale during the grace period")

		// Renewing by hand brings it back, from its old expiry.
		_, err = l.reg.Renew(ctx, alice, manual.ID, retail, "")
		require.Equal(t, apperr.InsufficientFunds, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "Add $8.00 to continue")
		_, _, err = l.billing.Deposit(ctx, alice, 800, "credit_card")
		require.NoError(t, err)
		r, err := l.reg.Renew(ctx, alice, manual.ID, retail, "renew-key")
		require.NoError(t, err)
		require.Equal(t, lapsed.ExpiresAt.AddDate(1, 0, 0), r.Domain.ExpiresAt)
		again, err := l.reg.Renew(ctx, alice, manual.ID, retail, "renew-key")
		require.NoError(t, err, "a retry with the key returns the first renewal")
		require.Equal(t, r.Transaction.ID, again.Transaction.ID)
		require.EqualValues(t, 0, l.balance(t, alice))
		require.EqualValues(t, 0, r.Wallet.BalanceCents, "the renewal returns the wallet it was paid from")
		require.Equal(t, r.Wallet.BalanceCents, again.Wallet.BalanceCents, "and so does its replay")
		require.Contains(t, l.served(t), "lapse.inf.nz")
		l.requireLedgerBalanced(t)
	})
}

func TestUnpaidRenewalRetriesThenTheNameIsReleased(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := setupLifecycle(t, d)
		ctx := context.Background()
		bob := l.user(t, "bob", 800)
		dom := l.register(t, bob, "poor", true)
		l.sent()
		l.advance(dom.ExpiresAt.Sub(l.now()) - 10*24*time.Hour)

		// No money: the owner hears once a day and the job waits a day.
		args := registration.RenewArgs{DomainID: dom.ID, ExpiresAt: dom.ExpiresAt}
		err := l.reg.AutoRenew(ctx, args)
		var snooze *river.JobSnoozeError
		require.True(t, errors.As(err, &snooze), "%v", err)
		require.Equal(t, registration.RetryAfter, snooze.Duration)
		require.Equal(t, []string{"renewal_failed poor.inf.nz"}, l.sent())
		require.True(t, errors.As(l.reg.AutoRenew(ctx, args), &snooze))
		require.Empty(t, l.sent(), "one failure notice a day")
		l.advance(24 * time.Hour)
		require.True(t, errors.As(l.reg.AutoRenew(ctx, args), &snooze))
		require.Equal(t, []string{"renewal_failed poor.inf.nz"}, l.sent())
		require.EqualValues(t, 0, l.balance(t, bob))

		// A renewal that fails after its debit commits nothing.
		_, _, err = l.billing.Deposit(ctx, bob, 800, "credit_card")
		require.NoError(t, err)
		l.reg.FailAfterDebit(func() error { return errors.New("disk on fire") })
		require.Error(t, l.reg.AutoRenew(ctx, args))
		l.reg.FailAfterDebit(nil)
		require.EqualValues(t, 800, l.balance(t, bob))
		require.Equal(t, dom.ExpiresAt, l.get(t, bob, dom.ID).ExpiresAt)
		l.register(t, bob, "spend", false) // the money goes elsewhere
		require.EqualValues(t, 0, l.balance(t, bob))

		// After expiry the job gives up; after the grace period the name is
		// released: gone from the account, free to register, ledger kept.
		l.advance(10 * 24 * time.Hour)
		var cancel *river.JobCancelError
		require.True(t, errors.As(l.reg.AutoRenew(ctx, args), &cancel))
		l.advance(30 * 24 * time.Hour)
		report, err := l.reg.Scan(ctx, 30*24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, 1, report.Released)
		require.Contains(t, l.sent(), "domain_released poor.inf.nz")
		_, err = l.reg.Get(ctx, bob, dom.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		taken, err := registration.NewNames(d, nil).IsRegistered(ctx, "poor", ".inf.nz")
		require.NoError(t, err)
		require.False(t, taken)
		require.Equal(t, 1, l.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND domain_id IS NULL "+
			"AND description = 'Registration of poor.inf.nz for 1 year'", bob), "the ledger keeps the purchase")
		l.requireLedgerBalanced(t)

		carol := l.user(t, "carol", 800)
		l.register(t, carol, "poor", true)
	})
}

func TestRenewalLimits(t *testing.T) {
	t.Parallel()
	l := setupLifecycle(t, dbtest.Open(t, db.SQLite))
	ctx := context.Background()
	alice := l.user(t, "alice", 10000)
	r, err := l.reg.Register(ctx, alice, retail, registration.Request{Name: "decade", Extension: ".inf.nz", Years: new(10)})
	require.NoError(t, err)
	_, err = l.reg.Renew(ctx, alice, r.Domain.ID, retail, "")
	require.Equal(t, apperr.Invalid, apperr.Code(err))
	require.Equal(t, "A domain can be paid for at most 10 years ahead", apperr.Message(err))
	other := l.user(t, "mallory", 10000)
	_, err = l.reg.Renew(ctx, other, r.Domain.ID, retail, "")
	require.Equal(t, apperr.NotFound, apperr.Code(err), "another account's domain")
	require.EqualValues(t, 10000, l.balance(t, other))
}
