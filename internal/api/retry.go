package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

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
	ctx.SetHeader("RateLimit-Policy", strconv.Itoa(d.Limit)+";w="+strconv.Itoa(int(d.Window().Seconds())))
	ctx.SetHeader("RateLimit-Limit", strconv.Itoa(d.Limit))
	ctx.SetHeader("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	ctx.SetHeader("RateLimit-Reset", strconv.Itoa(ratelimit.CeilSeconds(d.Reset)))
	return d.Err()
}
