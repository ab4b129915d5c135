package account_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// Forgot-password requests are counted per client network: a subscriber's
// IPv6 /64 is one client.
func TestPasswordResetRequestsCountPerNetwork(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		for i := range 10 {
			c := account.Client{IP: fmt.Sprintf("2001:db8:7:7::%x", i+1)}
			require.NoError(t, b.svc.RequestPasswordReset(ctx, fmt.Sprintf("x%d@example.com", i), c))
		}
		err := b.svc.RequestPasswordReset(ctx, "y@example.com", account.Client{IP: "2001:db8:7:7:ffff::1"})
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.NoError(t, b.svc.RequestPasswordReset(ctx, "y@example.com", account.Client{IP: "2001:db8:7:8::1"}))
	})
}

// Sign-ups count per client network, taken names included; the account
// made by the platform itself (no client) is not counted.
func TestSignUpsCountPerNetwork(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: sign-up queues its verification mail
		clock := &fakeClock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		svc, err := account.NewService(d, account.Options{Secret: []byte("ssssssssssssssssssssssssssssssss"), Now: clock.Now, SignUpLimit: 3})
		require.NoError(t, err)
		ctx := context.Background()
		from := func(name, ip string) error {
			in := signUp(name, "user")
			in.Client = account.Client{IP: ip}
			_, err := svc.Register(ctx, in)
			return err
		}
		require.NoError(t, from("one", "192.0.2.1"))
		require.Equal(t, apperr.Conflict, apperr.Code(from("one", "192.0.2.1")), "a taken name counts too")
		require.NoError(t, from("two", "192.0.2.1"))
		err = from("three", "192.0.2.1")
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.Equal(t, "Too many sign-ups from your network. Please try again in 60 minutes.", apperr.Message(err))
		require.NoError(t, from("three", "192.0.2.2"), "another network")
		_, err = svc.Register(ctx, signUp("platform", "user"))
		require.NoError(t, err, "no client: not throttled")
		// A validation error is refused before counting.
		require.Equal(t, apperr.Invalid, apperr.Code(from("x", "192.0.2.3")))

		clock.Advance(time.Hour)
		require.NoError(t, from("four", "192.0.2.1"), "an hour later the network may sign up again")
	})
}

// Change-password checks the current password like a login: five wrong
// ones slow the (account, network) pair down; a right one ends the streak.
func TestChangePasswordThrottle(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		u, err := b.svc.Register(ctx, signUp("lee", "user"))
		require.NoError(t, err)
		// A right one (with a new password refused) ends the pair's streak.
		for range 4 {
			require.Equal(t, "Current password is incorrect",
				apperr.Message(b.svc.ChangePassword(ctx, u, "wrong-1", "newpass1", "newpass1", "", client)))
		}
		require.Equal(t, "Passwords do not match",
			apperr.Message(b.svc.ChangePassword(ctx, u, "secret1", "newpass1", "newpass2", "", client)))
		for range 5 {
			require.Equal(t, "Current password is incorrect",
				apperr.Message(b.svc.ChangePassword(ctx, u, "wrong-1", "newpass1", "newpass1", "", client)))
		}
		err = b.svc.ChangePassword(ctx, u, "secret1", "newpass1", "newpass1", "", client)
		require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
		require.Equal(t, "Too many wrong current passwords. Please try again in 1 minute.", apperr.Message(err))
		b.clock.Advance(time.Minute)
		require.NoError(t, b.svc.ChangePassword(ctx, u, "secret1", "newpass1", "newpass1", "", client))
	})
}
