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

// v1DNSHandlers are the handlers of /v1's record sets of the key's domains.
type v1DNSHandlers struct {
	domains *registration.Service
	cat     *catalog.Service
	records *zone.Service
}

func addV1DNSRoutes(v *v1, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	h := v1DNSHandlers{domains, cat, records}
	tags := []string{"Registrar API"}

	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-records-list", Method: http.MethodGet, Path: "/v1/domains/{domain}/records", Tags: tags,
		Summary: "List a domain's DNS records", Errors: []int{http.StatusNotFound},
	}, &ratelimit.DNSChanges, h.listRecords)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-records-upsert", Method: http.MethodPut, Path: "/v1/domains/{domain}/records", Tags: tags,
		Summary: "Set a record set",
		Description: "Replaces every record of the set's name and type with its values, in one change; " +
			"values already there keep their record id. Returns the records of that set only, as stored; the " +
			"domain's other records are untouched and not included (GET lists them all).",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, h.setRecordSet)

	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-records-delete", Method: http.MethodDelete, Path: "/v1/domains/{domain}/records/{type}/{name}", Tags: tags,
		Summary: "Delete a record set", Description: "Removes every record of the name and type.",
		DefaultStatus: http.StatusNoContent,
		Errors:        []int{http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity},
	}, &ratelimit.DNSChanges, h.deleteRecordSet)
}

// owned returns the key's domain by name; another account's is not found.
func (h v1DNSHandlers) owned(ctx context.Context, name string) (zone.Domain, error) {
	d, err := h.domains.GetByName(ctx, keyUser(ctx).ID, name)
	if err != nil {
		return zone.Domain{}, err
	}
	return zone.Domain{ID: d.ID, Name: d.Name, Extension: d.Extension}, nil
}

// editable is owned, for changes: the extension must allow DNS management.
func (h v1DNSHandlers) editable(ctx context.Context, name string) (zone.Domain, error) {
	d, err := h.owned(ctx, name)
	if err != nil {
		return d, err
	}
	return d, h.cat.CheckDNSManagement(d.Extension)
}

// listRecords lists the DNS records of one of the key's domains.
func (h v1DNSHandlers) listRecords(ctx context.Context, in *V1DomainInput) (*V1RecordsOutput, error) {
	d, err := h.owned(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	rs, err := h.records.List(ctx, d)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1RecordsOutput{Body: toV1Records(rs)}, nil
}

// setRecordSet replaces a record set (a name and type) of one of the key's domains.
func (h v1DNSHandlers) setRecordSet(ctx context.Context, in *V1RecordSetInput) (*V1RecordsOutput, error) {
	d, err := h.editable(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	b := in.Body
	rs, err := h.records.ReplaceSet(ctx, d, zone.Set{Name: b.Name, Type: b.Type, Values: b.Values, TTL: b.TTL, Priority: b.Priority})
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1RecordsOutput{Body: toV1Records(rs)}, nil
}

// deleteRecordSet removes every record of a name and type of one of the key's domains.
func (h v1DNSHandlers) deleteRecordSet(ctx context.Context, in *V1RecordSetDeleteInput) (*V1NoContentOutput, error) {
	d, err := h.editable(ctx, in.Domain)
	if err != nil {
		return nil, problem(ctx, err)
	}
	if err := h.records.DeleteSet(ctx, d, in.Name, in.Type); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}
