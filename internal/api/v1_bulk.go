package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/bulk"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/sdk"
)

// /v1's bulk operations: one operation a kind of job, so that each
// declares its scope (register for registering and renewing, and for
// auto-renewal, which decides future charges; dns for templates). Rate
// limits as /api's (see bulk.go).

type V1BulkCheckInput struct {
	Body sdk.BulkCheckRequest
}

type V1BulkCheckOutput struct {
	Body sdk.BulkCheck
}

type V1BulkRegisterInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first job instead of starting another; kept 24 hours"`
	Body           sdk.BulkRegisterRequest
}

type V1BulkRenewInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first job"`
	Body           sdk.BulkRenewRequest
}

type V1BulkAutoRenewInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first job"`
	Body           sdk.BulkAutoRenewRequest
}

type V1BulkTemplateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first job"`
	Body           sdk.BulkDNSTemplateRequest
}

type V1BulkJobOutput struct {
	Body sdk.BulkJob
}

type V1BulkJobsOutput struct {
	Body sdk.BulkJobList
}

type V1BulkJobInput struct {
	ID int64 `path:"id" doc:"The job's id"`
}

type V1DNSTemplatesOutput struct {
	Body sdk.DNSTemplateList
}

type V1DNSTemplateOutput struct {
	Body sdk.DNSTemplate
}

type V1DNSTemplateCreateInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Retrying with the same key and body returns the first answer"`
	Body           sdk.DNSTemplateRequest
}

type V1DNSTemplateUpdateInput struct {
	ID   int64 `path:"id" doc:"The template's id"`
	Body sdk.DNSTemplateRequest
}

type V1DNSTemplateInput struct {
	ID int64 `path:"id" doc:"The template's id"`
}

type v1BulkHandlers struct{ bulk *bulk.Service }

func addV1BulkRoutes(v *v1, svc *bulk.Service) {
	h := v1BulkHandlers{svc}
	tags := []string{"Registrar API"}
	jobErrors := []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}
	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-bulk-check", Method: http.MethodPost, Path: "/v1/bulk/check", Tags: tags,
		Summary: "Check many names",
		Description: "Availability and yearly price for your account of up to 1,000 names, in the order given " +
			"(repeats once); a name that is not valid gets its own error. Counts as one availability check.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, &ratelimit.Checks, h.check)
	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-bulk-register", Method: http.MethodPost, Path: "/v1/bulk/register", Tags: tags,
		Summary: "Register many names",
		Description: "Starts a background job registering each name as POST /v1/domains/register would, in order, " +
			"paid from your wallet as it goes. total must be the batch's total as /v1/bulk/check priced it (409 " +
			"when prices changed). A row refused (insufficient funds, taken meanwhile, allowance used up) charges " +
			"nothing and the job goes on. Follow it at GET /v1/bulk/jobs/{id}.",
		DefaultStatus: http.StatusAccepted, Errors: jobErrors,
	}, &ratelimit.Registrations, h.register)
	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-bulk-renew", Method: http.MethodPost, Path: "/v1/bulk/renew", Tags: tags,
		Summary:       "Renew many of your domains",
		Description:   "Starts a job renewing each for one renewal period; total is the sum of their renewal prices you confirmed.",
		DefaultStatus: http.StatusAccepted, Errors: jobErrors,
	}, nil, h.renew)
	registerV1(v, account.ScopeRegister, huma.Operation{
		OperationID: "v1-bulk-auto-renew", Method: http.MethodPost, Path: "/v1/bulk/auto-renew", Tags: tags,
		Summary:       "Turn auto-renewal of many domains on or off",
		DefaultStatus: http.StatusAccepted, Errors: jobErrors,
	}, nil, h.autoRenew)
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-bulk-dns-template", Method: http.MethodPost, Path: "/v1/bulk/dns-template", Tags: tags,
		Summary:       "Apply a DNS template to many domains",
		Description:   "Sets each record set of the template on each domain, as PUT /v1/domains/{domain}/records would.",
		DefaultStatus: http.StatusAccepted, Errors: jobErrors,
	}, &ratelimit.DNSChanges, h.applyTemplate)
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-bulk-jobs-list", Method: http.MethodGet, Path: "/v1/bulk/jobs", Tags: tags,
		Summary: "Your bulk jobs", Description: "The latest 50, newest first, without their rows.",
	}, nil, h.list)
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-bulk-jobs-get", Method: http.MethodGet, Path: "/v1/bulk/jobs/{id}", Tags: tags,
		Summary: "A bulk job and its rows", Errors: []int{http.StatusNotFound},
	}, nil, h.get)
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-dns-templates-list", Method: http.MethodGet, Path: "/v1/dns-templates", Tags: tags,
		Summary: "Your DNS templates",
	}, nil, h.templates)
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-dns-templates-create", Method: http.MethodPost, Path: "/v1/dns-templates", Tags: tags,
		Summary: "Save a DNS template", DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.createTemplate)
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-dns-templates-update", Method: http.MethodPut, Path: "/v1/dns-templates/{id}", Tags: tags,
		Summary: "Replace a DNS template", Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, nil, h.updateTemplate)
	registerV1(v, account.ScopeDNS, huma.Operation{
		OperationID: "v1-dns-templates-delete", Method: http.MethodDelete, Path: "/v1/dns-templates/{id}", Tags: tags,
		Summary: "Delete a DNS template", DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	}, nil, h.deleteTemplate)
}

func (h v1BulkHandlers) check(ctx context.Context, in *V1BulkCheckInput) (*V1BulkCheckOutput, error) {
	checked, err := h.bulk.Check(ctx, buyerOf(keyUser(ctx)), in.Body.Names)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1BulkCheckOutput{Body: toBulkCheck(checked)}, nil
}

func (h v1BulkHandlers) start(ctx context.Context, sub bulk.Submission, total *float64) (*V1BulkJobOutput, error) {
	cents, err := totalCents(total)
	if err != nil {
		return nil, problem(ctx, err)
	}
	sub.TotalCents = cents
	j, err := submitBulk(ctx, h.bulk, keyUser(ctx), sub)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1BulkJobOutput{Body: toBulkJob(j, nil)}, nil
}

func (h v1BulkHandlers) register(ctx context.Context, in *V1BulkRegisterInput) (*V1BulkJobOutput, error) {
	b := in.Body
	return h.start(ctx, bulk.Submission{Kind: bulk.KindRegister, Names: b.Names, Years: b.Years, AutoRenew: b.AutoRenew,
		RequestKey: in.IdempotencyKey}, &b.Total)
}

func (h v1BulkHandlers) renew(ctx context.Context, in *V1BulkRenewInput) (*V1BulkJobOutput, error) {
	return h.start(ctx, bulk.Submission{Kind: bulk.KindRenew, Names: in.Body.Names, RequestKey: in.IdempotencyKey}, &in.Body.Total)
}

func (h v1BulkHandlers) autoRenew(ctx context.Context, in *V1BulkAutoRenewInput) (*V1BulkJobOutput, error) {
	on := in.Body.AutoRenew
	return h.start(ctx, bulk.Submission{Kind: bulk.KindAutoRenew, Names: in.Body.Names, AutoRenew: &on,
		RequestKey: in.IdempotencyKey}, nil)
}

func (h v1BulkHandlers) applyTemplate(ctx context.Context, in *V1BulkTemplateInput) (*V1BulkJobOutput, error) {
	return h.start(ctx, bulk.Submission{Kind: bulk.KindDNSTemplate, Names: in.Body.Names, TemplateID: in.Body.TemplateID,
		RequestKey: in.IdempotencyKey}, nil)
}

func (h v1BulkHandlers) list(ctx context.Context, _ *struct{}) (*V1BulkJobsOutput, error) {
	jobs, err := h.bulk.List(ctx, keyUser(ctx).ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1BulkJobsOutput{Body: sdk.BulkJobList{Jobs: toBulkJobs(jobs)}}, nil
}

func (h v1BulkHandlers) get(ctx context.Context, in *V1BulkJobInput) (*V1BulkJobOutput, error) {
	j, rows, err := h.bulk.Get(ctx, keyUser(ctx).ID, in.ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1BulkJobOutput{Body: toBulkJob(j, rows)}, nil
}

func (h v1BulkHandlers) templates(ctx context.Context, _ *struct{}) (*V1DNSTemplatesOutput, error) {
	list, err := h.bulk.Templates(ctx, keyUser(ctx).ID)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DNSTemplatesOutput{Body: sdk.DNSTemplateList{Templates: toDNSTemplates(list)}}, nil
}

func (h v1BulkHandlers) createTemplate(ctx context.Context, in *V1DNSTemplateCreateInput) (*V1DNSTemplateOutput, error) {
	t, err := h.bulk.CreateTemplate(ctx, keyUser(ctx).ID, fromTemplateRequest(in.Body))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DNSTemplateOutput{Body: toDNSTemplate(t)}, nil
}

func (h v1BulkHandlers) updateTemplate(ctx context.Context, in *V1DNSTemplateUpdateInput) (*V1DNSTemplateOutput, error) {
	t, err := h.bulk.UpdateTemplate(ctx, keyUser(ctx).ID, in.ID, fromTemplateRequest(in.Body))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1DNSTemplateOutput{Body: toDNSTemplate(t)}, nil
}

func (h v1BulkHandlers) deleteTemplate(ctx context.Context, in *V1DNSTemplateInput) (*V1NoContentOutput, error) {
	if err := h.bulk.DeleteTemplate(ctx, keyUser(ctx).ID, in.ID); err != nil {
		return nil, problem(ctx, err)
	}
	return &V1NoContentOutput{}, nil
}
