package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
)

// Listing is an account as the admin Users tab shows it.
type Listing struct {
	ID           int64     `bun:"id"`
	Username     string    `bun:"username"`
	Email        string    `bun:"email"`
	FullName     string    `bun:"full_name"`
	UserType     string    `bun:"user_type"`
	Tier         *string   `bun:"tier"`
	DomainCount  int64     `bun:"domain_count"`
	BalanceCents int64     `bun:"balance_cents"`
	DisabledAt   time.Time `bun:"disabled_at,nullzero"`
	CreatedAt    time.Time `bun:"created_at"`
}

// UserQuery selects accounts for ListUsers.
type UserQuery struct {
	// Search matches part of the username, email or full name.
	Search string
	// Type keeps one user type ("" for all).
	Type     string
	Page     int // from 1
	PageSize int // at most 100
}

// ListUsers returns one page of accounts, newest first, with their domain
// count and wallet balance, and how many accounts match in all. The counts
// are looked up for the page's rows only, through the domains' user_id index.
func (s *Service) ListUsers(ctx context.Context, q UserQuery) ([]Listing, int, error) {
	if q.Page < 1 {
		q.Page = 1
	}
	if q.PageSize < 1 || q.PageSize > 100 {
		q.PageSize = 25
	}
	if q.Type != "" && q.Type != TypeUser && q.Type != TypeRegistrar && q.Type != TypeAdmin {
		return nil, 0, invalid("Type must be user, registrar or admin")
	}
	sel := s.db.Bun.NewSelect().TableExpr("users AS u")
	if search := strings.ToLower(strings.TrimSpace(q.Search)); search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(search) + "%"
		sel = sel.Where(`(lower(u.username) LIKE ? ESCAPE '\' OR lower(u.email) LIKE ? ESCAPE '\' OR lower(u.full_name) LIKE ? ESCAPE '\')`,
			like, like, like)
	}
	if q.Type != "" {
		sel = sel.Where("u.user_type = ?", q.Type)
	}
	total, err := sel.Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("account: count users: %w", err)
	}
	var out []Listing
	err = sel.ColumnExpr("u.id, u.username, u.email, u.full_name, u.user_type, u.tier, u.disabled_at, u.created_at").
		ColumnExpr("(SELECT count(*) FROM domains AS d WHERE d.user_id = u.id) AS domain_count").
		ColumnExpr("COALESCE((SELECT w.balance_cents FROM wallets AS w WHERE w.user_id = u.id), 0) AS balance_cents").
		OrderExpr("u.id DESC").Limit(int64(q.PageSize)).Offset(int64((q.Page-1)*q.PageSize)).Scan(ctx, &out)
	if err != nil {
		return nil, 0, fmt.Errorf("account: list users: %w", err)
	}
	return out, int(total), nil
}

// adminView is what the audit log keeps of an account: never its secrets.
type adminView struct {
	Username string     `json:"username"`
	UserType string     `json:"userType"`
	Tier     string     `json:"tier,omitempty"`
	Disabled bool       `json:"disabled"`
	Since    *time.Time `json:"disabledAt,omitempty"`
}

func viewOf(u *User) adminView {
	v := adminView{Username: u.Username, UserType: u.UserType, Tier: u.Tier, Disabled: !u.DisabledAt.IsZero()}
	if v.Disabled {
		t := u.DisabledAt
		v.Since = &t
	}
	return v
}

// SetTier changes a registrar's tier on behalf of admin and records it in
// the audit log. Returns not_found for an unknown account and invalid for an
// unknown tier or an account that is not a registrar.
func (s *Service) SetTier(ctx context.Context, admin *User, id int64, tier string) (*User, error) {
	defer s.apiKeys.forget() // the account may change
	if tier != TierBasic && tier != TierPremium && tier != TierEnterprise {
		return nil, invalid("Tier must be basic, premium or enterprise")
	}
	var out *User
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, err := s.lockedUser(ctx, tx, id)
		if err != nil {
			return err
		}
		if !u.IsRegistrar() {
			return invalid("Only registrars have a tier")
		}
		before := viewOf(u)
		if u.Tier == tier {
			out = u
			return nil
		}
		u.Tier, u.UpdatedAt = tier, s.clock()
		if _, err := tx.NewUpdate().Model(u).Column("tier", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		out = u
		return audit.Record(ctx, tx, audit.Entry{ActorID: admin.ID, Action: audit.ActionUserTier, TargetType: "user",
			TargetID: audit.ID(u.ID), Before: before, After: viewOf(u)})
	})
	if err != nil {
		return nil, fmt.Errorf("account: set tier of %d: %w", id, err)
	}
	return out, nil
}

// SetDisabled disables or enables an account on behalf of admin and records
// it in the audit log. Disabling ends every session of the account at once;
// its API key stops working because ByAPIKey skips disabled accounts.
// Returns not_found for an unknown account and forbidden when admins try to
// disable themselves.
func (s *Service) SetDisabled(ctx context.Context, admin *User, id int64, disabled bool) (*User, error) {
	defer s.apiKeys.forget() // the account may change
	if disabled && id == admin.ID {
		return nil, apperr.New(apperr.Forbidden, "You cannot disable your own account")
	}
	var out *User
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, err := s.lockedUser(ctx, tx, id)
		if err != nil {
			return err
		}
		out = u
		if disabled == !u.DisabledAt.IsZero() {
			return nil
		}
		before := viewOf(u)
		u.DisabledAt, u.UpdatedAt = time.Time{}, s.clock()
		action := audit.ActionUserEnable
		if disabled {
			u.DisabledAt, action = u.UpdatedAt, audit.ActionUserDisable
		}
		if _, err := tx.NewUpdate().Model(u).Column("disabled_at", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if disabled {
			if _, err := tx.NewDelete().Model((*session)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, audit.Entry{ActorID: admin.ID, Action: action, TargetType: "user",
			TargetID: audit.ID(u.ID), Before: before, After: viewOf(u)})
	})
	if err != nil {
		return nil, fmt.Errorf("account: set disabled of %d: %w", id, err)
	}
	return out, nil
}

// lockedUser loads an account inside tx; on PostgreSQL the row stays locked
// until tx ends, so two admins' changes apply one after the other.
func (s *Service) lockedUser(ctx context.Context, tx *db.Tx, id int64) (*User, error) {
	u := new(User)
	q := tx.NewSelect().Model(u).Where("id = ?", id)
	if s.db.Engine == db.Postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, apperr.New(apperr.NotFound, "Account not found")
		}
		return nil, err
	}
	return u, nil
}

// Listed returns one account as ListUsers shows it; not_found if there is none.
func (s *Service) Listed(ctx context.Context, id int64) (*Listing, error) {
	var out []Listing
	err := s.db.Bun.NewSelect().TableExpr("users AS u").Where("u.id = ?", id).
		ColumnExpr("u.id, u.username, u.email, u.full_name, u.user_type, u.tier, u.disabled_at, u.created_at").
		ColumnExpr("(SELECT count(*) FROM domains AS d WHERE d.user_id = u.id) AS domain_count").
		ColumnExpr("COALESCE((SELECT w.balance_cents FROM wallets AS w WHERE w.user_id = u.id), 0) AS balance_cents").
		Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("account: load listing %d: %w", id, err)
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.NotFound, "Account not found")
	}
	return &out[0], nil
}
