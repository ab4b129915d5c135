package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/pkg/domainname"
)

// Registrations tells the catalog which names are taken; the registration
// service owns that.
type Registrations interface {
	IsRegistered(ctx context.Context, name, extension string) (bool, error)
	// CountForExtension counts through q, so that it can run inside the
	// catalog's transaction.
	CountForExtension(ctx context.Context, q bun.IDB, extension string) (int, error)
}

// Options configure a Service.
type Options struct {
	// Secret is the server secret; DNS provider credentials are sealed with it.
	Secret []byte
	// Now is the clock; tests inject their own.
	Now func() time.Time
}

// Service is the catalog.
type Service struct {
	db            *db.DB
	registrations Registrations
	credentials   *sealer.Sealer
	now           func() time.Time
	snap          atomic.Pointer[snapshot]
}

// snapshot is the whole catalog at one version, never modified once
// published.
type snapshot struct {
	version    int64
	extensions []*Extension // by extension name, rules sorted
	byName     map[string]*Extension
	premium    []*PremiumDomain // featured first, then by name
	premiumBy  map[string]*PremiumDomain
}

// NewService returns the catalog over d. Call Load before use.
func NewService(d *db.DB, registrations Registrations, opts Options) (*Service, error) {
	creds, err := sealer.New(opts.Secret, "dns-credentials")
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: d, registrations: registrations, credentials: creds, now: opts.Now}, nil
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func premiumKey(name, ext string) string { return name + ext }

// Load reads the catalog from the database and publishes it.
func (s *Service) Load(ctx context.Context) error {
	// The version is read first: a change committed while the rest is read
	// bumps it past this one, so the next poll loads again.
	var version int64
	if err := s.db.Bun.NewSelect().Table("catalog_version").Column("version").Where("id = 1").Scan(ctx, &version); err != nil {
		return fmt.Errorf("catalog: read version: %w", err)
	}
	var exts []*Extension
	if err := s.db.Bun.NewSelect().Model(&exts).Relation("Rules").Order("extension").Scan(ctx); err != nil {
		return fmt.Errorf("catalog: load extensions: %w", err)
	}
	var premium []*PremiumDomain
	if err := s.db.Bun.NewSelect().Model(&premium).Order("featured DESC", "name", "extension").Scan(ctx); err != nil {
		return fmt.Errorf("catalog: load premium domains: %w", err)
	}
	snap := &snapshot{version: version, extensions: exts, byName: make(map[string]*Extension, len(exts)),
		premium: premium, premiumBy: make(map[string]*PremiumDomain, len(premium))}
	for _, e := range exts {
		sortRules(e.Rules)
		snap.byName[e.Extension] = e
	}
	for _, p := range premium {
		snap.premiumBy[premiumKey(p.Name, p.Extension)] = p
	}
	s.snap.Store(snap)
	return nil
}

func (s *Service) current() *snapshot {
	if snap := s.snap.Load(); snap != nil {
		return snap
	}
	return &snapshot{byName: map[string]*Extension{}, premiumBy: map[string]*PremiumDomain{}}
}

// Watch reloads the catalog whenever another node changes it, checking every
// interval, until ctx ends.
func (s *Service) Watch(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var version int64
		if err := s.db.Bun.NewSelect().Table("catalog_version").Column("version").Where("id = 1").Scan(ctx, &version); err != nil {
			if ctx.Err() == nil {
				logger.Warn("catalog: poll version", "err", err)
			}
			continue
		}
		if version != s.current().version {
			if err := s.Load(ctx); err != nil && ctx.Err() == nil {
				logger.Warn("catalog: reload", "err", err)
			}
		}
	}
}

// Extensions returns the extensions, all of them or the active ones only.
func (s *Service) Extensions(includeInactive bool) []*Extension {
	out := []*Extension{}
	for _, e := range s.current().extensions {
		if e.Active || includeInactive {
			out = append(out, e)
		}
	}
	return out
}

// ActiveExtension returns the active extension ext (normalised), or nil.
func (s *Service) ActiveExtension(ext string) *Extension {
	if e := s.current().byName[NormalizeExtension(ext)]; e != nil && e.Active {
		return e
	}
	return nil
}

// PremiumDomains returns the premium names, featured first: the available
// ones only unless includeReserved.
func (s *Service) PremiumDomains(includeReserved bool) []*PremiumDomain {
	out := []*PremiumDomain{}
	for _, p := range s.current().premium {
		if p.IsAvailable || includeReserved {
			out = append(out, p)
		}
	}
	return out
}

// QuotePremium returns what buyer pays now for premium name p.
func (s *Service) QuotePremium(p *PremiumDomain, buyer Buyer) Quote {
	ext := s.current().byName[p.Extension]
	if ext == nil {
		ext = &Extension{Extension: p.Extension}
	}
	return quote(ext, p, p.Name, buyer, s.clock())
}

// DNSCredentials returns the DNS provider API key and secret of e, unsealed.
func (s *Service) DNSCredentials(e *Extension) (key, secret string, err error) {
	open := func(sealed string) (string, error) {
		if sealed == "" {
			return "", nil
		}
		return s.credentials.Open(sealed)
	}
	if key, err = open(e.DNSAPIKeySealed); err != nil {
		return "", "", fmt.Errorf("catalog: dns api key of %s: %w", e.Extension, err)
	}
	if secret, err = open(e.DNSAPISecretSealed); err != nil {
		return "", "", fmt.Errorf("catalog: dns api secret of %s: %w", e.Extension, err)
	}
	return key, secret, nil
}

// Unavailability reasons.
const (
	ReasonRegistered      = "registered"
	ReasonReserved        = "reserved"
	ReasonPremiumReserved = "premium_reserved"
)

// Availability answers a search.
type Availability struct {
	Name      string // lower case
	Extension string
	Available bool
	Reason    string // why not, when not available
	Quote     Quote
}

// Check tells whether name can be registered under extension and what buyer
// would pay a year. Returns invalid, with the product's messages, for names
// the extension does not accept.
func (s *Service) Check(ctx context.Context, name, extension string, buyer Buyer) (Availability, error) {
	a, err := s.Offer(name, extension, buyer)
	if err != nil || !a.Available {
		return a, err
	}
	taken, err := s.registrations.IsRegistered(ctx, a.Name, a.Extension)
	if err != nil {
		return Availability{}, fmt.Errorf("catalog: check %s: %w", describeName(a.Name, a.Extension), err)
	}
	if taken {
		a.Available, a.Reason = false, ReasonRegistered
	}
	return a, nil
}

// Offer is Check without asking whether someone holds the name: what the
// catalog offers (validation, reserved and premium names, the price). A
// registration uses it and lets the database's unique index say whether the
// name is taken, in the same transaction, rather than ask first.
func (s *Service) Offer(name, extension string, buyer Buyer) (Availability, error) {
	snap := s.current()
	raw := strings.TrimSpace(name)
	if err := checkLabel(raw); err != nil {
		return Availability{}, err
	}
	name = strings.ToLower(raw)
	ext := snap.byName[NormalizeExtension(extension)]
	if ext == nil || !ext.Active {
		var offered []string
		for _, e := range snap.extensions {
			if e.Active {
				offered = append(offered, e.Extension)
			}
		}
		return Availability{}, invalid("Extension must be one of %s", strings.Join(offered, ", "))
	}
	if n := len(name); n < ext.MinNameLength || n > ext.MaxNameLength {
		return Availability{}, invalid("Names under %s must be %d to %d characters long", ext.Extension, ext.MinNameLength, ext.MaxNameLength)
	}
	if set, _ := parseAllowed(ext.AllowedCharacters); !set.allows(name) {
		return Availability{}, invalid("Names under %s may only use the characters %s", ext.Extension, ext.AllowedCharacters)
	}

	premium := snap.premiumBy[premiumKey(name, ext.Extension)]
	a := Availability{Name: name, Extension: ext.Extension, Available: true,
		Quote: quote(ext, premium, name, buyer, s.clock())}
	switch {
	case IsReserved(name):
		a.Available, a.Reason = false, ReasonReserved
	case premium != nil && !premium.IsAvailable:
		a.Available, a.Reason = false, ReasonPremiumReserved
	}
	return a, nil
}

func checkLabel(label string) error {
	if err := domainname.CheckLabel(label); err != nil {
		return invalid("%s", err.Error())
	}
	return nil
}

// Extension returns extension ext (normalised), active or not, or nil.
func (s *Service) Extension(ext string) *Extension {
	return s.current().byName[NormalizeExtension(ext)]
}

// CheckDNSManagement refuses (forbidden) the records of names under ext
// when the extension does not allow DNS management here. /api and /v1 ask
// it before every change of records.
func (s *Service) CheckDNSManagement(ext string) error {
	if e := s.Extension(ext); e != nil && !e.AllowsDNSManagement {
		return apperr.New(apperr.Forbidden, "DNS management is not available for %s domains", e.Extension)
	}
	return nil
}

// CheckEmailForwarding refuses (forbidden) email forwarding for names under
// ext when the extension does not allow it. The forwarding service asks it
// before turning forwarding on or adding a rule, and for every recipient.
func (s *Service) CheckEmailForwarding(ext string) error {
	if e := s.Extension(ext); e != nil && !e.AllowsEmailForwarding {
		return apperr.New(apperr.Forbidden, "Email forwarding is not available for %s domains", e.Extension)
	}
	return nil
}

// Renewal is what keeping a registered name costs.
type Renewal struct {
	PriceCents int64 // for one period
	PeriodDays int
	GraceDays  int // after expiry, before the name is released
}

// RenewalTerms returns what buyer pays to renew name under extension, and
// the extension's renewal period and grace period. An extension removed from
// the catalog keeps the defaults: a year, 30 days' grace, the base price.
func (s *Service) RenewalTerms(name, extension string, buyer Buyer) Renewal {
	snap := s.current()
	ext := snap.byName[extension]
	if ext == nil {
		return Renewal{PriceCents: 800, PeriodDays: 365, GraceDays: 30}
	}
	q := quote(ext, snap.premiumBy[premiumKey(name, ext.Extension)], name, buyer, s.clock())
	return Renewal{PriceCents: q.RenewalCents, PeriodDays: ext.RenewalPeriodDays, GraceDays: ext.GracePeriodDays}
}
