package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/registration"
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
}

func toDomainBody(d registration.Domain) domainBody {
	return domainBody{ID: d.ID, Name: d.Name, Extension: d.Extension, IsPremium: d.IsPremium,
		RegisteredAt: d.RegisteredAt, ExpiresAt: d.ExpiresAt, AutoRenew: d.AutoRenew, Price: dollars(d.PriceCents)}
}

// dollars shows integer cents as the dollar amount the API speaks; money is
// never computed in floating point, only displayed.
func dollars(cents int64) float64 { return float64(cents) / 100 }

type DomainListOutput struct {
	Body envelope[[]domainBody]
}

type DomainGetInput struct {
	ID int64 `path:"id" doc:"Domain id"`
}

type DomainGetOutput struct {
	Body envelope[domainBody]
}

func addDomainRoutes(a huma.API, accounts *account.Service, domains *registration.Service) {
	huma.Register(a, huma.Operation{
		OperationID: "domains-list", Method: http.MethodGet, Path: "/api/domains", Tags: []string{"Domains"},
		Summary: "List my domains", Errors: []int{http.StatusUnauthorized},
	}, func(ctx context.Context, _ *struct{}) (*DomainListOutput, error) {
		u, err := currentUser(ctx, accounts)
		if err != nil {
			return nil, fail(ctx, err)
		}
		list, err := domains.List(ctx, u.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		out := make([]domainBody, len(list))
		for i, d := range list {
			out[i] = toDomainBody(d)
		}
		return &DomainListOutput{Body: ok(out)}, nil
	})

	huma.Register(a, huma.Operation{
		OperationID: "domains-get", Method: http.MethodGet, Path: "/api/domains/{id}", Tags: []string{"Domains"},
		Summary: "Get one of my domains", Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, func(ctx context.Context, in *DomainGetInput) (*DomainGetOutput, error) {
		u, err := currentUser(ctx, accounts)
		if err != nil {
			return nil, fail(ctx, err)
		}
		d, err := domains.Get(ctx, u.ID, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &DomainGetOutput{Body: ok(toDomainBody(*d))}, nil
	})
}
