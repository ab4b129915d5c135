package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/reports"
	"github.com/nameport/nameport/pkg/money"
	"github.com/nameport/nameport/sdk"
)

// A registrar's reports (the Reports tab of the registrar dashboard): one
// Report from the reports service, answered whole as JSON or one table at a
// time as CSV, in /api for the session and in /v1 for an API key. Both ask
// the same service call and convert with toV1Report, so their numbers are
// the same.

type ReportOutput struct {
	Body envelope[sdk.Report]
}

type V1ReportOutput struct {
	Body sdk.Report
}

type ReportCSVInput struct {
	Report string `path:"report" enum:"activity,spend,extensions,renewals,allowance" doc:"The report: activity (registrations and renewals per month), spend (per month), extensions (domains per extension), renewals (due within 90 days) or allowance (this month's registrations)"`
}

// ReportCSVOutput is a CSV file, written as it is (huma writes a []byte
// body raw).
type ReportCSVOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	Body               []byte
}

const (
	reportsDescription = "Figures computed by the server as of now: registrations and renewals per month and spend " +
		"per month (the last 12 calendar months, UTC, completed wallet debits only), domains per extension, the " +
		"domains due for renewal within 30, 60 and 90 days (cumulative; expired domains still in their grace period " +
		"are due now) with what renewing them costs at your prices and the wallet balance that needs, and this " +
		"month's registrations against the tier's allowance."
	reportCSVDescription = "One report as CSV with a header row, as an attachment: the same figures as the JSON " +
		"reports, money in dollars with two decimals, times in RFC 3339 (UTC). Columns: activity " +
		"month,registrations,renewals; spend month,registrations,renewals,other,total; extensions " +
		"extension,domains,active,expired; renewals domain,expires_at,status,window_days,renewal_price,auto_renew,premium; " +
		"allowance tier,limit,used,remaining,period_start,resets_at (limit and remaining \"unlimited\" for enterprise)."
)

// csvResponse documents the CSV body of an export.
func csvResponse() map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: "The report as CSV",
		Content: map[string]*huma.MediaType{"text/csv": {Schema: &huma.Schema{Type: "string"}}}}}
}

type reportHandlers struct{ reports *reports.Service }

func addReportRoutes(a huma.API, svc *reports.Service) {
	h := reportHandlers{svc}
	who := accessRegistrar("Only registrar accounts have reports")
	tags := []string{"Auth"}
	register(a, who, huma.Operation{
		OperationID: "registrar-reports-get", Method: http.MethodGet, Path: "/api/registrar/reports", Tags: tags,
		Summary: "My reports", Description: reportsDescription,
	}, h.mine)
	register(a, who, huma.Operation{
		OperationID: "registrar-reports-csv", Method: http.MethodGet, Path: "/api/registrar/reports/{report}.csv",
		Tags: tags, Summary: "Export a report as CSV", Description: reportCSVDescription, Responses: csvResponse(),
		Errors: []int{http.StatusUnprocessableEntity},
	}, h.mineCSV)
}

func addV1ReportRoutes(v *v1, svc *reports.Service) {
	h := reportHandlers{svc}
	tags := []string{"Registrar API"}
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-reports-get", Method: http.MethodGet, Path: "/v1/reports", Tags: tags,
		Summary: "Your reports", Description: reportsDescription,
	}, nil, h.keys)
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-reports-csv", Method: http.MethodGet, Path: "/v1/reports/{report}.csv", Tags: tags,
		Summary: "Export a report as CSV", Description: reportCSVDescription, Responses: csvResponse(),
		Errors: []int{http.StatusUnprocessableEntity},
	}, nil, h.keysCSV)
}

func (h reportHandlers) mine(ctx context.Context, _ *struct{}) (*ReportOutput, error) {
	r, err := h.reports.Report(ctx, sessionUser(ctx).ID, buyerOf(sessionUser(ctx)))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &ReportOutput{Body: ok(toV1Report(r))}, nil
}

func (h reportHandlers) mineCSV(ctx context.Context, in *ReportCSVInput) (*ReportCSVOutput, error) {
	out, err := h.csv(ctx, sessionUser(ctx), in.Report)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return out, nil
}

func (h reportHandlers) keys(ctx context.Context, _ *struct{}) (*V1ReportOutput, error) {
	r, err := h.reports.Report(ctx, keyUser(ctx).ID, buyerOf(keyUser(ctx)))
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1ReportOutput{Body: toV1Report(r)}, nil
}

func (h reportHandlers) keysCSV(ctx context.Context, in *ReportCSVInput) (*ReportCSVOutput, error) {
	out, err := h.csv(ctx, keyUser(ctx), in.Report)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return out, nil
}

func (h reportHandlers) csv(ctx context.Context, u *account.User, name string) (*ReportCSVOutput, error) {
	r, err := h.reports.Report(ctx, u.ID, buyerOf(u))
	if err != nil {
		return nil, err
	}
	body, err := r.CSV(name)
	if err != nil {
		return nil, err
	}
	return &ReportCSVOutput{ContentType: "text/csv; charset=utf-8",
		ContentDisposition: `attachment; filename="` + reports.CSVFilename(name, r.GeneratedAt) + `"`, Body: body}, nil
}

// toV1Report is r as /api and /v1 show it, money in dollars.
func toV1Report(r *reports.Report) sdk.Report {
	out := sdk.Report{GeneratedAt: r.GeneratedAt, Balance: money.Dollars(r.BalanceCents), Currency: billing.Currency,
		Allowance: toV1Allowance(r.Allowance), Months: make([]sdk.ReportMonth, len(r.Months)),
		Extensions: make([]sdk.ReportExtension, len(r.Extensions)), Renewals: make([]sdk.UpcomingRenewal, len(r.Renewals)),
		RenewalWindows: make([]sdk.RenewalWindow, len(r.Windows))}
	for i, m := range r.Months {
		out.Months[i] = sdk.ReportMonth{Month: m.Month, Registrations: m.Registrations, Renewals: m.Renewals,
			RegistrationSpend: money.Dollars(m.RegistrationCents), RenewalSpend: money.Dollars(m.RenewalCents),
			OtherSpend: money.Dollars(m.OtherCents), TotalSpend: money.Dollars(m.SpendCents())}
	}
	for i, e := range r.Extensions {
		out.Extensions[i] = sdk.ReportExtension{Extension: e.Extension, Domains: e.Domains, Active: e.Active,
			Expired: e.Domains - e.Active}
	}
	for i, n := range r.Renewals {
		out.Renewals[i] = sdk.UpcomingRenewal{Domain: n.Domain, ExpiresAt: n.ExpiresAt, Status: n.Status,
			GraceEndsAt: n.GraceEndsAt, Price: money.Dollars(n.PriceCents), AutoRenew: n.AutoRenew, Premium: n.IsPremium,
			WindowDays: n.WindowDays}
	}
	for i, w := range r.Windows {
		out.RenewalWindows[i] = sdk.RenewalWindow{Days: w.Days, Domains: w.Domains, Total: money.Dollars(w.TotalCents),
			AutoRenewTotal: money.Dollars(w.AutoRenewCents), BalanceNeeded: money.Dollars(w.NeededCents)}
	}
	return out
}
