package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/pkg/domainname"
	"github.com/nameport/nameport/pkg/money"
)

// The business rules clients show and check as-you-type, read from the
// services that own them; the services still check every request.

type tierBody struct {
	Key                    string   `json:"key" enum:"basic,premium,enterprise"`
	Name                   string   `json:"name" example:"Premium"`
	PricePerDomain         float64  `json:"pricePerDomain" doc:"Wholesale US dollars per name per year at the base price" example:"5"`
	MonthlyDomains         *int     `json:"monthlyDomains" doc:"Registrations a month the tier is sized for; null means unlimited" example:"500"`
	PremiumDiscountPercent int      `json:"premiumDiscountPercent" doc:"Percent off premium names at wholesale; 0 means standard premium pricing"`
	Features               []string `json:"features" nullable:"false" doc:"What the tier offers, in the product's words"`
}

type domainNameRulesBody struct {
	MinLength int    `json:"minLength"`
	MaxLength int    `json:"maxLength"`
	Pattern   string `json:"pattern" doc:"An ECMAScript/RE2 pattern of the allowed characters; the server checks internationalized (xn--) names further"`
	// The messages for each broken rule, in the product's words.
	RequiredMessage   string `json:"requiredMessage"`
	CharactersMessage string `json:"charactersMessage"`
	TooLongMessage    string `json:"tooLongMessage"`
}

type depositRulesBody struct {
	MinAmount float64  `json:"minAmount" doc:"US dollars"`
	MaxAmount float64  `json:"maxAmount" doc:"US dollars"`
	Methods   []string `json:"methods" nullable:"false" doc:"Every payment method; GET /api/wallet/deposit-options says which work now"`
	// The messages that refuse an amount, in the product's words.
	NotPositiveMessage string `json:"notPositiveMessage"`
	DecimalsMessage    string `json:"decimalsMessage" doc:"An amount has at most two decimals"`
	TooSmallMessage    string `json:"tooSmallMessage"`
	TooLargeMessage    string `json:"tooLargeMessage"`
}

type premiumRulesBody struct {
	Categories         []string `json:"categories" nullable:"false"`
	MinPrice           float64  `json:"minPrice" doc:"US dollars"`
	MaxPrice           float64  `json:"maxPrice" doc:"US dollars"`
	MaxDiscountPercent int      `json:"maxDiscountPercent"`
}

type extensionRulesBody struct {
	MinBasePrice         float64  `json:"minBasePrice" doc:"US dollars"`
	MinRegistrarPrice    float64  `json:"minRegistrarPrice" doc:"US dollars: the least a length rule's registrar price may be"`
	MinDescriptionLength int      `json:"minDescriptionLength" doc:"Characters, spaces around it not counted"`
	MaxDescriptionLength int      `json:"maxDescriptionLength"`
	MinRenewalPeriodDays int      `json:"minRenewalPeriodDays"`
	MaxRenewalPeriodDays int      `json:"maxRenewalPeriodDays"`
	MaxGracePeriodDays   int      `json:"maxGracePeriodDays" doc:"The least is 0: no grace period"`
	DNSProviders         []string `json:"dnsProviders" nullable:"false" doc:"Where an extension's zone can be hosted"`
}

type registrationRulesBody struct {
	MinYears         int `json:"minYears"`
	MaxYears         int `json:"maxYears"`
	ExpiringSoonDays int `json:"expiringSoonDays" doc:"A domain is expiring_soon within this many days of its expiry"`
	MaxYearsAhead    int `json:"maxYearsAhead" doc:"A domain can be paid for at most this many years ahead"`
}

type dnsRulesBody struct {
	MinTTL           int `json:"minTtl" doc:"Seconds"`
	MaxTTL           int `json:"maxTtl" doc:"Seconds"`
	MaxZoneFileBytes int `json:"maxZoneFileBytes" doc:"The largest zone file an import reads"`
}

// accountRulesBody says what the fields of sign-up, login and the password
// forms may be. Lengths count characters (Unicode code points); a username
// and a full name are trimmed of surrounding spaces first, a password never.
type accountRulesBody struct {
	MinUsernameLength int    `json:"minUsernameLength"`
	MaxUsernameLength int    `json:"maxUsernameLength"`
	UsernamePattern   string `json:"usernamePattern" doc:"An ECMAScript/RE2 pattern of the characters a new username may have"`
	MinPasswordLength int    `json:"minPasswordLength"`
	MaxPasswordLength int    `json:"maxPasswordLength"`
	MinFullNameLength int    `json:"minFullNameLength"`
	MaxFullNameLength int    `json:"maxFullNameLength"`
	// The messages for each broken rule, in the product's words: the ones
	// the server answers.
	UsernameTooShortMessage   string `json:"usernameTooShortMessage"`
	UsernameTooLongMessage    string `json:"usernameTooLongMessage"`
	UsernameCharactersMessage string `json:"usernameCharactersMessage"`
	PasswordTooShortMessage   string `json:"passwordTooShortMessage"`
	PasswordTooLongMessage    string `json:"passwordTooLongMessage"`
	FullNameRequiredMessage   string `json:"fullNameRequiredMessage"`
	FullNameTooLongMessage    string `json:"fullNameTooLongMessage"`
	EmailMessage              string `json:"emailMessage"`
	PasswordsMismatchMessage  string `json:"passwordsMismatchMessage"`
}

type rulesBody struct {
	RegistrarTiers []tierBody            `json:"registrarTiers" nullable:"false" doc:"The registrar partnership tiers, cheapest promise first"`
	DomainName     domainNameRulesBody   `json:"domainName" doc:"What a registrable label (example in example.inf.nz) may be"`
	Registration   registrationRulesBody `json:"registration"`
	Deposits       depositRulesBody      `json:"deposits"`
	Premium        premiumRulesBody      `json:"premium"`
	Extensions     extensionRulesBody    `json:"extensions" doc:"An extension's name lengths and its length rules' lengths run from domainName.minLength to domainName.maxLength"`
	DNS            dnsRulesBody          `json:"dns"`
	Account        accountRulesBody      `json:"account" doc:"Usernames, passwords and full names (sign-up, login, password change and reset)"`
}

type RulesOutput struct {
	Body envelope[rulesBody]
}

// rulesHandlers serve the rules document, made once at start.
type rulesHandlers struct{ body rulesBody }

func addRuleRoutes(a huma.API) {
	h := rulesHandlers{currentRules()}
	register(a, accessPublic, huma.Operation{
		OperationID: "rules", Method: http.MethodGet, Path: "/api/rules", Tags: []string{"Catalog"},
		Summary: "The business rules clients show",
		Description: "Registrar tiers and their prices, deposit limits, label rules and their messages, premium " +
			"categories and price bounds, extension settings' bounds, DNS TTL bounds, account field rules and " +
			"their messages: what a client shows and checks as the user types. The server checks every request " +
			"against the same rules; this document only says what they are.",
	}, h.rules)
}

// rules answers the rules document.
func (h rulesHandlers) rules(context.Context, *struct{}) (*RulesOutput, error) {
	return &RulesOutput{Body: ok(h.body)}, nil
}

// currentRules reads the rules from their owners (they are fixed at build
// time, so the document is made once).
func currentRules() rulesBody {
	tiers := make([]tierBody, len(catalog.Tiers))
	for i, t := range catalog.Tiers {
		tiers[i] = tierBody{Key: t.Key, Name: t.Name, PricePerDomain: money.Dollars(t.PriceCents),
			PremiumDiscountPercent: t.PremiumDiscountPercent, Features: t.Features}
		if t.MonthlyDomains > 0 {
			tiers[i].MonthlyDomains = &t.MonthlyDomains
		}
	}
	return rulesBody{
		RegistrarTiers: tiers,
		DomainName: domainNameRulesBody{MinLength: 1, MaxLength: domainname.MaxLabel, Pattern: domainname.Pattern,
			RequiredMessage: string(domainname.Required), CharactersMessage: string(domainname.Characters),
			TooLongMessage: string(domainname.TooLong)},
		Registration: registrationRulesBody{MinYears: registration.MinYears, MaxYears: registration.MaxYears,
			ExpiringSoonDays: int(registration.ExpiringSoon.Hours() / 24), MaxYearsAhead: registration.MaxYearsAhead},
		Deposits: depositRulesBody{MinAmount: money.Dollars(billing.MinDepositCents),
			MaxAmount: money.Dollars(billing.MaxDepositCents), Methods: billing.PaymentMethods,
			NotPositiveMessage: billing.AmountNotPositive, DecimalsMessage: billing.AmountTooPrecise,
			TooSmallMessage: billing.DepositTooSmall, TooLargeMessage: billing.DepositTooLarge},
		Premium: premiumRulesBody{Categories: catalog.Categories, MinPrice: money.Dollars(catalog.MinPremiumPriceCents),
			MaxPrice: money.Dollars(catalog.MaxPremiumPriceCents), MaxDiscountPercent: catalog.MaxDiscountPercent},
		Extensions: extensionRulesBody{MinBasePrice: money.Dollars(catalog.MinBasePriceCents),
			MinRegistrarPrice:    money.Dollars(catalog.MinBasePriceCents),
			MinDescriptionLength: catalog.MinDescription, MaxDescriptionLength: catalog.MaxDescription,
			MinRenewalPeriodDays: catalog.MinRenewalPeriodDays, MaxRenewalPeriodDays: catalog.MaxRenewalPeriodDays,
			MaxGracePeriodDays: catalog.MaxGracePeriodDays, DNSProviders: catalog.DNSProviders},
		DNS:     dnsRulesBody{MinTTL: zone.MinTTL, MaxTTL: zone.MaxTTL, MaxZoneFileBytes: zone.MaxZoneFile},
		Account: accountRules(),
	}
}

// accountRules are the account field rules, read from their owner.
func accountRules() accountRulesBody {
	return accountRulesBody{
		MinUsernameLength: account.MinUsername, MaxUsernameLength: account.MaxUsername,
		UsernamePattern:   account.UsernamePattern,
		MinPasswordLength: account.MinPassword, MaxPasswordLength: account.MaxPassword,
		MinFullNameLength: account.MinFullName, MaxFullNameLength: account.MaxFullName,
		UsernameTooShortMessage: account.UsernameTooShort, UsernameTooLongMessage: account.UsernameTooLong,
		UsernameCharactersMessage: account.UsernameCharacters,
		PasswordTooShortMessage:   account.PasswordTooShort, PasswordTooLongMessage: account.PasswordTooLong,
		FullNameRequiredMessage: account.FullNameRequired, FullNameTooLongMessage: account.FullNameTooLong,
		EmailMessage: account.EmailInvalid, PasswordsMismatchMessage: account.PasswordsMismatch,
	}
}
