// Package ratelimit counts requests per client in a sliding window: a
// client may make at most limit requests in any window-long span. It keeps
// the time of each counted request (at most limit per client), so the
// answer is exact: the 101st request inside a minute under a limit of 100
// is refused, and the refusal says when the next one will be accepted.
//
// Counts live in the process's memory: each API process limits on its own.
package ratelimit

import (
	"sync"
	"time"
)

// Decision is the outcome of one request.
type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	// Reset is how long until the oldest counted request leaves the window
	// and frees a place (0 when nothing is counted).
	Reset time.Duration
	// RetryAfter is how long a refused client must wait.
	RetryAfter time.Duration

	class  Class         // set by a Policy
	window time.Duration // set by a Policy
}

// Limiter counts requests per key.
type Limiter struct {
	window time.Duration
	now    func() time.Time

	mu        sync.Mutex
	clients   map[string]*log
	lastSweep time.Time
}

// log is a ring of the times of a client's counted requests, oldest first.
// It grows as requests come, up to limit, so a high limit costs memory only
// for clients that use it.
type log struct {
	times []time.Time
	start int
	n     int
	limit int
}

// push counts a request at now; the caller has checked n < limit.
func (c *log) push(now time.Time) {
	if c.n == len(c.times) {
		grown := make([]time.Time, min(c.limit, max(8, 2*len(c.times))))
		for i := range c.n {
			grown[i] = c.times[(c.start+i)%len(c.times)]
		}
		c.times, c.start = grown, 0
	}
	c.times[(c.start+c.n)%len(c.times)] = now
	c.n++
}

// New returns a limiter over window; now may be nil (the real clock).
func New(window time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{window: window, now: now, clients: map[string]*log{}}
}

// Window is the span the limits count over.
func (l *Limiter) Window() time.Duration { return l.window }

// Allow counts a request of key against limit and tells whether it may go
// ahead.
func (l *Limiter) Allow(key string, limit int) Decision {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	c := l.clients[key]
	if c == nil || c.limit != limit {
		c = &log{limit: limit}
		l.clients[key] = c
	}
	cutoff := now.Add(-l.window)
	for c.n > 0 && !c.times[c.start].After(cutoff) {
		c.start = (c.start + 1) % len(c.times)
		c.n--
	}
	d := Decision{Limit: limit}
	if c.n < limit {
		c.push(now)
		d.Allowed = true
	} else {
		d.RetryAfter = c.times[c.start].Add(l.window).Sub(now)
	}
	d.Remaining = limit - c.n
	d.Reset = c.times[c.start].Add(l.window).Sub(now)
	return d
}

// sweep forgets clients idle for a whole window, at most once a window.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.window {
		return
	}
	l.lastSweep = now
	cutoff := now.Add(-l.window)
	for key, c := range l.clients {
		if c.n == 0 || !c.times[(c.start+c.n-1)%len(c.times)].After(cutoff) {
			delete(l.clients, key)
		}
	}
}
