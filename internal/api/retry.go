package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/ratelimit"
)

// retryAfter is the Retry-After header of an answer that asks the client
// to wait d: whole seconds, rounded up (ratelimit.CeilSeconds, as
// RateLimit-Reset), so that a client that waits as told is not refused
// again. /api and /v1 both use it.
func retryAfter(d time.Duration) http.Header {
	return http.Header{"Retry-After": {strconv.Itoa(ratelimit.CeilSeconds(d))}}
}

// retryAfterOf is retryAfter for an error that says how long to wait, nil
// for one that does not.
func retryAfterOf(err error) http.Header {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		return retryAfter(ae.RetryAfter)
	}
	return nil
}

// countRequest answers with the RateLimit headers of d, a request counted
// by the rate-limit policy, and returns its refusal (which says
// Retry-After through fail or asProblem), nil when it may go ahead. /api
// and /v1 count in their middleware, before the request is read.
func countRequest(ctx huma.Context, d ratelimit.Decision) error {
	// Set on every counted request: canonical keys straight into the map,
	// the four values in one allocation (Header.Set canonicalises and
	// allocates each).
	_, w := humachi.Unwrap(ctx)
	h := w.Header()
	limit := strconv.Itoa(d.Limit)
	v := [...]string{limit + ";w=" + strconv.Itoa(int(d.Window().Seconds())), limit,
		strconv.Itoa(d.Remaining), strconv.Itoa(ratelimit.CeilSeconds(d.Reset))}
	values := v[:]
	h["Ratelimit-Policy"] = values[0:1:1]
	h["Ratelimit-Limit"] = values[1:2:2]
	h["Ratelimit-Remaining"] = values[2:3:3]
	h["Ratelimit-Reset"] = values[3:4:4]
	return d.Err()
}
