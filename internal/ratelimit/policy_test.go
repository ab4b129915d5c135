package ratelimit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/ratelimit"
)

func TestClientNetwork(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"192.0.2.7":            "192.0.2.7",
		"::ffff:192.0.2.7":     "192.0.2.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":      "2001:db8:1:3::/64",
		"fe80::1%eth0":         "fe80::/64",
		"not an address":       "not an address",
	} {
		require.Equal(t, want, ratelimit.ClientNetwork(addr), addr)
	}
}

func TestPolicy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := ratelimit.NewPolicy(ratelimit.Limits{Window: time.Minute, Checks: 3, Registrations: 2, DNSChanges: 2,
		AnonymousChecks: 2}, func() time.Time { return now })

	// An account's registrations count together, whoever asks.
	require.NoError(t, p.Account(1, ratelimit.Registrations).Err())
	require.NoError(t, p.Account(1, ratelimit.Registrations).Err())
	err := p.Account(1, ratelimit.Registrations).Err()
	require.Equal(t, apperr.TooManyRequests, apperr.Code(err))
	require.Equal(t, "Rate limit reached: 2 registrations per minute. Retry in 60 seconds.", apperr.Message(err))
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, time.Minute, ae.RetryAfter)
	require.NoError(t, p.Account(2, ratelimit.Registrations).Err(), "another account")
	require.NoError(t, p.Account(1, ratelimit.DNSChanges).Err(), "another class")

	// Visitors per network: one IPv6 /64 is one client.
	require.NoError(t, p.Client("2001:db8::1", ratelimit.AnonymousChecks).Err())
	require.NoError(t, p.Client("2001:db8::2", ratelimit.AnonymousChecks).Err())
	require.Error(t, p.Client("2001:db8::ffff", ratelimit.AnonymousChecks).Err())
	require.NoError(t, p.Client("2001:db8:0:1::1", ratelimit.AnonymousChecks).Err())
	require.NoError(t, p.Client("192.0.2.1", ratelimit.AnonymousChecks).Err())
	require.NoError(t, p.Client("192.0.2.2", ratelimit.AnonymousChecks).Err(), "IPv4 per address")

	now = now.Add(time.Minute)
	require.NoError(t, p.Account(1, ratelimit.Registrations).Err(), "a window later")

	free := ratelimit.NewPolicy(ratelimit.DefaultLimits.Unlimited(), nil)
	for range 1000 {
		require.NoError(t, free.Client("192.0.2.1", ratelimit.AnonymousChecks).Err())
	}
}
