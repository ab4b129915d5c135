package ratelimit_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/ratelimit"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestSlidingWindow(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	l := ratelimit.New(time.Minute, c.now)

	for i := range 100 {
		d := l.Allow("key", 100)
		require.True(t, d.Allowed, "request %d", i+1)
		require.Equal(t, 99-i, d.Remaining)
		c.t = c.t.Add(100 * time.Millisecond) // 100 requests in 10 s
	}
	d := l.Allow("key", 100)
	require.False(t, d.Allowed, "the 101st request inside a minute")
	require.Equal(t, 0, d.Remaining)
	require.Equal(t, 50*time.Second, d.RetryAfter, "the first request leaves the window 60 s after it was made")

	require.True(t, l.Allow("other", 100).Allowed, "clients are counted apart")

	c.t = c.t.Add(50 * time.Second)
	d = l.Allow("key", 100)
	require.True(t, d.Allowed, "one place freed")
	require.Equal(t, 0, d.Remaining)
	require.False(t, l.Allow("key", 100).Allowed)

	c.t = c.t.Add(2 * time.Minute)
	d = l.Allow("key", 100)
	require.True(t, d.Allowed)
	require.Equal(t, 99, d.Remaining, "a quiet window forgets everything")
}

func TestLimitChange(t *testing.T) {
	t.Parallel()
	l := ratelimit.New(time.Minute, nil)
	require.True(t, l.Allow("k", 1).Allowed)
	require.False(t, l.Allow("k", 1).Allowed)
	require.True(t, l.Allow("k", 2).Allowed, "a new limit starts a new count")
}

// The ring grows with use, keeping the oldest first across wrap-arounds, and
// a huge limit (benchmarks turn limits "off" that way) costs nothing up front.
func TestRingGrowsInOrder(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	l := ratelimit.New(time.Minute, c.now)
	for i := range 6 { // six requests 10 s apart; at 60 s the first leaves the window
		require.True(t, l.Allow("key", 30).Allowed, "request %d", i)
		c.t = c.t.Add(10 * time.Second)
	}
	for i := range 25 { // the ring wraps while it grows from 8 towards 30
		require.True(t, l.Allow("key", 30).Allowed, "burst request %d", i)
	}
	d := l.Allow("key", 30)
	require.False(t, d.Allowed)
	require.Equal(t, 10*time.Second, d.RetryAfter, "the oldest still counted was made 50 s ago")

	big := ratelimit.New(time.Minute, nil)
	for range 1000 {
		require.True(t, big.Allow("key", math.MaxInt32).Allowed)
	}
}

func BenchmarkAllow(b *testing.B) {
	l := ratelimit.New(time.Minute, nil)
	for i := 0; b.Loop(); i++ {
		l.Allow("key", 100)
	}
}
