package sdk

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"
)

func TestErrorFromResponse(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	header := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		want   Error
		text   string
	}{
		{
			name: "problem", status: 402,
			header: header("Content-Type", "application/problem+json", "X-Request-Id", "req-hdr"),
			body: `{"type":"about:blank","title":"Payment Required","status":402,"code":"insufficient_funds",` +
				`"detail":"Insufficient funds: this registration costs $8.00 and your balance is $0.00. Add $8.00 to continue.","requestId":"req-1",` +
				`"needed":8,"balance":0}`,
			want: Error{StatusCode: 402, Code: CodeInsufficientFunds, RequestID: "req-1", Shortfall: &Shortfall{Needed: 8, Balance: 0},
				Message: "Insufficient funds: this registration costs $8.00 and your balance is $0.00. Add $8.00 to continue."},
			text: "Insufficient funds: this registration costs $8.00 and your balance is $0.00. Add $8.00 to continue.",
		},
		{
			name: "validation", status: 422,
			header: header("Content-Type", "application/problem+json"),
			body: `{"title":"Unprocessable Entity","status":422,"code":"invalid","detail":"validation failed",` +
				`"errors":[{"location":"body.years","message":"expected number <= 10"},{"message":"domain is required"}]}`,
			want: Error{StatusCode: 422, Code: CodeInvalid, Message: "validation failed",
				Details: []ProblemDetail{{Location: "body.years", Message: "expected number <= 10"}, {Message: "domain is required"}}},
			text: "validation failed: body.years: expected number <= 10; domain is required",
		},
		{
			name: "validation, details in the message", status: 422,
			header: header("Content-Type", "application/problem+json"),
			body: `{"title":"Unprocessable Entity","status":422,"code":"invalid","detail":"Validation failed: years: expected number <= 10",` +
				`"errors":[{"location":"body.years","message":"expected number <= 10"}]}`,
			want: Error{StatusCode: 422, Code: CodeInvalid, Message: "Validation failed: years: expected number <= 10",
				Details: []ProblemDetail{{Location: "body.years", Message: "expected number <= 10"}}},
			text: "Validation failed: years: expected number <= 10",
		},
		{
			name: "rate limited", status: 429,
			header: header("Content-Type", "application/problem+json", "Retry-After", "17", "X-Request-Id", "req-2"),
			body:   `{"title":"Too Many Requests","status":429,"code":"too_many_requests","detail":"Rate limit exceeded: 100 checks per minute"}`,
			want: Error{StatusCode: 429, Code: CodeTooManyRequests, RequestID: "req-2", RetryAfter: 17 * time.Second,
				Message: "Rate limit exceeded: 100 checks per minute"},
			text: "Rate limit exceeded: 100 checks per minute",
		},
		{
			name: "title only", status: 404, header: header("Content-Type", "application/problem+json"),
			body: `{"title":"Not Found","status":404}`,
			want: Error{StatusCode: 404, Code: CodeNotFound, Message: "Not Found"},
			text: "Not Found",
		},
		{
			name: "internal error names the request", status: 500,
			header: header("Content-Type", "application/problem+json", "X-Request-Id", "req-3"),
			body:   `{"title":"Internal Server Error","status":500,"code":"internal","detail":"Something went wrong on our side"}`,
			want:   Error{StatusCode: 500, Code: CodeInternal, RequestID: "req-3", Message: "Something went wrong on our side"},
			text:   "Something went wrong on our side (request req-3)",
		},
		{
			name: "proxy HTML", status: 502, header: header("Content-Type", "text/html"),
			body: "<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>",
			want: Error{StatusCode: 502, Code: CodeInternal, Message: "the server answered 502 Bad Gateway"},
			text: "the server answered 502 Bad Gateway",
		},
		{
			name: "plain text", status: 503, header: header("Content-Type", "text/plain; charset=utf-8", "Retry-After", "5"),
			body: "upstream connect error\n",
			want: Error{StatusCode: 503, Code: CodeInternal, RetryAfter: 5 * time.Second,
				Message: "the server answered 503 Service Unavailable: upstream connect error"},
			text: "the server answered 503 Service Unavailable: upstream connect error",
		},
		{
			name: "empty body", status: 401, header: header(),
			want: Error{StatusCode: 401, Code: CodeUnauthenticated, Message: "the server answered 401 Unauthorized"},
			text: "the server answered 401 Unauthorized",
		},
		{
			name: "JSON that is no problem", status: 400, header: header("Content-Type", "application/json"),
			body: `{"success":false,"error":"nope"}`,
			want: Error{StatusCode: 400, Code: CodeInvalid, Message: "the server answered 400 Bad Request"},
			text: "the server answered 400 Bad Request",
		},
		{
			name: "truncated JSON", status: 500, header: header("Content-Type", "application/problem+json"),
			body: `{"title":"Internal Server Err`,
			want: Error{StatusCode: 500, Code: CodeInternal, Message: "the server answered 500 Internal Server Error"},
			text: "the server answered 500 Internal Server Error",
		},
	}
	for _, tt := range tests {
		got := errorFromResponse(tt.status, tt.header, []byte(tt.body), now)
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tt.name, *got, tt.want)
		}
		if got.Error() != tt.text {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got.Error(), tt.text)
		}
	}
}

func TestErrorHelpers(t *testing.T) {
	t.Parallel()
	notFound := fmt.Errorf("lookup: %w", &Error{StatusCode: 404, Code: CodeNotFound, Message: "Domain not found"})
	if !IsNotFound(notFound) || ErrorCode(notFound) != CodeNotFound {
		t.Errorf("wrapped not_found not recognised")
	}
	for _, err := range []error{nil, errors.New("dial tcp: connection refused"), &Error{StatusCode: 409, Code: CodeConflict}} {
		if IsNotFound(err) {
			t.Errorf("IsNotFound(%v) = true", err)
		}
	}
	if ErrorCode(errors.New("x")) != "" {
		t.Error("ErrorCode of a plain error is not empty")
	}
	if got := (&Error{StatusCode: 418}).Error(); got != "I'm a teapot" {
		t.Errorf("an Error without message says %q", got)
	}
}
