package account

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func newTestService(t *testing.T, d *db.DB, opts Options) *Service {
	t.Helper()
	opts.Secret = []byte(strings.Repeat("s", 32))
	svc, err := NewService(d, opts)
	require.NoError(t, err)
	return svc
}

// When every place in the hash pool stays taken, requests are turned away
// with 503 and Retry-After after the wait, nothing is hashed, and a login
// turned away does not count against the client.
func TestHashPoolTurnsAwayWhenFull(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: sign-up queues its verification mail
	svc := newTestService(t, d, Options{HashConcurrency: 1, HashWait: 10 * time.Millisecond})
	ctx := context.Background()
	_, err := svc.Register(ctx, SignUp{Username: "mia", Email: "mia@example.com", Password: "secret1",
		ConfirmPassword: "secret1", FullName: "Mia", UserType: TypeUser})
	require.NoError(t, err)
	before := svc.HashStats()

	svc.hashes.slots <- struct{}{} // the one place is taken
	c := Client{IP: "192.0.2.9"}
	for range 8 {
		_, _, err = svc.Login(ctx, "mia", "wrong-password", "", c)
		require.Equal(t, apperr.Unavailable, apperr.Code(err))
		require.Equal(t, "The server is busy. Please try again in a few seconds.", apperr.Message(err))
		var e *apperr.Error
		require.ErrorAs(t, err, &e)
		require.Positive(t, e.RetryAfter)
	}
	_, err = svc.Register(ctx, SignUp{Username: "noa", Email: "noa@example.com", Password: "secret1",
		ConfirmPassword: "secret1", FullName: "Noa", UserType: TypeUser})
	require.Equal(t, apperr.Unavailable, apperr.Code(err))
	after := svc.HashStats()
	require.Equal(t, before.Total, after.Total, "nothing was hashed")
	require.Equal(t, before.Refused+9, after.Refused)
	<-svc.hashes.slots

	// The 8 turned-away logins were not counted: 5 wrong ones are still
	// checked, then the pair waits.
	for range 5 {
		_, _, err = svc.Login(ctx, "mia", "wrong-password", "", c)
		require.Equal(t, apperr.Unauthenticated, apperr.Code(err))
	}
	_, _, err = svc.Login(ctx, "mia", "wrong-password", "", c)
	require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
	var n int
	require.NoError(t, d.Bun.NewRaw("SELECT count(*) FROM users WHERE username = 'noa'").Scan(ctx, &n))
	require.Zero(t, n)

	// A password reset clears the account's streaks (clearLoginThrottle).
	require.NoError(t, clearLoginThrottle(ctx, d.Bun, "MIA"))
	_, _, err = svc.Login(ctx, "mia", "secret1", "", c)
	require.NoError(t, err)
}

// The delays double from the first one up to the cap.
func TestThrottleDelays(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var got []time.Duration
	for n := 1; n <= 13; n++ {
		got = append(got, pairPolicy.blockedUntil(now, n).Sub(now))
	}
	m := time.Minute
	long := notBlocked.Sub(now)
	require.Equal(t, []time.Duration{long, long, long, long, m, 2 * m, 4 * m, 8 * m, 16 * m, 32 * m, 60 * m, 60 * m, 60 * m}, got)
	require.Equal(t, "192.0.2.1", clientNetwork("::ffff:192.0.2.1"))
	require.Equal(t, "2001:db8:1:2::/64", clientNetwork("2001:db8:1:2:3:4:5:6"))
}
