package registration_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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
)

// movingClock is a test clock that the test sets.
type movingClock struct{ now atomic.Pointer[time.Time] }

func (c *movingClock) set(t time.Time) { c.now.Store(&t) }
func (c *movingClock) Now() time.Time  { return *c.now.Load() }

// allowanceSetup is setup's bundle on a clock the test moves, shared by
// every service (the ledger's dates and the registration's month agree).
func allowanceSetup(t *testing.T, d *db.DB, start time.Time) (bundle, *movingClock) {
	t.Helper()
	clock := new(movingClock)
	clock.set(start)
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: []byte(strings.Repeat("k", 32)), Now: clock.Now})
	require.NoError(t, err)
	require.NoError(t, cat.Load(context.Background()))
	require.NoError(t, cat.SeedDemo(context.Background()))
	bill := billing.NewService(d, billing.Options{DemoPayments: true, Now: clock.Now})
	return bundle{db: d, catalog: cat, billing: bill, reg: registration.NewService(d, cat, bill, clock.Now), now: start}, clock
}

// registeredBefore records n earlier registrations of userID at times, paid
// from its wallet, straight into the ledger: quicker than registering them.
// Their domains are gone (domain_id NULL), as a released domain's are: a
// released domain still used the allowance of its month.
func (b bundle) registeredBefore(t *testing.T, userID int64, n int, at time.Time) {
	t.Helper()
	if n == 0 {
		return
	}
	rows := make([]billing.Transaction, n)
	for i := range rows {
		rows[i] = billing.Transaction{UserID: userID, Type: billing.TypeDomainPurchase, AmountCents: -100,
			Status: billing.StatusCompleted, PaymentMethod: billing.MethodWallet,
			Description: fmt.Sprintf("Registration of earlier-%d.inf.nz for 1 year", i), CreatedAt: at}
	}
	_, err := b.db.Bun.NewInsert().Model(&rows).Exec(context.Background())
	require.NoError(t, err)
	dbtest.MustExec(t, b.db, "UPDATE wallets SET balance_cents = balance_cents - ? WHERE user_id = ?", int64(n)*100, userID)
}

// funded returns a new account of userType with depositCents in its wallet.
func (b bundle) funded(t *testing.T, name, userType string, depositCents int64) int64 {
	t.Helper()
	id := dbtest.User(t, b.db, name, userType)
	_, _, err := b.billing.Deposit(context.Background(), id, depositCents, "credit_card")
	require.NoError(t, err)
	return id
}

func TestAllowanceBoundaryAndReset(t *testing.T) {
	t.Parallel()
	tiers := []struct {
		tier, name string
		limit      int
		price      int64
	}{
		{"basic", "Basic", 100, 600},
		{"premium", "Premium", 500, 500},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		november := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		b, clock := allowanceSetup(t, d, november)
		ctx := context.Background()
		for _, tt := range tiers {
			buyer := catalog.Buyer{Tier: tt.tier}
			id := b.funded(t, "reg-"+tt.tier, "registrar", 100000)
			// Last month's registrations, up to its last microsecond, do
			// not count; this month's do, from its first.
			b.registeredBefore(t, id, 7, time.Date(2026, 10, 31, 23, 59, 59, 999999000, time.UTC))
			b.registeredBefore(t, id, 1, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
			b.registeredBefore(t, id, tt.limit-2, november.Add(-time.Hour))

			a, err := b.reg.Allowance(ctx, id, buyer)
			require.NoError(t, err)
			require.Equal(t, registration.Allowance{Tier: tt.tier, Limit: tt.limit, Used: tt.limit - 1,
				PeriodStart: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
				ResetsAt:    time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}, a)
			require.Equal(t, 1, a.Remaining())

			// The last one of the month.
			last, err := b.reg.Register(ctx, id, buyer, registration.Request{Name: "last-" + tt.tier, Extension: ".inf.nz"})
			require.NoError(t, err, "registration %d of %d", tt.limit, tt.limit)
			a, err = b.reg.Allowance(ctx, id, buyer)
			require.NoError(t, err)
			require.Equal(t, tt.limit, a.Used)
			require.Zero(t, a.Remaining())

			// One more is refused, and nothing is charged or stored.
			balance := b.balance(t, id)
			_, err = b.reg.Register(ctx, id, buyer, registration.Request{Name: "one-more-" + tt.tier, Extension: ".inf.nz", IdempotencyKey: "k-" + tt.tier})
			require.Equal(t, apperr.AllowanceExhausted, apperr.Code(err), "%v", err)
			require.Equal(t, fmt.Sprintf("Your %s tier allows %d new registrations a month; you have used them all. "+
				"The allowance resets on December 1, 2026 (UTC).", tt.name, tt.limit), apperr.Message(err))
			require.Equal(t, balance, b.balance(t, id), "nothing charged")
			require.Zero(t, b.count(t, "SELECT count(*) FROM domains WHERE name = ?", "one-more-"+tt.tier), "nothing stored")
			require.Zero(t, b.count(t, "SELECT count(*) FROM idempotency_keys WHERE user_id = ?", id), "no key kept: a retry next month may work")
			require.Equal(t, tt.limit+7, b.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", id))

			// Renewals do not count against it, nor need any left.
			_, err = b.reg.Renew(ctx, id, last.Domain.ID, buyer, "")
			require.NoError(t, err)

			// Nor does releasing a domain give one back.
			dbtest.MustExec(t, d, "UPDATE transactions SET domain_id = NULL WHERE domain_id = ?", last.Domain.ID)
			dbtest.MustExec(t, d, "DELETE FROM dns_records WHERE domain_id = ?", last.Domain.ID)
			dbtest.MustExec(t, d, "DELETE FROM domains WHERE id = ?", last.Domain.ID)
			_, err = b.reg.Register(ctx, id, buyer, registration.Request{Name: "one-more-" + tt.tier, Extension: ".inf.nz"})
			require.Equal(t, apperr.AllowanceExhausted, apperr.Code(err), "%v", err)
		}

		// December: a new allowance.
		clock.set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
		for _, tt := range tiers {
			buyer := catalog.Buyer{Tier: tt.tier}
			var id int64
			require.NoError(t, d.Bun.NewRaw("SELECT id FROM users WHERE username = ?", "reg-"+tt.tier).Scan(ctx, &id))
			_, err := b.reg.Register(ctx, id, buyer, registration.Request{Name: "december-" + tt.tier, Extension: ".inf.nz", IdempotencyKey: "k-" + tt.tier})
			require.NoError(t, err)
			a, err := b.reg.Allowance(ctx, id, buyer)
			require.NoError(t, err)
			require.Equal(t, 1, a.Used)
			require.Equal(t, tt.limit-1, a.Remaining())
			require.Equal(t, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), a.ResetsAt)
		}
		b.requireLedgerBalanced(t)
	})
}

// Enterprise registrars and end users have no monthly limit.
func TestAllowanceUnlimited(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		b, _ := allowanceSetup(t, d, now)
		ctx := context.Background()
		for _, tt := range []struct {
			who, userType string
			buyer         catalog.Buyer
		}{
			{"enterprise", "registrar", catalog.Buyer{Tier: "enterprise"}},
			{"end-user", "user", retail},
		} {
			id := b.funded(t, tt.who, tt.userType, 100000)
			b.registeredBefore(t, id, 600, now.Add(-time.Hour))
			_, err := b.reg.Register(ctx, id, tt.buyer, registration.Request{Name: "more-" + tt.who, Extension: ".inf.nz"})
			require.NoError(t, err, tt.who)
			a, err := b.reg.Allowance(ctx, id, tt.buyer)
			require.NoError(t, err)
			require.True(t, a.Unlimited(), tt.who)
			require.Equal(t, 601, a.Used, tt.who)
		}
		b.requireLedgerBalanced(t)
	})
}

// Ten registrations race for the last three of the month: three win, and
// the month never holds more than the allowance.
func TestRacingRegistrationsNeverExceedTheAllowance(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		b, _ := allowanceSetup(t, d, now)
		basic := catalog.Buyer{Tier: "basic"}
		id := b.funded(t, "racer", "registrar", 100000)
		b.registeredBefore(t, id, 97, now.Add(-time.Hour))
		var won, refused atomic.Int32
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				_, err := b.reg.Register(context.Background(), id, basic,
					registration.Request{Name: fmt.Sprintf("race-%02d", i), Extension: ".inf.nz"})
				switch {
				case err == nil:
					won.Add(1)
				case apperr.Code(err) == apperr.AllowanceExhausted:
					refused.Add(1)
				default:
					t.Errorf("registration %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		require.EqualValues(t, 3, won.Load())
		require.EqualValues(t, 7, refused.Load())
		require.Equal(t, 100, b.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", id))
		require.Equal(t, 3, b.count(t, "SELECT count(*) FROM domains WHERE user_id = ?", id))
		b.requireLedgerBalanced(t)
	})
}
