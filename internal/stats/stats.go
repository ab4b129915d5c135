// Package stats aggregates the platform's numbers for the admin Statistics
// tab: registrations, revenue, deposits, domains per extension, premium sales
// and registrars. Every figure is one GROUP BY over an indexed column, so the
// tab stays fast with hundreds of thousands of domains.
package stats

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// Days is how many days the daily series cover, today included.
const Days = 30

// Day is one day (UTC) of the daily series.
type Day struct {
	Date          string `bun:"day"` // 2026-11-22
	Registrations int64  `bun:"registrations"`
	RevenueCents  int64  `bun:"revenue_cents"` // domain purchases and renewals paid from wallets
	DepositCents  int64  `bun:"deposit_cents"` // completed wallet deposits
}

// ExtensionCount is how many domains an extension holds.
type ExtensionCount struct {
	Extension string `bun:"extension"`
	Domains   int64  `bun:"domains"`
	Premium   int64  `bun:"premium"`
}

// Overview is everything the Statistics tab shows.
type Overview struct {
	TotalDomains        int64
	TotalAccounts       int64
	ActiveRegistrars    int64 // registrar accounts that are not disabled
	RegistrationsPeriod int64 // domains registered in the last Days days
	RevenuePeriodCents  int64
	DepositsPeriod      int64 // how many completed deposits
	DepositPeriodCents  int64
	PremiumSales        int64 // premium domains registered, all time
	PremiumRevenueCents int64
	Days                []Day // oldest first, every day present
	Extensions          []ExtensionCount
}

// Service computes the statistics.
type Service struct{ db *db.DB }

// NewService returns the statistics over d.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// dayOf is the SQL expression of a timestamp column's UTC day as YYYY-MM-DD.
// SQLite keeps times as ISO text in UTC (every service stores UTC), so the
// day is its first ten characters.
func (s *Service) dayOf(col string) string {
	if s.db.Engine == db.Postgres {
		return "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	return "substr(" + col + ", 1, 10)"
}

// Overview computes the figures as of now.
func (s *Service) Overview(ctx context.Context, now time.Time) (*Overview, error) {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	since := today.AddDate(0, 0, -(Days - 1))
	o := &Overview{Extensions: []ExtensionCount{}}
	q := s.db.Bun

	// Counts of accounts.
	var accounts struct {
		Total      int64 `bun:"total"`
		Registrars int64 `bun:"registrars"`
	}
	if err := q.NewSelect().TableExpr("users").ColumnExpr("count(*) AS total").
		ColumnExpr("COALESCE(SUM(CASE WHEN user_type = 'registrar' AND disabled_at IS NULL THEN 1 ELSE 0 END), 0) AS registrars").
		Scan(ctx, &accounts); err != nil {
		return nil, fmt.Errorf("stats: accounts: %w", err)
	}
	o.TotalAccounts, o.ActiveRegistrars = accounts.Total, accounts.Registrars

	// Domains per extension, premium sales among them, from the covering
	// index on (extension, is_premium, price_cents).
	var exts []struct {
		ExtensionCount
		PremiumCents int64 `bun:"premium_cents"`
	}
	if err := q.NewSelect().TableExpr("domains").ColumnExpr("extension, count(*) AS domains").
		ColumnExpr("COALESCE(SUM(CASE WHEN is_premium THEN 1 ELSE 0 END), 0) AS premium").
		ColumnExpr("COALESCE(SUM(CASE WHEN is_premium THEN price_cents ELSE 0 END), 0) AS premium_cents").
		GroupExpr("extension").OrderExpr("domains DESC, extension").Scan(ctx, &exts); err != nil {
		return nil, fmt.Errorf("stats: domains per extension: %w", err)
	}
	for _, e := range exts {
		o.Extensions = append(o.Extensions, e.ExtensionCount)
		o.TotalDomains += e.Domains
		o.PremiumSales += e.Premium
		o.PremiumRevenueCents += e.PremiumCents
	}

	// The daily series.
	byDay := map[string]*Day{}
	for d := since; !d.After(today); d = d.AddDate(0, 0, 1) {
		o.Days = append(o.Days, Day{Date: d.Format("2006-01-02")})
	}
	for i := range o.Days {
		byDay[o.Days[i].Date] = &o.Days[i]
	}
	var regs []Day
	if err := q.NewSelect().TableExpr("domains").ColumnExpr(s.dayOf("registered_at")+" AS day, count(*) AS registrations").
		Where("registered_at >= ?", since).GroupExpr("day").Scan(ctx, &regs); err != nil {
		return nil, fmt.Errorf("stats: registrations per day: %w", err)
	}
	var money []struct {
		Day   string `bun:"day"`
		Type  string `bun:"type"`
		Cents int64  `bun:"cents"`
		N     int64  `bun:"n"`
	}
	if err := q.NewSelect().TableExpr("transactions").
		ColumnExpr(s.dayOf("created_at")+" AS day, type, SUM(amount_cents) AS cents, count(*) AS n").
		Where("type IN (?)", bun.In([]string{"deposit", "domain_purchase", "domain_renewal"})).
		Where("created_at >= ?", since).Where("status = 'completed'").
		GroupExpr("day, type").Scan(ctx, &money); err != nil {
		return nil, fmt.Errorf("stats: money per day: %w", err)
	}
	for _, r := range regs {
		if d := byDay[r.Date]; d != nil {
			d.Registrations = r.Registrations
			o.RegistrationsPeriod += r.Registrations
		}
	}
	for _, m := range money {
		d := byDay[m.Day]
		if d == nil {
			continue
		}
		if m.Type == "deposit" {
			d.DepositCents += m.Cents
			o.DepositPeriodCents += m.Cents
			o.DepositsPeriod += m.N
		} else { // debits are stored negative
			d.RevenueCents -= m.Cents
			o.RevenuePeriodCents -= m.Cents
		}
	}
	return o, nil
}
