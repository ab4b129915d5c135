package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/pkg/money"
	"github.com/nameport/nameport/sdk"
)

// V1CheckInput takes no Idempotency-Key: a check changes nothing, so it
// stores nothing either (see takesIdempotencyKey).
type V1CheckInput struct {
	Body sdk.CheckRequest
}

type V1CheckOutput struct {
	Body sdk.Availability
}

type V1RegisterInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Body           sdk.RegisterRequest
}

type V1RegisterOutput struct {
	Body sdk.Registration
}

type V1DomainListInput struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Domains per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type V1DomainListOutput struct {
	Body sdk.DomainPage
}

type V1DomainInput struct {
	Domain string `path:"domain" doc:"The full name" example:"example.inf.nz"`
}

type V1DomainOutput struct {
	Body sdk.Domain
}

func toV1Domain(domains *registration.Service, d registration.Domain, nameservers []string) sdk.Domain {
	if nameservers == nil {
		nameservers = []string{}
	}
	t := domains.TermsOf(&d, catalog.Buyer{})
	return sdk.Domain{ID: d.ID, Domain: d.Name + d.Extension, Name: d.Name, Extension: d.Extension,
		IsPremium: d.IsPremium, Price: money.Dollars(d.PriceCents), AutoRenew: d.AutoRenew, Nameservers: nameservers,
		RegisteredAt: d.RegisteredAt.UTC(), ExpiresAt: d.ExpiresAt.UTC(), Status: t.Status, GraceEndsAt: t.GraceEndsAt}
}

func toV1Transaction(t *billing.Transaction) sdk.Transaction {
	out := sdk.Transaction{ID: t.ID, Type: t.Type, Amount: money.Dollars(t.AmountCents), Status: t.Status,
		PaymentMethod: t.PaymentMethod, Description: t.Description, CreatedAt: t.CreatedAt.UTC()}
	if t.DomainID != 0 {
		out.DomainID = &t.DomainID
	}
	return out
}

func toV1Wallet(w billing.Wallet) sdk.Wallet {
	return sdk.Wallet{Balance: money.Dollars(w.BalanceCents), Currency: w.Currency}
}

// splitDomain splits a full name for a check or registration.
func splitDomain(full string) (label, ext string, err error) {
	label, ext, ok := registration.SplitName(full)
	if !ok {
		return "", "", apperr.New(apperr.Invalid, "Enter the full domain name, such as example.inf.nz")
	}
	return label, ext, nil
}

// v1DomainHandlers are the handlers of /v1's checks and the key's domains.
type v1DomainHandlers struct {
	domains *registration.Service
	cat     *catalog.Service
	records *zone.Service
}

func addV1DomainRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	h := v1DomainHandlers{domains, cat, records}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-domains-check", Method: http.MethodPost, Path: "/v1/domains/check", Tags: tags,
		Summary:     "Check a domain's availability and price",
		Description: "Whether the name can be registered, and its yearly price for your account (wholesale by tier).",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, &ratelimit.Checks, h.checkDomain)

	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-domains-register", Method: http.MethodPost, Path: "/v1/domains/register", Tags: tags,
		Summary: "Register a domain",
		Description: "Registers the name for your account and pays years × its yearly price from your wallet, in one " +
			"transaction. Name servers given become the domain's NS records. Counts against your tier's monthly " +
			"allowance of new registrations (403 allowance_exhausted once it is used up; see GET /v1/account/allowance).",
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusPaymentRequired, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, &ratelimit.Registrations, h.registerDomain)

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-domains-list", Method: http.MethodGet, Path: "/v1/domains", Tags: tags,
		Summary: "List your domains", Description: "Oldest first, a page at a time: follow nextCursor until it is empty.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, nil, h.listDomains)

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-domains-get", Method: http.MethodGet, Path: "/v1/domains/{domain}", Tags: tags,
		Summary: "Get one of your domains", Errors: []int{http.StatusNotFound},
	}, nil, h.getDomain)
}

// checkDomain tells whether a full name can be registered and its price for the key's account.
func (h v1DomainHandlers) checkDomain(ctx context.Context, in *V1CheckInput) (*V1CheckOutput, error) {
	u := keyUser(ctx)
	label, ext, err := splitDomain(in.Body.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	a, err := h.cat.Check(ctx, label, ext, buyerOf(u))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1CheckOutput{Body: sdk.Availability{Domain: a.Name + a.Extension, Name: a.Name, Extension: a.Extension,
		Available: a.Available, Reason: a.Reason, IsPremium: a.Quote.IsPremium,
		Price: money.Dollars(a.Quote.PriceCents), Currency: billing.Currency}}, nil
}

// registerDomain registers a full name for the key's account, paid from its wallet.
func (h v1DomainHandlers) registerDomain(ctx context.Context, in *V1RegisterInput) (*V1RegisterOutput, error) {
	u := keyUser(ctx)
	if err := u.MayTransact(); err != nil { // email verified
		return nil, problem(ctx, err)
	}
	b := in.Body
	label, ext, err := splitDomain(b.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	r, err := h.domains.Register(ctx, u.ID, buyerOf(u), registration.Request{Name: label, Extension: ext,
		Years: b.Years, AutoRenew: b.AutoRenew, Nameservers: b.Nameservers, IdempotencyKey: in.IdempotencyKey})
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1RegisterOutput{Body: sdk.Registration{Domain: toV1Domain(h.domains, *r.Domain, r.Nameservers),
		Transaction: toV1Transaction(r.Transaction), Wallet: toV1Wallet(r.Wallet)}}, nil
}

// listDomains lists the key's domains with their name servers, oldest first, a page at a time.
func (h v1DomainHandlers) listDomains(ctx context.Context, in *V1DomainListInput) (*V1DomainListOutput, error) {
	u := keyUser(ctx)
	list, next, err := fetchPage(in.Cursor, in.Limit, func(d *registration.Domain) int64 { return d.ID },
		func(after int64, n int) ([]registration.Domain, error) {
			return h.domains.ListPage(ctx, u.ID, after, n)
		})
	if err != nil {
		return nil, problem(ctx, err)
	}
	ids := make([]int64, len(list))
	for i, d := range list {
		ids[i] = d.ID
	}
	ns, err := h.records.NameserversOf(ctx, ids)
	if err != nil {
		return nil, problem(ctx, err)
	}
	page := sdk.DomainPage{Domains: make([]sdk.Domain, len(list)), NextCursor: next}
	for i, d := range list {
		page.Domains[i] = toV1Domain(h.domains, d, ns[d.ID])
	}
	return &V1DomainListOutput{Body: page}, nil
}

// getDomain returns one of the key's domains by its full name, with its name servers.
func (h v1DomainHandlers) getDomain(ctx context.Context, in *V1DomainInput) (*V1DomainOutput, error) {
	d, err := h.domains.GetByName(ctx, keyUser(ctx).ID, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	ns, err := h.records.NameserversOf(ctx, []int64{d.ID})
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DomainOutput{Body: toV1Domain(h.domains, *d, ns[d.ID])}, nil
}
