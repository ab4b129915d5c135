package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
)

// /api and /v1 round a wait the same way, up: a client that waits as told
// is not refused again.
func TestRetryAfterIsRoundedUpAlike(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		wait time.Duration
		want string
	}{
		{time.Nanosecond, "1"},
		{time.Second, "1"},
		{time.Second + 500*time.Microsecond, "2"},
		{time.Second + time.Nanosecond, "2"},
		{90 * time.Second, "90"},
	} {
		err := &apperr.Error{Code: apperr.TooManyRequests, Message: "Slow down", RetryAfter: tt.wait}
		env := fail(context.Background(), err).(*envelopeError)
		require.Equal(t, tt.want, env.GetHeaders().Get("Retry-After"), "/api, %v", tt.wait)
		require.Equal(t, http.StatusTooManyRequests, env.GetStatus())
		p := asProblem(context.Background(), err)
		require.Equal(t, tt.want, p.headers.Get("Retry-After"), "/v1, %v", tt.wait)
	}
	env := fail(context.Background(), apperr.New(apperr.TooManyRequests, "Slow down")).(*envelopeError)
	require.Empty(t, env.GetHeaders(), "no wait, no Retry-After")
}

// An internal error of a request whose client hung up (its context
// canceled: a query cut short) is a client that closed its request, 499,
// on /api and /v1 alike; with the client still there it is a 500, and any
// other error keeps its status.
func TestInternalErrorOfAGoneClientIs499(t *testing.T) {
	t.Parallel()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	internal := fmt.Errorf("account: look up api key: %w", context.Canceled)
	require.Equal(t, StatusClientClosedRequest, fail(gone, internal).(*envelopeError).status)
	require.Equal(t, StatusClientClosedRequest, asProblem(gone, internal).Status)
	require.Equal(t, http.StatusInternalServerError, fail(context.Background(), internal).(*envelopeError).status)
	require.Equal(t, http.StatusNotFound, fail(gone, apperr.New(apperr.NotFound, "Domain not found")).(*envelopeError).status)
}
