package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/sdk"
)

type V1RecordsOutput struct {
	Body sdk.RecordList
}

type V1RecordSetInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer without repeating the effect; kept 24 hours"`
	Domain         string `path:"domain" example:"example.inf.nz"`
	Body           sdk.RecordSet
}

type V1RecordSetDeleteInput struct {
	Domain string `path:"domain" example:"example.inf.nz"`
	Type   string `path:"type" example:"A"`
	Name   string `path:"name" doc:"@ for the apex" example:"www"`
}

type V1NoContentOutput struct{}

func toV1Records(rs []zone.Record) sdk.RecordList {
	out := sdk.RecordList{Records: make([]sdk.Record, len(rs))}
	for i, r := range rs {
		out.Records[i] = sdk.Record{ID: r.ID, Name: r.Name, Type: r.Type, Content: r.Content, TTL: r.TTL, Priority: r.Priority}
	}
	return out
}

func addV1DNSRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	tags := []string{"Registrar API"}
	// owned returns the key's domain by name; another account's is not found.
	owned := func(ctx context.Context, name string) (zone.Domain, error) {
		d, err := domains.GetByName(ctx, keyUser(ctx).ID, name)
		if err != nil {
			return zone.Domain{}, err
		}
		return zone.Domain{ID: d.ID, Name: d.Name, Extension: d.Extension}, nil
	}
	editable := func(ctx context.Context, name string) (zone.Domain, error) {
		d, err := owned(ctx, name)
		if err != nil {
			return d, err
		}
		return d, cat.CheckDNSManagement(d.Extension)
	}

	registerV1(v, huma.Operation{
		OperationID: "v1-records-list", Method: http.MethodGet, Path: "/v1/domains/{domain}/records", Tags: tags,
		Summary: "List a domain's DNS records", Errors: []int{http.StatusNotFound},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1DomainInput) (*V1RecordsOutput, error) {
		d, err := owned(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		rs, err := records.List(ctx, d)
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1RecordsOutput{Body: toV1Records(rs)}, nil
	})

	registerV1(v, huma.Operation{
		OperationID: "v1-records-upsert", Method: http.MethodPut, Path: "/v1/domains/{domain}/records", Tags: tags,
		Summary: "Set a record set",
		Description: "Replaces every record of the set's name and type with its values, in one change; " +
			"values already there keep their record id. Returns the records of that set only, as stored; the " +
			"domain's other records are untouched and not included (GET lists them all).",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1RecordSetInput) (*V1RecordsOutput, error) {
		d, err := editable(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		b := in.Body
		rs, err := records.ReplaceSet(ctx, d, zone.Set{Name: b.Name, Type: b.Type, Values: b.Values, TTL: b.TTL, Priority: b.Priority})
		if err != nil {
			return nil, problem(ctx, err)
		}
		return &V1RecordsOutput{Body: toV1Records(rs)}, nil
	})

	registerV1(v, huma.Operation{
		OperationID: "v1-records-delete", Method: http.MethodDelete, Path: "/v1/domains/{domain}/records/{type}/{name}", Tags: tags,
		Summary: "Delete a record set", Description: "Removes every record of the name and type.",
		DefaultStatus: http.StatusNoContent,
		Errors:        []int{http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, func(ctx context.Context, in *V1RecordSetDeleteInput) (*V1NoContentOutput, error) {
		d, err := editable(ctx, in.Domain)
		if err != nil {
			return nil, problem(ctx, err)
		}
		if err := records.DeleteSet(ctx, d, in.Name, in.Type); err != nil {
			return nil, problem(ctx, err)
		}
		return &V1NoContentOutput{}, nil
	})
}
