package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/pkg/money"
)

// domainBody is a registered domain (spec section 3 "Registered domain").
type domainBody struct {
	ID           int64     `json:"id"`
	Name         string    `json:"name" doc:"The label, without the extension" example:"example"`
	Extension    string    `json:"extension" doc:"The parent domain with its leading dot" example:".inf.nz"`
	IsPremium    bool      `json:"isPremium"`
	RegisteredAt time.Time `json:"registeredAt"`
	ExpiresAt    time.Time `json:"expiresAt"`
	AutoRenew    bool      `json:"autoRenew"`
	Price        float64   `json:"price" doc:"Yearly price in US dollars" example:"8"`
	Status       string    `json:"status" enum:"active,expiring_soon,expired" doc:"expiring_soon: within 30 days; expired: no longer resolves, renewable until graceEndsAt"`
	GraceEndsAt  time.Time `json:"graceEndsAt" doc:"After this, an expired domain is released and anyone can register it"`
	RenewalPrice float64   `json:"renewalPrice" doc:"US dollars for one renewal period"`
	RenewalDays  int       `json:"renewalPeriodDays" doc:"Days one renewal adds"`
	RenewedUntil time.Time `json:"renewedExpiresAt" doc:"The expiry a renewal now would give (expiresAt moved on by one renewal period)"`
}

// domainBodies converts domains with their standing and renewal terms for
// buyer.
type domainBodies struct {
	domains *registration.Service
	buyer   catalog.Buyer
}

func (c domainBodies) of(d registration.Domain) domainBody {
	t := c.domains.TermsOf(&d, c.buyer)
	return domainBody{ID: d.ID, Name: d.Name, Extension: d.Extension, IsPremium: d.IsPremium,
		RegisteredAt: d.RegisteredAt, ExpiresAt: d.ExpiresAt, AutoRenew: d.AutoRenew, Price: money.Dollars(d.PriceCents),
		Status: t.Status, GraceEndsAt: t.GraceEndsAt, RenewalPrice: money.Dollars(t.Renewal.PriceCents),
		RenewalDays: t.Renewal.PeriodDays, RenewedUntil: t.RenewedExpiresAt}
}

type RegisterDomainInput struct {
	IdempotencyKey string `header:"Idempotency-Key" doc:"Retrying with the same key registers and charges once"`
	Body           struct {
		Name      string `json:"name" required:"false" doc:"Without the extension"`
		Extension string `json:"extension" required:"false" example:".inf.nz"`
		Years     *int   `json:"years,omitempty" doc:"1 to 10; absent means 1 (0 is invalid, not the default)"`
		AutoRenew *bool  `json:"autoRenew,omitempty" doc:"Renew automatically from the wallet (default true)"`
	}
}

type registeredBody struct {
	Domain      domainBody      `json:"domain"`
	Transaction transactionBody `json:"transaction"`
	Wallet      walletBody      `json:"wallet"`
}

type RegisterDomainOutput struct {
	Body envelope[registeredBody]
}

type DomainPatchInput struct {
	ID   int64 `path:"id"`
	Body struct {
		AutoRenew bool `json:"autoRenew"`
	}
}

type DomainRenewInput struct {
	ID             int64  `path:"id" doc:"Domain id"`
	IdempotencyKey string `header:"Idempotency-Key" doc:"Retrying with the same key renews and charges once"`
}

type RenewDomainOutput struct {
	Body envelope[registeredBody]
}

type DomainListOutput struct {
	Body envelope[[]domainBody]
}

type DomainGetInput struct {
	ID int64 `path:"id" doc:"Domain id"`
}

type DomainGetOutput struct {
	Body envelope[domainBody]
}

// domainHandlers are the handlers of the signed-in account's domains.
type domainHandlers struct {
	domains *registration.Service
}

func addDomainRoutes(a huma.API, domains *registration.Service) {
	h := domainHandlers{domains}
	register(a, accessAccount.countedAs(ratelimit.Registrations), huma.Operation{
		OperationID: "domains-register", Method: http.MethodPost, Path: "/api/domains", Tags: []string{"Domains"},
		Summary: "Register a domain",
		Description: "Registers a name for the logged-in account and pays years × the yearly price from its wallet, " +
			"priced on the server (wholesale for registrars). Counts against the account's 20 registrations a " +
			"minute, shared with /v1, and a registrar's against its tier's monthly allowance (403 " +
			"allowance_exhausted once it is used up; see GET /api/registrar/allowance).",
		DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusConflict,
			http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.registerDomain)

	register(a, accessAccount, huma.Operation{
		OperationID: "domains-update", Method: http.MethodPatch, Path: "/api/domains/{id}", Tags: []string{"Domains"},
		Summary: "Turn auto-renewal of my domain on or off", Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, h.setAutoRenew)

	register(a, accessAccount, huma.Operation{
		OperationID: "domains-renew", Method: http.MethodPost, Path: "/api/domains/{id}/renew", Tags: []string{"Domains"},
		Summary: "Renew my domain",
		Description: "Adds one renewal period to the domain's expiry and pays its renewal price from the wallet. " +
			"An expired domain in its grace period resolves again.",
		Errors: []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.renewDomain)

	register(a, accessAccount, huma.Operation{
		OperationID: "domains-list", Method: http.MethodGet, Path: "/api/domains", Tags: []string{"Domains"},
		Summary: "List my domains", Errors: []int{http.StatusUnauthorized},
	}, h.listDomains)

	register(a, accessAccount, huma.Operation{
		OperationID: "domains-get", Method: http.MethodGet, Path: "/api/domains/{id}", Tags: []string{"Domains"},
		Summary: "Get one of my domains", Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, h.getDomain)
}

// registerDomain registers a name for the signed-in account, paid from its wallet.
func (h domainHandlers) registerDomain(ctx context.Context, in *RegisterDomainInput) (*RegisterDomainOutput, error) {
	u := sessionUser(ctx)
	if err := u.MayTransact(); err != nil { // email verified
		return nil, fail(ctx, err)
	}
	b := in.Body
	r, err := h.domains.Register(ctx, u.ID, buyerOf(u), registration.Request{Name: b.Name, Extension: b.Extension,
		Years: b.Years, AutoRenew: b.AutoRenew, IdempotencyKey: in.IdempotencyKey})
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RegisterDomainOutput{Body: ok(registeredBody{Domain: domainBodies{h.domains, buyerOf(u)}.of(*r.Domain),
		Transaction: toTransactionBody(r.Transaction), Wallet: toWalletBody(r.Wallet)})}, nil
}

// setAutoRenew turns auto-renewal of one of the signed-in account's domains on or off.
func (h domainHandlers) setAutoRenew(ctx context.Context, in *DomainPatchInput) (*DomainGetOutput, error) {
	u := sessionUser(ctx)
	d, err := h.domains.SetAutoRenew(ctx, u.ID, in.ID, in.Body.AutoRenew)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DomainGetOutput{Body: ok(domainBodies{h.domains, buyerOf(u)}.of(*d))}, nil
}

// renewDomain renews one of the signed-in account's domains for one period, paid from its wallet.
func (h domainHandlers) renewDomain(ctx context.Context, in *DomainRenewInput) (*RenewDomainOutput, error) {
	u := sessionUser(ctx)
	r, err := h.domains.Renew(ctx, u.ID, in.ID, buyerOf(u), in.IdempotencyKey)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RenewDomainOutput{Body: ok(registeredBody{Domain: domainBodies{h.domains, buyerOf(u)}.of(*r.Domain),
		Transaction: toTransactionBody(r.Transaction), Wallet: toWalletBody(r.Wallet)})}, nil
}

// listDomains lists the signed-in account's domains.
func (h domainHandlers) listDomains(ctx context.Context, _ *struct{}) (*DomainListOutput, error) {
	u := sessionUser(ctx)
	list, err := h.domains.List(ctx, u.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	out := make([]domainBody, len(list))
	for i, d := range list {
		out[i] = domainBodies{h.domains, buyerOf(u)}.of(d)
	}
	return &DomainListOutput{Body: ok(out)}, nil
}

// getDomain returns one of the signed-in account's domains.
func (h domainHandlers) getDomain(ctx context.Context, in *DomainGetInput) (*DomainGetOutput, error) {
	u := sessionUser(ctx)
	d, err := h.domains.Get(ctx, u.ID, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DomainGetOutput{Body: ok(domainBodies{h.domains, buyerOf(u)}.of(*d))}, nil
}
