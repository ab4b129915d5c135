package dnsserver

import (
	"testing"
	"time"
)

// A flood of refusals logs a burst, then one line a second, and the next
// line logged counts what was held back.
func TestLogLimiterBoundsAFlood(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLogLimiter(func() time.Time { return now })
	logged := 0
	for range 1000 {
		if ok, _ := l.allow(); ok {
			logged++
		}
	}
	if logged != refusalLogBurst {
		t.Fatalf("a flood at one instant logged %d lines, want the burst %d", logged, refusalLogBurst)
	}
	now = now.Add(time.Second)
	ok, suppressed := l.allow()
	if !ok || suppressed != 1000-refusalLogBurst {
		t.Fatalf("a second later: logged %t, held back %d; want true, %d", ok, suppressed, 1000-refusalLogBurst)
	}
	if ok, _ := l.allow(); ok {
		t.Fatal("one line a second past the burst")
	}
	now = now.Add(time.Hour)
	for i := range refusalLogBurst {
		if ok, _ := l.allow(); !ok {
			t.Fatalf("after a quiet hour, line %d of the burst was held back", i+1)
		}
	}
}
