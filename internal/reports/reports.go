// Package reports computes a registrar's reports: registrations and
// renewals per month, spend per month, domains per extension, the renewals
// coming up in the next 30, 60 and 90 days with what they cost and the
// wallet balance they need, and this month's registrations against the
// tier's allowance.
//
// Figures are per account and computed here, once, for every client: the
// registrar dashboard (/api), programs (/v1, the SDK, nameportctl) and the
// CSV exports all read one Report. The counting is read-only SQL over the
// ledger and the domains (as package stats does for the platform); every
// rule comes from the package that owns it: what a renewal costs and when a
// domain's grace ends from registration (which asks catalog for the buyer's
// price), the allowance from registration, the balance from billing.
package reports

import (
	"context"
	"fmt"
	"time"

	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
)

// Months is how many calendar months (UTC) the monthly series cover, this
// one included.
const Months = 12

// Windows are the renewal windows, in days from now. They are cumulative:
// the 60-day window holds the 30-day one's domains too.
var Windows = []int{30, 60, 90}

// Month is one calendar month (UTC) of the ledger: the registrations and
// renewals paid from the wallet, and what was spent on them. Only completed
// debits count (every debit completes with what it pays for, or is rolled
// back with it), so a registration that failed is in no month.
type Month struct {
	Month         string // "2026-11"
	Registrations int    // new registrations (domain purchases), whatever their years
	Renewals      int
	// Spend in cents, positive: on registrations, on renewals, and on
	// anything else the wallet paid for.
	RegistrationCents, RenewalCents, OtherCents int64
}

// SpendCents is everything the wallet paid in the month.
func (m Month) SpendCents() int64 { return m.RegistrationCents + m.RenewalCents + m.OtherCents }

// Extension is how many domains the account holds under an extension.
type Extension struct {
	Extension string // ".inf.nz"
	// Domains held, Active the ones that have not expired. The others
	// are out of DNS: in their grace period (renewable) or about to be
	// released.
	Domains, Active int
}

// Renewal is a domain that falls due within the longest window.
type Renewal struct {
	DomainID  int64
	Domain    string // "example.inf.nz"
	Extension string
	ExpiresAt time.Time
	// Status is registration's: active, expiring_soon, or expired (in its
	// grace period: due now, and counted in every window).
	Status      string
	GraceEndsAt time.Time
	// PriceCents is what one renewal period costs this account.
	PriceCents int64
	IsPremium  bool
	// AutoRenew: the platform renews it from the wallet by itself.
	AutoRenew bool
	// WindowDays is the smallest window the domain falls in.
	WindowDays int
}

// Window is the renewals due within Days days of now.
type Window struct {
	Days    int
	Domains int
	// TotalCents is what renewing them all costs, AutoRenewCents the part
	// the platform will take by itself (domains with auto-renew on).
	TotalCents, AutoRenewCents int64
	// NeededCents is what the wallet lacks to renew them all:
	// max(0, TotalCents - balance).
	NeededCents int64
}

// Report is every figure of the Reports tab, as of GeneratedAt.
type Report struct {
	GeneratedAt time.Time
	// Months are the last Months calendar months, oldest first, every one
	// present.
	Months []Month
	// Extensions are the account's domains per extension, most first.
	Extensions []Extension
	// Renewals are the domains due within the longest window (or expired
	// and still in grace), soonest first.
	Renewals []Renewal
	// Windows are the renewal windows, shortest first.
	Windows      []Window
	BalanceCents int64
	// Allowance is this month's new registrations against the tier's.
	Allowance registration.Allowance
}

// Service computes reports.
type Service struct {
	db      *db.DB
	domains *registration.Service
	wallets *billing.Service
	now     func() time.Time
}

// NewService returns the reports over d, asking domains and wallets for
// their rules; now may be nil (the real clock).
func NewService(d *db.DB, domains *registration.Service, wallets *billing.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: d, domains: domains, wallets: wallets, now: now}
}

// monthOf is the SQL expression of a timestamp column's UTC month as
// YYYY-MM. SQLite keeps times as ISO text in UTC (every service stores UTC),
// so the month is its first seven characters.
func (s *Service) monthOf(col string) string {
	if s.db.Engine == db.Postgres {
		return "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM')"
	}
	return "substr(" + col + ", 1, 7)"
}

// Report computes userID's report, pricing renewals for buyer (the
// account's tier).
func (s *Service) Report(ctx context.Context, userID int64, buyer catalog.Buyer) (*Report, error) {
	now := s.now().UTC().Truncate(time.Microsecond)
	r := &Report{GeneratedAt: now}
	var err error
	if r.Months, err = s.months(ctx, userID, now); err != nil {
		return nil, err
	}
	if r.Extensions, err = s.extensions(ctx, userID, now); err != nil {
		return nil, err
	}
	w, err := s.wallets.Wallet(ctx, userID)
	if err != nil {
		return nil, err
	}
	r.BalanceCents = w.BalanceCents
	if r.Renewals, err = s.renewals(ctx, userID, buyer, now); err != nil {
		return nil, err
	}
	r.Windows = windows(r.Renewals, r.BalanceCents)
	if r.Allowance, err = s.domains.Allowance(ctx, userID, buyer); err != nil {
		return nil, err
	}
	return r, nil
}

// months counts userID's completed debits per month and kind over the last
// Months months: one GROUP BY over the (user_id, created_at) index.
func (s *Service) months(ctx context.Context, userID int64, now time.Time) ([]Month, error) {
	this := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	first := this.AddDate(0, -(Months - 1), 0)
	out := make([]Month, Months)
	byMonth := map[string]*Month{}
	for i := range out {
		out[i].Month = first.AddDate(0, i, 0).Format("2006-01")
		byMonth[out[i].Month] = &out[i]
	}
	var rows []struct {
		Month string `bun:"month"`
		Type  string `bun:"type"`
		N     int    `bun:"n"`
		Cents int64  `bun:"cents"`
	}
	if err := s.db.Bun.NewSelect().TableExpr("transactions").
		ColumnExpr(s.monthOf("created_at")+" AS month, type, count(*) AS n, SUM(amount_cents) AS cents").
		Where("user_id = ?", userID).Where("status = ?", billing.StatusCompleted).Where("amount_cents < 0").
		Where("created_at >= ?", first).Where("created_at < ?", this.AddDate(0, 1, 0)).
		GroupExpr("month, type").Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("reports: months of %d: %w", userID, err)
	}
	for _, row := range rows {
		m := byMonth[row.Month]
		if m == nil {
			continue
		}
		spent := -row.Cents // debits are stored negative
		switch row.Type {
		case billing.TypeDomainPurchase:
			m.Registrations += row.N
			m.RegistrationCents += spent
		case billing.TypeDomainRenewal:
			m.Renewals += row.N
			m.RenewalCents += spent
		default:
			m.OtherCents += spent
		}
	}
	return out, nil
}

// extensions counts userID's domains per extension, and those not expired.
func (s *Service) extensions(ctx context.Context, userID int64, now time.Time) ([]Extension, error) {
	out := []Extension{}
	if err := s.db.Bun.NewSelect().TableExpr("domains").
		ColumnExpr("extension, count(*) AS domains").
		ColumnExpr("COALESCE(SUM(CASE WHEN expires_at > ? THEN 1 ELSE 0 END), 0) AS active", now).
		Where("user_id = ?", userID).GroupExpr("extension").OrderExpr("domains DESC, extension").
		Scan(ctx, &out); err != nil {
		return nil, fmt.Errorf("reports: extensions of %d: %w", userID, err)
	}
	return out, nil
}

// renewals lists userID's domains due within the longest window, priced
// for buyer by registration (which asks catalog), soonest first. Domains
// past their grace period are being released, not renewed: left out.
func (s *Service) renewals(ctx context.Context, userID int64, buyer catalog.Buyer, now time.Time) ([]Renewal, error) {
	longest := Windows[len(Windows)-1]
	var due []registration.Domain
	if err := s.db.Bun.NewSelect().Model(&due).Where("user_id = ?", userID).
		Where("expires_at <= ?", now.AddDate(0, 0, longest)).Order("expires_at", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("reports: renewals of %d: %w", userID, err)
	}
	out := []Renewal{}
	for i := range due {
		d := &due[i]
		terms := s.domains.TermsOf(d, buyer)
		if !now.Before(terms.GraceEndsAt) {
			continue
		}
		r := Renewal{DomainID: d.ID, Domain: d.Name + d.Extension, Extension: d.Extension, ExpiresAt: d.ExpiresAt,
			Status: terms.Status, GraceEndsAt: terms.GraceEndsAt, PriceCents: terms.Renewal.PriceCents,
			IsPremium: d.IsPremium, AutoRenew: d.AutoRenew}
		for _, days := range Windows {
			if !d.ExpiresAt.After(now.AddDate(0, 0, days)) {
				r.WindowDays = days
				break
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// windows totals the renewals of each window against the balance.
func windows(renewals []Renewal, balance int64) []Window {
	out := make([]Window, len(Windows))
	for i, days := range Windows {
		w := Window{Days: days}
		for _, r := range renewals {
			if r.WindowDays > days {
				continue
			}
			w.Domains++
			w.TotalCents += r.PriceCents
			if r.AutoRenew {
				w.AutoRenewCents += r.PriceCents
			}
		}
		w.NeededCents = max(0, w.TotalCents-balance)
		out[i] = w
	}
	return out
}
