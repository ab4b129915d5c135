package sdk

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// retryDelay decides whether an error answer is worth another attempt and
// how long to wait first. Retried: 429 (the limit resets), 409
// idempotency_in_progress (the first call is about to finish), 408 and 5xx
// but 501 (the server or a proxy failed; the Idempotency-Key makes a second
// POST safe). A Retry-After from the server wins over the computed backoff;
// one longer than maxRetryAfter is not waited out.
func retryDelay(e *Error, attempt int, base, maxWait time.Duration) (time.Duration, bool) {
	switch {
	case e.StatusCode == http.StatusTooManyRequests,
		e.StatusCode == http.StatusConflict && e.Code == CodeIdempotencyInProgress,
		e.StatusCode == http.StatusRequestTimeout,
		e.StatusCode >= 500 && e.StatusCode != http.StatusNotImplemented:
	default:
		return 0, false
	}
	if e.RetryAfter > 0 {
		return e.RetryAfter, e.RetryAfter <= maxRetryAfter
	}
	return backoff(attempt, base, maxWait), true
}

// backoff is the wait before retry number attempt+1: base doubled per
// attempt, capped at maxWait, then "equal jitter": a random point in its
// upper half, so clients that failed together do not retry together.
// It is always within [ceil/2, ceil] where ceil = min(maxWait, base<<attempt).
func backoff(attempt int, base, maxWait time.Duration) time.Duration {
	ceil := maxWait
	if d := base << attempt; attempt < 63 && d>>attempt == base && d < maxWait {
		ceil = d
	}
	half := ceil / 2
	return half + rand.N(ceil-half+1)
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date
// (RFC 9110 section 10.2.3). It returns 0 when the header is absent,
// malformed or in the past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(24*time.Hour/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// errDeadlineTooSoon says a wait would end after the context's deadline.
var errDeadlineTooSoon = errors.New("nameport: the context's deadline comes before the next retry")

// sleep waits d unless ctx ends first. It refuses at once to start a wait
// that would outlast ctx's deadline: the caller then gets the real reason the
// call failed instead of a deadline error later.
func sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return errDeadlineTooSoon
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// giveUp is the error of a call whose wait for its next retry was cut
// short: the last failure, and the context's error if that ended it.
func giveUp(waitErr, last error) error {
	if errors.Is(waitErr, errDeadlineTooSoon) {
		return last
	}
	return fmt.Errorf("%w (last attempt: %w)", waitErr, last)
}

// retryableNetworkError reports whether a transport error may go away on a
// second try: refused or reset connections, timeouts, a connection closed
// mid-answer. Bad URLs and TLS certificate failures will not.
func retryableNetworkError(err error) bool {
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return false
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // *url.Error is itself a net.Error; look inside it
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var nerr net.Error
	return errors.As(err, &nerr)
}
