package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/pkg/money"
)

// buyerOf prices for u: registrars at their tier, everyone else at retail.
func buyerOf(u *account.User) catalog.Buyer {
	if u != nil && u.IsRegistrar() {
		return catalog.Buyer{Tier: u.Tier}
	}
	return catalog.Buyer{}
}

// centsOf converts an optional dollar amount; field names the amount in the
// message.
func centsOf(dollars *float64, field string) (*int64, error) {
	if dollars == nil {
		return nil, nil
	}
	c, ok := money.FromDollars(*dollars)
	if !ok {
		return nil, apperr.New(apperr.Invalid, "%s must be an amount in dollars with at most 2 decimals", field)
	}
	return &c, nil
}

// parseDate accepts a date ("2026-12-31", taken as the start of that day in
// UTC) or an RFC 3339 time; "" is the zero time.
func parseDate(s, field string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, apperr.New(apperr.Invalid, "%s must be a date like 2026-12-31", field)
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// ---- Availability ----

type CheckInput struct {
	Name      string `query:"name" doc:"The name to check, without extension" example:"example"`
	Extension string `query:"extension" doc:"The extension, with its dot" example:".inf.nz"`
}

type checkBody struct {
	Domain       string  `json:"domain" doc:"The name, lower case, without extension"`
	Extension    string  `json:"extension"`
	Available    bool    `json:"available"`
	IsPremium    bool    `json:"isPremium"`
	Price        float64 `json:"price" doc:"Yearly registration price in dollars for the caller (wholesale for registrars)"`
	RenewalPrice float64 `json:"renewalPrice" doc:"Yearly renewal price in dollars for the caller"`
	Reason       string  `json:"reason,omitempty" enum:"registered,reserved,premium_reserved" doc:"Why the name is not available"`
	Promotion    string  `json:"promotion,omitempty" doc:"The promotion that sets the price"`
}

type CheckOutput struct {
	Body envelope[checkBody]
}

// ---- Extensions ----

type ruleBody struct {
	MinLength          int        `json:"minLength" minimum:"1" maximum:"63"`
	MaxLength          int        `json:"maxLength" minimum:"1" maximum:"63"`
	Price              float64    `json:"price" doc:"End-user price in dollars"`
	RegistrarPrice     *float64   `json:"registrarPrice,omitempty" doc:"Registrar price in dollars"`
	IsPromotion        bool       `json:"isPromotion"`
	PromotionLabel     string     `json:"promotionLabel"`
	PromotionStartDate *time.Time `json:"promotionStartDate"`
	PromotionEndDate   *time.Time `json:"promotionEndDate"`
	InForce            bool       `json:"inForce" doc:"Whether the rule sets prices now (a promotion only between its dates)"`
}

// extensionBody is an extension. Configuration fields (the pointers) are
// shown to admins only.
type extensionBody struct {
	ID                       int64      `json:"id"`
	Extension                string     `json:"extension" example:".inf.nz"`
	BasePrice                float64    `json:"basePrice"`
	Description              string     `json:"description"`
	Active                   bool       `json:"active"`
	MinNameLength            int        `json:"minNameLength"`
	MaxNameLength            int        `json:"maxNameLength"`
	AllowedCharacters        string     `json:"allowedCharacters"`
	RenewalPrice             float64    `json:"renewalPrice"`
	RenewalPeriodDays        int        `json:"renewalPeriodDays"`
	GracePeriodDays          int        `json:"gracePeriodDays"`
	LengthBasedPricing       []ruleBody `json:"lengthBasedPricing"`
	DNSNameservers           []string   `json:"dnsNameservers,omitempty"`
	DNSProvider              *string    `json:"dnsProvider,omitempty"`
	HasDNSAPIKey             *bool      `json:"hasDnsApiKey,omitempty" doc:"Whether a DNS API key is stored; keys are never sent back"`
	HasDNSAPISecret          *bool      `json:"hasDnsApiSecret,omitempty"`
	DNSAPIKey                *string    `json:"dnsApiKey,omitempty" doc:"The stored key masked: only its last 4 characters are shown; sending it back unchanged keeps the key"`
	DNSAPISecret             *string    `json:"dnsApiSecret,omitempty" doc:"The stored secret masked like dnsApiKey"`
	DNSZoneID                *string    `json:"dnsZoneId,omitempty"`
	RequiresVerification     *bool      `json:"requiresVerification,omitempty"`
	VerificationDocuments    []string   `json:"verificationDocuments,omitempty"`
	VerificationInstructions *string    `json:"verificationInstructions,omitempty"`
	AdminEmail               *string    `json:"adminEmail,omitempty"`
	TechnicalEmail           *string    `json:"technicalEmail,omitempty"`
	BillingEmail             *string    `json:"billingEmail,omitempty"`
	WhoisPrivacyEnabled      *bool      `json:"whoisPrivacyEnabled,omitempty"`
	AllowsSubdomains         *bool      `json:"allowsSubdomains,omitempty"`
	AllowsDNSManagement      *bool      `json:"allowsDnsManagement,omitempty"`
	AllowsEmailForwarding    *bool      `json:"allowsEmailForwarding,omitempty"`
	DNSSECEnabled            *bool      `json:"dnssecEnabled,omitempty" doc:"Whether the extension's zone is signed with DNSSEC (when the server signs: --dnssec)"`
	ReservedNames            []string   `json:"reservedNames,omitempty" doc:"Labels nobody can register under any extension"`
	CreatedAt                *time.Time `json:"createdAt,omitempty"`
	UpdatedAt                *time.Time `json:"updatedAt,omitempty"`
}

func toExtensionBody(svc *catalog.Service, e *catalog.Extension, admin bool) extensionBody {
	b := extensionBody{ID: e.ID, Extension: e.Extension, BasePrice: money.Dollars(e.BasePriceCents),
		Description: e.Description, Active: e.Active, MinNameLength: e.MinNameLength, MaxNameLength: e.MaxNameLength,
		AllowedCharacters: e.AllowedCharacters, RenewalPrice: money.Dollars(e.RenewalCents()),
		RenewalPeriodDays: e.RenewalPeriodDays, GracePeriodDays: e.GracePeriodDays, LengthBasedPricing: []ruleBody{}}
	for _, r := range e.Rules {
		rb := ruleBody{MinLength: r.MinLength, MaxLength: r.MaxLength, Price: money.Dollars(r.PriceCents),
			IsPromotion: r.IsPromotion, PromotionLabel: r.PromotionLabel,
			PromotionStartDate: timeOrNil(r.PromotionStart), PromotionEndDate: timeOrNil(r.PromotionEnd),
			InForce: r.InForce(time.Now())}
		if r.RegistrarPriceCents != nil {
			v := money.Dollars(*r.RegistrarPriceCents)
			rb.RegistrarPrice = &v
		}
		b.LengthBasedPricing = append(b.LengthBasedPricing, rb)
	}
	if admin {
		hasKey, hasSecret := e.DNSAPIKeySealed != "", e.DNSAPISecretSealed != ""
		b.DNSNameservers, b.DNSProvider, b.HasDNSAPIKey, b.HasDNSAPISecret = e.DNSNameservers, &e.DNSProvider, &hasKey, &hasSecret
		// The credentials are sealed at rest and never sent back in full, not
		// even to admins; a credential that cannot be opened shows as the mask.
		key, secret, err := svc.DNSCredentials(e)
		maskedKey, maskedSecret := sealer.Mask(key), sealer.Mask(secret)
		if err != nil {
			maskedKey, maskedSecret = sealedMask(hasKey), sealedMask(hasSecret)
		}
		if maskedKey != "" {
			b.DNSAPIKey = &maskedKey
		}
		if maskedSecret != "" {
			b.DNSAPISecret = &maskedSecret
		}
		b.DNSZoneID, b.RequiresVerification = &e.DNSZoneID, &e.RequiresVerification
		b.VerificationDocuments, b.VerificationInstructions = e.VerificationDocuments, &e.VerificationInstructions
		b.AdminEmail, b.TechnicalEmail, b.BillingEmail = &e.AdminEmail, &e.TechnicalEmail, &e.BillingEmail
		b.WhoisPrivacyEnabled, b.AllowsSubdomains = &e.WhoisPrivacyEnabled, &e.AllowsSubdomains
		b.AllowsDNSManagement, b.AllowsEmailForwarding = &e.AllowsDNSManagement, &e.AllowsEmailForwarding
		b.DNSSECEnabled = &e.DNSSECEnabled
		b.ReservedNames, b.CreatedAt, b.UpdatedAt = catalog.ReservedNames, &e.CreatedAt, &e.UpdatedAt
	}
	return b
}

// sealedMask is the mask of a stored credential that could not be opened.
func sealedMask(stored bool) string {
	if stored {
		return sealer.MaskPrefix // the bare mask: shows no character
	}
	return ""
}

type ruleInputBody struct {
	MinLength          int      `json:"minLength"`
	MaxLength          int      `json:"maxLength"`
	Price              float64  `json:"price"`
	RegistrarPrice     *float64 `json:"registrarPrice,omitempty"`
	IsPromotion        bool     `json:"isPromotion,omitempty"`
	PromotionLabel     string   `json:"promotionLabel,omitempty"`
	PromotionStartDate *string  `json:"promotionStartDate,omitempty"`
	PromotionEndDate   *string  `json:"promotionEndDate,omitempty"`
}

// extensionInputBody carries the fields of both admin forms; every field is
// optional (defaults on create, unchanged on update).
type extensionInputBody struct {
	Extension                *string          `json:"extension,omitempty" doc:"Like .example.tld (the leading dot may be left out)"`
	BasePrice                *float64         `json:"basePrice,omitempty"`
	Description              *string          `json:"description,omitempty"`
	Active                   *bool            `json:"active,omitempty"`
	MinNameLength            *int             `json:"minNameLength,omitempty"`
	MaxNameLength            *int             `json:"maxNameLength,omitempty"`
	AllowedCharacters        *string          `json:"allowedCharacters,omitempty"`
	RenewalPrice             *float64         `json:"renewalPrice,omitempty"`
	RenewalPeriodDays        *int             `json:"renewalPeriodDays,omitempty"`
	GracePeriodDays          *int             `json:"gracePeriodDays,omitempty"`
	DNSNameservers           *[]string        `json:"dnsNameservers,omitempty"`
	DNSProvider              *string          `json:"dnsProvider,omitempty"`
	DNSAPIKey                *string          `json:"dnsApiKey,omitempty" doc:"Stored encrypted; an empty string removes it"`
	DNSAPISecret             *string          `json:"dnsApiSecret,omitempty" doc:"Stored encrypted; an empty string removes it"`
	DNSZoneID                *string          `json:"dnsZoneId,omitempty"`
	RequiresVerification     *bool            `json:"requiresVerification,omitempty"`
	VerificationDocuments    *[]string        `json:"verificationDocuments,omitempty"`
	VerificationInstructions *string          `json:"verificationInstructions,omitempty"`
	AdminEmail               *string          `json:"adminEmail,omitempty"`
	TechnicalEmail           *string          `json:"technicalEmail,omitempty"`
	BillingEmail             *string          `json:"billingEmail,omitempty"`
	WhoisPrivacyEnabled      *bool            `json:"whoisPrivacyEnabled,omitempty"`
	AllowsSubdomains         *bool            `json:"allowsSubdomains,omitempty"`
	AllowsDNSManagement      *bool            `json:"allowsDnsManagement,omitempty"`
	AllowsEmailForwarding    *bool            `json:"allowsEmailForwarding,omitempty"`
	DNSSECEnabled            *bool            `json:"dnssecEnabled,omitempty" doc:"Sign the extension's zone with DNSSEC (default true); off, it is served unsigned, without DNSKEY"`
	LengthBasedPricing       *[]ruleInputBody `json:"lengthBasedPricing,omitempty" doc:"Replaces every length rule"`
}

func (b extensionInputBody) toInput() (catalog.ExtensionInput, error) {
	in := catalog.ExtensionInput{Extension: b.Extension, Description: b.Description, Active: b.Active,
		MinNameLength: b.MinNameLength, MaxNameLength: b.MaxNameLength, AllowedCharacters: b.AllowedCharacters,
		RenewalPeriodDays: b.RenewalPeriodDays, GracePeriodDays: b.GracePeriodDays, DNSNameservers: b.DNSNameservers,
		DNSProvider: b.DNSProvider, DNSAPIKey: b.DNSAPIKey, DNSAPISecret: b.DNSAPISecret, DNSZoneID: b.DNSZoneID,
		RequiresVerification: b.RequiresVerification, VerificationDocuments: b.VerificationDocuments,
		VerificationInstructions: b.VerificationInstructions, AdminEmail: b.AdminEmail, TechnicalEmail: b.TechnicalEmail,
		BillingEmail: b.BillingEmail, WhoisPrivacyEnabled: b.WhoisPrivacyEnabled, AllowsSubdomains: b.AllowsSubdomains,
		AllowsDNSManagement: b.AllowsDNSManagement, AllowsEmailForwarding: b.AllowsEmailForwarding,
		DNSSECEnabled: b.DNSSECEnabled}
	var err error
	if in.BasePriceCents, err = centsOf(b.BasePrice, "Base price"); err != nil {
		return in, err
	}
	if in.RenewalPriceCents, err = centsOf(b.RenewalPrice, "Renewal price"); err != nil {
		return in, err
	}
	if b.LengthBasedPricing != nil {
		rules := make([]catalog.RuleInput, len(*b.LengthBasedPricing))
		for i, r := range *b.LengthBasedPricing {
			price, ok := money.FromDollars(r.Price)
			if !ok {
				return in, apperr.New(apperr.Invalid, "Rule price must be an amount in dollars with at most 2 decimals")
			}
			rules[i] = catalog.RuleInput{MinLength: r.MinLength, MaxLength: r.MaxLength, PriceCents: price,
				IsPromotion: r.IsPromotion, PromotionLabel: r.PromotionLabel}
			if rules[i].RegistrarPriceCents, err = centsOf(r.RegistrarPrice, "Registrar price"); err != nil {
				return in, err
			}
			for _, d := range []struct {
				in  *string
				out *time.Time
				f   string
			}{{r.PromotionStartDate, &rules[i].PromotionStart, "Promotion start date"}, {r.PromotionEndDate, &rules[i].PromotionEnd, "Promotion end date"}} {
				if d.in != nil {
					if *d.out, err = parseDate(*d.in, d.f); err != nil {
						return in, err
					}
				}
			}
		}
		in.Rules = &rules
	}
	return in, nil
}

type ExtensionListOutput struct {
	Body envelope[[]extensionBody]
}

type ExtensionWriteInput struct {
	Body extensionInputBody
}

type ExtensionUpdateInput struct {
	ID   int64 `path:"id"`
	Body extensionInputBody
}

type ExtensionOutput struct {
	Body envelope[extensionBody]
}

type IDInput struct {
	ID int64 `path:"id"`
}

type DoneOutput struct {
	Body struct {
		Success bool `json:"success"`
	}
}

func done() *DoneOutput {
	out := &DoneOutput{}
	out.Body.Success = true
	return out
}

// ---- Premium names ----

type premiumBody struct {
	ID                 int64      `json:"id"`
	Name               string     `json:"name" doc:"Without extension"`
	Extension          string     `json:"extension"`
	Price              float64    `json:"price" doc:"List price per year in dollars"`
	CurrentPrice       float64    `json:"currentPrice" doc:"What the caller pays now: live discount applied, wholesale for registrars"`
	DiscountPercentage int        `json:"discountPercentage" doc:"The live discount (admins: the stored one)"`
	DiscountValidUntil *time.Time `json:"discountValidUntil" doc:"End of the live discount (admins: the stored one)"`
	DiscountActive     bool       `json:"discountActive"`
	Featured           bool       `json:"featured"`
	Description        string     `json:"description"`
	Category           string     `json:"category"`
	Keywords           []string   `json:"keywords"`
	IsAvailable        bool       `json:"isAvailable"`
	CreatedAt          *time.Time `json:"createdAt,omitempty"`
	UpdatedAt          *time.Time `json:"updatedAt,omitempty"`
}

func toPremiumBody(svc *catalog.Service, p *catalog.PremiumDomain, buyer catalog.Buyer, admin bool, now time.Time) premiumBody {
	b := premiumBody{ID: p.ID, Name: p.Name, Extension: p.Extension, Price: money.Dollars(p.PriceCents),
		CurrentPrice: money.Dollars(svc.QuotePremium(p, buyer).PriceCents), DiscountActive: p.DiscountLive(now),
		Featured: p.Featured, Description: p.Description, Category: p.Category, Keywords: p.Keywords, IsAvailable: p.IsAvailable}
	if b.Keywords == nil {
		b.Keywords = []string{}
	}
	if admin || b.DiscountActive {
		b.DiscountPercentage, b.DiscountValidUntil = p.DiscountPercentage, timeOrNil(p.DiscountValidUntil)
	}
	if admin {
		b.CreatedAt, b.UpdatedAt = &p.CreatedAt, &p.UpdatedAt
	}
	return b
}

type premiumInputBody struct {
	Name               *string   `json:"name,omitempty" doc:"Without extension"`
	Extension          *string   `json:"extension,omitempty"`
	Price              *float64  `json:"price,omitempty" doc:"Dollars, 10 to 10000"`
	IsAvailable        *bool     `json:"isAvailable,omitempty"`
	DiscountPercentage *int      `json:"discountPercentage,omitempty"`
	DiscountValidUntil *string   `json:"discountValidUntil,omitempty" doc:"A date like 2026-12-31; an empty string removes the end date"`
	Featured           *bool     `json:"featured,omitempty"`
	Description        *string   `json:"description,omitempty"`
	Category           *string   `json:"category,omitempty"`
	Keywords           *[]string `json:"keywords,omitempty"`
}

func (b premiumInputBody) toInput() (catalog.PremiumInput, error) {
	in := catalog.PremiumInput{Name: b.Name, Extension: b.Extension, IsAvailable: b.IsAvailable,
		DiscountPercentage: b.DiscountPercentage, Featured: b.Featured, Description: b.Description,
		Category: b.Category, Keywords: b.Keywords}
	var err error
	if in.PriceCents, err = centsOf(b.Price, "Price"); err != nil {
		return in, err
	}
	if b.DiscountValidUntil != nil {
		t, err := parseDate(*b.DiscountValidUntil, "Discount end date")
		if err != nil {
			return in, err
		}
		in.DiscountValidUntil = &t
	}
	return in, nil
}

type PremiumListOutput struct {
	Body envelope[[]premiumBody]
}

type PremiumWriteInput struct {
	Body premiumInputBody
}

type PremiumUpdateInput struct {
	ID   int64 `path:"id"`
	Body premiumInputBody
}

type PremiumOutput struct {
	Body envelope[premiumBody]
}

type BulkInput struct {
	Body struct {
		Action string  `json:"action" enum:"makeAvailable,makeUnavailable,feature,unfeature,delete"`
		IDs    []int64 `json:"ids" maxItems:"1000"`
	}
}

type bulkResultBody struct {
	Changed int `json:"changed" doc:"How many of the premium names the action changed (ids that do not exist are skipped)"`
}

type BulkOutput struct {
	Body envelope[bulkResultBody]
}

// describeExtension builds the audit entry of admin's change to an
// extension, with the extension as admins see it.
func describeExtension(cat *catalog.Service, admin *account.User, action string) audit.Describe[*catalog.Extension] {
	return func(before, after *catalog.Extension) audit.Entry {
		e := audit.Entry{ActorID: admin.ID, Action: action, TargetType: "extension"}
		if before != nil {
			e.TargetID, e.Before = audit.ID(before.ID), toExtensionBody(cat, before, true)
		}
		if after != nil {
			e.TargetID, e.After = audit.ID(after.ID), toExtensionBody(cat, after, true)
		}
		return e
	}
}

// describePremium builds the audit entry of admin's change to a premium
// name, with the name as admins see it.
func describePremium(cat *catalog.Service, admin *account.User, action string) audit.Describe[*catalog.PremiumDomain] {
	return func(before, after *catalog.PremiumDomain) audit.Entry {
		e := audit.Entry{ActorID: admin.ID, Action: action, TargetType: "premium_domain"}
		now := time.Now()
		if before != nil {
			e.TargetID, e.Before = audit.ID(before.ID), toPremiumBody(cat, before, catalog.Buyer{}, true, now)
		}
		if after != nil {
			e.TargetID, e.After = audit.ID(after.ID), toPremiumBody(cat, after, catalog.Buyer{}, true, now)
		}
		return e
	}
}

// describeBulk builds the audit entry of admin's bulk action: the names
// before it, and after it the action with the names as they are now (none
// after a delete).
func describeBulk(cat *catalog.Service, admin *account.User) audit.Describe[*catalog.BulkChange] {
	return func(_, c *catalog.BulkChange) audit.Entry {
		now := time.Now()
		bodies := func(list []*catalog.PremiumDomain) []premiumBody {
			out := make([]premiumBody, len(list))
			for i, p := range list {
				out[i] = toPremiumBody(cat, p, catalog.Buyer{}, true, now)
			}
			return out
		}
		after := map[string]any{"action": c.Action, "ids": c.IDs, "changed": len(c.Before)}
		if c.Action != catalog.BulkDelete {
			after["domains"] = bodies(c.After)
		}
		return audit.Entry{ActorID: admin.ID, Action: audit.ActionPremiumBulk, TargetType: "premium_domain",
			Before: bodies(c.Before), After: after}
	}
}

// catalogHandlers are the handlers of availability checks, extensions and
// premium names.
type catalogHandlers struct {
	cat *catalog.Service
}

func addCatalogRoutes(a huma.API, cat *catalog.Service) {
	h := catalogHandlers{cat}
	register(a, accessOptional.countedAs(ratelimit.Checks).visitorsCountedAs(ratelimit.AnonymousChecks), huma.Operation{
		OperationID: "domains-check", Method: http.MethodGet, Path: "/api/domains/check", Tags: []string{"Catalog"},
		Summary: "Check a name's availability and price",
		Description: "Tells whether a name can be registered and its yearly price for the caller (wholesale for a " +
			"logged-in registrar). Counts against the account's 100 checks a minute (shared with /v1), or, for a " +
			"visitor, 60 a minute per client network (IPv4 address, IPv6 /64).",
		Errors: []int{http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.checkAvailability)

	register(a, accessOptional, huma.Operation{
		OperationID: "extensions-list", Method: http.MethodGet, Path: "/api/domain-extensions", Tags: []string{"Catalog"},
		Summary:     "List extensions",
		Description: "The active extensions with their prices; admins get every extension with its whole configuration.",
	}, h.listExtensions)

	adminOnly := []int{http.StatusUnauthorized, http.StatusForbidden}
	register(a, accessAdmin, huma.Operation{
		OperationID: "extensions-create", Method: http.MethodPost, Path: "/api/domain-extensions", Tags: []string{"Catalog admin"},
		Summary: "Add an extension", DefaultStatus: http.StatusCreated,
		Errors: append(adminOnly, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.createExtension)

	register(a, accessAdmin, huma.Operation{
		OperationID: "extensions-update", Method: http.MethodPatch, Path: "/api/domain-extensions/{id}", Tags: []string{"Catalog admin"},
		Summary: "Change an extension", Description: "Changes the fields sent; lengthBasedPricing, when sent, replaces every rule.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.updateExtension)

	register(a, accessAdmin, huma.Operation{
		OperationID: "extensions-delete", Method: http.MethodDelete, Path: "/api/domain-extensions/{id}", Tags: []string{"Catalog admin"},
		Summary: "Delete an extension", Description: "Refused while domains are registered under it: deactivate it instead.",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict),
	}, h.deleteExtension)

	register(a, accessOptional, huma.Operation{
		OperationID: "premium-list", Method: http.MethodGet, Path: "/api/premium-domains", Tags: []string{"Catalog"},
		Summary:     "List premium names",
		Description: "The available premium names, featured first, with the caller's current price; admins get every name with all fields.",
	}, h.listPremium)

	register(a, accessAdmin, huma.Operation{
		OperationID: "premium-create", Method: http.MethodPost, Path: "/api/admin/premium-domains", Tags: []string{"Catalog admin"},
		Summary: "Add a premium name", DefaultStatus: http.StatusCreated,
		Errors: append(adminOnly, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.createPremium)

	register(a, accessAdmin, huma.Operation{
		OperationID: "premium-update", Method: http.MethodPut, Path: "/api/admin/premium-domains/{id}", Tags: []string{"Catalog admin"},
		Summary: "Change a premium name", Description: "Changes the fields sent (the toggles send one field).",
		Errors: append(adminOnly, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity),
	}, h.updatePremium)

	register(a, accessAdmin, huma.Operation{
		OperationID: "premium-delete", Method: http.MethodDelete, Path: "/api/admin/premium-domains/{id}", Tags: []string{"Catalog admin"},
		Summary: "Delete a premium name", Errors: append(adminOnly, http.StatusNotFound),
	}, h.deletePremium)

	register(a, accessAdmin, huma.Operation{
		OperationID: "premium-bulk", Method: http.MethodPost, Path: "/api/admin/premium-domains/bulk", Tags: []string{"Catalog admin"},
		Summary: "Change many premium names at once", Errors: append(adminOnly, http.StatusUnprocessableEntity),
	}, h.bulkPremium)
}

// checkAvailability tells whether a name can be registered and its price for the caller.
func (h catalogHandlers) checkAvailability(ctx context.Context, in *CheckInput) (*CheckOutput, error) {
	u := sessionUser(ctx)
	av, err := h.cat.Check(ctx, in.Name, in.Extension, buyerOf(u))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &CheckOutput{Body: ok(checkBody{Domain: av.Name, Extension: av.Extension, Available: av.Available,
		IsPremium: av.Quote.IsPremium, Price: money.Dollars(av.Quote.PriceCents),
		RenewalPrice: money.Dollars(av.Quote.RenewalCents), Reason: av.Reason, Promotion: av.Quote.Promotion})}, nil
}

// listExtensions lists the active extensions, or every extension with its configuration for an admin.
func (h catalogHandlers) listExtensions(ctx context.Context, _ *struct{}) (*ExtensionListOutput, error) {
	u := sessionUser(ctx)
	admin := u != nil && u.IsAdmin()
	out := []extensionBody{}
	for _, e := range h.cat.Extensions(admin) {
		out = append(out, toExtensionBody(h.cat, e, admin))
	}
	return &ExtensionListOutput{Body: ok(out)}, nil
}

// createExtension adds an extension as the signed-in admin.
func (h catalogHandlers) createExtension(ctx context.Context, in *ExtensionWriteInput) (*ExtensionOutput, error) {
	input, err := in.Body.toInput()
	if err != nil {
		return nil, fail(ctx, err)
	}
	e, err := h.cat.CreateExtension(ctx, input, describeExtension(h.cat, sessionUser(ctx), audit.ActionExtensionCreate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ExtensionOutput{Body: ok(toExtensionBody(h.cat, e, true))}, nil
}

// updateExtension changes the fields sent of an extension as the signed-in admin.
func (h catalogHandlers) updateExtension(ctx context.Context, in *ExtensionUpdateInput) (*ExtensionOutput, error) {
	input, err := in.Body.toInput()
	if err != nil {
		return nil, fail(ctx, err)
	}
	e, err := h.cat.UpdateExtension(ctx, in.ID, input, describeExtension(h.cat, sessionUser(ctx), audit.ActionExtensionUpdate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ExtensionOutput{Body: ok(toExtensionBody(h.cat, e, true))}, nil
}

// deleteExtension deletes an extension with no domains as the signed-in admin.
func (h catalogHandlers) deleteExtension(ctx context.Context, in *IDInput) (*DoneOutput, error) {
	if err := h.cat.DeleteExtension(ctx, in.ID, describeExtension(h.cat, sessionUser(ctx), audit.ActionExtensionDelete)); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// listPremium lists the available premium names at the caller's price, or every name for an admin.
func (h catalogHandlers) listPremium(ctx context.Context, _ *struct{}) (*PremiumListOutput, error) {
	u := sessionUser(ctx)
	admin, buyer, now := u != nil && u.IsAdmin(), buyerOf(u), time.Now()
	out := []premiumBody{}
	for _, p := range h.cat.PremiumDomains(admin) {
		out = append(out, toPremiumBody(h.cat, p, buyer, admin, now))
	}
	return &PremiumListOutput{Body: ok(out)}, nil
}

// createPremium adds a premium name as the signed-in admin.
func (h catalogHandlers) createPremium(ctx context.Context, in *PremiumWriteInput) (*PremiumOutput, error) {
	input, err := in.Body.toInput()
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.cat.CreatePremium(ctx, input, describePremium(h.cat, sessionUser(ctx), audit.ActionPremiumCreate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PremiumOutput{Body: ok(toPremiumBody(h.cat, p, catalog.Buyer{}, true, time.Now()))}, nil
}

// updatePremium changes the fields sent of a premium name as the signed-in admin.
func (h catalogHandlers) updatePremium(ctx context.Context, in *PremiumUpdateInput) (*PremiumOutput, error) {
	input, err := in.Body.toInput()
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.cat.UpdatePremium(ctx, in.ID, input, describePremium(h.cat, sessionUser(ctx), audit.ActionPremiumUpdate))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &PremiumOutput{Body: ok(toPremiumBody(h.cat, p, catalog.Buyer{}, true, time.Now()))}, nil
}

// deletePremium deletes a premium name as the signed-in admin.
func (h catalogHandlers) deletePremium(ctx context.Context, in *IDInput) (*DoneOutput, error) {
	if err := h.cat.DeletePremium(ctx, in.ID, describePremium(h.cat, sessionUser(ctx), audit.ActionPremiumDelete)); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// bulkPremium applies one action to many premium names as the signed-in admin.
func (h catalogHandlers) bulkPremium(ctx context.Context, in *BulkInput) (*BulkOutput, error) {
	n, err := h.cat.BulkPremium(ctx, in.Body.Action, in.Body.IDs, describeBulk(h.cat, sessionUser(ctx)))
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := &BulkOutput{}
	out.Body.Success, out.Body.Data.Changed = true, n
	return out, nil
}
