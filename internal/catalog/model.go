// Package catalog owns what Nameport sells: extensions with their
// configuration and length-based prices, premium names, and reserved labels.
// It quotes prices and answers availability from an in-memory snapshot that
// is rebuilt on every change (and polled from other nodes), so searches never
// wait on catalog queries.
package catalog

import (
	"time"

	"github.com/uptrace/bun"
)

// Extension is a parent domain under which names are sold (".inf.nz").
type Extension struct {
	bun.BaseModel `bun:"table:extensions"`

	ID                       int64     `bun:"id,pk,autoincrement"`
	Extension                string    `bun:"extension"` // lower case, with the leading dot
	BasePriceCents           int64     `bun:"base_price_cents"`
	Description              string    `bun:"description"`
	Active                   bool      `bun:"active"`
	MinNameLength            int       `bun:"min_name_length"`
	MaxNameLength            int       `bun:"max_name_length"`
	AllowedCharacters        string    `bun:"allowed_characters"`
	RenewalPriceCents        *int64    `bun:"renewal_price_cents"` // nil: the base price
	RenewalPeriodDays        int       `bun:"renewal_period_days"`
	GracePeriodDays          int       `bun:"grace_period_days"`
	DNSNameservers           []string  `bun:"dns_nameservers"`
	DNSProvider              string    `bun:"dns_provider"`
	DNSAPIKeySealed          string    `bun:"dns_api_key_sealed"`
	DNSAPISecretSealed       string    `bun:"dns_api_secret_sealed"`
	DNSZoneID                string    `bun:"dns_zone_id"`
	RequiresVerification     bool      `bun:"requires_verification"`
	VerificationDocuments    []string  `bun:"verification_documents"`
	VerificationInstructions string    `bun:"verification_instructions"`
	AdminEmail               string    `bun:"admin_email"`
	TechnicalEmail           string    `bun:"technical_email"`
	BillingEmail             string    `bun:"billing_email"`
	WhoisPrivacyEnabled      bool      `bun:"whois_privacy_enabled"`
	AllowsSubdomains         bool      `bun:"allows_subdomains"`
	AllowsDNSManagement      bool      `bun:"allows_dns_management"`
	AllowsEmailForwarding    bool      `bun:"allows_email_forwarding"`
	CreatedAt                time.Time `bun:"created_at"`
	UpdatedAt                time.Time `bun:"updated_at"`

	// Rules are the length-based prices, sorted by minimum length.
	Rules []LengthRule `bun:"rel:has-many,join:id=extension_id"`

	// DNSSECEnabled signs the extension's zone (when the server signs:
	// --dnssec); off, the zone is served unsigned.
	DNSSECEnabled bool `bun:"dnssec_enabled"`
}

// RenewalCents is what renewing a standard name costs for a year.
func (e *Extension) RenewalCents() int64 {
	if e.RenewalPriceCents != nil {
		return *e.RenewalPriceCents
	}
	return e.BasePriceCents
}

// LengthRule prices names whose length lies in [MinLength, MaxLength].
type LengthRule struct {
	bun.BaseModel `bun:"table:length_rules"`

	ID                  int64     `bun:"id,pk,autoincrement"`
	ExtensionID         int64     `bun:"extension_id"`
	MinLength           int       `bun:"min_length"`
	MaxLength           int       `bun:"max_length"`
	PriceCents          int64     `bun:"price_cents"`
	RegistrarPriceCents *int64    `bun:"registrar_price_cents"`
	IsPromotion         bool      `bun:"is_promotion"`
	PromotionLabel      string    `bun:"promotion_label"`
	PromotionStart      time.Time `bun:"promotion_start,nullzero"`
	PromotionEnd        time.Time `bun:"promotion_end,nullzero"`
}

// appliesTo reports whether the rule prices a name of length n at now: its
// range holds n and, for a promotion, now lies inside its window.
func (r *LengthRule) appliesTo(n int, now time.Time) bool {
	if n < r.MinLength || n > r.MaxLength {
		return false
	}
	return r.InForce(now)
}

// InForce reports whether the rule sets prices at now: always, or for a
// promotion, between its start and end (either may be open).
func (r *LengthRule) InForce(now time.Time) bool {
	if !r.IsPromotion {
		return true
	}
	return (r.PromotionStart.IsZero() || !now.Before(r.PromotionStart)) &&
		(r.PromotionEnd.IsZero() || now.Before(r.PromotionEnd))
}

// PremiumDomain is a name sold at its own price.
type PremiumDomain struct {
	bun.BaseModel `bun:"table:premium_domains"`

	ID                 int64     `bun:"id,pk,autoincrement"`
	Name               string    `bun:"name"`      // the label, lower case
	Extension          string    `bun:"extension"` // with the leading dot
	PriceCents         int64     `bun:"price_cents"`
	IsAvailable        bool      `bun:"is_available"` // false: Reserved, not for sale
	DiscountPercentage int       `bun:"discount_percentage"`
	DiscountValidUntil time.Time `bun:"discount_valid_until,nullzero"`
	Featured           bool      `bun:"featured"`
	Description        string    `bun:"description"`
	Category           string    `bun:"category"`
	Keywords           []string  `bun:"keywords"`
	CreatedAt          time.Time `bun:"created_at"`
	UpdatedAt          time.Time `bun:"updated_at"`
}

// DiscountLive reports whether the discount applies at now: a percentage
// above 0 whose valid-until date (if any) has not passed.
func (p *PremiumDomain) DiscountLive(now time.Time) bool {
	return p.DiscountPercentage > 0 && (p.DiscountValidUntil.IsZero() || now.Before(p.DiscountValidUntil))
}

// Bounds of an extension's settings (its name lengths and its length
// rules' lengths are a label's: 1 to domainname.MaxLabel).
const (
	MinDescription       = 5 // characters
	MaxDescription       = 500
	MinRenewalPeriodDays = 30
	MaxRenewalPeriodDays = 3650
	MaxGracePeriodDays   = 365
)

// Price bounds the catalog accepts.
const (
	MinBasePriceCents    = 100       // an extension's base price, and a length rule's registrar price: at least $1
	MinPremiumPriceCents = 1000      // a premium name: $10 …
	MaxPremiumPriceCents = 1_000_000 // … to $10,000
	MaxDiscountPercent   = 100
)

// Categories of premium names.
var Categories = []string{"general", "business", "technology", "education", "entertainment",
	"health", "finance", "travel", "sports", "lifestyle"}

// DNS providers an extension's zone can be hosted with.
var DNSProviders = []string{"custom", "cloudflare", "route53", "digitalocean", "gcp", "azure"}
