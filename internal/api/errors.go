package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/pkg/money"
)

// envelopeError is an /api error as the web app reads it:
// {"success":false,"error":"message","code":"not_found"}, and for a wallet
// that cannot pay (402) also the shortfall: "needed" and "balance".
type envelopeError struct {
	status  int
	headers http.Header
	Success bool   `json:"success"`
	Message string `json:"error" doc:"What went wrong, fit to show a user"`
	Code    string `json:"code,omitempty" doc:"Stable machine-readable code (the codes of /v1), e.g. insufficient_funds; absent for requests refused before a service saw them (malformed bodies, cross-site writes)" example:"insufficient_funds"`
	// Needed and Balance are the shortfall of an insufficient_funds error,
	// in US dollars like the rest of the API (/v1 sends the same members).
	Needed  *float64 `json:"needed,omitempty" doc:"insufficient_funds (402) only: US dollars missing, to add to the wallet" example:"6"`
	Balance *float64 `json:"balance,omitempty" doc:"insufficient_funds (402) only: the wallet's balance in US dollars" example:"10"`
	// SetTTL is the TTL of a DNS record's set that a record's TTL differs
	// from, for the web app to offer aligning them.
	// Field lets a form show the message beside the field it is about.
	Field  string `json:"field,omitempty" doc:"invalid (422) only, when the message is about one field of the body: its JSON name, e.g. content" example:"content"`
	SetTTL *int   `json:"setTtl,omitempty" doc:"A DNS record whose TTL differs from the other records of its name and type (422) only: their TTL (the lowest, which DNS serves, if they differ too). Send the record again with that TTL, or with alignTtl to give them all the record's" example:"3600"`
	// PendingToken and Methods are the second step of a login that needs
	// a second factor (code two_factor_required; see account_security.go).
	PendingToken *string  `json:"pendingToken,omitempty" doc:"two_factor_required (401) only: send it to POST /api/auth/login/two-factor with a code"`
	Methods      []string `json:"methods,omitempty" doc:"two_factor_required (401) only: the second factors the account can use (totp, recovery, passkey)"`
}

// shortfallOf returns the shortfall of err in US dollars, or nils.
func shortfallOf(err error) (needed, balance *float64) {
	s := apperr.ShortfallOf(err)
	if s == nil {
		return nil, nil
	}
	n, b := money.Dollars(s.NeededCents), money.Dollars(s.BalanceCents)
	return &n, &b
}

func (e *envelopeError) Error() string           { return e.Message }
func (e *envelopeError) GetStatus() int          { return e.status }
func (e *envelopeError) GetHeaders() http.Header { return e.headers }

// Every error huma produces itself (validation, unreadable bodies, panics)
// takes the envelope shape too.
func init() {
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return &envelopeError{status: status, Message: describe(status, msg, errs)}
	}
	huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
		if status == http.StatusInternalServerError && hctx != nil && clientClosed(hctx.Context(), errs) {
			// The client hung up before its body was read whole: no fault of
			// ours, and nobody is left to answer. 499 is nginx's "client
			// closed request", so that logs and metrics tell it from a 500.
			status = StatusClientClosedRequest
			logger(hctx.Context()).Info("client closed request", "err", errors.Join(errs...))
		}
		if status >= 500 && hctx != nil {
			logger(hctx.Context()).Error("request failed", "status", status, "err", errors.Join(errs...))
		}
		if isV1(hctx) {
			return humaProblem(hctx, status, msg, errs)
		}
		return huma.NewError(status, msg, errs...)
	}
}

// StatusClientClosedRequest is the status logged for a request whose
// client went away mid-request (nginx's 499).
const StatusClientClosedRequest = 499

// clientClosed reports whether errs (huma's, reading a request body) say
// the client closed the connection: the body ended early (EOF before
// Content-Length or the last chunk), the connection was reset, or the
// request's context ended with it.
func clientClosed(ctx context.Context, errs []error) bool {
	for _, err := range errs {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
			errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
			return true
		}
	}
	return errors.Is(ctx.Err(), context.Canceled)
}

// describe turns huma's message and details into one sentence for a person.
func describe(status int, msg string, errs []error) string {
	if status >= 500 {
		return "An unexpected error occurred"
	}
	if status == http.StatusRequestEntityTooLarge { // huma says "request body is too large limit=1048576 bytes"
		return fmt.Sprintf("The request body is larger than %d MiB", maxBodyBytes>>20)
	}
	if status == http.StatusUnsupportedMediaType { // huma says "validation failed: unknown content type: text/plain"
		return "The request body must be JSON, sent with Content-Type: application/json"
	}
	var details []string
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d *huma.ErrorDetail
		if errors.As(err, &d) && d.Location == "body" && status == http.StatusBadRequest {
			return d.Message // the body as a whole is unreadable: decodeJSON's sentence says it all
		}
		if errors.As(err, &d) && d.Location == "body" {
			details = append(details, d.Message)
		} else if errors.As(err, &d) && strings.HasPrefix(d.Location, "path.") {
			details = append(details, fmt.Sprintf("%s in the path: %s", strings.TrimPrefix(d.Location, "path."), d.Message))
		} else if errors.As(err, &d) && d.Location != "" {
			details = append(details, fmt.Sprintf("%s: %s", strings.TrimPrefix(d.Location, "body."), d.Message))
		} else {
			details = append(details, err.Error())
		}
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	if len(details) > 0 {
		return msg + ": " + strings.Join(details, "; ")
	}
	return msg
}

// statusOf maps an application error code to its HTTP status.
func statusOf(code string) int {
	switch code {
	case apperr.Invalid:
		return http.StatusUnprocessableEntity
	case apperr.Unauthenticated:
		return http.StatusUnauthorized
	case apperr.Forbidden, apperr.AllowanceExhausted, apperr.TwoFactorSetupRequired:
		return http.StatusForbidden
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.TooManyRequests:
		return http.StatusTooManyRequests
	case apperr.InsufficientFunds:
		return http.StatusPaymentRequired
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// fail converts a service error into the /api envelope; internal errors are
// logged with their cause and shown as a generic message.
func fail(ctx context.Context, err error) error {
	code := apperr.Code(err)
	logFailure(ctx, code, err)
	e := &envelopeError{status: failureStatus(ctx, code), Message: clipMessage(apperr.Message(err)), Code: code,
		headers: retryAfterOf(err)}
	e.Needed, e.Balance = shortfallOf(err)
	if ttl := apperr.SetTTLOf(err); ttl != 0 {
		e.SetTTL = &ttl
	}
	e.Field = apperr.FieldOf(err)
	return e
}

// logFailure logs what users are not told: the cause of an internal error,
// or of a dependency being unavailable. An internal error of a request
// whose client hung up (its context canceled: a query cut short) is no
// fault of ours: see failureStatus.
func logFailure(ctx context.Context, code string, err error) {
	switch {
	case code == apperr.Internal && clientGone(ctx):
		logger(ctx).Info("client closed request", "err", err)
	case code == apperr.Internal:
		logger(ctx).Error("request failed", "err", err)
	case code == apperr.Unavailable:
		logger(ctx).Warn("request failed: a dependency is unavailable", "err", err)
	}
}

// clientGone reports whether the request's client hung up.
func clientGone(ctx context.Context) bool { return errors.Is(ctx.Err(), context.Canceled) }

// failureStatus is the status of a service error with code: 499 (client
// closed request), for logs and metrics, rather than 500 when the client
// hung up before an internal error (nobody reads the answer).
func failureStatus(ctx context.Context, code string) int {
	if code == apperr.Internal && clientGone(ctx) {
		return StatusClientClosedRequest
	}
	return statusOf(code)
}

// clipMessage shortens a message that quotes a long input ("Extension
// .aaaa…" for a 100,000-character extension) to a length a person reads.
func clipMessage(msg string) string {
	const limit = 300
	if r := []rune(msg); len(r) > limit {
		return string(r[:limit]) + "…"
	}
	return msg
}
