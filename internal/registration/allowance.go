package registration

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
)

// Registrar tiers allow a number of new registrations per calendar month
// (UTC): catalog.Tier.MonthlyDomains, 0 for unlimited. Renewals do not
// count, and end users have no allowance.
//
// A month's registrations are counted from the ledger (the domain_purchase
// debits), not from the domains table: a domain released or deleted later
// still used the allowance of the month it was registered in, and its
// purchase stays in the ledger while its domain row goes.

// Allowance is an account's new registrations this calendar month (UTC)
// against its tier's allowance.
type Allowance struct {
	// Tier is the registrar's tier, "" for an end user.
	Tier string
	// Limit is the new registrations the tier allows a month; 0 means
	// unlimited.
	Limit int
	// Used is the new registrations made this month.
	Used int
	// PeriodStart is the first instant of this month (UTC), ResetsAt the
	// first of the next, when Used starts again from 0.
	PeriodStart, ResetsAt time.Time
}

// Unlimited reports whether the account may register without a monthly
// limit.
func (a Allowance) Unlimited() bool { return a.Limit == 0 }

// Remaining is the new registrations left this month; 0 when unlimited
// (see Unlimited).
func (a Allowance) Remaining() int { return max(0, a.Limit-a.Used) }

// monthOf returns the calendar month (UTC) now is in: its first instant and
// the first instant of the next.
func monthOf(now time.Time) (start, next time.Time) {
	now = now.UTC()
	start = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 1, 0)
}

// Allowance returns userID's registrations this month against the allowance
// of buyer's tier.
func (s *Service) Allowance(ctx context.Context, userID int64, buyer catalog.Buyer) (Allowance, error) {
	tier, limited := catalog.MonthlyAllowance(buyer)
	start, next := monthOf(s.clock())
	used, err := registrationsBetween(ctx, s.db.Bun, userID, start, next)
	if err != nil {
		return Allowance{}, err
	}
	a := Allowance{Tier: tier.Key, Used: used, PeriodStart: start, ResetsAt: next}
	if limited {
		a.Limit = tier.MonthlyDomains
	}
	return a, nil
}

// registrationsBetween counts userID's new registrations in [from, to),
// asking through q.
func registrationsBetween(ctx context.Context, q bun.IDB, userID int64, from, to time.Time) (int, error) {
	n, err := q.NewSelect().Model((*billing.Transaction)(nil)).Where("user_id = ?", userID).
		Where("type = ?", billing.TypeDomainPurchase).Where("created_at >= ?", from).Where("created_at < ?", to).
		Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("registration: count registrations of %d: %w", userID, err)
	}
	return int(n), nil
}

// checkAllowance refuses, inside the registration's transaction tx, a new
// registration by userID that buyer's tier does not allow this month (the
// month of now). It returns allowance_exhausted naming the limit and the
// day it resets.
//
// Racing registrations of one account must not both take the last one: on
// PostgreSQL the account's wallet row is locked first (the debit that
// follows updates it anyway), so that they count one after another, each
// seeing the purchases of those committed before it (READ COMMITTED: every
// statement sees what committed before it began). It runs just before the
// debit, after the rows the registration inserts, so that the wallet lock
// is taken in the order every registration takes it and held no longer
// than needed. SQLite runs one writing transaction at a time already.
func (s *Service) checkAllowance(ctx context.Context, tx *db.Tx, userID int64, buyer catalog.Buyer, now time.Time) error {
	tier, limited := catalog.MonthlyAllowance(buyer)
	if !limited {
		return nil
	}
	if s.db.Engine == db.Postgres {
		if _, err := tx.NewSelect().Model((*billing.Wallet)(nil)).Column("user_id").Where("user_id = ?", userID).
			For("UPDATE").Exec(ctx); err != nil {
			return fmt.Errorf("lock wallet: %w", err)
		}
	}
	start, next := monthOf(now)
	used, err := registrationsBetween(ctx, tx, userID, start, next)
	if err != nil {
		return err
	}
	if used >= tier.MonthlyDomains {
		return apperr.New(apperr.AllowanceExhausted,
			"Your %s tier allows %d new registrations a month; you have used them all. The allowance resets on %s (UTC).",
			tier.Name, tier.MonthlyDomains, next.Format("January 2, 2006"))
	}
	return nil
}
