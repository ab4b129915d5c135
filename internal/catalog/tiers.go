package catalog

// Tier is a registrar partnership tier's wholesale terms (spec section 6).
// The keys are account.Tier* (account owns which tier a registrar is on;
// catalog owns what each tier pays).
type Tier struct {
	Key  string
	Name string
	// PriceCents is the yearly wholesale price of a name at the base price.
	PriceCents int64
	// MonthlyDomains is the tier's allowance: the new registrations a
	// registrar of the tier may make in a calendar month (UTC); 0 means
	// unlimited. Package registration enforces it (see MonthlyAllowance).
	MonthlyDomains int
	// PremiumDiscountPercent is taken off premium names at wholesale:
	// basic has none, premium "premium domain discounts", enterprise
	// "special pricing on premium domains".
	PremiumDiscountPercent int
	// Features are the tier's promises as the spec words them.
	Features []string
}

// Tiers are the registrar tiers, cheapest promise first.
var Tiers = []Tier{
	{Key: "basic", Name: "Basic", PriceCents: 600, MonthlyDomains: 100,
		Features: []string{"API access", "Basic support", "100 domains monthly", "Registrar control panel"}},
	{Key: "premium", Name: "Premium", PriceCents: 500, MonthlyDomains: 500, PremiumDiscountPercent: 10,
		Features: []string{"Everything in Basic", "Priority support", "500 domains monthly", "White label options",
			"Premium domain discounts"}},
	{Key: "enterprise", Name: "Enterprise", PriceCents: 400, PremiumDiscountPercent: 20,
		Features: []string{"Everything in Premium", "24/7 dedicated support", "Unlimited domains",
			"Custom integration support", "Special pricing on premium domains"}},
}

// TierOf is the tier with key, if there is one.
func TierOf(key string) (Tier, bool) {
	for _, t := range Tiers {
		if t.Key == key {
			return t, true
		}
	}
	return Tier{}, false
}

// MonthlyAllowance is the tier buyer registers under and whether its new
// registrations a month are limited (to tier.MonthlyDomains): end users
// (no tier) and enterprise registrars are not. Renewals never count.
func MonthlyAllowance(buyer Buyer) (tier Tier, limited bool) {
	tier, isRegistrar := TierOf(buyer.Tier)
	return tier, isRegistrar && tier.MonthlyDomains > 0
}
