package catalog

import (
	"time"

	"github.com/nameport/nameport/pkg/money"
)

// Buyer is who a price is for: an end user (Tier "") or a registrar of a tier.
type Buyer struct {
	Tier string
}

// Basis says which rule set a price.
type Basis string

const (
	BasisPremium Basis = "premium"
	BasisRule    Basis = "length_rule"
	BasisBase    Basis = "base_price"
)

// Quote is the yearly price of registering a name and of renewing it.
type Quote struct {
	PriceCents   int64
	RenewalCents int64
	IsPremium    bool
	Basis        Basis
	// Promotion is the label of the promotional rule that set the price.
	Promotion string
}

// quote prices name under ext for buyer at now. premium is the name's premium
// entry, or nil. Precedence: the premium price (with its live discount), else
// the length rule that applies, else the base price. Registrars get their
// tier's wholesale price, but never more than an end user would pay.
func quote(ext *Extension, premium *PremiumDomain, name string, buyer Buyer, now time.Time) Quote {
	retail := retailQuote(ext, premium, name, now)
	tier, isRegistrar := TierOf(buyer.Tier)
	if !isRegistrar {
		return retail
	}
	tierPrice := tier.PriceCents
	q := retail
	switch retail.Basis {
	case BasisPremium:
		d := tier.PremiumDiscountPercent
		q.PriceCents, q.RenewalCents = money.Percent(retail.PriceCents, d), money.Percent(retail.RenewalCents, d)
	case BasisRule:
		rule := matchingRule(ext, len(name), now)
		if rule.RegistrarPriceCents != nil {
			q.PriceCents = *rule.RegistrarPriceCents
			if !rule.IsPromotion {
				q.RenewalCents = *rule.RegistrarPriceCents
			}
		}
		if rule.IsPromotion {
			q.RenewalCents = tierPrice
		}
	case BasisBase:
		q.PriceCents, q.RenewalCents = tierPrice, tierPrice
	}
	q.PriceCents = min(q.PriceCents, retail.PriceCents)
	q.RenewalCents = min(q.RenewalCents, retail.RenewalCents)
	return q
}

func retailQuote(ext *Extension, premium *PremiumDomain, name string, now time.Time) Quote {
	if premium != nil {
		// The discount is for buying; a renewal costs the list price.
		price := premium.PriceCents
		if premium.DiscountLive(now) {
			price = money.Percent(price, premium.DiscountPercentage)
		}
		return Quote{PriceCents: price, RenewalCents: premium.PriceCents, IsPremium: true, Basis: BasisPremium}
	}
	if rule := matchingRule(ext, len(name), now); rule != nil {
		q := Quote{PriceCents: rule.PriceCents, RenewalCents: rule.PriceCents, Basis: BasisRule}
		if rule.IsPromotion {
			// A promotion prices the first year; renewals go back to normal.
			q.Promotion, q.RenewalCents = rule.PromotionLabel, ext.RenewalCents()
		}
		return q
	}
	return Quote{PriceCents: ext.BasePriceCents, RenewalCents: ext.RenewalCents(), Basis: BasisBase}
}

// matchingRule returns the rule that prices a name of length n at now. Rules
// never overlap, so at most one does.
func matchingRule(ext *Extension, n int, now time.Time) *LengthRule {
	for i := range ext.Rules {
		if ext.Rules[i].appliesTo(n, now) {
			return &ext.Rules[i]
		}
	}
	return nil
}
