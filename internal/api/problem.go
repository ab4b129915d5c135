package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/sdk"
)

const problemContentType = "application/problem+json"

// problemError is a /v1 error: RFC 9457 problem details with a stable code.
type problemError struct {
	sdk.Problem
	headers http.Header
}

func (p *problemError) Error() string                { return p.Detail }
func (p *problemError) GetStatus() int               { return p.Status }
func (p *problemError) GetHeaders() http.Header      { return p.headers }
func (p *problemError) ContentType(string) string    { return problemContentType }
func (p *problemError) MarshalJSON() ([]byte, error) { return json.Marshal(p.Problem) }

func newProblem(ctx context.Context, status int, code, detail string) *problemError {
	return &problemError{Problem: sdk.Problem{Type: "about:blank", Title: http.StatusText(status), Status: status,
		Detail: detail, Code: code, RequestID: RequestID(ctx)}}
}

// asProblem converts a service error; internal errors are logged with their
// cause and shown as a generic message.
func asProblem(ctx context.Context, err error) *problemError {
	code := apperr.Code(err)
	logFailure(ctx, code, err)
	p := newProblem(ctx, failureStatus(ctx, code), code, clipMessage(apperr.Message(err)))
	p.headers = retryAfterOf(err)
	p.Needed, p.Balance = shortfallOf(err)
	return p
}

// problem is fail for /v1 handlers.
func problem(ctx context.Context, err error) error { return asProblem(ctx, err) }

// writeProblem answers from a middleware, before the handler runs.
func writeProblem(ctx huma.Context, p *problemError) {
	for name, values := range p.headers {
		for _, v := range values {
			ctx.AppendHeader(name, v)
		}
	}
	writeJSONTo(ctx, p.Status, problemContentType, p.Problem)
}

// humaProblem turns an error huma found itself (validation, unreadable
// bodies) into problem details for a /v1 operation.
func humaProblem(hctx huma.Context, status int, msg string, errs []error) *problemError {
	code := sdk.CodeInvalid
	switch {
	case status == http.StatusRequestEntityTooLarge:
		code = sdk.CodeRequestTooLarge
	case status >= 500:
		code = sdk.CodeInternal
	case status == http.StatusUnauthorized:
		code = sdk.CodeUnauthenticated
	case status == http.StatusForbidden:
		code = sdk.CodeForbidden
	case status == http.StatusNotFound:
		code = sdk.CodeNotFound
	}
	p := newProblem(hctx.Context(), status, code, describe(status, msg, errs))
	for _, err := range errs {
		var d *huma.ErrorDetail
		if errors.As(err, &d) {
			p.Errors = append(p.Errors, sdk.ProblemDetail{Location: d.Location, Message: d.Message})
		}
	}
	return p
}

// isV1 tells whether a huma operation belongs to /v1.
func isV1(hctx huma.Context) bool {
	if hctx == nil {
		return false
	}
	if op := hctx.Operation(); op != nil {
		return strings.HasPrefix(op.Path, "/v1/")
	}
	return false
}

// IsV1Path tells whether an HTTP path belongs to /v1.
func IsV1Path(path string) bool { return path == "/v1" || strings.HasPrefix(path, "/v1/") }

// WriteError answers a request the router handles itself (unknown paths,
// panics, refused cross-site writes) in the shape its API uses: problem
// details under /v1, the envelope elsewhere.
func WriteError(w http.ResponseWriter, r *http.Request, status int, message string) {
	var body any = map[string]any{"success": false, "error": message}
	contentType := "application/json"
	if IsV1Path(r.URL.Path) {
		code := map[int]string{http.StatusNotFound: sdk.CodeNotFound, http.StatusForbidden: sdk.CodeForbidden,
			http.StatusMethodNotAllowed: sdk.CodeInvalid}[status]
		if code == "" {
			code = sdk.CodeInternal
		}
		body, contentType = newProblem(r.Context(), status, code, message).Problem, problemContentType
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
