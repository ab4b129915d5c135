package idempotency_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/idempotency"
)

func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	require.ErrorIs(t, err, idempotency.ErrInProgress)
	var busy *idempotency.InProgressError
	require.ErrorAs(t, err, &busy)
	return busy.RetryAfter
}

// TestClaimsOfDeadRequestsRunOut: a request whose process died blocks its
// key for idempotency.Lease (15 s), not 2 minutes, and the answer says how
// long; a live request renews its claim and keeps it (finding 9: "in
// progress" for 2 minutes while saying Retry-After: 1).
func TestClaimsOfDeadRequestsRunOut(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		s := idempotency.NewStore(d, func() time.Time { return now })
		alice := dbtest.User(t, d, "alice", "registrar")

		saved, err := s.Begin(ctx, alice, "k1", "fp")
		require.NoError(t, err)
		require.Nil(t, saved, "claimed")
		_, err = s.Begin(ctx, alice, "k1", "fp")
		require.Equal(t, time.Second, retryAfter(t, err), "alive: its answer comes soon")

		// The process dies: no more renewals.
		now = now.Add(idempotency.Heartbeat + time.Second)
		_, err = s.Begin(ctx, alice, "k1", "fp")
		require.Equal(t, idempotency.Lease-idempotency.Heartbeat-time.Second, retryAfter(t, err),
			"missed a renewal: retry when the claim runs out")
		now = now.Add(idempotency.Lease - idempotency.Heartbeat - time.Second)
		saved, err = s.Begin(ctx, alice, "k1", "fp")
		require.NoError(t, err, "the claim ran out: the retry takes it over")
		require.Nil(t, saved)

		// A live request renews its claim and keeps its key past the lease.
		for range 3 {
			now = now.Add(idempotency.Heartbeat)
			require.NoError(t, s.Touch(ctx, alice, "k1"))
		}
		now = now.Add(idempotency.Heartbeat - time.Second) // the lease is over since the claim
		_, err = s.Begin(ctx, alice, "k1", "fp")
		require.Equal(t, time.Second, retryAfter(t, err), "renewed: still its key")

		require.NoError(t, s.Finish(ctx, alice, "k1", idempotency.Answer{Status: 201, ContentType: "application/json", Body: []byte("{}")}))
		require.NoError(t, s.Touch(ctx, alice, "k1"), "renewing a finished request changes nothing")
		saved, err = s.Begin(ctx, alice, "k1", "fp")
		require.NoError(t, err)
		require.Equal(t, 201, saved.Status)
	})
}
