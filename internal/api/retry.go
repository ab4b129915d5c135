package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

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
