// Package registration owns registered domains: who holds which name under
// which extension, since when and until when, and the act of registering one.
package registration

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/webhook"
)

// Domain is a registered name.
type Domain struct {
	bun.BaseModel `bun:"table:domains"`

	ID           int64     `bun:"id,pk,autoincrement"`
	UserID       int64     `bun:"user_id"`
	Name         string    `bun:"name"`      // the label, e.g. "example"
	Extension    string    `bun:"extension"` // with its leading dot, e.g. ".inf.nz"
	IsPremium    bool      `bun:"is_premium"`
	PriceCents   int64     `bun:"price_cents"`
	AutoRenew    bool      `bun:"auto_renew"`
	RegisteredAt time.Time `bun:"registered_at"`
	ExpiresAt    time.Time `bun:"expires_at"`
	CreatedAt    time.Time `bun:"created_at"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

var _ bun.AfterScanRowHook = (*Domain)(nil)

// AfterScanRow keeps times in UTC whatever the engine returns (SQLite gives
// local time), so that comparing and storing them again is exact.
func (d *Domain) AfterScanRow(context.Context) error {
	d.RegisteredAt, d.ExpiresAt = d.RegisteredAt.UTC(), d.ExpiresAt.UTC()
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC(), d.UpdatedAt.UTC()
	return nil
}

// Service registers domains and answers questions about them.
type Service struct {
	db      *db.DB
	catalog *catalog.Service
	billing *billing.Service
	now     func() time.Time

	// Notify sends the owner a notice inside the transaction of the change
	// it tells about (renewal_succeeded, renewal_failed, expiry_warning,
	// domain_expired, domain_released, registration_receipt); nil sends none.
	Notify notify.Func
	// Events emits webhook events (domain.registered, domain.renewed,
	// domain.expiring, domain.expired, domain.released) inside the
	// transaction of the change; nil emits none.
	Events webhook.EmitFunc
	// Buyers tells how an account buys (its registrar tier), for renewals
	// the owner does not start; nil prices them as for end users.
	Buyers func(ctx context.Context, userID int64) (catalog.Buyer, error)
	// failAfterDebit, set by tests, fails a renewal after its debit.
	failAfterDebit func() error
	// Names, when set, is told of every name this service registers or
	// releases once it commits, so that this process's checks see it at
	// once.
	Names *Names
	// ZoneChanged, when set, runs after a commit that changed what DNS
	// serves (a registration, a release, a renewal in grace), so that this
	// process's DNS server applies it at once rather than at its next poll.
	ZoneChanged func()
}

// namesChanged brings Names up to date after a commit. A failure only
// delays it to the next poll (and checks meanwhile ask the database once
// the index is stale), so it is not the caller's.
func (s *Service) namesChanged(ctx context.Context) {
	if s.Names != nil {
		_ = s.Names.CatchUp(ctx)
	}
	s.zoneChanged()
}

func (s *Service) zoneChanged() {
	if s.ZoneChanged != nil {
		s.ZoneChanged()
	}
}

// NewService returns a registration service over d; now may be nil (the real
// clock).
func NewService(d *db.DB, cat *catalog.Service, bill *billing.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: d, catalog: cat, billing: bill, now: now}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// List returns the domains of userID, newest first.
func (s *Service) List(ctx context.Context, userID int64) ([]Domain, error) {
	domains := []Domain{}
	if err := s.db.Bun.NewSelect().Model(&domains).Where("user_id = ?", userID).
		Order("registered_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("registration: list domains of %d: %w", userID, err)
	}
	return domains, nil
}

// Get returns domain id if userID holds it. Returns not_found otherwise, also
// when it belongs to someone else, so that ids reveal nothing.
func (s *Service) Get(ctx context.Context, userID, id int64) (*Domain, error) {
	d := new(Domain)
	err := s.db.Bun.NewSelect().Model(d).Where("id = ?", id).Where("user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "Domain not found")
	}
	if err != nil {
		return nil, fmt.Errorf("registration: get domain %d: %w", id, err)
	}
	return d, nil
}

// MaxPage bounds a page of ListPage.
const MaxPage = 1000

// ListPage returns up to limit domains of userID with ids above after,
// oldest first: a page that later registrations cannot shift.
func (s *Service) ListPage(ctx context.Context, userID, after int64, limit int) ([]Domain, error) {
	if limit < 1 || limit > MaxPage {
		return nil, apperr.New(apperr.Invalid, "limit must be between 1 and %d", MaxPage)
	}
	domains := []Domain{}
	if err := s.db.Bun.NewSelect().Model(&domains).Where("user_id = ?", userID).Where("id > ?", after).
		Order("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("registration: list domains of %d: %w", userID, err)
	}
	return domains, nil
}

// GetByName returns the domain fullName ("example.inf.nz") if userID holds
// it; not_found otherwise.
func (s *Service) GetByName(ctx context.Context, userID int64, fullName string) (*Domain, error) {
	label, ext, ok := SplitName(fullName)
	if !ok {
		return nil, apperr.New(apperr.NotFound, "Domain not found")
	}
	d := new(Domain)
	err := s.db.Bun.NewSelect().Model(d).Where("user_id = ?", userID).Where("name = ?", label).
		Where("extension = ?", ext).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "Domain not found")
	}
	if err != nil {
		return nil, fmt.Errorf("registration: get domain %s: %w", fullName, err)
	}
	return d, nil
}

// SplitName splits a full domain name into its label and extension:
// "Example.inf.nz." → "example", ".inf.nz". ok is false when there is no
// extension.
func SplitName(fullName string) (label, extension string, ok bool) {
	full := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(fullName), "."))
	label, rest, found := strings.Cut(full, ".")
	if !found || label == "" || rest == "" {
		return "", "", false
	}
	return label, "." + rest, true
}

// CountForExtension returns how many domains are registered under extension,
// asking through q (the caller's transaction, or the database).
func (n *Names) CountForExtension(ctx context.Context, q bun.IDB, extension string) (int, error) {
	count, err := q.NewSelect().Model((*Domain)(nil)).Where("extension = ?", extension).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("registration: count domains under %s: %w", extension, err)
	}
	return int(count), nil
}

// OwnerOf returns the account that holds domain id, asking through q (the
// caller's transaction): for events about a domain that other services
// change (its DNS records). Returns not_found when there is no such domain.
func OwnerOf(ctx context.Context, q bun.IDB, id int64) (int64, error) {
	var userID int64
	err := q.NewSelect().Model((*Domain)(nil)).Column("user_id").Where("id = ?", id).Scan(ctx, &userID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.New(apperr.NotFound, "Domain not found")
	}
	if err != nil {
		return 0, fmt.Errorf("registration: owner of domain %d: %w", id, err)
	}
	return userID, nil
}
