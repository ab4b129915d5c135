package catalog

import (
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/pkg/domainname"
	"github.com/nameport/nameport/pkg/money"
)

func invalid(format string, args ...any) error { return apperr.New(apperr.Invalid, format, args...) }

// extensionPattern is ".label.tld": two or more DNS labels after a dot.
var extensionPattern = regexp.MustCompile(`^(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?){2,}$`)

// NormalizeExtension returns the stored form of an extension: lower case
// with one leading dot (the advanced form sends it without).
func NormalizeExtension(ext string) string {
	ext = strings.ToLower(strings.TrimSpace(ext))
	if ext != "" && !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	return ext
}

// charSet is the set of characters an extension allows in names, parsed
// from a class like "a-z0-9-".
type charSet [128]bool

// parseAllowed parses an allowed-characters class: single characters and
// ranges ("a-z") of lower-case letters, digits and the hyphen.
func parseAllowed(class string) (charSet, bool) {
	var set charSet
	allowed := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }
	if class == "" {
		return set, false
	}
	for i := 0; i < len(class); i++ {
		c := class[i]
		if !allowed(c) {
			return set, false
		}
		if i+2 < len(class) && class[i+1] == '-' && class[i+2] != '-' {
			hi := class[i+2]
			sameKind := c >= 'a' && c <= 'z' && hi >= 'a' && hi <= 'z' || c >= '0' && c <= '9' && hi >= '0' && hi <= '9'
			if !sameKind || hi < c {
				return set, false
			}
			for x := c; x <= hi; x++ {
				set[x] = true
			}
			i += 2
			continue
		}
		set[c] = true
	}
	return set, true
}

func (s *charSet) allows(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 128 || !s[name[i]] {
			return false
		}
	}
	return true
}

// cleanList trims items, drops empty ones and duplicates (the admin forms'
// lists ignore duplicates), keeping the first order.
func cleanList(items []string, lower bool) []string {
	out := []string{}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if lower {
			it = strings.ToLower(it)
		}
		if it != "" && !slices.Contains(out, it) {
			out = append(out, it)
		}
	}
	return out
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}

// validateExtension checks a whole extension, rules included, and returns
// the first problem.
func validateExtension(e *Extension) error {
	if e.Extension == "" {
		return invalid("Domain extension is required")
	}
	if !extensionPattern.MatchString(e.Extension) || len(e.Extension) > 253 {
		return invalid("Extension must be in format like '.example.com'")
	}
	if e.BasePriceCents < MinBasePriceCents {
		return invalid("Base price must be at least %g", money.Dollars(MinBasePriceCents))
	}
	if n := len([]rune(strings.TrimSpace(e.Description))); n < MinDescription {
		return invalid("Description is required")
	} else if n > MaxDescription {
		return invalid("Description must be at most %d characters", MaxDescription)
	}
	if !labelLength(e.MinNameLength) || !labelLength(e.MaxNameLength) {
		return invalid("Name lengths must be between 1 and %d", domainname.MaxLabel)
	}
	if e.MinNameLength > e.MaxNameLength {
		return invalid("Minimum name length cannot exceed the maximum")
	}
	if _, ok := parseAllowed(e.AllowedCharacters); !ok {
		return invalid("Allowed characters must be lower-case letters, digits and hyphens, with ranges like a-z")
	}
	if len(e.AllowedCharacters) > 100 { // "a-z0-9-" says it all; every character listed once is 37
		return invalid("Allowed characters must be at most 100 characters")
	}
	if e.RenewalPriceCents != nil && *e.RenewalPriceCents < 0 {
		return invalid("Renewal price cannot be negative")
	}
	if e.RenewalPeriodDays < MinRenewalPeriodDays || e.RenewalPeriodDays > MaxRenewalPeriodDays {
		return invalid("Renewal period must be between %d and %d days", MinRenewalPeriodDays, MaxRenewalPeriodDays)
	}
	if e.GracePeriodDays < 0 || e.GracePeriodDays > MaxGracePeriodDays {
		return invalid("Grace period must be between 0 and %d days", MaxGracePeriodDays)
	}
	if !slices.Contains(DNSProviders, e.DNSProvider) {
		return invalid("DNS provider must be one of %s", strings.Join(DNSProviders, ", "))
	}
	if len(e.DNSNameservers) > 13 {
		return invalid("An extension can have at most 13 nameservers")
	}
	for _, ns := range e.DNSNameservers {
		if !validHostname(ns) {
			return invalid("Nameserver %q is not a valid host name", ns)
		}
	}
	for _, f := range []struct{ label, value string }{
		{"Admin email", e.AdminEmail}, {"Technical email", e.TechnicalEmail}, {"Billing email", e.BillingEmail},
	} {
		if f.value != "" && !validEmail(f.value) {
			return invalid("%s is not a valid email address", f.label)
		}
	}
	if len(e.VerificationInstructions) > 5000 || len(e.VerificationDocuments) > 50 {
		return invalid("Verification details are too long")
	}
	return validateRules(e.Rules)
}

// labelLength reports whether n is a length a label can have.
func labelLength(n int) bool { return n >= 1 && n <= domainname.MaxLabel }

func validHostname(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if len(h) == 0 || len(h) > 253 || !strings.Contains(h, ".") {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if domainname.CheckLabel(label) != nil {
			return false
		}
	}
	return true
}

// overlapMessage is the spec's refusal of overlapping length rules.
const overlapMessage = "There is an overlap with an existing rule. Each domain length must be covered by only one rule."

// validateRules checks each rule and that no length is covered twice. The
// rules must be sorted by minimum length.
func validateRules(rules []LengthRule) error {
	if len(rules) > domainname.MaxLabel { // one per length at most
		return invalid("An extension can have at most %d length rules", domainname.MaxLabel)
	}
	for i, r := range rules {
		if !labelLength(r.MinLength) || !labelLength(r.MaxLength) {
			return invalid("Rule lengths must be between 1 and %d", domainname.MaxLabel)
		}
		if r.MinLength > r.MaxLength {
			return invalid("A rule's minimum length cannot exceed its maximum")
		}
		if r.PriceCents <= 0 {
			return invalid("Rule price must be greater than 0")
		}
		if r.RegistrarPriceCents != nil && *r.RegistrarPriceCents < MinBasePriceCents {
			return invalid("Registrar price must be at least %g", money.Dollars(MinBasePriceCents))
		}
		if r.IsPromotion && !r.PromotionStart.IsZero() && !r.PromotionEnd.IsZero() && !r.PromotionStart.Before(r.PromotionEnd) {
			return invalid("A promotion must end after it starts")
		}
		if len(r.PromotionLabel) > 100 {
			return invalid("Promotion label must be at most 100 characters")
		}
		if i > 0 && r.MinLength <= rules[i-1].MaxLength {
			return invalid(overlapMessage)
		}
	}
	return nil
}

func sortRules(rules []LengthRule) {
	slices.SortStableFunc(rules, func(a, b LengthRule) int { return a.MinLength - b.MinLength })
}

// validatePremium checks a premium name; exists reports whether its
// extension is offered.
func validatePremium(p *PremiumDomain, exists func(ext string) bool, now time.Time, discountDateChanged bool) error {
	if p.Name == "" {
		return invalid("Domain name is required")
	}
	if strings.Contains(p.Name, ".") {
		return invalid("Enter the name without its extension")
	}
	if err := domainname.CheckLabel(p.Name); err != nil {
		return invalid("%s", err.Error())
	}
	if IsReserved(p.Name) {
		return invalid("%s is a reserved name and cannot be sold", p.Name)
	}
	if p.Extension == "" {
		return invalid("Extension is required")
	}
	if !exists(p.Extension) {
		return invalid("Extension %s is not offered", p.Extension)
	}
	if p.PriceCents < MinPremiumPriceCents {
		return invalid("Premium domain price must be at least %g", money.Dollars(MinPremiumPriceCents))
	}
	if p.PriceCents > MaxPremiumPriceCents {
		return invalid("Premium domain price must be at most %g", money.Dollars(MaxPremiumPriceCents))
	}
	if p.DiscountPercentage < 0 || p.DiscountPercentage > MaxDiscountPercent {
		return invalid("Discount must be between 0 and 100 percent")
	}
	if discountDateChanged && !p.DiscountValidUntil.IsZero() && p.DiscountValidUntil.Before(now) {
		return invalid("The discount end date cannot be in the past")
	}
	if !slices.Contains(Categories, p.Category) {
		return invalid("Category must be one of %s", strings.Join(Categories, ", "))
	}
	if len([]rune(p.Description)) > 1000 {
		return invalid("Description must be at most 1000 characters")
	}
	if len(p.Keywords) > 20 {
		return invalid("A premium domain can have at most 20 keywords")
	}
	for _, k := range p.Keywords {
		if len([]rune(k)) > 40 {
			return invalid("Keywords must be at most 40 characters each")
		}
	}
	return nil
}

func describeName(name, ext string) string { return fmt.Sprintf("%s%s", name, ext) }
