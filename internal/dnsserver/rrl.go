package dnsserver

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Response rate limiting (RRL), in the spirit of BIND's and NSD's: over UDP
// a source address can be forged, so an authoritative server can be used to
// flood a victim with answers it never asked for. RRL bounds the answers of
// the kinds that make that worthwhile, per client network, and sends the
// rest either nowhere or as an empty truncated answer (a "slip"), which a
// real client behind that network takes as "ask again over TCP", where the
// address cannot be forged. TCP is never limited.
//
// Every response is of one kind (see classify), each kind with its own
// budget:
//   - large: any answer over 512 bytes (the classic UDP size; such answers
//     amplify a small query the most);
//   - negative: NXDOMAIN, and NODATA (NOERROR, authoritative, no answer
//     records; referrals are not negative);
//   - error: any other rcode (REFUSED for names outside our zones, FORMERR,
//     NOTIMP…);
//   - positive: the rest, small answers and referrals, the traffic of real
//     resolvers. They too amplify (up to 512 bytes for a query of 30), so
//     they have a budget of their own, high enough (PositiveRate) that a
//     real resolver never meets it.

// RateLimit configures response rate limiting; see WithRateLimit.
type RateLimit struct {
	// Rate is the responses per second a client network (IPv4 /24, IPv6
	// /56) gets of each of the kinds large, negative and error; a burst of
	// one second's worth is allowed. 0: those kinds are not limited.
	Rate int
	// PositiveRate is the same for positive answers (small answers and
	// referrals). 0: not limited.
	PositiveRate int
	// Slip: over the rate, every Slip-th response is sent empty with TC=1
	// and the others dropped. 0 drops them all; 1 truncates them all.
	Slip int
	// Exempt are clients never limited, such as loopback, which cannot be
	// forged from outside the host.
	Exempt []netip.Prefix
	// Entries bounds the table of client networks (default 65536, about
	// 2 MB). When it is full, the entries with the least debt give way.
	Entries int
}

// WithRateLimit turns on response rate limiting over UDP (off by default;
// off too when both rates are 0).
func WithRateLimit(rl RateLimit) Option {
	return func(o *options) { o.rateLimit = rl }
}

// rrlKind is the class of a response, for rate limiting.
type rrlKind uint8

const (
	rrlPositive rrlKind = iota
	rrlLarge
	rrlNegative
	rrlError
	rrlKinds
)

var rrlKindNames = [rrlKinds]string{rrlPositive: "positive", rrlLarge: "large", rrlNegative: "negative", rrlError: "error"}

// rrlLargeSize: answers longer than this are "large". 512 bytes is what
// any client takes without EDNS; beyond it an answer is ten or more times
// its query.
const rrlLargeSize = 512

// classify reads the kind of a packed response from its header alone.
func classify(resp []byte) rrlKind {
	if len(resp) > rrlLargeSize {
		return rrlLarge
	}
	if len(resp) < 12 {
		return rrlError
	}
	switch rcode := resp[3] & 0x0f; {
	case rcode == 3: // NXDOMAIN
		return rrlNegative
	case rcode != 0:
		return rrlError
	case resp[2]&0x02 != 0:
		// Truncated: small by construction, and it sends the client to TCP.
		return rrlPositive
	case resp[6]|resp[7] == 0 && resp[2]&0x04 != 0: // no answers, AA: NODATA
		return rrlNegative
	}
	return rrlPositive
}

// rrlVerdict is what to do with a limited response.
type rrlVerdict uint8

const (
	rrlSend rrlVerdict = iota
	rrlDrop
	rrlSlip
)

const (
	rrlShards         = 64 // a power of two
	rrlDefaultEntries = 1 << 16
)

// rateLimiter holds one token bucket per client network and kind, kept as
// a GCRA "theoretical arrival time" (one int64): a response is allowed when
// tat - now <= tau, and then moves tat on by one interval. Buckets live in
// a fixed table (sharded, two-way set associative), so memory is bounded
// and nothing is allocated per packet; a new network takes the slot of the
// two whose tat is earliest, and a bucket whose tat has passed is full, so
// losing it loses nothing.
type rateLimiter struct {
	// Per kind: nanoseconds per response (1s / rate; 0: not limited), and
	// how far ahead of now tat may run (a second's burst).
	interval [rrlKinds]int64
	tau      [rrlKinds]int64
	slip     uint32
	exempt   []netip.Prefix
	seed     [2]uint64 // of the table's hash, random: a flood cannot aim at one slot
	slots    uint64    // per shard, a power of two (at least 2)
	shards   [rrlShards]rrlShard
	dropped  [rrlKinds]atomic.Uint64
	slipped  [rrlKinds]atomic.Uint64
}

type rrlShard struct {
	mu      sync.Mutex
	entries []rrlEntry
	_       [32]byte // keeps shards' locks on separate cache lines
}

// rrlKey is a client network (IPv4 /24 as an IPv4-mapped IPv6 address,
// IPv6 /56) as two halves, with the response kind in the low byte of the
// second (which the masks leave zero in both families).
type rrlKey struct{ hi, lo uint64 }

func makeKey(from netip.Addr, kind rrlKind) rrlKey {
	b := from.As16() // an IPv4 address as ::ffff:a.b.c.d
	if from.Is4() {
		b[15] = 0 // /24
	} else {
		clear(b[7:]) // /56
	}
	return rrlKey{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]) | uint64(kind)}
}

// hash mixes a key as wyhash does (128-bit multiplications, folded): a
// few nanoseconds, against tens for maphash on the same 16 bytes.
func (l *rateLimiter) hash(k rrlKey) uint64 {
	hi, lo := bits.Mul64(k.hi^l.seed[0], k.lo^l.seed[1])
	hi, lo = bits.Mul64(hi^lo, 0x9e3779b97f4a7c15)
	return hi ^ lo
}

type rrlEntry struct {
	key   rrlKey
	used  bool
	drops uint32 // responses held back since the bucket last had credit
	tat   int64  // nanoseconds on the limiter's clock
}

// Process-wide counts of held-back responses, for /metrics.
var rrlTotals struct{ dropped, slipped [rrlKinds]atomic.Uint64 }

func newRateLimiter(rl RateLimit) *rateLimiter {
	if rl.Rate <= 0 && rl.PositiveRate <= 0 {
		return nil
	}
	l := &rateLimiter{slip: uint32(max(rl.Slip, 0)), exempt: rl.Exempt, seed: [2]uint64{rand.Uint64(), rand.Uint64()}}
	for k := range rrlKinds {
		rate := rl.Rate
		if k == rrlPositive {
			rate = rl.PositiveRate
		}
		if rate > 0 {
			l.interval[k] = int64(time.Second) / int64(rate)
			l.tau[k] = int64(time.Second) - l.interval[k]
		}
	}
	entries := rl.Entries
	if entries <= 0 {
		entries = rrlDefaultEntries
	}
	l.slots = 2
	for l.slots*rrlShards < uint64(entries) {
		l.slots *= 2
	}
	for i := range l.shards {
		l.shards[i].entries = make([]rrlEntry, l.slots)
	}
	return l
}

// limits reports whether responses of kind are limited at all.
func (l *rateLimiter) limits(kind rrlKind) bool { return l.interval[kind] != 0 }

// capacity is how many buckets the table holds.
func (l *rateLimiter) capacity() int { return int(l.slots) * rrlShards }

// verdict decides a response of kind for a client at from, at now
// (nanoseconds, monotonic).
func (l *rateLimiter) verdict(from netip.Addr, kind rrlKind, now int64) rrlVerdict {
	if !l.limits(kind) {
		return rrlSend
	}
	from = from.Unmap()
	for _, p := range l.exempt {
		if p.Contains(from) {
			return rrlSend
		}
	}
	key := makeKey(from, kind)
	h := l.hash(key)
	sh := &l.shards[h>>(64-6)] // rrlShards = 1<<6
	i := h & (l.slots - 1) &^ 1
	sh.mu.Lock()
	e := &sh.entries[i]
	if other := &sh.entries[i+1]; !(e.used && e.key == key) {
		switch {
		case other.used && other.key == key:
			e = other
		case e.used && (!other.used || other.tat < e.tat):
			e = other
		}
		if !e.used || e.key != key {
			*e = rrlEntry{key: key, used: true, tat: now}
		}
	}
	tat := max(e.tat, now)
	if tat-now <= l.tau[kind] {
		e.tat, e.drops = tat+l.interval[kind], 0
		sh.mu.Unlock()
		return rrlSend
	}
	e.drops++
	slip := l.slip > 0 && e.drops%l.slip == 0
	sh.mu.Unlock()
	if slip {
		l.slipped[kind].Add(1)
		rrlTotals.slipped[kind].Add(1)
		return rrlSlip
	}
	l.dropped[kind].Add(1)
	rrlTotals.dropped[kind].Add(1)
	return rrlDrop
}

// limit applies the limiter to resp, a UDP answer of kind (classify) to
// from: it returns resp, resp cut down to a slip, or nil to send nothing.
// now is read at the first limited answer of a batch of packets.
func (l *rateLimiter) limit(resp []byte, kind rrlKind, from netip.Addr, now *int64) []byte {
	if *now == 0 {
		*now = time.Since(rrlEpoch).Nanoseconds() + 1
	}
	switch l.verdict(from, kind, *now) {
	case rrlDrop:
		return nil
	case rrlSlip:
		return slipped(resp)
	}
	return resp
}

// rrlEpoch starts the limiters' monotonic clock.
var rrlEpoch = time.Now()

// slipped cuts resp down, in place, to its header and question with TC
// set and no records: "ask again over TCP". The rcode stays.
func slipped(resp []byte) []byte {
	if len(resp) < 12 {
		return nil
	}
	resp[2] |= 0x02 // TC
	end := 12
	if binary.BigEndian.Uint16(resp[4:]) == 1 {
		for off := 12; off < len(resp); {
			l := int(resp[off])
			if l == 0 {
				if off+5 <= len(resp) {
					end = off + 5 // root label, type, class
				}
				break
			}
			if l > 63 { // a pointer: not written by us in a question
				break
			}
			off += 1 + l
		}
	}
	if end == 12 {
		binary.BigEndian.PutUint16(resp[4:], 0)
	}
	clear(resp[6:12])
	return resp[:end]
}

// RateLimitCount is how many responses of one kind ("large", "negative",
// "error", "positive") rate limiting dropped, and how many it sent as truncated slips.
type RateLimitCount struct {
	Kind             string
	Dropped, Slipped uint64
}

// RateLimited counts the responses this server's rate limiting held back,
// by kind; nil when rate limiting is off.
func (s *Server) RateLimited() []RateLimitCount {
	if s.rrl == nil {
		return nil
	}
	return counts(&s.rrl.dropped, &s.rrl.slipped)
}

// RateLimitedTotals counts the responses held back by every server in this
// process, by kind (for Prometheus).
func RateLimitedTotals() []RateLimitCount {
	return counts(&rrlTotals.dropped, &rrlTotals.slipped)
}

func counts(dropped, slipped *[rrlKinds]atomic.Uint64) []RateLimitCount {
	out := make([]RateLimitCount, 0, rrlKinds)
	for _, k := range []rrlKind{rrlLarge, rrlNegative, rrlError, rrlPositive} {
		out = append(out, RateLimitCount{Kind: rrlKindNames[k], Dropped: dropped[k].Load(), Slipped: slipped[k].Load()})
	}
	return out
}
