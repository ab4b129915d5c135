package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"1", time.Second},
		{" 30 ", 30 * time.Second},
		{"0", 0},
		{"-5", 0},
		{"soon", 0},
		{"1.5", 0},
		{"99999999999", 24 * time.Hour},
		{"Sun, 01 Mar 2026 12:00:10 GMT", 10 * time.Second},
		{"Sun, 01 Mar 2026 11:59:00 GMT", 0},
		{"Sunday, 01-Mar-26 12:01:00 GMT", time.Minute},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.header, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestBackoffStaysWithinBounds(t *testing.T) {
	t.Parallel()
	base, maxWait := 500*time.Millisecond, 20*time.Second
	for attempt := range 70 {
		ceil := maxWait
		if attempt < 6 {
			ceil = base << attempt
		}
		seen := map[time.Duration]bool{}
		for range 200 {
			d := backoff(attempt, base, maxWait)
			if d < ceil/2 || d > ceil {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, ceil/2, ceil)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("backoff(%d) has no jitter: always %v", attempt, seen)
		}
	}
	// A huge base cannot overflow into a negative or zero wait.
	if d := backoff(40, time.Hour, 2*time.Hour); d < time.Hour || d > 2*time.Hour {
		t.Errorf("backoff with a huge base = %v", d)
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	base, maxWait := 100*time.Millisecond, time.Second
	tests := []struct {
		name  string
		err   Error
		retry bool
		wait  time.Duration // exact when the server said; otherwise 0 and checked as a backoff
	}{
		{"rate limited, told when", Error{StatusCode: 429, Code: CodeTooManyRequests, RetryAfter: 3 * time.Second}, true, 3 * time.Second},
		{"rate limited, not told", Error{StatusCode: 429}, true, 0},
		{"rate limited for too long", Error{StatusCode: 429, RetryAfter: 10 * time.Minute}, false, 0},
		{"first call still running", Error{StatusCode: 409, Code: CodeIdempotencyInProgress, RetryAfter: time.Second}, true, time.Second},
		{"name taken", Error{StatusCode: 409, Code: CodeConflict}, false, 0},
		{"server error", Error{StatusCode: 500, Code: CodeInternal}, true, 0},
		{"bad gateway", Error{StatusCode: 502}, true, 0},
		{"unavailable, told when", Error{StatusCode: 503, RetryAfter: 2 * time.Second}, true, 2 * time.Second},
		{"not implemented", Error{StatusCode: 501}, false, 0},
		{"not enough funds", Error{StatusCode: 402, Code: CodeInsufficientFunds}, false, 0},
		{"not found", Error{StatusCode: 404, Code: CodeNotFound}, false, 0},
		{"key reused", Error{StatusCode: 422, Code: CodeIdempotencyKeyReused}, false, 0},
		{"bad key", Error{StatusCode: 401, Code: CodeUnauthenticated}, false, 0},
	}
	for _, tt := range tests {
		wait, retry := retryDelay(&tt.err, 0, base, maxWait)
		if retry != tt.retry {
			t.Errorf("%s: retry = %v, want %v", tt.name, retry, tt.retry)
			continue
		}
		if !retry {
			continue
		}
		if tt.wait > 0 && wait != tt.wait {
			t.Errorf("%s: wait = %v, want %v", tt.name, wait, tt.wait)
		}
		if tt.wait == 0 && (wait < base/2 || wait > base) {
			t.Errorf("%s: wait = %v, want a first backoff within [%v, %v]", tt.name, wait, base/2, base)
		}
	}
}

func TestSleepNeverOutlastsTheContext(t *testing.T) {
	t.Parallel()

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleep(cancelled, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}

	soon, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	start := time.Now()
	if err := sleep(soon, time.Hour); !errors.Is(err, errDeadlineTooSoon) {
		t.Errorf("deadline before the wait ends: %v", err)
	}
	if time.Since(start) > time.Second {
		t.Error("a wait past the deadline was started")
	}

	later, cancel3 := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel3)
	if err := sleep(later, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while waiting: %v", err)
	}

	if err := sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("plain wait: %v", err)
	}
}

func TestGiveUpKeepsBothReasons(t *testing.T) {
	t.Parallel()
	last := &Error{StatusCode: 429, Code: CodeTooManyRequests, Message: "Too many requests"}
	if err := giveUp(errDeadlineTooSoon, last); err != last {
		t.Errorf("deadline too soon: got %v, want the last error itself", err)
	}
	err := giveUp(context.Canceled, last)
	var apiErr *Error
	if !errors.Is(err, context.Canceled) || !errors.As(err, &apiErr) || apiErr != last {
		t.Errorf("cancelled: %v does not wrap both", err)
	}
}

func TestRetryableNetworkError(t *testing.T) {
	t.Parallel()
	refused := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/v1/wallet",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}}
	closed := &url.Error{Op: "Post", URL: "http://x/v1/domains/register", Err: io.ErrUnexpectedEOF}
	badScheme := &url.Error{Op: "Get", URL: "ftp://x", Err: errors.New(`unsupported protocol scheme "ftp"`)}
	for err, want := range map[error]bool{
		refused:                              true,
		closed:                               true,
		io.EOF:                               true,
		badScheme:                            false,
		fmt.Errorf("wrapped: %w", badScheme): false,
	} {
		if got := retryableNetworkError(err); got != want {
			t.Errorf("retryableNetworkError(%v) = %v, want %v", err, got, want)
		}
	}
}

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := newIdempotencyKey(), newIdempotencyKey()
	if !uuid.MatchString(a) || a == b {
		t.Errorf("keys %q and %q: want two different random UUIDs", a, b)
	}
	if got := idempotencyKeyFrom(context.Background()); got != "" {
		t.Errorf("no key set: got %q", got)
	}
	if got := idempotencyKeyFrom(WithIdempotencyKey(context.Background(), "order-1")); got != "order-1" {
		t.Errorf("key set: got %q", got)
	}
}

func TestListOptionsQuery(t *testing.T) {
	t.Parallel()
	for opts, want := range map[ListOptions]string{
		{}:                          "",
		{Limit: 10}:                 "limit=10",
		{Limit: 5, Cursor: "a b/c"}: "cursor=a+b%2Fc&limit=5",
	} {
		if got := opts.query().Encode(); got != want {
			t.Errorf("%+v: query %q, want %q", opts, got, want)
		}
	}
}
