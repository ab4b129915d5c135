package bulk_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/bulk"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
)

type fixture struct {
	db      *db.DB
	catalog *catalog.Service
	billing *billing.Service
	reg     *registration.Service
	records *zone.Service
	bulk    *bulk.Service
	tiers   sync.Map // user id → tier
}

func setup(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: the tests run the jobs themselves
	cat, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: []byte(strings.Repeat("k", 32)), Now: clock})
	require.NoError(t, err)
	require.NoError(t, cat.Load(ctx))
	require.NoError(t, cat.SeedDemo(ctx))
	bill := billing.NewService(d, billing.Options{DemoPayments: true, Now: clock})
	reg := registration.NewService(d, cat, bill, clock)
	records := zone.NewService(d, zone.Options{Now: clock})
	f := &fixture{db: d, catalog: cat, billing: bill, reg: reg, records: records,
		bulk: bulk.NewService(d, reg, cat, records, clock)}
	reg.Buyers = func(_ context.Context, userID int64) (catalog.Buyer, error) {
		tier, _ := f.tiers.Load(userID)
		s, _ := tier.(string)
		return catalog.Buyer{Tier: s}, nil
	}
	return f
}

// registrar makes a registrar of tier with depositCents in its wallet.
func (f *fixture) registrar(t *testing.T, name, tier string, depositCents int64) (int64, catalog.Buyer) {
	t.Helper()
	id := dbtest.User(t, f.db, name, "registrar")
	f.tiers.Store(id, tier)
	if depositCents > 0 {
		_, _, err := f.billing.Deposit(context.Background(), id, depositCents, "credit_card")
		require.NoError(t, err)
	}
	return id, catalog.Buyer{Tier: tier}
}

func (f *fixture) balance(t *testing.T, userID int64) int64 {
	t.Helper()
	w, err := f.billing.Wallet(context.Background(), userID)
	require.NoError(t, err)
	return w.BalanceCents
}

func (f *fixture) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	return dbtest.Count(t, f.db, query, args...)
}

func (f *fixture) requireLedgerBalanced(t *testing.T) {
	t.Helper()
	bad, err := f.billing.Reconcile(context.Background())
	require.NoError(t, err)
	require.Empty(t, bad, "every balance equals the sum of its completed transactions")
}

// total is what names cost buyer for a year, by the bulk check.
func (f *fixture) total(t *testing.T, buyer catalog.Buyer, names []string) int64 {
	t.Helper()
	checked, err := f.bulk.Check(context.Background(), buyer, names)
	require.NoError(t, err)
	var sum int64
	for _, c := range checked {
		require.NoError(t, c.Err, c.Domain)
		require.True(t, c.Available, c.Domain)
		sum += c.PriceCents
	}
	return sum
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%04d.inf.nz", prefix, i)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// A check of 1,000 names answers each as the single check would, in order,
// with per-name errors for bad names; repeats and case count once.
func TestCheckThousandNames(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "checker", "basic", 10000)
		for _, n := range []string{"taken0003", "taken0500"} {
			_, err := f.reg.Register(ctx, id, buyer, registration.Request{Name: n, Extension: ".inf.nz"})
			require.NoError(t, err)
		}
		list := names("taken", 990)
		list = append(list, "TAKEN0001.inf.nz.", " taken0002.inf.nz ", "", "nodot", "bad_name.inf.nz",
			"x.unknown", "-lead.inf.nz", "admin.inf.nz", "a.inf.nz", "ok.biz.ee", "zz.orgn.uk", "q.inf.nz")
		checked, err := f.bulk.Check(ctx, buyer, list)
		require.NoError(t, err)
		require.Len(t, checked, 990+9, "the repeats and the blank count once or not at all")
		for i, c := range checked {
			label, ext, ok := registration.SplitName(c.Domain)
			if !ok {
				require.Equal(t, "nodot", c.Domain)
				require.Equal(t, "Enter the full domain name, such as example.inf.nz", apperr.Message(c.Err))
				continue
			}
			one, oneErr := f.catalog.Check(ctx, label, ext, buyer)
			if oneErr != nil {
				require.Error(t, c.Err, c.Domain)
				require.Equal(t, apperr.Message(oneErr), apperr.Message(c.Err), c.Domain)
				continue
			}
			require.NoError(t, c.Err, c.Domain)
			require.Equal(t, bulk.Checked{Domain: one.Name + one.Extension, Available: one.Available, Reason: one.Reason,
				IsPremium: one.Quote.IsPremium, PriceCents: one.Quote.PriceCents}, c, "row %d", i)
		}
		require.False(t, checked[3].Available)
		require.Equal(t, catalog.ReasonRegistered, checked[3].Reason)
		require.True(t, checked[4].Available)

		_, err = f.bulk.Check(ctx, buyer, names("many", 1001))
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Equal(t, "At most 1000 names at a time; split the list", apperr.Message(err))
		_, err = f.bulk.Check(ctx, buyer, []string{" ", ""})
		require.Equal(t, "Enter at least one domain name", apperr.Message(err))
	})
}

// A bulk registration whose last row the wallet cannot pay: the others are
// registered and charged once, the last is refused and charges nothing; a
// job run again, a row worked again after a crash, and the same request
// sent again charge nothing twice.
func TestRegisterPartialFailureAndRetry(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		list := names("partial", 5)
		_, buyer := f.registrar(t, "probe", "basic", 0)
		price := f.total(t, buyer, list[:1])
		id, buyer := f.registrar(t, "partial", "basic", 4*price)
		total := f.total(t, buyer, list)

		// Prices changed since the check: refused, nothing stored.
		_, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRegister, Names: list, TotalCents: ptr(total - 1)})
		require.Equal(t, apperr.Conflict, apperr.Code(err), "%v", err)
		require.Contains(t, apperr.Message(err), "prices changed since you checked")
		require.Zero(t, f.count(t, "SELECT count(*) FROM bulk_jobs"))

		sub := bulk.Submission{Kind: bulk.KindRegister, Names: list, TotalCents: &total, RequestKey: "batch-1"}
		job, err := f.bulk.Submit(ctx, id, buyer, sub)
		require.NoError(t, err)
		require.Equal(t, bulk.JobQueued, job.State)
		require.Equal(t, 5, job.Total)
		require.Equal(t, 1, f.count(t, "SELECT count(*) FROM river_job WHERE kind = 'bulk.run'"), "queued with the job")

		// The same request again: the same job, no second one.
		again, err := f.bulk.Submit(ctx, id, buyer, sub)
		require.NoError(t, err)
		require.Equal(t, job.ID, again.ID)
		require.True(t, again.Replayed)
		sub2 := sub
		sub2.Names = list[:2]
		_, err = f.bulk.Submit(ctx, id, buyer, sub2)
		require.Equal(t, apperr.Invalid, apperr.Code(err), "the key with another request")

		require.NoError(t, f.bulk.Run(ctx, job.ID))
		got, rows, err := f.bulk.Get(ctx, id, job.ID)
		require.NoError(t, err)
		require.Equal(t, bulk.JobDone, got.State)
		require.Equal(t, 4, got.Succeeded)
		require.Equal(t, 1, got.Failed)
		require.Equal(t, 4*price, got.ChargedCents)
		for _, r := range rows[:4] {
			require.Equal(t, bulk.RowSucceeded, r.State, r.Message)
			require.Equal(t, price, r.ChargedCents)
		}
		require.Equal(t, bulk.RowFailed, rows[4].State)
		require.Zero(t, rows[4].ChargedCents)
		require.Contains(t, rows[4].Message, "Insufficient")
		require.Zero(t, f.balance(t, id))
		require.Equal(t, 4, f.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", id))
		require.Zero(t, f.count(t, "SELECT count(*) FROM domains WHERE name = ?", "partial0004"))
		f.requireLedgerBalanced(t)

		// Run again: done, nothing happens.
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		// A crash after a registration and before its row was written: the
		// row is pending again and the next run replays it.
		dbtest.MustExec(t, d, "UPDATE bulk_job_rows SET state = 'pending', charged_cents = 0 WHERE job_id = ? AND position = 2", job.ID)
		dbtest.MustExec(t, d, "UPDATE bulk_jobs SET state = 'running', succeeded = 3, charged_cents = ? WHERE id = ?", 3*price, job.ID)
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		got, rows, err = f.bulk.Get(ctx, id, job.ID)
		require.NoError(t, err)
		require.Equal(t, bulk.RowSucceeded, rows[1].State, rows[1].Message)
		require.Equal(t, price, rows[1].ChargedCents, "what the replayed registration cost")
		require.Equal(t, 4, got.Succeeded)
		require.Equal(t, 4*price, got.ChargedCents)
		require.Equal(t, 4, f.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", id), "nothing charged twice")
		require.Zero(t, f.balance(t, id))

		// Money arrives; a new job for the refused name succeeds.
		_, _, err = f.billing.Deposit(ctx, id, price, "credit_card")
		require.NoError(t, err)
		retry, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRegister, Names: list[4:], TotalCents: &price})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, retry.ID))
		got, _, err = f.bulk.Get(ctx, id, retry.ID)
		require.NoError(t, err)
		require.Equal(t, 1, got.Succeeded)
		require.Zero(t, f.balance(t, id))
		f.requireLedgerBalanced(t)

		// Names taken meanwhile fail their row with the registration's reason.
		other, otherBuyer := f.registrar(t, "other", "basic", 10*price)
		taken, err := f.bulk.Submit(ctx, other, otherBuyer, bulk.Submission{Kind: bulk.KindRegister, Names: list[:1], TotalCents: &price})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, taken.ID))
		_, rows, err = f.bulk.Get(ctx, other, taken.ID)
		require.NoError(t, err)
		require.Equal(t, bulk.RowFailed, rows[0].State)
		require.Equal(t, "partial0000.inf.nz is no longer available", rows[0].Message)
		require.Equal(t, 10*price, f.balance(t, other))

		// Another account's job is not found.
		_, _, err = f.bulk.Get(ctx, other, job.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		list2, err := f.bulk.List(ctx, id)
		require.NoError(t, err)
		require.Len(t, list2, 2)
		require.Equal(t, retry.ID, list2[0].ID, "newest first")
	})
}

// A job crossing the monthly allowance registers up to it and refuses the
// rest with the allowance's message; jobs of one account racing never
// exceed it together.
func TestBulkAllowanceBoundary(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "bounded", "basic", 100000)
		// 96 of the basic tier's 100 used this month, straight into the ledger.
		for i := range 96 {
			_, err := f.db.Bun.NewInsert().Model(&billing.Transaction{UserID: id, Type: billing.TypeDomainPurchase,
				AmountCents: -100, Status: billing.StatusCompleted, PaymentMethod: billing.MethodWallet,
				Description: fmt.Sprintf("earlier %d", i), CreatedAt: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)}).Exec(ctx)
			require.NoError(t, err)
		}
		dbtest.MustExec(t, d, "UPDATE wallets SET balance_cents = balance_cents - 9600 WHERE user_id = ?", id)

		list := names("edge", 3)
		total := f.total(t, buyer, list)
		first, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRegister, Names: list, TotalCents: &total})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, first.ID))
		// One left: two jobs of three race for it.
		var jobs []int64
		for _, p := range []string{"racea", "raceb"} {
			l := names(p, 3)
			tot := f.total(t, buyer, l)
			j, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRegister, Names: l, TotalCents: &tot})
			require.NoError(t, err)
			jobs = append(jobs, j.ID)
		}
		var wg sync.WaitGroup
		errs := make([]error, len(jobs))
		for i, j := range jobs {
			wg.Go(func() { errs[i] = f.bulk.Run(ctx, j) })
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		succeeded := 0
		for _, j := range append([]int64{first.ID}, jobs...) {
			got, rows, err := f.bulk.Get(ctx, id, j)
			require.NoError(t, err)
			succeeded += got.Succeeded
			for _, r := range rows {
				if r.State == bulk.RowFailed {
					require.Equal(t, "Your Basic tier allows 100 new registrations a month; you have used them all. "+
						"The allowance resets on December 1, 2026 (UTC).", r.Message)
					require.Zero(t, r.ChargedCents)
				}
			}
		}
		require.Equal(t, 4, succeeded, "up to the allowance and no further")
		require.Equal(t, 100, f.count(t, "SELECT count(*) FROM transactions WHERE user_id = ? AND type = 'domain_purchase'", id))
		f.requireLedgerBalanced(t)
	})
}

// Bulk renewal charges each renewal once; auto-renewal turns off for each;
// names the account does not hold are refused before anything is queued.
func TestBulkRenewAndAutoRenew(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "renewer", "basic", 100000)
		list := names("keep", 3)
		var before []time.Time
		for _, n := range list {
			label, ext, _ := registration.SplitName(n)
			r, err := f.reg.Register(ctx, id, buyer, registration.Request{Name: label, Extension: ext})
			require.NoError(t, err)
			before = append(before, r.Domain.ExpiresAt)
		}
		other, otherBuyer := f.registrar(t, "stranger", "basic", 100000)
		_, err := f.bulk.Submit(ctx, other, otherBuyer, bulk.Submission{Kind: bulk.KindRenew, Names: list, TotalCents: ptr(int64(0))})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "keep0000.inf.nz: not one of your domains")

		_, err = f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRenew, Names: list})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "Confirm the total")
		total := 3 * f.reg.TermsOf(mustDomain(t, f, id, list[0]), buyer).Renewal.PriceCents
		balance := f.balance(t, id)
		job, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindRenew, Names: list, TotalCents: &total})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		// Again after a crash that forgot every row: replayed, not renewed twice.
		dbtest.MustExec(t, d, "UPDATE bulk_job_rows SET state = 'pending' WHERE job_id = ?", job.ID)
		dbtest.MustExec(t, d, "UPDATE bulk_jobs SET state = 'running', succeeded = 0, charged_cents = 0 WHERE id = ?", job.ID)
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		got, _, err := f.bulk.Get(ctx, id, job.ID)
		require.NoError(t, err)
		require.Equal(t, 3, got.Succeeded)
		require.Equal(t, total, got.ChargedCents)
		require.Equal(t, balance-total, f.balance(t, id))
		for i, n := range list {
			require.Equal(t, before[i].AddDate(1, 0, 0), mustDomain(t, f, id, n).ExpiresAt)
		}

		off, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindAutoRenew, Names: list, AutoRenew: ptr(false)})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, off.ID))
		for _, n := range list {
			require.False(t, mustDomain(t, f, id, n).AutoRenew)
		}
		_, err = f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindAutoRenew, Names: list})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		f.requireLedgerBalanced(t)
	})
}

// registerAll registers each of list for userID, one by one, and returns list.
func (f *fixture) registerAll(t *testing.T, userID int64, buyer catalog.Buyer, list []string) []string {
	t.Helper()
	for _, n := range list {
		label, ext, _ := registration.SplitName(n)
		_, err := f.reg.Register(context.Background(), userID, buyer, registration.Request{Name: label, Extension: ext})
		require.NoError(t, err)
	}
	return list
}

func mustDomain(t *testing.T, f *fixture, userID int64, name string) *registration.Domain {
	t.Helper()
	d, err := f.reg.GetByName(context.Background(), userID, name)
	require.NoError(t, err)
	return d
}

// A DNS template is checked when saved, and applied to each domain of a job
// through the zone service; a domain that cannot take it fails its row.
func TestDNSTemplates(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "templater", "basic", 100000)
		list := f.registerAll(t, id, buyer, names("tmpl", 2))
		_, err := f.bulk.CreateTemplate(ctx, id, bulk.TemplateInput{Name: "bad", Sets: []zone.Set{{Name: "www", Type: "A", Values: []string{"not-an-ip"}}}})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		_, err = f.bulk.CreateTemplate(ctx, id, bulk.TemplateInput{Name: "empty"})
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		tmpl, err := f.bulk.CreateTemplate(ctx, id, bulk.TemplateInput{Name: "Web", Sets: []zone.Set{
			{Name: "@", Type: "A", Values: []string{"192.0.2.10"}},
			{Name: "www", Type: "CNAME", Values: []string{"tmpl0000.inf.nz."}},
			{Name: "@", Type: "MX", Values: []string{"10 mx.example.com"}},
		}})
		require.NoError(t, err)
		_, err = f.bulk.CreateTemplate(ctx, id, bulk.TemplateInput{Name: "Web", Sets: tmpl.Sets})
		require.Equal(t, apperr.Conflict, apperr.Code(err))

		other, otherBuyer := f.registrar(t, "nosy", "basic", 0)
		_, err = f.bulk.Template(ctx, other, tmpl.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		_, err = f.bulk.Submit(ctx, other, otherBuyer, bulk.Submission{Kind: bulk.KindDNSTemplate, Names: []string{"x.inf.nz"}, TemplateID: tmpl.ID})
		require.Equal(t, apperr.NotFound, apperr.Code(err), "another's template")
		require.Equal(t, apperr.NotFound, apperr.Code(f.bulk.DeleteTemplate(ctx, other, tmpl.ID)))

		job, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindDNSTemplate, Names: list, TemplateID: tmpl.ID})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		got, rows, err := f.bulk.Get(ctx, id, job.ID)
		require.NoError(t, err)
		require.Equal(t, 2, got.Succeeded, "%+v", rows)
		for _, n := range list {
			dm := mustDomain(t, f, id, n)
			recs, err := f.records.List(ctx, zone.Domain{ID: dm.ID, Name: dm.Name, Extension: dm.Extension})
			require.NoError(t, err)
			var have []string
			for _, r := range recs {
				have = append(have, r.Type+" "+r.Name+" "+r.Content)
			}
			require.Contains(t, have, "A @ 192.0.2.10")
			require.Contains(t, have, "MX @ mx.example.com")
		}

		list2, err := f.bulk.Templates(ctx, id)
		require.NoError(t, err)
		require.Len(t, list2, 1)
		require.Len(t, list2[0].Sets, 3)
		upd, err := f.bulk.UpdateTemplate(ctx, id, tmpl.ID, bulk.TemplateInput{Name: "Web 2", Sets: tmpl.Sets[:1]})
		require.NoError(t, err)
		require.Equal(t, "Web 2", upd.Name)
		require.NoError(t, f.bulk.DeleteTemplate(ctx, id, tmpl.ID))
		_, err = f.bulk.Template(ctx, id, tmpl.ID)
		require.Equal(t, apperr.NotFound, apperr.Code(err))
	})
}

// A template is applied to a domain in one transaction: one whose last set
// the domain cannot take (a CNAME where the domain keeps an A record)
// changes nothing on that domain, and its row says why; the other domains
// of the job take the whole template.
func TestDNSTemplateAppliesWholeOrNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "atomic", "basic", 100000)
		list := f.registerAll(t, id, buyer, names("atom", 2))
		zoneOf := func(name string) zone.Domain {
			dm := mustDomain(t, f, id, name)
			return zone.Domain{ID: dm.ID, Name: dm.Name, Extension: dm.Extension}
		}
		_, err := f.records.ReplaceSet(ctx, zoneOf(list[1]), zone.Set{Name: "shop", Type: "A", Values: []string{"192.0.2.99"}})
		require.NoError(t, err)
		before, err := f.records.List(ctx, zoneOf(list[1]))
		require.NoError(t, err)

		tmpl, err := f.bulk.CreateTemplate(ctx, id, bulk.TemplateInput{Name: "Shop", Sets: []zone.Set{
			{Name: "@", Type: "A", Values: []string{"192.0.2.10"}},
			{Name: "www", Type: "A", Values: []string{"192.0.2.11"}},
			{Name: "shop", Type: "CNAME", Values: []string{"shops.example.com."}},
		}})
		require.NoError(t, err)
		job, err := f.bulk.Submit(ctx, id, buyer, bulk.Submission{Kind: bulk.KindDNSTemplate, Names: list, TemplateID: tmpl.ID})
		require.NoError(t, err)
		require.NoError(t, f.bulk.Run(ctx, job.ID))
		got, rows, err := f.bulk.Get(ctx, id, job.ID)
		require.NoError(t, err)
		require.Equal(t, 1, got.Succeeded, "%+v", rows)
		require.Equal(t, 1, got.Failed, "%+v", rows)
		for _, r := range rows {
			if r.Name == list[1] {
				require.Equal(t, bulk.RowFailed, r.State)
				require.Equal(t, "A CNAME record cannot share its name with other records: shop already has A records", r.Message)
			} else {
				require.Equal(t, bulk.RowSucceeded, r.State, r.Message)
			}
		}
		after, err := f.records.List(ctx, zoneOf(list[1]))
		require.NoError(t, err)
		require.Equal(t, before, after, "the failed domain is as it was")
		applied, err := f.records.List(ctx, zoneOf(list[0]))
		require.NoError(t, err)
		require.Len(t, applied, len(before)-1+3, "the other domain has its name servers and the template's three records")
	})
}

// Submissions the job cannot take are refused whole, naming the names.
func TestSubmitBadInput(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		ctx := context.Background()
		id, buyer := f.registrar(t, "careless", "basic", 0)
		for _, tc := range []struct {
			sub  bulk.Submission
			want string
		}{
			{bulk.Submission{Kind: "steal", Names: []string{"a.inf.nz"}}, "kind must be one of register, renew, auto_renew, dns_template"},
			{bulk.Submission{Kind: bulk.KindRegister}, "Enter at least one domain name"},
			{bulk.Submission{Kind: bulk.KindRegister, Names: names("x", 1001)}, "At most 1000 names at a time; split the list"},
			{bulk.Submission{Kind: bulk.KindRegister, Names: []string{"fine.inf.nz"}, Years: ptr(0)}, "Years must be between 1 and 10"},
			{bulk.Submission{Kind: bulk.KindRegister, Names: []string{"nodot", "bad_name.inf.nz", "admin.inf.nz"}, TotalCents: ptr(int64(0))},
				"nodot: Enter the full domain name, such as example.inf.nz; bad_name.inf.nz: "},
		} {
			_, err := f.bulk.Submit(ctx, id, buyer, tc.sub)
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%+v: %v", tc.sub, err)
			require.Contains(t, apperr.Message(err), tc.want)
		}
		require.Zero(t, f.count(t, "SELECT count(*) FROM bulk_jobs"))
		require.Zero(t, f.count(t, "SELECT count(*) FROM bulk_job_rows"))
	})
}
