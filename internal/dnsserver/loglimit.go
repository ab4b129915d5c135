package dnsserver

import (
	"sync"
	"time"
)

// logLimiter bounds how often a message anyone can cause is logged (a
// refused transfer costs a sender one packet, a spoofed one nothing): at
// most burst lines at once and one a second after that. What it holds back
// is counted and given with the next line it lets through.
type logLimiter struct {
	mu         sync.Mutex
	tokens     float64
	last       time.Time
	suppressed int
	now        func() time.Time
}

const (
	refusalLogBurst = 10
	refusalLogRate  = 1 // lines a second, past the burst
)

func newLogLimiter(now func() time.Time) *logLimiter {
	if now == nil {
		now = time.Now
	}
	return &logLimiter{tokens: refusalLogBurst, last: now(), now: now}
}

// allow reports whether to log a line now and, when it does, how many
// lines were held back since the last one logged.
func (l *logLimiter) allow() (ok bool, suppressed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.tokens = min(refusalLogBurst, l.tokens+now.Sub(l.last).Seconds()*refusalLogRate)
	l.last = now
	if l.tokens < 1 {
		l.suppressed++
		return false, 0
	}
	l.tokens--
	suppressed, l.suppressed = l.suppressed, 0
	return true, suppressed
}
