package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/pkg/domainname"
)

// RuleInput is a length rule as the admin form sends it.
type RuleInput struct {
	MinLength           int
	MaxLength           int
	PriceCents          int64
	RegistrarPriceCents *int64
	IsPromotion         bool
	PromotionLabel      string
	PromotionStart      time.Time
	PromotionEnd        time.Time
}

// ExtensionInput is what the admin forms send. A nil field keeps its value
// on update and takes its default on create.
type ExtensionInput struct {
	Extension                *string
	BasePriceCents           *int64
	Description              *string
	Active                   *bool
	MinNameLength            *int
	MaxNameLength            *int
	AllowedCharacters        *string
	RenewalPriceCents        *int64
	RenewalPeriodDays        *int
	GracePeriodDays          *int
	DNSNameservers           *[]string
	DNSProvider              *string
	DNSAPIKey                *string // plain; sealed before it is stored; "" clears
	DNSAPISecret             *string
	DNSZoneID                *string
	RequiresVerification     *bool
	VerificationDocuments    *[]string
	VerificationInstructions *string
	AdminEmail               *string
	TechnicalEmail           *string
	BillingEmail             *string
	WhoisPrivacyEnabled      *bool
	AllowsSubdomains         *bool
	AllowsDNSManagement      *bool
	AllowsEmailForwarding    *bool
	DNSSECEnabled            *bool
	// Rules replaces every length rule when not nil.
	Rules *[]RuleInput
}

// newExtension holds the defaults of a new extension (spec section 9).
func newExtension() *Extension {
	return &Extension{BasePriceCents: 800, Active: true, MinNameLength: 1, MaxNameLength: 63,
		AllowedCharacters: "a-z0-9-", RenewalPeriodDays: 365, GracePeriodDays: 30, DNSProvider: "custom",
		DNSNameservers: []string{}, VerificationDocuments: []string{}, WhoisPrivacyEnabled: true,
		AllowsSubdomains: true, AllowsDNSManagement: true, AllowsEmailForwarding: true, DNSSECEnabled: true, Rules: []LengthRule{}}
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func (s *Service) apply(e *Extension, in ExtensionInput) error {
	if in.Extension != nil {
		e.Extension = NormalizeExtension(*in.Extension)
	}
	set(&e.BasePriceCents, in.BasePriceCents)
	if in.Description != nil {
		e.Description = strings.TrimSpace(*in.Description)
	}
	set(&e.Active, in.Active)
	set(&e.MinNameLength, in.MinNameLength)
	set(&e.MaxNameLength, in.MaxNameLength)
	if in.AllowedCharacters != nil {
		e.AllowedCharacters = strings.TrimSpace(*in.AllowedCharacters)
	}
	if in.RenewalPriceCents != nil {
		e.RenewalPriceCents = in.RenewalPriceCents
	}
	set(&e.RenewalPeriodDays, in.RenewalPeriodDays)
	set(&e.GracePeriodDays, in.GracePeriodDays)
	if in.DNSNameservers != nil {
		e.DNSNameservers = cleanList(*in.DNSNameservers, true)
	}
	set(&e.DNSProvider, in.DNSProvider)
	for _, c := range []struct {
		in     *string
		sealed *string
	}{{in.DNSAPIKey, &e.DNSAPIKeySealed}, {in.DNSAPISecret, &e.DNSAPISecretSealed}} {
		if c.in == nil {
			continue
		}
		if *c.sealed != "" {
			// The admin form sends back the masked value it was shown when
			// the secret was not retyped: keep the stored one.
			if plain, err := s.credentials.Open(*c.sealed); err == nil && *c.in == sealer.Mask(plain) {
				continue
			}
		}
		*c.sealed = ""
		if v := strings.TrimSpace(*c.in); v != "" {
			sealed, err := s.credentials.Seal(v)
			if err != nil {
				return err
			}
			*c.sealed = sealed
		}
	}
	set(&e.DNSZoneID, in.DNSZoneID)
	set(&e.RequiresVerification, in.RequiresVerification)
	if in.VerificationDocuments != nil {
		e.VerificationDocuments = cleanList(*in.VerificationDocuments, false)
	}
	set(&e.VerificationInstructions, in.VerificationInstructions)
	set(&e.AdminEmail, in.AdminEmail)
	set(&e.TechnicalEmail, in.TechnicalEmail)
	set(&e.BillingEmail, in.BillingEmail)
	set(&e.WhoisPrivacyEnabled, in.WhoisPrivacyEnabled)
	set(&e.AllowsSubdomains, in.AllowsSubdomains)
	set(&e.AllowsDNSManagement, in.AllowsDNSManagement)
	set(&e.AllowsEmailForwarding, in.AllowsEmailForwarding)
	set(&e.DNSSECEnabled, in.DNSSECEnabled)
	if in.Rules != nil {
		e.Rules = make([]LengthRule, len(*in.Rules))
		for i, r := range *in.Rules {
			e.Rules[i] = LengthRule{MinLength: r.MinLength, MaxLength: r.MaxLength, PriceCents: r.PriceCents,
				RegistrarPriceCents: r.RegistrarPriceCents, IsPromotion: r.IsPromotion,
				PromotionLabel: strings.TrimSpace(r.PromotionLabel), PromotionStart: r.PromotionStart.UTC(), PromotionEnd: r.PromotionEnd.UTC()}
			if !r.IsPromotion {
				e.Rules[i].PromotionLabel, e.Rules[i].PromotionStart, e.Rules[i].PromotionEnd = "", time.Time{}, time.Time{}
			}
		}
		sortRules(e.Rules)
	}
	return nil
}

// write runs fn in a transaction that also bumps the catalog version, then
// publishes the new catalog.
func (s *Service) write(ctx context.Context, fn func(ctx context.Context, tx *db.Tx) error) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Table("catalog_version").Set("version = version + 1").Where("id = 1").Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	return s.Load(ctx)
}

func (s *Service) saveRules(ctx context.Context, tx *db.Tx, e *Extension) error {
	if _, err := tx.NewDelete().Model((*LengthRule)(nil)).Where("extension_id = ?", e.ID).Exec(ctx); err != nil {
		return err
	}
	for i := range e.Rules {
		e.Rules[i].ID, e.Rules[i].ExtensionID = 0, e.ID
	}
	if len(e.Rules) > 0 {
		if _, err := tx.NewInsert().Model(&e.Rules).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func conflictOr(err error, msg string) error {
	if _, ok := db.UniqueViolation(err); ok {
		return apperr.New(apperr.Conflict, "%s", msg)
	}
	return err
}

// CreateExtension adds an extension and records describe's audit entry in
// the same transaction. Returns invalid for bad fields (the spec's messages)
// and conflict when it exists already.
func (s *Service) CreateExtension(ctx context.Context, in ExtensionInput, describe audit.Describe[*Extension]) (*Extension, error) {
	e := newExtension()
	if err := s.apply(e, in); err != nil {
		return nil, err
	}
	if err := validateExtension(e); err != nil {
		return nil, err
	}
	exists := apperr.New(apperr.Conflict, "Extension %s already exists", e.Extension)
	if s.current().byName[e.Extension] != nil {
		return nil, exists
	}
	e.CreatedAt = s.clock()
	e.UpdatedAt = e.CreatedAt
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(e).Exec(ctx); err != nil {
			return conflictOr(err, exists.Message)
		}
		if err := s.saveRules(ctx, tx, e); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, nil, e)
	})
	if err != nil {
		return nil, fmt.Errorf("catalog: create extension %s: %w", e.Extension, err)
	}
	return e, nil
}

func (s *Service) loadExtension(ctx context.Context, tx *db.Tx, id int64) (*Extension, error) {
	e := new(Extension)
	err := tx.NewSelect().Model(e).Relation("Rules").Where("?TableAlias.id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "Domain extension not found")
	}
	if err != nil {
		return nil, err
	}
	sortRules(e.Rules)
	return e, nil
}

// UpdateExtension changes the given fields of extension id and records
// describe's audit entry in the same transaction. Returns not_found,
// invalid, or conflict (a name taken, or renaming an extension with
// registered domains).
func (s *Service) UpdateExtension(ctx context.Context, id int64, in ExtensionInput, describe audit.Describe[*Extension]) (*Extension, error) {
	var e *Extension
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if e, err = s.loadExtension(ctx, tx, id); err != nil {
			return err
		}
		// apply replaces slices rather than changing them, so a shallow
		// copy keeps the extension as it was.
		before := *e
		oldName := e.Extension
		if err := s.apply(e, in); err != nil {
			return err
		}
		if err := validateExtension(e); err != nil {
			return err
		}
		if e.Extension != oldName {
			n, err := s.registrations.CountForExtension(ctx, tx, oldName)
			if err != nil {
				return err
			}
			if n > 0 {
				return apperr.New(apperr.Conflict, "Extension %s has registered domains and cannot be renamed", oldName)
			}
			if _, err := tx.NewUpdate().Model((*PremiumDomain)(nil)).Set("extension = ?", e.Extension).
				Where("extension = ?", oldName).Exec(ctx); err != nil {
				return conflictOr(err, "A premium domain already uses the new extension name")
			}
		}
		e.UpdatedAt = s.clock()
		if _, err := tx.NewUpdate().Model(e).WherePK().ExcludeColumn("id", "created_at").Exec(ctx); err != nil {
			return conflictOr(err, fmt.Sprintf("Extension %s already exists", e.Extension))
		}
		if in.Rules != nil {
			if err := s.saveRules(ctx, tx, e); err != nil {
				return err
			}
		}
		return audit.RecordChange(ctx, tx, describe, &before, e)
	})
	if err != nil {
		return nil, fmt.Errorf("catalog: update extension %d: %w", id, err)
	}
	return e, nil
}

// DeleteExtension removes extension id with its rules and premium names and
// records describe's audit entry in the same transaction. Returns not_found,
// or conflict while domains are registered under it (deactivate it instead).
func (s *Service) DeleteExtension(ctx context.Context, id int64, describe audit.Describe[*Extension]) error {
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		e, err := s.loadExtension(ctx, tx, id)
		if err != nil {
			return err
		}
		n, err := s.registrations.CountForExtension(ctx, tx, e.Extension)
		if err != nil {
			return err
		}
		if n > 0 {
			return apperr.New(apperr.Conflict, "Extension %s has %d registered domains: deactivate it instead of deleting it", e.Extension, n)
		}
		if _, err := tx.NewDelete().Model((*PremiumDomain)(nil)).Where("extension = ?", e.Extension).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*LengthRule)(nil)).Where("extension_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if _, err = tx.NewDelete().Model(e).WherePK().Exec(ctx); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, e, nil)
	})
	if err != nil {
		return fmt.Errorf("catalog: delete extension %d: %w", id, err)
	}
	return nil
}

// PremiumInput is what the premium forms send; nil fields keep their value
// on update and take their default on create.
type PremiumInput struct {
	Name               *string
	Extension          *string
	PriceCents         *int64
	IsAvailable        *bool
	DiscountPercentage *int
	// DiscountValidUntil sets the discount's end; a zero time clears it.
	DiscountValidUntil *time.Time
	Featured           *bool
	Description        *string
	Category           *string
	Keywords           *[]string
}

func applyPremium(p *PremiumDomain, in PremiumInput) {
	if in.Name != nil {
		p.Name = domainname.Normalize(*in.Name)
	}
	if in.Extension != nil {
		p.Extension = NormalizeExtension(*in.Extension)
	}
	set(&p.PriceCents, in.PriceCents)
	set(&p.IsAvailable, in.IsAvailable)
	set(&p.DiscountPercentage, in.DiscountPercentage)
	if in.DiscountValidUntil != nil {
		p.DiscountValidUntil = in.DiscountValidUntil.UTC()
	}
	set(&p.Featured, in.Featured)
	if in.Description != nil {
		p.Description = strings.TrimSpace(*in.Description)
	}
	if in.Category != nil {
		p.Category = strings.ToLower(strings.TrimSpace(*in.Category))
	}
	if in.Keywords != nil {
		p.Keywords = cleanList(*in.Keywords, false)
	}
}

func (s *Service) extensionExists(ext string) bool { return s.current().byName[ext] != nil }

// CreatePremium adds a premium name and records describe's audit entry in the
// same transaction. Returns invalid or conflict.
func (s *Service) CreatePremium(ctx context.Context, in PremiumInput, describe audit.Describe[*PremiumDomain]) (*PremiumDomain, error) {
	p := &PremiumDomain{PriceCents: 5000, IsAvailable: true, Category: "general", Keywords: []string{}}
	applyPremium(p, in)
	now := s.clock()
	if err := validatePremium(p, s.extensionExists, now, true); err != nil {
		return nil, err
	}
	exists := fmt.Sprintf("Premium domain %s already exists", describeName(p.Name, p.Extension))
	if s.current().premiumBy[premiumKey(p.Name, p.Extension)] != nil {
		return nil, apperr.New(apperr.Conflict, "%s", exists)
	}
	p.CreatedAt, p.UpdatedAt = now, now
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return conflictOr(err, exists)
		}
		return audit.RecordChange(ctx, tx, describe, nil, p)
	})
	if err != nil {
		return nil, fmt.Errorf("catalog: create premium %s: %w", describeName(p.Name, p.Extension), err)
	}
	return p, nil
}

// UpdatePremium changes the given fields of premium name id and records
// describe's audit entry in the same transaction. Returns not_found, invalid
// or conflict.
func (s *Service) UpdatePremium(ctx context.Context, id int64, in PremiumInput, describe audit.Describe[*PremiumDomain]) (*PremiumDomain, error) {
	p := new(PremiumDomain)
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		err := tx.NewSelect().Model(p).Where("id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "Premium domain not found")
		}
		if err != nil {
			return err
		}
		before := *p // applyPremium replaces the keywords slice rather than changing it
		applyPremium(p, in)
		if err := validatePremium(p, s.extensionExists, s.clock(), in.DiscountValidUntil != nil); err != nil {
			return err
		}
		p.UpdatedAt = s.clock()
		if _, err = tx.NewUpdate().Model(p).WherePK().ExcludeColumn("id", "created_at").Exec(ctx); err != nil {
			return conflictOr(err, fmt.Sprintf("Premium domain %s already exists", describeName(p.Name, p.Extension)))
		}
		return audit.RecordChange(ctx, tx, describe, &before, p)
	})
	if err != nil {
		return nil, fmt.Errorf("catalog: update premium %d: %w", id, err)
	}
	return p, nil
}

// DeletePremium removes premium name id and records describe's audit entry
// in the same transaction; not_found if there is none.
func (s *Service) DeletePremium(ctx context.Context, id int64, describe audit.Describe[*PremiumDomain]) error {
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		p := new(PremiumDomain)
		err := tx.NewSelect().Model(p).Where("id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "Premium domain not found")
		}
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model(p).WherePK().Exec(ctx); err != nil {
			return err
		}
		return audit.RecordChange(ctx, tx, describe, p, nil)
	})
	if err != nil {
		return fmt.Errorf("catalog: delete premium %d: %w", id, err)
	}
	return nil
}

// Bulk actions on premium names.
const (
	BulkMakeAvailable   = "makeAvailable"
	BulkMakeUnavailable = "makeUnavailable"
	BulkFeature         = "feature"
	BulkUnfeature       = "unfeature"
	BulkDelete          = "delete"
)

// BulkChange is what a bulk action did, for its audit entry: the action and
// the premium names it touched as they were before and after it (After is
// empty for a delete).
type BulkChange struct {
	Action string
	IDs    []int64
	Before []*PremiumDomain
	After  []*PremiumDomain
}

// BulkPremium applies action to the premium names ids, records describe's
// audit entry (its after side is the BulkChange) in the same transaction,
// and returns how many names it changed. Ids that do not exist are skipped.
func (s *Service) BulkPremium(ctx context.Context, action string, ids []int64, describe audit.Describe[*BulkChange]) (int, error) {
	if len(ids) == 0 {
		return 0, invalid("Please select at least one domain first")
	}
	if len(ids) > 1000 {
		return 0, invalid("Select at most 1000 domains at a time")
	}
	for _, id := range ids {
		if id < 1 {
			return 0, invalid("Premium domain ids are positive numbers; %d is not one", id)
		}
	}
	var column string
	var value bool
	switch action {
	case BulkMakeAvailable, BulkMakeUnavailable:
		column, value = "is_available", action == BulkMakeAvailable
	case BulkFeature, BulkUnfeature:
		column, value = "featured", action == BulkFeature
	case BulkDelete:
	default:
		return 0, invalid("Unknown bulk action %q: use makeAvailable, makeUnavailable, feature, unfeature or delete", action)
	}
	var changed int64
	err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
		change := &BulkChange{Action: action, IDs: ids}
		if describe != nil {
			if err := s.selectPremiums(ctx, tx, ids, &change.Before); err != nil {
				return err
			}
		}
		var res sql.Result
		var err error
		if action == BulkDelete {
			res, err = tx.NewDelete().Model((*PremiumDomain)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		} else {
			res, err = tx.NewUpdate().Model((*PremiumDomain)(nil)).Set("? = ?", bun.Ident(column), value).
				Set("updated_at = ?", s.clock()).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		}
		if err != nil {
			return err
		}
		changed, _ = res.RowsAffected()
		if describe == nil {
			return nil
		}
		if action != BulkDelete {
			if err := s.selectPremiums(ctx, tx, ids, &change.After); err != nil {
				return err
			}
		}
		return audit.RecordChange(ctx, tx, describe, nil, change)
	})
	if err != nil {
		return 0, fmt.Errorf("catalog: bulk %s: %w", action, err)
	}
	return int(changed), nil
}

func (s *Service) selectPremiums(ctx context.Context, tx *db.Tx, ids []int64, dst *[]*PremiumDomain) error {
	return tx.NewSelect().Model(dst).Where("id IN (?)", bun.In(ids)).Order("id").Scan(ctx)
}

// ClaimPremium takes premium name off the market inside tx, as part of
// registering it. Returns conflict when it was no longer available (someone
// else got it, or an admin reserved it). Call Load after tx commits.
func (s *Service) ClaimPremium(ctx context.Context, tx *db.Tx, name, extension string) error {
	res, err := tx.NewUpdate().Model((*PremiumDomain)(nil)).Set("is_available = ?", false).Set("updated_at = ?", s.clock()).
		Where("name = ?", name).Where("extension = ?", extension).Where("is_available = ?", true).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: claim %s: %w", describeName(name, extension), err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.Conflict, "%s is no longer available", describeName(name, extension))
	}
	_, err = tx.NewUpdate().Table("catalog_version").Set("version = version + 1").Where("id = 1").Exec(ctx)
	return err
}

// ReleasePremium puts premium name back on sale inside tx (the transaction
// that releases its expired registration). A name that is not premium is
// left alone.
func (s *Service) ReleasePremium(ctx context.Context, tx bun.IDB, name, extension string) error {
	res, err := tx.NewUpdate().Model((*PremiumDomain)(nil)).Set("is_available = ?", true).Set("updated_at = ?", s.clock()).
		Where("name = ?", name).Where("extension = ?", extension).Where("is_available = ?", false).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: release %s: %w", describeName(name, extension), err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		_, err = tx.NewUpdate().Table("catalog_version").Set("version = version + 1").Where("id = 1").Exec(ctx)
	}
	return err
}
