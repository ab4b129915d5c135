package api

import (
	"context"
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
