package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

// DS records of delegated domains (#21): the same operations on /api (the
// domain page) and /v1 (keys with the dns scope to change, read to list).
// The rules are zone's (AddDS).

type DSListOutput struct {
	Body envelope[[]sdk.DS]
}

type DSCreateInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body sdk.DSInput
}

type DSOutput struct {
	Body envelope[sdk.DS]
}

type DSIDInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	DSID int64 `path:"dsId"`
}

type V1DSListOutput struct {
	Body sdk.DSList
}

type V1DSCreateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	Body           sdk.DSInput
}

type V1DSOutput struct {
	Body sdk.DS
}

type V1DSDeleteInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	DSID   int64  `path:"dsId"`
}

func toSDKDS(ds zone.DS) sdk.DS {
	return sdk.DS{ID: ds.ID, KeyTag: ds.KeyTag, Algorithm: ds.Algorithm, DigestType: ds.DigestType, Digest: ds.Digest, TTL: ds.TTL}
}

func toSDKDSList(list []zone.DS) []sdk.DS {
	out := make([]sdk.DS, len(list))
	for i, ds := range list {
		out[i] = toSDKDS(ds)
	}
	return out
}

func toDSInput(in sdk.DSInput) zone.DSInput {
	return zone.DSInput{KeyTag: in.KeyTag, Algorithm: in.Algorithm, DigestType: in.DigestType, Digest: in.Digest}
}

const dsDescription = "DS records are for a delegated domain (its NS records point to other name servers): " +
	"they publish the digest of the key those servers sign it with. Removing the domain's last NS record removes them."

func addDSRoutes(a huma.API, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	h := dnsHandlers{domains, cat, records}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}
	tags := []string{"DNS"}
	dnsChange := accessAccount.countedAs(ratelimit.DNSChanges)

	register(a, accessAccount, huma.Operation{
		OperationID: "ds-list", Method: http.MethodGet, Path: "/api/domains/{id}/ds", Tags: tags,
		Summary: "List my domain's DS records", Description: dsDescription, Errors: errs,
	}, func(ctx context.Context, in *DomainIDInput) (*DSListOutput, error) {
		d, err := h.owned(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		list, err := h.records.ListDS(ctx, d)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &DSListOutput{Body: ok(toSDKDSList(list))}, nil
	})

	register(a, dnsChange, huma.Operation{
		OperationID: "ds-create", Method: http.MethodPost, Path: "/api/domains/{id}/ds", Tags: tags,
		Summary: "Add a DS record", Description: dsDescription, DefaultStatus: http.StatusCreated,
		Errors: append(errs, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests),
	}, func(ctx context.Context, in *DSCreateInput) (*DSOutput, error) {
		d, err := h.editable(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		ds, err := h.records.AddDS(ctx, d, toDSInput(in.Body))
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &DSOutput{Body: ok(toSDKDS(*ds))}, nil
	})

	register(a, dnsChange, huma.Operation{
		OperationID: "ds-delete", Method: http.MethodDelete, Path: "/api/domains/{id}/ds/{dsId}", Tags: tags,
		Summary: "Delete a DS record", Errors: append(errs, http.StatusTooManyRequests),
	}, func(ctx context.Context, in *DSIDInput) (*DoneOutput, error) {
		d, err := h.editable(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		if err := h.records.DeleteDS(ctx, d, in.DSID); err != nil {
			return nil, fail(ctx, err)
		}
		return done(), nil
	})
}

func addV1DSRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	h := v1DNSHandlers{domains, cat, records}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-ds-list", Method: http.MethodGet, Path: "/v1/domains/{domain}/ds", Tags: tags,
		Summary: "List a domain's DS records", Description: dsDescription, Errors: []int{http.StatusNotFound},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1DomainInput) (*V1DSListOutput, error) {
		d, err := h.owned(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		list, err := h.records.ListDS(ctx, d)
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1DSListOutput{Body: sdk.DSList{DS: toSDKDSList(list)}}, nil
	})

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-ds-create", Method: http.MethodPost, Path: "/v1/domains/{domain}/ds", Tags: tags,
		Summary: "Add a DS record", Description: dsDescription, DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1DSCreateInput) (*V1DSOutput, error) {
		d, err := h.editable(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		ds, err := h.records.AddDS(ctx, d, toDSInput(in.Body))
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1DSOutput{Body: toSDKDS(*ds)}, nil
	})

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-ds-delete", Method: http.MethodDelete, Path: "/v1/domains/{domain}/ds/{dsId}", Tags: tags,
		Summary: "Delete a DS record", DefaultStatus: http.StatusNoContent,
		Errors: []int{http.StatusForbidden, http.StatusNotFound},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1DSDeleteInput) (*V1NoContentOutput, error) {
		d, err := h.editable(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		if err := h.records.DeleteDS(ctx, d, in.DSID); err != nil {
			return nil, problem(ctx, err)
		}
		return &V1NoContentOutput{}, nil
	})
}
