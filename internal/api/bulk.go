package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/bulk"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/pkg/money"
	"github.com/nameport/nameport/sdk"
)

// Bulk operations (Bulk Operations tab and /v1/bulk): the same service and
// wire types for both; /api answers in its envelope.
//
// Rate limits: a bulk check is one request of the availability-check class
// (100 a minute), whatever its size, as a registrar's batch check counts as
// one command; it is bounded by its 1,000 names instead. Starting a
// registration job through /v1 is one request of the registration class
// (20 a minute), a template job one of the DNS class; renewal and
// auto-renewal jobs count against nothing, as a single renewal or
// auto-renewal change does not, and neither does the dashboard's start of a
// job, which a person confirms. Rows are not counted again: they run in the
// background at the worker's pace, and every registration row still counts
// against the tier's monthly allowance, checked in its own transaction.

type BulkCheckInput struct {
	Body sdk.BulkCheckRequest
}

type BulkCheckOutput struct {
	Body envelope[sdk.BulkCheck]
}

// BulkJobCreateInput is a job of any kind, for the web app.
type BulkJobCreateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Sending the same request again with the same key returns the first job instead of starting another"`
	Body           BulkJobRequest
}

// BulkJobRequest is the web app's request for a job of any kind.
type BulkJobRequest struct {
	Kind       string   `json:"kind" enum:"register,renew,auto_renew,dns_template"`
	Names      []string `json:"names" doc:"Full names, at most 1,000"`
	Years      *int     `json:"years,omitempty" doc:"register: years for each, 1 to 10; absent means 1"`
	AutoRenew  *bool    `json:"autoRenew,omitempty" doc:"register: auto-renewal of the new domains (absent: on); auto_renew: what to set (required)"`
	TemplateID int64    `json:"templateId,omitempty" minimum:"1" doc:"dns_template: the template to apply"`
	Total      *float64 `json:"total,omitempty" doc:"register and renew: the total you confirmed, in dollars; refused with 409 if it changed"`
}

type BulkJobOutput struct {
	Body envelope[sdk.BulkJob]
}

type BulkJobsOutput struct {
	Body envelope[[]sdk.BulkJob]
}

type BulkJobInput struct {
	ID int64 `path:"id" doc:"The job's id"`
}

type DNSTemplatesOutput struct {
	Body envelope[[]sdk.DNSTemplate]
}

type DNSTemplateOutput struct {
	Body envelope[sdk.DNSTemplate]
}

type DNSTemplateCreateInput struct {
	Body sdk.DNSTemplateRequest
}

type DNSTemplateUpdateInput struct {
	ID   int64 `path:"id" doc:"The template's id"`
	Body sdk.DNSTemplateRequest
}

type DNSTemplateInput struct {
	ID int64 `path:"id" doc:"The template's id"`
}

type bulkHandlers struct{ bulk *bulk.Service }

func addBulkRoutes(a huma.API, svc *bulk.Service) {
	h := bulkHandlers{svc}
	who := accessRegistrar("Bulk operations are for registrar accounts")
	tags := []string{"Bulk operations"}
	register(a, who.countedAs(ratelimit.Checks), huma.Operation{
		OperationID: "bulk-check", Method: http.MethodPost, Path: "/api/registrar/bulk/check", Tags: tags,
		Summary: "Check many names",
		Description: "Availability and yearly price of up to 1,000 names at once, in the order given (repeats once). " +
			"A name that is not valid gets its own error. Counts as one availability check.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, h.check)
	register(a, who, huma.Operation{
		OperationID: "bulk-jobs-create", Method: http.MethodPost, Path: "/api/registrar/bulk/jobs", Tags: tags,
		Summary: "Start a bulk job", DefaultStatus: http.StatusCreated,
		Description: "Registers, renews, turns auto-renewal on or off for, or applies a DNS template to many names " +
			"in the background, one row a name. register and renew need the total you confirmed (409 when prices " +
			"changed). A row that fails (insufficient funds, taken meanwhile, allowance used up) charges nothing " +
			"and the job goes on.",
		Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.create)
	register(a, who, huma.Operation{
		OperationID: "bulk-jobs-list", Method: http.MethodGet, Path: "/api/registrar/bulk/jobs", Tags: tags,
		Summary: "My bulk jobs", Description: "The latest 50, newest first, without their rows.",
	}, h.list)
	register(a, who, huma.Operation{
		OperationID: "bulk-jobs-get", Method: http.MethodGet, Path: "/api/registrar/bulk/jobs/{id}", Tags: tags,
		Summary: "A bulk job and its rows", Description: "Progress is done of count; each row says what happened to its name.",
		Errors: []int{http.StatusNotFound},
	}, h.get)
	register(a, who, huma.Operation{
		OperationID: "dns-templates-list", Method: http.MethodGet, Path: "/api/registrar/dns-templates", Tags: tags,
		Summary: "My DNS templates",
	}, h.templates)
	register(a, who, huma.Operation{
		OperationID: "dns-templates-create", Method: http.MethodPost, Path: "/api/registrar/dns-templates", Tags: tags,
		Summary: "Save a DNS template", DefaultStatus: http.StatusCreated,
		Description: "Record sets checked as a record set change checks them; names are relative to each domain.",
		Errors:      []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.createTemplate)
	register(a, who, huma.Operation{
		OperationID: "dns-templates-update", Method: http.MethodPut, Path: "/api/registrar/dns-templates/{id}", Tags: tags,
		Summary: "Replace a DNS template", Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, h.updateTemplate)
	register(a, who, huma.Operation{
		OperationID: "dns-templates-delete", Method: http.MethodDelete, Path: "/api/registrar/dns-templates/{id}", Tags: tags,
		Summary: "Delete a DNS template", Errors: []int{http.StatusNotFound},
	}, h.deleteTemplate)
}

// toBulkCheck is the wire form of a bulk check.
func toBulkCheck(checked []bulk.Checked) sdk.BulkCheck {
	out := sdk.BulkCheck{Results: make([]sdk.BulkCheckResult, len(checked))}
	var total int64
	for i, c := range checked {
		if c.Err != nil {
			out.Results[i] = sdk.BulkCheckResult{Domain: c.Domain, Error: apperr.Message(c.Err)}
			continue
		}
		out.Results[i] = sdk.BulkCheckResult{Domain: c.Domain, Available: c.Available, Reason: c.Reason,
			IsPremium: c.IsPremium, Price: money.Dollars(c.PriceCents), Currency: billing.Currency}
		if c.Available {
			out.Available++
			total += c.PriceCents
		}
	}
	out.Total = money.Dollars(total)
	return out
}

// toBulkJob is the wire form of a job, with rows when given.
func toBulkJob(j *bulk.Job, rows []bulk.Row) sdk.BulkJob {
	out := sdk.BulkJob{ID: j.ID, Kind: j.Kind, State: j.State, Count: j.Total, Done: j.Done(), Succeeded: j.Succeeded,
		Failed: j.Failed, Total: money.Dollars(j.TotalCents), Charged: money.Dollars(j.ChargedCents), Years: j.Years,
		AutoRenew: j.AutoRenew, Template: j.TemplateID, CreatedAt: j.CreatedAt.UTC(), Started: j.StartedAt, Finished: j.FinishedAt}
	if rows != nil {
		out.Rows = make([]sdk.BulkJobRow, len(rows))
		for i, r := range rows {
			out.Rows[i] = sdk.BulkJobRow{Position: r.Position, Domain: r.Name, State: r.State, Message: r.Message,
				Price: money.Dollars(r.PriceCents), Charged: money.Dollars(r.ChargedCents)}
		}
	}
	return out
}

func toBulkJobs(jobs []bulk.Job) []sdk.BulkJob {
	out := make([]sdk.BulkJob, len(jobs))
	for i := range jobs {
		out[i] = toBulkJob(&jobs[i], nil)
	}
	return out
}

func toDNSTemplate(t *bulk.Template) sdk.DNSTemplate {
	out := sdk.DNSTemplate{ID: t.ID, Name: t.Name, Records: make([]sdk.RecordSet, len(t.Sets)),
		CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC()}
	for i, s := range t.Sets {
		out.Records[i] = sdk.RecordSet{Name: s.Name, Type: s.Type, Values: s.Values, TTL: s.TTL, Priority: s.Priority}
	}
	return out
}

func toDNSTemplates(list []bulk.Template) []sdk.DNSTemplate {
	out := make([]sdk.DNSTemplate, len(list))
	for i := range list {
		out[i] = toDNSTemplate(&list[i])
	}
	return out
}

func fromTemplateRequest(in sdk.DNSTemplateRequest) bulk.TemplateInput {
	sets := make([]zone.Set, len(in.Records))
	for i, s := range in.Records {
		sets[i] = zone.Set{Name: s.Name, Type: s.Type, Values: s.Values, TTL: s.TTL, Priority: s.Priority}
	}
	return bulk.TemplateInput{Name: in.Name, Sets: sets}
}

// totalCents converts a confirmed total in dollars; nil stays nil.
func totalCents(total *float64) (*int64, error) {
	if total == nil {
		return nil, nil
	}
	c, ok := money.FromDollars(*total)
	if !ok || c < 0 {
		return nil, apperr.New(apperr.Invalid, "total must be an amount in dollars with at most two decimals")
	}
	return &c, nil
}

// submit starts a job for u; jobs that charge need a verified email.
func submitBulk(ctx context.Context, svc *bulk.Service, u *account.User, sub bulk.Submission) (*bulk.Job, error) {
	if sub.Kind == bulk.KindRegister || sub.Kind == bulk.KindRenew {
		if err := u.MayTransact(); err != nil {
			return nil, err
		}
	}
	return svc.Submit(ctx, u.ID, buyerOf(u), sub)
}

func (h bulkHandlers) check(ctx context.Context, in *BulkCheckInput) (*BulkCheckOutput, error) {
	u := sessionUser(ctx)
	checked, err := h.bulk.Check(ctx, buyerOf(u), in.Body.Names)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &BulkCheckOutput{Body: ok(toBulkCheck(checked))}, nil
}

func (h bulkHandlers) create(ctx context.Context, in *BulkJobCreateInput) (*BulkJobOutput, error) {
	b := in.Body
	total, err := totalCents(b.Total)
	if err != nil {
		return nil, fail(ctx, err)
	}
	j, err := submitBulk(ctx, h.bulk, sessionUser(ctx), bulk.Submission{Kind: b.Kind, Names: b.Names, Years: b.Years,
		AutoRenew: b.AutoRenew, TemplateID: b.TemplateID, TotalCents: total, RequestKey: in.IdempotencyKey})
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &BulkJobOutput{Body: ok(toBulkJob(j, nil))}, nil
}

func (h bulkHandlers) list(ctx context.Context, _ *struct{}) (*BulkJobsOutput, error) {
	jobs, err := h.bulk.List(ctx, sessionUser(ctx).ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &BulkJobsOutput{Body: ok(toBulkJobs(jobs))}, nil
}

func (h bulkHandlers) get(ctx context.Context, in *BulkJobInput) (*BulkJobOutput, error) {
	j, rows, err := h.bulk.Get(ctx, sessionUser(ctx).ID, in.ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &BulkJobOutput{Body: ok(toBulkJob(j, rows))}, nil
}

func (h bulkHandlers) templates(ctx context.Context, _ *struct{}) (*DNSTemplatesOutput, error) {
	list, err := h.bulk.Templates(ctx, sessionUser(ctx).ID)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DNSTemplatesOutput{Body: ok(toDNSTemplates(list))}, nil
}

func (h bulkHandlers) createTemplate(ctx context.Context, in *DNSTemplateCreateInput) (*DNSTemplateOutput, error) {
	t, err := h.bulk.CreateTemplate(ctx, sessionUser(ctx).ID, fromTemplateRequest(in.Body))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DNSTemplateOutput{Body: ok(toDNSTemplate(t))}, nil
}

func (h bulkHandlers) updateTemplate(ctx context.Context, in *DNSTemplateUpdateInput) (*DNSTemplateOutput, error) {
	t, err := h.bulk.UpdateTemplate(ctx, sessionUser(ctx).ID, in.ID, fromTemplateRequest(in.Body))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &DNSTemplateOutput{Body: ok(toDNSTemplate(t))}, nil
}

func (h bulkHandlers) deleteTemplate(ctx context.Context, in *DNSTemplateInput) (*DoneOutput, error) {
	if err := h.bulk.DeleteTemplate(ctx, sessionUser(ctx).ID, in.ID); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
