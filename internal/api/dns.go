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
)

// recordBody is a DNS record (spec section 3 "DNS record").
type recordBody struct {
	ID       int64  `json:"id"`
	Type     string `json:"type" enum:"A,AAAA,CNAME,MX,TXT,NS,SRV,CAA"`
	Name     string `json:"name" doc:"Relative to the domain: @, www, *, a.b"`
	Content  string `json:"content"`
	TTL      int    `json:"ttl"`
	Priority *int   `json:"priority" doc:"MX and SRV only"`
}

func toRecordBody(r zone.Record) recordBody {
	return recordBody{ID: r.ID, Type: r.Type, Name: r.Name, Content: r.Content, TTL: r.TTL, Priority: r.Priority}
}

func toRecordBodies(rs []zone.Record) []recordBody {
	out := make([]recordBody, len(rs))
	for i, r := range rs {
		out[i] = toRecordBody(r)
	}
	return out
}

type recordInputBody struct {
	Type     string `json:"type" required:"false"`
	Name     string `json:"name" required:"false"`
	Content  string `json:"content" required:"false"`
	TTL      *int   `json:"ttl,omitempty" doc:"Seconds, 300 to 604800; absent means the TTL of the other records of this name and type, or 3600 when there are none (0 is invalid, not the default). The records of one name and type share one TTL (RFC 2181 section 5.2): a TTL that differs from theirs is refused (422, with setTtl) unless alignTtl is set"`
	Priority *int   `json:"priority,omitempty" doc:"MX and SRV: 0 to 65535. Records that differ only in priority are different records"`
	AlignTTL bool   `json:"alignTtl,omitempty" doc:"Give the other records of this name and type this record's TTL, in the same change"`
}

func (b recordInputBody) toInput() zone.Input {
	return zone.Input{Type: b.Type, Name: b.Name, Content: b.Content, TTL: b.TTL, Priority: b.Priority, AlignTTL: b.AlignTTL}
}

type DomainIDInput struct {
	ID int64 `path:"id" doc:"Domain id"`
}

type RecordListOutput struct {
	Body envelope[[]recordBody]
}

type RecordCreateInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body recordInputBody
}

type RecordUpdateInput struct {
	ID       int64 `path:"id" doc:"Domain id"`
	RecordID int64 `path:"recordId"`
	Body     recordInputBody
}

type RecordIDInput struct {
	ID       int64 `path:"id" doc:"Domain id"`
	RecordID int64 `path:"recordId"`
}

type RecordOutput struct {
	Body envelope[recordBody]
}

type zoneFileBody struct {
	Filename string `json:"filename" example:"example.inf.nz.zone"`
	ZoneFile string `json:"zoneFile" doc:"BIND zone file"`
}

type ZoneExportOutput struct {
	Body envelope[zoneFileBody]
}

type ZoneImportInput struct {
	ID   int64 `path:"id" doc:"Domain id"`
	Body struct {
		ZoneFile string `json:"zoneFile" maxLength:"524288" doc:"BIND zone file; records absent from it are removed"`
		Delegate bool   `json:"delegate,omitempty" doc:"Keep the NS records at the domain's apex: the domain is delegated to those name servers and none of its other records is served. Without it they are skipped, with a note."`
	}
}

type planNoteBody struct {
	Line    int    `json:"line"`
	Kind    string `json:"kind" enum:"apex_ns,own_ns,soa,ttl,refused" doc:"apex_ns: an NS record at the domain's apex naming other name servers, skipped (see delegate); own_ns: an NS record at the apex naming one of Nameport's own name servers, which serve the domain already (nothing to change); soa: the SOA, skipped (the registry keeps it); ttl: a TTL moved to the nearest of the bounds, or lowered to the lowest TTL of its name and type in the file (they share one); refused: a line that cannot be imported, skipped (the others can be)"`
	Message string `json:"message"`
	Text    string `json:"text" doc:"The line as the file has it (trimmed; its first 80 bytes when longer)"`
}

type planBody struct {
	Add       []recordBody   `json:"add"`
	Change    []recordBody   `json:"change"`
	Remove    []recordBody   `json:"remove"`
	Unchanged int            `json:"unchanged"`
	Notes     []planNoteBody `json:"notes" nullable:"false" doc:"Lines of the file not taken as they are"`
}

type ZonePlanOutput struct {
	Body envelope[planBody]
}

func toPlanBody(p zone.Plan) planBody {
	notes := make([]planNoteBody, len(p.Notes))
	for i, n := range p.Notes {
		notes[i] = planNoteBody{Line: n.Line, Kind: n.Kind, Message: n.Message, Text: n.Text}
	}
	return planBody{Add: toRecordBodies(p.Add), Change: toRecordBodies(p.Change), Remove: toRecordBodies(p.Remove),
		Unchanged: p.Unchanged, Notes: notes}
}

// dnsHandlers are the handlers of the records of the signed-in account's
// domains.
type dnsHandlers struct {
	domains *registration.Service
	cat     *catalog.Service
	records *zone.Service
}

func addDNSRoutes(a huma.API, domains *registration.Service, cat *catalog.Service, records *zone.Service) {
	h := dnsHandlers{domains, cat, records}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}
	tags := []string{"DNS"}
	dnsChange := accessAccount.countedAs(ratelimit.DNSChanges)

	register(a, accessAccount, huma.Operation{
		OperationID: "dns-list", Method: http.MethodGet, Path: "/api/domains/{id}/dns", Tags: tags,
		Summary: "List my domain's DNS records", Errors: errs,
	}, h.listRecords)

	register(a, dnsChange, huma.Operation{
		OperationID: "dns-create", Method: http.MethodPost, Path: "/api/domains/{id}/dns", Tags: tags,
		Summary: "Add a DNS record", DefaultStatus: http.StatusCreated,
		Errors: append(errs, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests),
	}, h.createRecord)

	register(a, dnsChange, huma.Operation{
		OperationID: "dns-update", Method: http.MethodPut, Path: "/api/domains/{id}/dns/{recordId}", Tags: tags,
		Summary: "Change a DNS record", Errors: append(errs, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests),
	}, h.updateRecord)

	register(a, dnsChange, huma.Operation{
		OperationID: "dns-delete", Method: http.MethodDelete, Path: "/api/domains/{id}/dns/{recordId}", Tags: tags,
		Summary: "Delete a DNS record", Errors: append(errs, http.StatusTooManyRequests),
	}, h.deleteRecord)

	register(a, accessAccount, huma.Operation{
		OperationID: "zone-export", Method: http.MethodGet, Path: "/api/domains/{id}/zone", Tags: tags,
		Summary: "Export my domain's records as a BIND zone file", Errors: errs,
	}, h.exportZone)

	register(a, accessAccount, huma.Operation{
		OperationID: "zone-import-preview", Method: http.MethodPost, Path: "/api/domains/{id}/zone/preview", Tags: tags,
		Summary: "Preview importing a zone file", Description: "What importing would add, change and remove. Changes nothing.",
		Errors: append(errs, http.StatusUnprocessableEntity),
	}, h.previewZoneImport)

	register(a, dnsChange, huma.Operation{
		OperationID: "zone-import", Method: http.MethodPost, Path: "/api/domains/{id}/zone/import", Tags: tags,
		Summary:     "Import a zone file",
		Description: "Replaces the domain's records with the file's in one transaction and returns what changed.",
		Errors:      append(errs, http.StatusUnprocessableEntity, http.StatusTooManyRequests),
	}, h.importZone)
}

// ownedBy returns u's domain id as the zone service knows it.
func (h dnsHandlers) ownedBy(ctx context.Context, u *account.User, id int64) (zone.Domain, error) {
	d, err := h.domains.Get(ctx, u.ID, id)
	if err != nil {
		return zone.Domain{}, err
	}
	return zone.Domain{ID: d.ID, Name: d.Name, Extension: d.Extension}, nil
}

// owned returns the caller's domain id as the zone service knows it;
// another account's id is not found.
func (h dnsHandlers) owned(ctx context.Context, id int64) (zone.Domain, error) {
	u := sessionUser(ctx)
	return h.ownedBy(ctx, u, id)
}

// editable is owned, for changes: the extension must allow DNS
// management. (Changes count against the account's DNS limit, shared
// with /v1, in the middleware: see dnsChange.)
func (h dnsHandlers) editable(ctx context.Context, id int64) (zone.Domain, error) {
	u := sessionUser(ctx)
	d, err := h.ownedBy(ctx, u, id)
	if err != nil {
		return d, err
	}
	return d, h.cat.CheckDNSManagement(d.Extension)
}

// listRecords lists the DNS records of one of the signed-in account's domains.
func (h dnsHandlers) listRecords(ctx context.Context, in *DomainIDInput) (*RecordListOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	rs, err := h.records.List(ctx, d)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RecordListOutput{Body: ok(toRecordBodies(rs))}, nil
}

// createRecord adds a DNS record to one of the signed-in account's domains.
func (h dnsHandlers) createRecord(ctx context.Context, in *RecordCreateInput) (*RecordOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	r, err := h.records.Create(ctx, d, in.Body.toInput())
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RecordOutput{Body: ok(toRecordBody(*r))}, nil
}

// updateRecord changes a DNS record of one of the signed-in account's domains.
func (h dnsHandlers) updateRecord(ctx context.Context, in *RecordUpdateInput) (*RecordOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	r, err := h.records.Update(ctx, d, in.RecordID, in.Body.toInput())
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RecordOutput{Body: ok(toRecordBody(*r))}, nil
}

// deleteRecord deletes a DNS record of one of the signed-in account's domains.
func (h dnsHandlers) deleteRecord(ctx context.Context, in *RecordIDInput) (*DoneOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if err := h.records.Delete(ctx, d, in.RecordID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// exportZone exports the records of one of the signed-in account's domains as a BIND zone file.
func (h dnsHandlers) exportZone(ctx context.Context, in *DomainIDInput) (*ZoneExportOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	text, err := h.records.Export(ctx, d)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ZoneExportOutput{Body: ok(zoneFileBody{Filename: d.String() + ".zone", ZoneFile: text})}, nil
}

// previewZoneImport tells what importing a zone file would add, change and remove, changing nothing.
func (h dnsHandlers) previewZoneImport(ctx context.Context, in *ZoneImportInput) (*ZonePlanOutput, error) {
	d, err := h.owned(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.records.PreviewImport(ctx, d, in.Body.ZoneFile, zone.ImportOptions{Delegate: in.Body.Delegate})
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ZonePlanOutput{Body: ok(toPlanBody(p))}, nil
}

// importZone replaces a domain's records with a zone file's and returns what changed.
func (h dnsHandlers) importZone(ctx context.Context, in *ZoneImportInput) (*ZonePlanOutput, error) {
	d, err := h.editable(ctx, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	p, err := h.records.ApplyImport(ctx, d, in.Body.ZoneFile, zone.ImportOptions{Delegate: in.Body.Delegate})
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ZonePlanOutput{Body: ok(toPlanBody(p))}, nil
}
