package dnsserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"
)

var rrlZones = `
$ORIGIN inf.nz.
@       3600 IN SOA ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300
@       3600 IN NS  ns1.nameport.net.
example  300 IN A   192.0.2.1
big      300 IN TXT "` + strings.Repeat("a", 250) + `" "` + strings.Repeat("b", 250) + `"
big      300 IN TXT "` + strings.Repeat("c", 250) + `"
`

func rrlSnapshot(t testing.TB) *Snapshot {
	t.Helper()
	snap, err := buildFromText(rrlZones)
	require.NoError(t, err)
	return snap
}

// answerTo is the server's packed UDP answer to a query for name and qtype
// (with EDNS, 1232 bytes).
func answerTo(t testing.TB, s *Server, snap *Snapshot, name string, qtype uint16) []byte {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	q.SetEdns0(1232, false)
	resp := s.answerPacket(snap, pack(t, q), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false)
	require.NotNil(t, resp)
	return resp
}

func TestResponsesAreClassified(t *testing.T) {
	t.Parallel()
	snap := rrlSnapshot(t)
	s := testServer(t, snap)
	for _, c := range []struct {
		name  string
		qtype uint16
		kind  rrlKind
	}{
		{"example.inf.nz.", dns.TypeA, rrlPositive},
		{"inf.nz.", dns.TypeNS, rrlPositive},
		{"inf.nz.", dns.TypeSOA, rrlPositive},
		{"example.inf.nz.", dns.TypeANY, rrlPositive}, // minimal ANY (RFC 8482)
		{"big.inf.nz.", dns.TypeTXT, rrlLarge},
		{"nope.inf.nz.", dns.TypeA, rrlNegative},
		{"example.inf.nz.", dns.TypeAAAA, rrlNegative}, // NODATA
		{"empty.inf.nz.", dns.TypeA, rrlNegative},
		{"example.com.", dns.TypeA, rrlError}, // REFUSED
	} {
		resp := answerTo(t, s, snap, c.name, c.qtype)
		require.Equal(t, rrlKindNames[c.kind], rrlKindNames[classify(resp)], "%s %s", c.name, dns.TypeToString[c.qtype])
	}

	// A referral is not negative; a truncated answer is small and sends the
	// client to TCP.
	referral := new(dns.Msg)
	referral.Response = true
	referral.Ns = []dns.RR{&dns.NS{Hdr: dns.RR_Header{Name: "deleg.inf.nz.", Rrtype: dns.TypeNS, Class: dns.ClassINET}, Ns: "ns.other.net."}}
	require.Equal(t, rrlPositive, classify(pack(t, referral)))
	truncated := new(dns.Msg)
	truncated.Response, truncated.Authoritative, truncated.Truncated = true, true, true
	require.Equal(t, rrlPositive, classify(pack(t, truncated)))
	require.Equal(t, rrlError, classify(pack(t, formErr(make([]byte, 12)))))
}

func TestSlipIsAnEmptyTruncatedAnswer(t *testing.T) {
	t.Parallel()
	snap := rrlSnapshot(t)
	s := testServer(t, snap)
	for _, name := range []string{"nope.inf.nz.", "big.inf.nz.", "example.com."} {
		resp := answerTo(t, s, snap, name, dns.TypeTXT)
		full := unpack(t, resp)
		slip := unpack(t, slipped(resp))
		require.True(t, slip.Truncated, name)
		require.Equal(t, full.Id, slip.Id, name)
		require.Equal(t, full.Rcode, slip.Rcode, name)
		require.Equal(t, full.Question, slip.Question, name)
		require.Empty(t, slip.Answer, name)
		require.Empty(t, slip.Ns, name)
		require.Empty(t, slip.Extra, name)
	}
	slip := unpack(t, slipped(pack(t, formErr(make([]byte, 12)))))
	require.True(t, slip.Truncated)
	require.Empty(t, slip.Question)
}

func TestRateLimitBudgetAndSlip(t *testing.T) {
	t.Parallel()
	client := netip.MustParseAddr("198.51.100.7")
	const t0 = int64(time.Hour)
	for _, c := range []struct {
		slip int
		over []rrlVerdict // the verdicts once the budget is spent
	}{
		{0, []rrlVerdict{rrlDrop, rrlDrop, rrlDrop, rrlDrop}},
		{1, []rrlVerdict{rrlSlip, rrlSlip, rrlSlip, rrlSlip}},
		{2, []rrlVerdict{rrlDrop, rrlSlip, rrlDrop, rrlSlip}},
		{3, []rrlVerdict{rrlDrop, rrlDrop, rrlSlip, rrlDrop}},
	} {
		l := newRateLimiter(RateLimit{Rate: 10, Slip: c.slip})
		for i := range 10 {
			require.Equal(t, rrlSend, l.verdict(client, rrlNegative, t0), "a second's burst: %d", i)
		}
		var over []rrlVerdict
		for range 4 {
			over = append(over, l.verdict(client, rrlNegative, t0))
		}
		require.Equal(t, c.over, over, "slip %d", c.slip)

		// The bucket refills at the rate: one response per 100 ms.
		require.Equal(t, rrlSend, l.verdict(client, rrlNegative, t0+int64(100*time.Millisecond)))
		require.NotEqual(t, rrlSend, l.verdict(client, rrlNegative, t0+int64(100*time.Millisecond)))
		// A second later the whole budget is back, and no more.
		later := t0 + int64(1100*time.Millisecond)
		for i := range 10 {
			require.Equal(t, rrlSend, l.verdict(client, rrlNegative, later), "budget back: %d", i)
		}
		require.NotEqual(t, rrlSend, l.verdict(client, rrlNegative, later))
	}
	require.Nil(t, newRateLimiter(RateLimit{Rate: 0, Slip: 2}), "rate 0: off")
}

func TestRateLimitIsPerNetworkAndKind(t *testing.T) {
	t.Parallel()
	const now = int64(time.Hour)
	for _, c := range []struct {
		spent, other string
		shared       bool
	}{
		{"192.0.2.1", "192.0.2.254", true},
		{"192.0.2.1", "::ffff:192.0.2.9", true},
		{"192.0.2.1", "192.0.3.1", false},
		{"192.0.2.1", "10.0.2.1", false},
		{"2001:db8:0:ff00::1", "2001:db8:0:ffab:1234::2", true}, // one /56
		{"2001:db8:0:ff00::1", "2001:db8:0:100::1", false},
		{"2001:db8:0:ff00::1", "2001:db9:0:ff00::1", false},
		{"::ffff:192.0.2.1", "::192.0.2.1", false}, // IPv4 is not an IPv6 /56
	} {
		l := newRateLimiter(RateLimit{Rate: 5, Slip: 2})
		spent, other := netip.MustParseAddr(c.spent), netip.MustParseAddr(c.other)
		for range 5 {
			require.Equal(t, rrlSend, l.verdict(spent, rrlNegative, now))
		}
		require.NotEqual(t, rrlSend, l.verdict(spent, rrlNegative, now))
		require.Equal(t, !c.shared, l.verdict(other, rrlNegative, now) == rrlSend, "%s after %s", c.other, c.spent)
		for _, kind := range []rrlKind{rrlLarge, rrlError} {
			require.Equal(t, rrlSend, l.verdict(spent, kind, now), "each kind has its own budget")
		}
	}

	l := newRateLimiter(RateLimit{Rate: 1, Slip: 2, Exempt: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	for range 100 {
		require.Equal(t, rrlSend, l.verdict(netip.MustParseAddr("127.0.0.1"), rrlError, now), "exempt")
	}
}

// The table has a fixed size: a flood from ever new networks takes the
// slots of one another, not of a network that is over its budget, and
// allocates nothing.
func TestRateLimitTableStaysBounded(t *testing.T) { // not parallel: AllocsPerRun
	l := newRateLimiter(RateLimit{Rate: 10, Slip: 2, Entries: 200})
	require.Equal(t, 256, l.capacity())
	now := int64(time.Hour)
	attacker := netip.MustParseAddr("203.0.113.9")
	for range 10 {
		require.Equal(t, rrlSend, l.verdict(attacker, rrlLarge, now))
	}
	n := 0
	allocs := testing.AllocsPerRun(1, func() {
		for i := range 100_000 {
			from := netip.AddrFrom4([4]byte{10 + byte(i>>16), byte(i >> 8), byte(i), 1}) // a /24 each
			if i%2 == 1 {
				from = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, byte(i >> 16), byte(i >> 8), byte(i)})
			}
			if l.verdict(from, rrlLarge, now) == rrlSend {
				n++
			}
			if i%100 == 0 && l.verdict(attacker, rrlLarge, now) == rrlSend {
				t.Fatalf("the attacker's budget came back after %d networks", i)
			}
		}
	})
	require.Zero(t, allocs)
	require.Equal(t, 2*100_000, n, "every new network has its budget (AllocsPerRun runs twice)")
	used := 0
	for i := range l.shards {
		require.Len(t, l.shards[i].entries, 4)
		for _, e := range l.shards[i].entries {
			if e.used {
				used++
			}
		}
	}
	require.LessOrEqual(t, used, l.capacity())
}

// Neighbouring networks spread over the whole table: as many networks as
// it has slots fill about 1-2/e² of them (two-way sets), in each family.
func TestRateLimitTableSpreadsNetworks(t *testing.T) {
	t.Parallel()
	for _, family := range []string{"IPv4", "IPv6"} {
		l := newRateLimiter(RateLimit{Rate: 10, Entries: 1 << 14})
		for i := range l.capacity() {
			from := netip.AddrFrom4([4]byte{10, byte(i >> 8), byte(i), 1})
			if family == "IPv6" {
				from = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, byte(i >> 8), byte(i), 0xff})
			}
			l.verdict(from, rrlNegative, int64(time.Hour))
		}
		used := 0
		for i := range l.shards {
			for _, e := range l.shards[i].entries {
				if e.used {
					used++
				}
			}
		}
		require.Greater(t, float64(used)/float64(l.capacity()), 0.65, family)
	}
}

// rrlServer runs a server over rrlSnapshot with rate limiting on (and no
// exemption for loopback, which the tests query from).
func rrlServer(t *testing.T, rl RateLimit) (*Server, string) {
	t.Helper()
	// A port free for UDP may be taken for TCP (by another test's client
	// connection) by the time the server binds both: try another.
	var err error
	for range 20 {
		l, lerr := net.ListenPacket("udp", "127.0.0.1:0")
		require.NoError(t, lerr)
		addr := l.LocalAddr().String()
		l.Close()
		s := New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)), WithRateLimit(rl))
		s.Publish(rrlSnapshot(t))
		if err = s.Start(); err != nil {
			_ = s.Shutdown(context.Background())
			continue
		}
		t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
		return s, addr
	}
	require.NoError(t, err)
	return nil, ""
}

// burst sends the queries over one UDP socket as fast as it can, then
// collects the answers until none has come for a while, by ID (the index
// of the query).
func burst(t *testing.T, addr string, queries []*dns.Msg) map[uint16]*dns.Msg {
	t.Helper()
	conn, err := net.Dial("udp", addr)
	require.NoError(t, err)
	defer conn.Close()
	for i, q := range queries {
		q.Id = uint16(i)
		_, err := conn.Write(pack(t, q))
		require.NoError(t, err)
	}
	answers := map[uint16]*dns.Msg{}
	buf := make([]byte, dns.MaxMsgSize)
	for len(answers) < len(queries) {
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(300*time.Millisecond)))
		n, err := conn.Read(buf)
		if err != nil {
			break
		}
		m := new(dns.Msg)
		require.NoError(t, m.Unpack(buf[:n]))
		require.NotContains(t, answers, m.Id, "one answer per query")
		answers[m.Id] = m
	}
	return answers
}

func query(name string, qtype uint16) *dns.Msg {
	q := new(dns.Msg).SetQuestion(name, qtype)
	q.SetEdns0(1232, false)
	return q
}

func TestRateLimitOverUDP(t *testing.T) {
	t.Parallel()
	const rate = 10
	s, addr := rrlServer(t, RateLimit{Rate: rate, Slip: 2})

	// 100 NXDOMAIN queries with 20 positive ones among them.
	var queries []*dns.Msg
	for i := range 120 {
		if i%6 == 0 {
			queries = append(queries, query("example.inf.nz.", dns.TypeA))
		} else {
			queries = append(queries, query("nope"+strings.Repeat("x", i%7)+".inf.nz.", dns.TypeA))
		}
	}
	start := time.Now()
	answers := burst(t, addr, queries)
	elapsed := time.Since(start)
	positive, negative, slips := 0, 0, 0
	for i, q := range queries {
		m, ok := answers[uint16(i)]
		if !ok {
			continue
		}
		require.Equal(t, q.Question, m.Question)
		switch {
		case q.Question[0].Name == "example.inf.nz.":
			require.False(t, m.Truncated)
			require.Len(t, m.Answer, 1)
			positive++
		case m.Truncated:
			require.Empty(t, m.Ns, "a slip is empty")
			slips++
		default:
			require.Equal(t, dns.RcodeNameError, m.Rcode)
			require.Len(t, m.Ns, 1, "a full NXDOMAIN has the SOA")
			negative++
		}
	}
	require.Equal(t, 20, positive, "positive answers are not limited without a positive rate")
	// A second's burst, plus what the time the burst took earned.
	require.GreaterOrEqual(t, negative, rate)
	require.LessOrEqual(t, negative, rate+1+int(elapsed.Seconds()*rate))
	over := 100 - negative
	require.InDelta(t, over/2, slips, 2, "every second response over the rate slips")
	stats := s.RateLimited()
	require.Equal(t, RateLimitCount{Kind: "negative", Dropped: uint64(over - slips), Slipped: uint64(slips)}, stats[1])
	require.Equal(t, RateLimitCount{Kind: "error"}, stats[2])

	// Other kinds have their own budget: REFUSED and large answers go out.
	answers = burst(t, addr, []*dns.Msg{query("example.com.", dns.TypeA), query("big.inf.nz.", dns.TypeTXT)})
	require.Equal(t, dns.RcodeRefused, answers[0].Rcode)
	require.Len(t, answers[1].Answer, 2)

	// TCP is never limited.
	c := &dns.Client{Net: "tcp", Timeout: 2 * time.Second}
	for i := range 30 {
		m, _, err := c.Exchange(query("nope.inf.nz.", dns.TypeA), addr)
		require.NoError(t, err)
		require.Equal(t, dns.RcodeNameError, m.Rcode, "over TCP: %d", i)
		require.False(t, m.Truncated)
	}

	// A second later the budget is back.
	time.Sleep(time.Second + 100*time.Millisecond)
	queries = queries[:0]
	for range rate {
		queries = append(queries, query("nope.inf.nz.", dns.TypeA))
	}
	answers = burst(t, addr, queries)
	require.Len(t, answers, rate)
	for _, m := range answers {
		require.Equal(t, dns.RcodeNameError, m.Rcode)
		require.False(t, m.Truncated)
	}
}

// TestPositiveAnswersAreLimited: a flood of small positive answers toward
// one network (what a forged-source amplification sends) is held to the
// positive rate, and does not spend the budget of the other kinds.
func TestPositiveAnswersAreLimited(t *testing.T) {
	t.Parallel()
	const rate, positiveRate = 10, 30
	s, addr := rrlServer(t, RateLimit{Rate: rate, PositiveRate: positiveRate, Slip: 2})
	var queries []*dns.Msg
	for range 150 {
		queries = append(queries, query("example.inf.nz.", dns.TypeA))
	}
	start := time.Now()
	answers := burst(t, addr, queries)
	elapsed := time.Since(start)
	full, slips := 0, 0
	for _, m := range answers {
		if m.Truncated {
			require.Empty(t, m.Answer, "a slip is empty")
			slips++
			continue
		}
		require.Len(t, m.Answer, 1)
		full++
	}
	// A second's burst, plus what the time the burst took earned.
	require.GreaterOrEqual(t, full, positiveRate)
	require.LessOrEqual(t, full, positiveRate+1+int(elapsed.Seconds()*positiveRate))
	over := len(queries) - full
	require.InDelta(t, over/2, slips, 2, "every second response over the rate slips")
	require.Equal(t, RateLimitCount{Kind: "positive", Dropped: uint64(over - slips), Slipped: uint64(slips)}, s.RateLimited()[3])

	// NXDOMAIN has its own budget, untouched.
	queries = queries[:0]
	for range rate {
		queries = append(queries, query("nope.inf.nz.", dns.TypeA))
	}
	answers = burst(t, addr, queries)
	require.Len(t, answers, rate)
	for _, m := range answers {
		require.Equal(t, dns.RcodeNameError, m.Rcode)
		require.False(t, m.Truncated)
	}
}

func TestRateLimitOffByDefault(t *testing.T) {
	t.Parallel()
	s, addr := rrlServer(t, RateLimit{})
	var queries []*dns.Msg
	for range 50 {
		queries = append(queries, query("nope.inf.nz.", dns.TypeA))
	}
	require.Len(t, burst(t, addr, queries), 50)
	require.Nil(t, s.RateLimited())
}

// BenchmarkRateLimit measures what rate limiting adds to an answer: a look
// at the header for answers it never limits, a table update for the others.
func BenchmarkRateLimit(b *testing.B) {
	snap := rrlSnapshot(b)
	s := testServer(b, snap)
	from := netip.MustParseAddr("198.51.100.7")
	for _, c := range []struct {
		about string
		name  string
		rl    RateLimit
	}{
		{"positive answer, not limited", "example.inf.nz.", RateLimit{Rate: 10}},
		{"positive answer within the rate", "example.inf.nz.", RateLimit{Rate: 10, PositiveRate: 1_000_000_000}},
		{"nxdomain within the rate", "nope.inf.nz.", RateLimit{Rate: 1_000_000_000}},
		{"nxdomain over the rate", "nope.inf.nz.", RateLimit{Rate: 10}},
	} {
		b.Run(c.about, func(b *testing.B) {
			c.rl.Slip = 2
			l := newRateLimiter(c.rl)
			resp := answerTo(b, s, snap, c.name, dns.TypeA)
			buf := make([]byte, len(resp))
			b.ReportAllocs()
			for b.Loop() { // as serveUDP runs it
				var now int64
				copy(buf, resp) // a slip cuts the answer in place (a copy costs a few ns)
				if kind := classify(buf); l.limits(kind) {
					l.limit(buf, kind, from, &now)
				}
			}
		})
	}
}

// BenchmarkAnswerPacketRateLimited is BenchmarkAnswerPacket's cached answer
// with rate limiting on, as serveUDP runs it.
func BenchmarkAnswerPacketRateLimited(b *testing.B) {
	snap := benchSnapshot(b)
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithRateLimit(RateLimit{Rate: 20, Slip: 2}))
	s.Publish(snap)
	pkt := pack(b, new(dns.Msg).SetQuestion("domain4242.inf.nz.", dns.TypeA))
	out := make([]byte, 0, dns.MaxMsgSize)
	from := netip.MustParseAddr("198.51.100.7")
	b.ReportAllocs()
	for b.Loop() {
		var now int64
		resp := s.answerPacket(snap, pkt, out, from, false)
		if kind := classify(resp); s.rrl.limits(kind) {
			resp = s.rrl.limit(resp, kind, from, &now)
		}
		if resp == nil {
			b.Fatal("no answer")
		}
	}
}
