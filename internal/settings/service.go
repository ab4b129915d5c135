// Package settings keeps the site settings (branding, contact, social, SEO…)
// and the payment gateways, which live in the value of the payment_gateways
// setting. Gateway secrets are sealed at rest and never leave the service in
// full: readers see them masked to their last four characters.
package settings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// Categories a setting may belong to (spec section 3); payment holds the
// gateways.
var Categories = []string{"branding", "contact", "social", "seo", "general", "payment"}

// DefaultCategory is the category of a setting created without one.
const DefaultCategory = "branding"

// Setting is one site setting.
type Setting struct {
	bun.BaseModel `bun:"table:site_settings"`

	ID          int64     `bun:"id,pk,autoincrement"`
	Key         string    `bun:"key"`
	Value       string    `bun:"value"`
	Category    string    `bun:"category"`
	Description string    `bun:"description"`
	IsPublic    bool      `bun:"is_public"`
	CreatedAt   time.Time `bun:"created_at"`
	UpdatedAt   time.Time `bun:"updated_at"`
}

// Input is a new setting, or the changes to one: nil fields are left as
// they are (on create: empty, category branding, public).
type Input struct {
	Key         *string
	Value       *string
	Category    *string
	Description *string
	IsPublic    *bool
}

// Options configure a Service.
type Options struct {
	// Secret is the server secret; gateway secrets are sealed with it.
	Secret []byte
	// Now is the clock; tests inject their own.
	Now func() time.Time
}

// Service stores the site settings.
type Service struct {
	db      *db.DB
	secrets *sealer.Sealer
	now     func() time.Time
}

// NewService returns the settings over d.
func NewService(d *db.DB, opts Options) (*Service, error) {
	s, err := sealer.New(opts.Secret, "payment-gateways")
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: d, secrets: s, now: opts.Now}, nil
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// List returns every setting by category and key; with publicOnly, only the
// public ones (never the payment gateways). Gateway secrets are masked.
func (s *Service) List(ctx context.Context, publicOnly bool) ([]Setting, error) {
	var list []Setting
	q := s.db.Bun.NewSelect().Model(&list).Order("category", "key")
	if publicOnly {
		q = q.Where("is_public = ?", true).Where("key <> ?", GatewaysKey)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("settings: list: %w", err)
	}
	for i := range list {
		if err := s.present(&list[i]); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Create adds a setting and records describe's audit entry (of the setting
// as readers see it) in the same transaction. Returns invalid for a missing
// key or value or an unknown category, and conflict when the key is taken.
func (s *Service) Create(ctx context.Context, in Input, describe audit.Describe[*Setting]) (*Setting, error) {
	now := s.clock()
	st := &Setting{Category: DefaultCategory, IsPublic: true, CreatedAt: now, UpdatedAt: now}
	apply(st, in)
	if err := validate(st); err != nil {
		return nil, err
	}
	if st.Key == GatewaysKey {
		sealed, err := s.sealGateways(st.Value, "")
		if err != nil {
			return nil, err
		}
		st.Value = sealed
		st.Category, st.IsPublic = "payment", false
	}
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(st).Exec(ctx); err != nil {
			return conflictOr(err, st.Key)
		}
		if err := s.present(st); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, nil, st)
	})
	if err != nil {
		return nil, fmt.Errorf("settings: create %s: %w", st.Key, err)
	}
	return st, nil
}

func conflictOr(err error, key string) error {
	if _, dup := db.UniqueViolation(err); dup {
		return apperr.New(apperr.Conflict, "Setting %s already exists", key)
	}
	return err
}

// read loads setting id inside tx as stored (gateway secrets sealed).
func read(ctx context.Context, tx *db.Tx, id int64) (*Setting, error) {
	st := new(Setting)
	if err := tx.NewSelect().Model(st).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, apperr.New(apperr.NotFound, "Setting not found")
		}
		return nil, err
	}
	return st, nil
}

// presented is a copy of st as readers see it.
func (s *Service) presented(st *Setting) (*Setting, error) {
	c := *st
	return &c, s.present(&c)
}

// Update changes the fields given and records describe's audit entry in the
// same transaction. Returns not_found, invalid or conflict.
func (s *Service) Update(ctx context.Context, id int64, in Input, describe audit.Describe[*Setting]) (*Setting, error) {
	var out *Setting
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		st, err := read(ctx, tx, id)
		if err != nil {
			return err
		}
		before, err := s.presented(st)
		if err != nil {
			return err
		}
		storedValue := st.Value // sealed; before.Value is masked
		apply(st, in)
		if err := validate(st); err != nil {
			return err
		}
		if (before.Key == GatewaysKey) != (st.Key == GatewaysKey) {
			return apperr.New(apperr.Invalid, "The %s setting cannot be renamed", GatewaysKey)
		}
		if st.Key == GatewaysKey {
			if in.Value != nil {
				if st.Value, err = s.sealGateways(st.Value, storedValue); err != nil {
					return err
				}
			}
			st.Category, st.IsPublic = "payment", false
		}
		st.UpdatedAt = s.clock()
		if _, err := tx.NewUpdate().Model(st).WherePK().Exec(ctx); err != nil {
			return conflictOr(err, st.Key)
		}
		if out, err = s.presented(st); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, before, out)
	})
	if err != nil {
		return nil, fmt.Errorf("settings: update %d: %w", id, err)
	}
	return out, nil
}

// Delete removes a setting and records describe's audit entry in the same
// transaction. Returns not_found.
func (s *Service) Delete(ctx context.Context, id int64, describe audit.Describe[*Setting]) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		st, err := read(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model(st).WherePK().Exec(ctx); err != nil {
			return err
		}
		before, err := s.presented(st)
		if err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, before, nil)
	})
	if err != nil {
		return fmt.Errorf("settings: delete %d: %w", id, err)
	}
	return nil
}

func apply(st *Setting, in Input) {
	if in.Key != nil {
		st.Key = strings.TrimSpace(*in.Key)
	}
	if in.Value != nil {
		st.Value = *in.Value
	}
	if in.Category != nil && *in.Category != "" {
		st.Category = *in.Category
	}
	if in.Description != nil {
		st.Description = strings.TrimSpace(*in.Description)
	}
	if in.IsPublic != nil {
		st.IsPublic = *in.IsPublic
	}
}

func validate(st *Setting) error {
	switch {
	case st.Key == "":
		return apperr.New(apperr.Invalid, "Setting key is required")
	case strings.TrimSpace(st.Value) == "":
		return apperr.New(apperr.Invalid, "Setting value is required")
	case len(st.Key) > 100:
		return apperr.New(apperr.Invalid, "Setting key must be at most 100 characters")
	case strings.IndexFunc(st.Key, notKeyChar) >= 0:
		return apperr.New(apperr.Invalid, "Setting key can only contain letters, numbers, underscores, dots and hyphens")
	case !slices.Contains(Categories, st.Category):
		return apperr.New(apperr.Invalid, "Category must be one of %s", strings.Join(Categories, ", "))
	}
	return checkKnown(st.Key, st.Value)
}

// notKeyChar tells the characters a setting key may not hold: keys are
// names the web app looks up (site_name, payment_gateways), never text.
func notKeyChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-')
}

// present turns a stored setting into what readers see.
func (s *Service) present(st *Setting) error {
	if st.Key != GatewaysKey {
		return nil
	}
	masked, err := s.maskGateways(st.Value)
	if err != nil {
		return err
	}
	st.Value = masked
	return nil
}
