package catalog

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	now       = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	yesterday = now.Add(-24 * time.Hour)
	tomorrow  = now.Add(24 * time.Hour)
)

func cents(v int64) *int64 { return &v }

// testExtension: base $8, renewal $9, 1-3 characters $25 (registrars $20),
// 4-5 characters a $3 launch promotion running now, 6-7 characters a $2
// promotion that has ended.
func testExtension() *Extension {
	return &Extension{Extension: ".inf.nz", BasePriceCents: 800, RenewalPriceCents: cents(900), Rules: []LengthRule{
		{MinLength: 1, MaxLength: 3, PriceCents: 2500, RegistrarPriceCents: cents(2000)},
		{MinLength: 4, MaxLength: 5, PriceCents: 300, IsPromotion: true, PromotionLabel: "Launch", PromotionStart: yesterday, PromotionEnd: tomorrow},
		{MinLength: 6, MaxLength: 7, PriceCents: 200, IsPromotion: true, PromotionLabel: "Over", PromotionStart: yesterday.Add(-48 * time.Hour), PromotionEnd: yesterday},
	}}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	ext := testExtension()
	plain := &Extension{Extension: ".biz.ee", BasePriceCents: 800}
	cheap := &Extension{Extension: ".orgn.uk", BasePriceCents: 300, Rules: []LengthRule{
		{MinLength: 1, MaxLength: 2, PriceCents: 1500, RegistrarPriceCents: cents(1800)},
	}}
	premium := &PremiumDomain{Name: "cloud", PriceCents: 50000}
	discounted := &PremiumDomain{Name: "shop", PriceCents: 35000, DiscountPercentage: 20, DiscountValidUntil: tomorrow}
	expired := &PremiumDomain{Name: "sport", PriceCents: 22000, DiscountPercentage: 10, DiscountValidUntil: yesterday}
	openEnded := &PremiumDomain{Name: "deal", PriceCents: 1001, DiscountPercentage: 15}
	user, basic, prem, ent := Buyer{}, Buyer{Tier: "basic"}, Buyer{Tier: "premium"}, Buyer{Tier: "enterprise"}

	tests := []struct {
		name    string
		ext     *Extension
		premium *PremiumDomain
		label   string
		buyer   Buyer
		want    Quote
	}{
		// End users.
		{"base price", ext, nil, "example", user, Quote{PriceCents: 800, RenewalCents: 900, Basis: BasisBase}},
		{"renewal defaults to base", plain, nil, "example", user, Quote{PriceCents: 800, RenewalCents: 800, Basis: BasisBase}},
		{"short name rule", ext, nil, "ab", user, Quote{PriceCents: 2500, RenewalCents: 2500, Basis: BasisRule}},
		{"rule edges", ext, nil, "abc", user, Quote{PriceCents: 2500, RenewalCents: 2500, Basis: BasisRule}},
		{"live promotion, renewal back to normal", ext, nil, "abcd", user, Quote{PriceCents: 300, RenewalCents: 900, Basis: BasisRule, Promotion: "Launch"}},
		{"ended promotion is the base price", ext, nil, "abcdef", user, Quote{PriceCents: 800, RenewalCents: 900, Basis: BasisBase}},
		{"premium list price", ext, premium, "cloud", user, Quote{PriceCents: 50000, RenewalCents: 50000, IsPremium: true, Basis: BasisPremium}},
		{"premium beats length rule", ext, &PremiumDomain{Name: "ai", PriceCents: 150000}, "ai", user, Quote{PriceCents: 150000, RenewalCents: 150000, IsPremium: true, Basis: BasisPremium}},
		{"live discount", ext, discounted, "shop", user, Quote{PriceCents: 28000, RenewalCents: 35000, IsPremium: true, Basis: BasisPremium}},
		{"expired discount", ext, expired, "sport", user, Quote{PriceCents: 22000, RenewalCents: 22000, IsPremium: true, Basis: BasisPremium}},
		{"discount without end date, rounded half up", ext, openEnded, "deal", user, Quote{PriceCents: 851, RenewalCents: 1001, IsPremium: true, Basis: BasisPremium}},

		// Registrars.
		{"basic tier at base price", ext, nil, "example", basic, Quote{PriceCents: 600, RenewalCents: 600, Basis: BasisBase}},
		{"premium tier at base price", ext, nil, "example", prem, Quote{PriceCents: 500, RenewalCents: 500, Basis: BasisBase}},
		{"enterprise tier at base price", ext, nil, "example", ent, Quote{PriceCents: 400, RenewalCents: 400, Basis: BasisBase}},
		{"tier price capped by a cheaper base", cheap, nil, "example", basic, Quote{PriceCents: 300, RenewalCents: 300, Basis: BasisBase}},
		{"rule registrar price", ext, nil, "ab", ent, Quote{PriceCents: 2000, RenewalCents: 2000, Basis: BasisRule}},
		{"registrar price above retail is capped", cheap, nil, "ab", basic, Quote{PriceCents: 1500, RenewalCents: 1500, Basis: BasisRule}},
		{"promotion for registrars too, renewal at tier", ext, nil, "abcd", basic, Quote{PriceCents: 300, RenewalCents: 600, Basis: BasisRule, Promotion: "Launch"}},
		{"basic tier pays premium list", ext, premium, "cloud", basic, Quote{PriceCents: 50000, RenewalCents: 50000, IsPremium: true, Basis: BasisPremium}},
		{"premium tier 10% off premium", ext, premium, "cloud", prem, Quote{PriceCents: 45000, RenewalCents: 45000, IsPremium: true, Basis: BasisPremium}},
		{"enterprise 20% off premium", ext, premium, "cloud", ent, Quote{PriceCents: 40000, RenewalCents: 40000, IsPremium: true, Basis: BasisPremium}},
		{"tier discount on top of live discount", ext, discounted, "shop", ent, Quote{PriceCents: 22400, RenewalCents: 28000, IsPremium: true, Basis: BasisPremium}},
		{"unknown tier is priced as end user", ext, nil, "example", Buyer{Tier: "gold"}, Quote{PriceCents: 800, RenewalCents: 900, Basis: BasisBase}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, quote(tt.ext, tt.premium, tt.label, tt.buyer, now), tt.name)
	}
}

// Whatever the name, extension and premium entry: a registrar never pays more
// than an end user, and enterprise <= premium <= basic.
func TestQuoteWholesaleInvariants(t *testing.T) {
	t.Parallel()
	exts := []*Extension{testExtension(), {BasePriceCents: 100}, {BasePriceCents: 100000, RenewalPriceCents: cents(50)}}
	premiums := []*PremiumDomain{nil, {PriceCents: 1000}, {PriceCents: 99999, DiscountPercentage: 37}, {PriceCents: 5000, DiscountPercentage: 100}}
	for _, ext := range exts {
		for _, p := range premiums {
			for n := 1; n <= 9; n++ {
				label := fmt.Sprintf("%0*d", n, 0)
				retail := quote(ext, p, label, Buyer{}, now)
				prev := retail
				for _, tier := range []string{"basic", "premium", "enterprise"} {
					q := quote(ext, p, label, Buyer{Tier: tier}, now)
					require.LessOrEqual(t, q.PriceCents, retail.PriceCents)
					require.LessOrEqual(t, q.RenewalCents, retail.RenewalCents)
					require.LessOrEqual(t, q.PriceCents, prev.PriceCents, "tier %s, length %d", tier, n)
					require.LessOrEqual(t, q.RenewalCents, prev.RenewalCents, "tier %s, length %d", tier, n)
					require.GreaterOrEqual(t, q.PriceCents, int64(0))
					prev = q
				}
			}
		}
	}
}

func TestRuleWindowEdges(t *testing.T) {
	t.Parallel()
	r := LengthRule{MinLength: 1, MaxLength: 63, IsPromotion: true, PromotionStart: now, PromotionEnd: tomorrow}
	require.True(t, r.appliesTo(5, now), "the start is inside the window")
	require.False(t, r.appliesTo(5, tomorrow), "the end is outside")
	require.False(t, r.appliesTo(5, now.Add(-time.Second)))
	open := LengthRule{MinLength: 2, MaxLength: 3, IsPromotion: true}
	require.True(t, open.appliesTo(2, now), "a promotion without dates always runs")
	require.False(t, open.appliesTo(4, now))
}
