package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/requestlog"
	"github.com/nameport/nameport/sdk"
)

// The registrar's request log: every /v1 request made with one of its keys
// (recorded by logRequest), read in the dashboard's Request Logs tab
// (/api/registrar/logs) and by programs (/v1/logs), a page at a time or as
// CSV. requestlog owns the filters, the CSV and what is kept.

// logRequest makes ctx record the request in the request log once it is
// answered: logged, deferred by the caller, records it with the status it
// got. A request that ended without an answer (a panic, which the
// recoverer answers) is logged as 500. Only the key's id, the path without
// its query, and headers that carry no secret are kept.
func (v *v1) logRequest(ctx huma.Context, u *account.User, grant *account.KeyGrant) (huma.Context, func()) {
	if v.logs == nil {
		return ctx, func() {}
	}
	start := time.Now()
	c := &statusContext{humaContext: ctx}
	return c, func() {
		status := c.status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		u2 := ctx.URL()
		v.logs.Record(requestlog.Entry{CreatedAt: start, UserID: u.ID, KeyID: grant.ID, Method: ctx.Method(),
			Path: u2.EscapedPath(), Status: status, LatencyMicros: time.Since(start).Microseconds(),
			IdempotencyKey: ctx.Header("Idempotency-Key"), RequestID: RequestID(ctx.Context())})
	}
}

// statusContext passes a response through and notes its status.
type statusContext struct {
	humaContext
	status int
}

func (c *statusContext) SetStatus(code int) {
	c.status = code
	c.humaContext.SetStatus(code)
}

// Unwrap lets humachi.Unwrap reach the response writer through c (the rate
// limit's headers are set there).
func (c *statusContext) Unwrap() huma.Context { return c.humaContext }

// RequestLogFilter is the filter of every listing and export of the log.
type RequestLogFilter struct {
	Key    int64     `query:"key" minimum:"0" doc:"Only the requests of this API key (its id)"`
	Status string    `query:"status" maxLength:"3" doc:"Only this status class (2xx, 3xx, 4xx, 5xx) or status code (e.g. 404)" example:"4xx"`
	Path   string    `query:"path" maxLength:"1024" doc:"Only requests whose path contains this text" example:"/v1/domains"`
	Since  time.Time `query:"since" doc:"Only requests at or after this time (RFC 3339)"`
	Until  time.Time `query:"until" doc:"Only requests before this time (RFC 3339)"`
}

func (f RequestLogFilter) filter() requestlog.Filter {
	return requestlog.Filter{KeyID: f.Key, Status: f.Status, Path: f.Path, Since: f.Since, Until: f.Until}
}

type RequestLogListInput struct {
	RequestLogFilter
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Requests per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type RegistrarRequestLogsOutput struct {
	Body envelope[sdk.RequestLogPage]
}

type V1RequestLogsOutput struct {
	Body sdk.RequestLogPage
}

type RequestLogExportInput struct {
	RequestLogFilter
}

// RequestLogCSVOutput is an export, written as it is read.
type RequestLogCSVOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	Body               func(huma.Context)
}

type requestLogHandlers struct{ logs *requestlog.Service }

// addRequestLogRoutes registers the log's operations and makes v record
// every /v1 request in logs while recording is on (--v1-request-log).
func addRequestLogRoutes(a huma.API, v *v1, logs *requestlog.Service) {
	if logs != nil && logs.Recording() {
		v.logs = logs
	}
	h := requestLogHandlers{logs}
	// The log is of API keys' requests: a user has no key, so no log.
	who := accessRegistrar("Only registrar accounts have an API key")
	const what = "Every /v1 request made with one of your API keys in the last 30 days (time, key, method, path without " +
		"its query, status, latency, Idempotency-Key, request id; never bodies or secrets), newest first. " +
		"Requests are written in batches, so the newest may take a second to appear."
	register(a, who, huma.Operation{
		OperationID: "registrar-logs-list", Method: http.MethodGet, Path: "/api/registrar/logs", Tags: []string{"Auth"},
		Summary:     "My API request log",
		Description: what + " A page at a time: pass nextCursor as cursor.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, h.list)
	register(a, who, withCSV(huma.Operation{
		OperationID: "registrar-logs-export", Method: http.MethodGet, Path: "/api/registrar/logs.csv", Tags: []string{"Auth"},
		Summary:     "Export my API request log as CSV",
		Description: what + " The same filters as the list; at most 100,000 rows (narrow the time range for more).",
		Errors:      []int{http.StatusUnprocessableEntity},
	}), h.exportSession)
	tags := []string{"Registrar API"}
	registerV1(v, account.ScopeRead, huma.Operation{
		OperationID: "v1-logs-list", Method: http.MethodGet, Path: "/v1/logs", Tags: tags,
		Summary:     "List your API requests",
		Description: what + " A page at a time: follow nextCursor until it is empty.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, nil, h.listV1)
	registerV1(v, account.ScopeRead, withCSV(huma.Operation{
		OperationID: "v1-logs-export", Method: http.MethodGet, Path: "/v1/logs.csv", Tags: tags,
		Summary:     "Export your API requests as CSV",
		Description: what + " The same filters as the list; at most 100,000 rows (narrow the time range for more).",
		Errors:      []int{http.StatusUnprocessableEntity},
	}), nil, h.exportKey)
}

// withCSV documents op's answer as a CSV file.
func withCSV(op huma.Operation) huma.Operation {
	op.Responses = map[string]*huma.Response{"200": {
		Description: "The requests as CSV, a header row first: " + csvColumns(),
		Content:     map[string]*huma.MediaType{"text/csv": {Schema: &huma.Schema{Type: huma.TypeString}}},
	}}
	return op
}

func csvColumns() string {
	out := ""
	for i, c := range requestlog.CSVHeader {
		if i > 0 {
			out += ", "
		}
		out += c
	}
	return out
}

func (h requestLogHandlers) page(ctx context.Context, userID int64, in *RequestLogListInput) (sdk.RequestLogPage, error) {
	list, next, err := fetchPage(in.Cursor, in.Limit, func(e *requestlog.Entry) int64 { return e.ID },
		func(before int64, n int) ([]requestlog.Entry, error) {
			return h.logs.List(ctx, userID, in.filter(), before, n)
		})
	if err != nil {
		return sdk.RequestLogPage{}, err
	}
	page := sdk.RequestLogPage{Logs: make([]sdk.RequestLog, len(list)), NextCursor: next}
	for i := range list {
		page.Logs[i] = toRequestLog(&list[i])
	}
	return page, nil
}

func toRequestLog(e *requestlog.Entry) sdk.RequestLog {
	return sdk.RequestLog{ID: e.ID, Time: e.CreatedAt, KeyID: e.KeyID, KeyName: e.KeyName, Method: e.Method,
		Path: e.Path, Status: e.Status, LatencyMs: float64(e.LatencyMicros) / 1000,
		IdempotencyKey: e.IdempotencyKey, RequestID: e.RequestID}
}

func (h requestLogHandlers) list(ctx context.Context, in *RequestLogListInput) (*RegistrarRequestLogsOutput, error) {
	page, err := h.page(ctx, sessionUser(ctx).ID, in)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &RegistrarRequestLogsOutput{Body: ok(page)}, nil
}

func (h requestLogHandlers) listV1(ctx context.Context, in *RequestLogListInput) (*V1RequestLogsOutput, error) {
	page, err := h.page(ctx, keyUser(ctx).ID, in)
	if err != nil {
		return nil, problem(ctx, err)
	}
	return &V1RequestLogsOutput{Body: page}, nil
}

func (h requestLogHandlers) exportSession(ctx context.Context, in *RequestLogExportInput) (*RequestLogCSVOutput, error) {
	if err := in.filter().Check(); err != nil {
		return nil, fail(ctx, err)
	}
	return h.export(sessionUser(ctx).ID, in.filter()), nil
}

func (h requestLogHandlers) exportKey(ctx context.Context, in *RequestLogExportInput) (*RequestLogCSVOutput, error) {
	if err := in.filter().Check(); err != nil {
		return nil, problem(ctx, err)
	}
	return h.export(keyUser(ctx).ID, in.filter()), nil
}

// export streams the CSV: the filter is checked already, so what can still
// fail is the database or the client, after the status is sent; that is
// logged and the file ends short.
func (h requestLogHandlers) export(userID int64, f requestlog.Filter) *RequestLogCSVOutput {
	name := "request-logs-" + time.Now().UTC().Format("2006-01-02") + ".csv"
	return &RequestLogCSVOutput{ContentType: "text/csv; charset=utf-8",
		ContentDisposition: `attachment; filename="` + name + `"`,
		Body: func(ctx huma.Context) {
			ctx.SetStatus(http.StatusOK)
			if err := h.logs.Export(ctx.Context(), userID, f, ctx.BodyWriter()); err != nil {
				logger(ctx.Context()).Warn("request log: export", "err", err)
			}
		}}
}
