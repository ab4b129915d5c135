package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is an error answer of the API. Its Message is written for people
// (for example "Insufficient funds: this registration costs $8.00 and your
// balance is $0.00. Add $8.00 to continue."); Code is for programs: one of
// the Code* constants. An insufficient_funds error also says how much the
// wallet lacked, as numbers: Shortfall.
//
// Test for it with errors.As, or with ErrorCode and IsNotFound:
//
//	var apiErr *sdk.Error
//	if errors.As(err, &apiErr) && apiErr.Code == sdk.CodeInsufficientFunds { … }
type Error struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Code is the stable machine-readable reason, e.g. "insufficient_funds".
	// For answers that are not problem JSON (a proxy's error page) it is
	// derived from the status.
	Code string
	// Message says what went wrong, fit to show a person.
	Message string
	// RequestID identifies the request in the server's logs; quote it when
	// asking for support.
	RequestID string
	// RetryAfter is how long the server asked to wait before trying again
	// (429 and 409 idempotency_in_progress); 0 when it did not say.
	RetryAfter time.Duration
	// Details names the invalid inputs of a validation error.
	Details []ProblemDetail
	// Shortfall is set for CodeInsufficientFunds: how much the wallet
	// lacked. nil otherwise.
	Shortfall *Shortfall
}

// Shortfall is what a payment from the wallet lacked, in US dollars.
type Shortfall struct {
	// Needed is the amount missing: deposit at least this much.
	Needed float64
	// Balance is the wallet's balance when the payment failed.
	Balance float64
}

// Error returns the message, then the invalid inputs it does not name
// already, e.g. "validation failed: body.years: expected number <= 10".
// Server errors
// (5xx) end with the request ID so that it reaches support.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if b.Len() == 0 {
		b.WriteString(statusText(e.StatusCode))
	}
	first := true
	for _, d := range e.Details {
		if strings.Contains(e.Message, d.Message) {
			continue // the message names it already
		}
		if first {
			b.WriteString(": ")
			first = false
		} else {
			b.WriteString("; ")
		}
		if d.Location != "" {
			b.WriteString(d.Location + ": ")
		}
		b.WriteString(d.Message)
	}
	if e.StatusCode >= 500 && e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// ErrorCode returns the Code of the *Error in err's chain, or "" when err is
// not an API error (nil, a network error, a cancelled context).
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsNotFound reports whether err is the API saying the resource does not
// exist (or belongs to another account, which the API does not reveal).
func IsNotFound(err error) bool { return ErrorCode(err) == CodeNotFound }

// errorFromResponse builds the *Error of an error answer from its status,
// headers and (possibly truncated) body. A problem JSON body gives code and
// message; anything else (an HTML page of a proxy, an empty body) still
// gives an error that says what happened.
func errorFromResponse(status int, h http.Header, body []byte, now time.Time) *Error {
	e := &Error{
		StatusCode: status,
		RequestID:  h.Get("X-Request-Id"),
		RetryAfter: parseRetryAfter(h.Get("Retry-After"), now),
	}
	var p Problem
	if looksLikeJSON(h.Get("Content-Type"), body) && json.Unmarshal(body, &p) == nil &&
		(p.Code != "" || p.Detail != "" || p.Title != "") {
		e.Code, e.Details = p.Code, p.Errors
		if p.Needed != nil && p.Balance != nil {
			e.Shortfall = &Shortfall{Needed: *p.Needed, Balance: *p.Balance}
		}
		e.Message = p.Detail
		if e.Message == "" {
			e.Message = p.Title
		}
		if p.RequestID != "" {
			e.RequestID = p.RequestID
		}
	}
	if e.Code == "" {
		e.Code = codeForStatus(status)
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("the server answered %d %s", status, statusText(status))
		if text := plainText(h.Get("Content-Type"), body); text != "" {
			e.Message += ": " + text
		}
	}
	return e
}

func looksLikeJSON(contentType string, body []byte) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		return true
	}
	return bytes.HasPrefix(bytes.TrimSpace(body), []byte("{"))
}

// plainText returns a short text/plain body on one line, e.g. "upstream
// connect error"; HTML and long bodies say nothing useful in one line.
func plainText(contentType string, body []byte) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "text/plain" || !utf8.Valid(body) {
		return ""
	}
	text := strings.Join(strings.Fields(string(body)), " ")
	if len(text) > 200 {
		return ""
	}
	return text
}

// codeForStatus gives answers without a problem body the code a Nameport
// server would have sent with that status.
func codeForStatus(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return CodeUnauthenticated
	case status == http.StatusPaymentRequired:
		return CodeInsufficientFunds
	case status == http.StatusForbidden:
		return CodeForbidden
	case status == http.StatusNotFound:
		return CodeNotFound
	case status == http.StatusConflict:
		return CodeConflict
	case status == http.StatusRequestEntityTooLarge:
		return CodeRequestTooLarge
	case status == http.StatusTooManyRequests:
		return CodeTooManyRequests
	case status >= 500:
		return CodeInternal
	default:
		return CodeInvalid
	}
}

func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return fmt.Sprintf("HTTP %d", status)
}
