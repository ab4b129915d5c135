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

type bundle struct {
	db      *db.DB
	catalog *catalog.Service
	billing *billing.Service
	reg     *registration.Service
	now     time.Time
}

func setup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: []byte(strings.Repeat("k", 32)), Now: clock})
	require.NoError(t, err)
	require.NoError(t, cat.Load(context.Background()))
	require.NoError(t, cat.SeedDemo(context.Background()))
	bill := billing.NewService(d, billing.Options{DemoPayments: true, Now: clock})
	return bundle{db: d, catalog: cat, billing: bill, reg: registration.NewService(d, cat, bill, clock), now: now}
}

func (b bundle) user(t *testing.T, name string, depositCents int64) int64 {
	t.Helper()
	id := dbtest.User(t, b.db, name, "user")
	if depositCents > 0 {
		_, _, err := b.billing.Deposit(context.Background(), id, depositCents, "credit_card")
		require.NoError(t, err)
	}
	return id
}

func (b bundle) balance(t *testing.T, userID int64) int64 {
	t.Helper()
	w, err := b.billing.Wallet(context.Background(), userID)
	require.NoError(t, err)
	return w.BalanceCents
}

func (b bundle) requireLedgerBalanced(t *testing.T) {
	t.Helper()
	bad, err := b.billing.Reconcile(context.Background())
	require.NoError(t, err)
	require.Empty(t, bad, "every balance equals the sum of its completed transactions")
}

func (b bundle) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, b.db.Bun.NewRaw(query, args...).Scan(context.Background(), &n))
	return n
}

var retail = catalog.Buyer{}

func TestRegisterChargesAndRecords(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		alice := b.user(t, "alice", 5000)

		r, err := b.reg.Register(ctx, alice, retail, registration.Request{Name: "My-Site", Extension: ".inf.nz"})
		require.NoError(t, err)
		require.Equal(t, "my-site", r.Domain.Name)
		require.Equal(t, ".inf.nz", r.Domain.Extension)
		require.True(t, r.Domain.AutoRenew, "auto-renew is on by default")
		require.EqualValues(t, 800, r.Domain.PriceCents)
		require.Equal(t, b.now, r.Domain.RegisteredAt)
		require.Equal(t, b.now.AddDate(1, 0, 0), r.Domain.ExpiresAt)
		require.EqualValues(t, -800, r.Transaction.AmountCents)
		require.Equal(t, billing.TypeDomainPurchase, r.Transaction.Type)
		require.Equal(t, r.Domain.ID, r.Transaction.DomainID)
		require.Equal(t, "Registration of my-site.inf.nz for 1 year", r.Transaction.Description)
		require.EqualValues(t, 4200, b.balance(t, alice))
		require.EqualValues(t, 4200, r.Wallet.BalanceCents, "the wallet as the debit left it")
		require.Equal(t, billing.Currency, r.Wallet.Currency)

		r, err = b.reg.Register(ctx, alice, retail, registration.Request{Name: "long-term", Extension: ".biz.ee", Years: new(3), AutoRenew: new(bool)})
		require.NoError(t, err)
		require.False(t, r.Domain.AutoRenew)
		require.Equal(t, b.now.AddDate(3, 0, 0), r.Domain.ExpiresAt)
		require.EqualValues(t, -2400, r.Transaction.AmountCents)
		require.Equal(t, "Registration of long-term.biz.ee for 3 years", r.Transaction.Description)
		require.EqualValues(t, 1800, b.balance(t, alice))
		require.EqualValues(t, 1800, r.Wallet.BalanceCents)

		// A premium name is taken off the market.
		rich := b.user(t, "rich", 100000)
		r, err = b.reg.Register(ctx, rich, retail, registration.Request{Name: "shop", Extension: ".biz.ee"})
		require.NoError(t, err)
		require.True(t, r.Domain.IsPremium)
		require.EqualValues(t, -28000, r.Transaction.AmountCents, "the live discount applies")
		for _, p := range b.catalog.PremiumDomains(false) {
			require.NotEqual(t, "shop", p.Name)
		}
		a, err := b.catalog.Check(ctx, "shop", ".biz.ee", retail)
		require.NoError(t, err)
		require.False(t, a.Available)

		// Registrars pay wholesale.
		reseller := b.user(t, "reseller", 1000)
		r, err = b.reg.Register(ctx, reseller, catalog.Buyer{Tier: "enterprise"}, registration.Request{Name: "cheap", Extension: ".inf.nz"})
		require.NoError(t, err)
		require.EqualValues(t, -400, r.Transaction.AmountCents)
		b.requireLedgerBalanced(t)
	})
}

func TestRegisterRefusals(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		alice := b.user(t, "alice", 1000)
		_, err := b.reg.Register(ctx, alice, retail, registration.Request{Name: "mine", Extension: ".inf.nz"})
		require.NoError(t, err)
		bob := b.user(t, "bob", 1000)
		now := time.Now().UTC()
		dbtest.MustExec(t, d, `INSERT INTO dns_records (domain_id, name, type, content, ttl, created_at, updated_at)
			SELECT id, 'ns', 'CNAME', 'elsewhere.example.com', 3600, ?, ? FROM domains WHERE name = 'mine'`, now, now)

		tests := []struct {
			req  registration.Request
			code string
			msg  string
		}{
			{registration.Request{Name: "mine", Extension: ".inf.nz"}, apperr.Conflict, "mine.inf.nz is no longer available"},
			{registration.Request{Name: "MINE", Extension: ".inf.nz"}, apperr.Conflict, "mine.inf.nz is no longer available"},
			{registration.Request{Name: "www", Extension: ".inf.nz"}, apperr.Conflict, "www.inf.nz is not available"},
			{registration.Request{Name: "home", Extension: ".inf.nz"}, apperr.Conflict, "home.inf.nz is not available"},
			{registration.Request{Name: "-bad-", Extension: ".inf.nz"}, apperr.Invalid, "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."},
			{registration.Request{Name: "fine", Extension: ".com"}, apperr.Invalid, "Extension must be one of .biz.ee, .inf.nz, .orgn.uk"},
			{registration.Request{Name: "fine", Extension: ".inf.nz", Years: new(11)}, apperr.Invalid, "Years must be between 1 and 10"},
			{registration.Request{Name: "fine", Extension: ".inf.nz", Years: new(-1)}, apperr.Invalid, "Years must be between 1 and 10"},
			// Delegations validators refuse: an in-domain name server has
			// no address yet, and a name server cannot be an alias.
			{registration.Request{Name: "fine", Extension: ".inf.nz", Nameservers: []string{"ns.example.net", "ns1.fine.inf.nz"}}, apperr.Invalid,
				"Name server ns1.fine.inf.nz is inside fine.inf.nz, so it needs an A or AAAA record there: register with name servers outside the domain, then add the address and the NS records"},
			{registration.Request{Name: "fine", Extension: ".inf.nz", Nameservers: []string{"ns.mine.inf.nz"}}, apperr.Invalid,
				"NS records cannot point to a CNAME: ns.mine.inf.nz is an alias of elsewhere.example.com; name the host itself instead"},
			{registration.Request{Name: "fine", Extension: ".inf.nz", Years: new(2)}, apperr.InsufficientFunds,
				"Insufficient funds: this registration costs $16.00 and your balance is $10.00. Add $6.00 to continue."},
			{registration.Request{Name: "cloud", Extension: ".inf.nz"}, apperr.InsufficientFunds,
				"Insufficient funds: this registration costs $500.00 and your balance is $10.00. Add $490.00 to continue."},
		}
		for _, tt := range tests {
			_, err := b.reg.Register(ctx, bob, retail, tt.req)
			require.Equal(t, tt.code, apperr.Code(err), "%+v: %v", tt.req, err)
			require.Equal(t, tt.msg, apperr.Message(err))
		}
		// No refusal charged or created anything, and the premium name is
		// still for sale.
		require.EqualValues(t, 1000, b.balance(t, bob))
		require.Zero(t, b.count(t, "SELECT count(*) FROM domains WHERE user_id = ?", bob))
		a, err := b.catalog.Check(ctx, "cloud", ".inf.nz", retail)
		require.NoError(t, err)
		require.True(t, a.Available)
		b.requireLedgerBalanced(t)
	})
}

// 200 concurrent registrations by one account whose balance covers 10.
func TestConcurrentRegistrationsNeverOverdraw(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		alice := b.user(t, "alice", 8000)
		var ok, broke, other atomic.Int32
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Go(func() {
				_, err := b.reg.Register(context.Background(), alice, retail,
					registration.Request{Name: fmt.Sprintf("name-%03d", i), Extension: ".inf.nz"})
				switch apperr.Code(err) {
				case "internal":
					if err == nil {
						ok.Add(1)
						return
					}
					t.Errorf("unexpected error: %v", err)
					other.Add(1)
				case apperr.InsufficientFunds:
					broke.Add(1)
				default:
					other.Add(1)
				}
			})
		}
		wg.Wait()
		require.EqualValues(t, 10, ok.Load())
		require.EqualValues(t, 190, broke.Load())
		require.Zero(t, other.Load())
		require.Zero(t, b.balance(t, alice))
		require.Equal(t, 10, b.count(t, "SELECT count(*) FROM domains WHERE user_id = ?", alice))
		require.Equal(t, 10, b.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", alice))
		b.requireLedgerBalanced(t)
	})
}

// Two accounts race for the same names: one wins each, only the winner pays.
func TestRaceForTheSameName(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		alice, bob := b.user(t, "alice", 300000), b.user(t, "bob", 300000)
		names := []string{"contested", "shop", "ai"} // standard, discounted premium, premium
		for _, name := range names {
			ext := ".inf.nz"
			if name == "shop" {
				ext = ".biz.ee"
			}
			var wins atomic.Int32
			var wg sync.WaitGroup
			for i := range 10 {
				who := alice
				if i%2 == 1 {
					who = bob
				}
				wg.Go(func() {
					_, err := b.reg.Register(context.Background(), who, retail, registration.Request{Name: name, Extension: ext})
					if err == nil {
						wins.Add(1)
						return
					}
					if apperr.Code(err) != apperr.Conflict {
						t.Errorf("%s: unexpected error %v", name, err)
					}
				})
			}
			wg.Wait()
			require.EqualValues(t, 1, wins.Load(), name)
			require.Equal(t, 1, b.count(t, "SELECT count(*) FROM domains WHERE name = ? AND extension = ?", name, ext))
		}
		purchases := b.count(t, "SELECT count(*) FROM transactions WHERE type = 'domain_purchase'")
		require.Equal(t, 3, purchases, "only the winners were charged")
		require.EqualValues(t, 600000-800-28000-150000, b.balance(t, alice)+b.balance(t, bob), "contested at base price, shop with its discount, ai")
		b.requireLedgerBalanced(t)
	})
}

func TestIdempotencyKey(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		alice := b.user(t, "alice", 5000)
		req := registration.Request{Name: "once", Extension: ".inf.nz", IdempotencyKey: "key-1"}
		first, err := b.reg.Register(ctx, alice, retail, req)
		require.NoError(t, err)
		again, err := b.reg.Register(ctx, alice, retail, req)
		require.NoError(t, err)
		require.True(t, again.Replayed)
		require.Equal(t, first.Domain.ID, again.Domain.ID)
		require.Equal(t, first.Transaction.ID, again.Transaction.ID)
		require.EqualValues(t, 4200, b.balance(t, alice), "charged once")

		_, err = b.reg.Register(ctx, alice, retail, registration.Request{Name: "other", Extension: ".inf.nz", IdempotencyKey: "key-1"})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "This Idempotency-Key was already used for a different request", apperr.Message(err))

		// Keys are per account: bob's key-1 is his own.
		bob := b.user(t, "bob", 5000)
		r, err := b.reg.Register(ctx, bob, retail, registration.Request{Name: "bobs", Extension: ".inf.nz", IdempotencyKey: "key-1"})
		require.NoError(t, err)
		require.False(t, r.Replayed)

		// A failed request stores no key, so its retry can succeed.
		poor := b.user(t, "poor", 500)
		_, err = b.reg.Register(ctx, poor, retail, registration.Request{Name: "later", Extension: ".inf.nz", IdempotencyKey: "k"})
		require.Equal(t, apperr.InsufficientFunds, apperr.Code(err))
		_, _, err = b.billing.Deposit(ctx, poor, 500, "credit_card")
		require.NoError(t, err)
		_, err = b.reg.Register(ctx, poor, retail, registration.Request{Name: "later", Extension: ".inf.nz", IdempotencyKey: "k"})
		require.NoError(t, err)

		// Concurrent retries of one request: one registration, one charge.
		carol := b.user(t, "carol", 5000)
		var wg sync.WaitGroup
		results := make([]*registration.Registered, 8)
		for i := range results {
			wg.Go(func() {
				r, err := b.reg.Register(context.Background(), carol, retail, registration.Request{Name: "retried", Extension: ".inf.nz", IdempotencyKey: "same"})
				if err != nil {
					t.Errorf("retry %d: %v", i, err)
					return
				}
				results[i] = r
			})
		}
		wg.Wait()
		for _, r := range results {
			require.NotNil(t, r)
			require.Equal(t, results[0].Domain.ID, r.Domain.ID)
		}
		require.EqualValues(t, 4200, b.balance(t, carol))
		b.requireLedgerBalanced(t)
	})
}

func TestSetAutoRenewIsOwnerOnly(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		alice, bob := b.user(t, "alice", 1000), b.user(t, "bob", 0)
		r, err := b.reg.Register(ctx, alice, retail, registration.Request{Name: "mine", Extension: ".inf.nz"})
		require.NoError(t, err)
		dom, err := b.reg.SetAutoRenew(ctx, alice, r.Domain.ID, false)
		require.NoError(t, err)
		require.False(t, dom.AutoRenew)
		_, err = b.reg.SetAutoRenew(ctx, bob, r.Domain.ID, true)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		dom, err = b.reg.Get(ctx, alice, r.Domain.ID)
		require.NoError(t, err)
		require.False(t, dom.AutoRenew, "bob changed nothing")
	})
}
