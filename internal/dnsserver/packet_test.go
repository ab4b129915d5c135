package dnsserver

import (
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"
)

func testServer(t testing.TB, snap *Snapshot) *Server {
	t.Helper()
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)))
	s.Publish(snap)
	return s
}

func pack(t testing.TB, m *dns.Msg) []byte {
	t.Helper()
	b, err := m.Pack()
	require.NoError(t, err)
	return b
}

func unpack(t testing.TB, b []byte) *dns.Msg {
	t.Helper()
	require.NotNil(t, b)
	m := new(dns.Msg)
	require.NoError(t, m.Unpack(b))
	return m
}

// The fast path (a cached answer, patched) answers exactly what the slow
// path (unpack, Lookup, pack) answers.
func TestPackedAnswersMatchTheSlowPath(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	s := testServer(t, snap)
	names := []string{"example.inf.nz.", "ExAmPle.inf.NZ.", "www.example.inf.nz.", "WWW.EXAMPLE.INF.NZ.", "nope.inf.nz.",
		"Foo.Example.inf.nz.", "api.dev.example.inf.nz.", "host.deleg.inf.nz.", "inf.nz.", "b.example.inf.nz.",
		"chain1.example.inf.nz.", "example.com.", "shop.BIZ.ee."}
	types := []uint16{dns.TypeA, dns.TypeAAAA, dns.TypeMX, dns.TypeTXT, dns.TypeNS, dns.TypeSOA, dns.TypeANY, dns.TypeCNAME, dns.TypeDS}
	out := make([]byte, 0, dns.MaxMsgSize)
	for _, name := range names {
		for _, qtype := range types {
			for _, edns := range []int{0, 1, 2} { // none, EDNS, EDNS with DO
				for round := range 2 { // the first fills the cache, the second hits it
					q := new(dns.Msg).SetQuestion(name, qtype)
					q.Id = uint16(1000 + round)
					q.RecursionDesired = round == 0
					q.CheckingDisabled = round == 1
					if edns > 0 {
						q.SetEdns0(4096, edns == 2)
					}
					what := name + " " + dns.TypeToString[qtype]
					fast := unpack(t, s.answerPacket(snap, pack(t, q), out, netip.Addr{}, false))
					slow := unpack(t, s.answerSlow(snap, pack(t, q), out, netip.Addr{}, false))
					require.Equal(t, slow.String(), fast.String(), what)
					require.Equal(t, q.Id, fast.Id, what)
					require.Equal(t, q.RecursionDesired, fast.RecursionDesired, what)
					require.Equal(t, q.CheckingDisabled, fast.CheckingDisabled, what)
					require.False(t, fast.RecursionAvailable, what)
					require.Equal(t, name, fast.Question[0].Name, what)
					require.Equal(t, edns > 0, fast.IsEdns0() != nil, what)
					if edns > 0 {
						require.Equal(t, edns == 2, fast.IsEdns0().Do(), "DO is copied: "+what)
						require.Equal(t, uint16(ednsSize), fast.IsEdns0().UDPSize(), what)
					}
					if len(fast.Answer) > 0 && !strings.HasPrefix(name, "example.com") {
						require.Equal(t, name, fast.Answer[0].Header().Name, "the answer echoes the question's case: "+what)
					}
				}
			}
		}
	}
}

func TestLargeAnswersAreTruncatedOverUDP(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	text.WriteString("inf.nz. 3600 IN SOA ns1.inf.nz. hostmaster.inf.nz. 1 7200 900 1209600 300\n")
	for i := range 20 {
		text.WriteString("big.inf.nz. 300 IN TXT \"" + strings.Repeat(string(rune('a'+i)), 200) + "\"\n")
	}
	snap, err := buildFromText(text.String())
	require.NoError(t, err)
	s := testServer(t, snap)
	out := make([]byte, 0, dns.MaxMsgSize)
	for _, tt := range []struct {
		edns  uint16 // 0: none
		tcp   bool
		limit int
		tc    bool
	}{
		{0, false, 512, true},
		{1232, false, 1232, true},
		{4096, false, 1232, true}, // capped at the server's maximum
		{100, false, 512, true},   // below 512 counts as 512
		{0, true, dns.MaxMsgSize, false},
	} {
		for range 2 {
			q := new(dns.Msg).SetQuestion("big.inf.nz.", dns.TypeTXT)
			if tt.edns > 0 {
				q.SetEdns0(tt.edns, false)
			}
			b := s.answerPacket(snap, pack(t, q), out, netip.Addr{}, tt.tcp)
			require.LessOrEqual(t, len(b), tt.limit, "%+v", tt)
			m := unpack(t, b)
			require.Equal(t, tt.tc, m.Truncated, "%+v", tt)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			if !tt.tc {
				require.Len(t, m.Answer, 20)
			}
			require.Equal(t, tt.edns > 0, m.IsEdns0() != nil, "%+v", tt)
		}
	}
}

func TestQueriesThatAreNotPlain(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	s := testServer(t, snap)
	out := make([]byte, 0, dns.MaxMsgSize)
	answer := func(b []byte) *dns.Msg { return unpack(t, s.answerPacket(snap, b, out, netip.Addr{}, false)) }

	// Responses and runts are never answered: answering could loop.
	resp := new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	resp.Response = true
	require.Nil(t, s.answerPacket(snap, pack(t, resp), out, netip.Addr{}, false))
	require.Nil(t, s.answerPacket(snap, []byte{1, 2, 3}, out, netip.Addr{}, false))

	// A header followed by garbage: FORMERR with the query's ID.
	garbage := []byte{0xbe, 0xef, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x40, 'x'}
	m := answer(garbage)
	require.Equal(t, dns.RcodeFormatError, m.Rcode)
	require.Equal(t, uint16(0xbeef), m.Id)
	require.True(t, m.Response)

	// Two questions: FORMERR.
	two := new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	two.Question = append(two.Question, dns.Question{Name: "www.example.inf.nz.", Qtype: dns.TypeA, Qclass: dns.ClassINET})
	require.Equal(t, dns.RcodeFormatError, answer(pack(t, two)).Rcode)
	// No question: FORMERR.
	none := new(dns.Msg)
	none.Id = 7
	require.Equal(t, dns.RcodeFormatError, answer(pack(t, none)).Rcode)

	// Other opcodes: NOTIMP.
	for _, opcode := range []int{dns.OpcodeNotify, dns.OpcodeUpdate, dns.OpcodeStatus, dns.OpcodeIQuery} {
		q := new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA)
		q.Opcode = opcode
		m := answer(pack(t, q))
		require.Equal(t, dns.RcodeNotImplemented, m.Rcode, dns.OpcodeToString[opcode])
		require.Equal(t, opcode, m.Opcode)
	}

	// EDNS version 1: BADVERS, with an OPT of version 0.
	q := new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	q.SetEdns0(1232, false)
	q.IsEdns0().SetVersion(1)
	m = answer(pack(t, q))
	require.Equal(t, dns.RcodeBadVers, m.Rcode)
	require.NotNil(t, m.IsEdns0())
	require.Equal(t, uint8(0), m.IsEdns0().Version())

	// Two OPT records: FORMERR.
	q = new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	q.SetEdns0(1232, false)
	q.Extra = append(q.Extra, q.Extra[0])
	require.Equal(t, dns.RcodeFormatError, answer(pack(t, q)).Rcode)

	// EDNS options are ignored, not refused.
	q = new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	q.SetEdns0(1232, false)
	q.IsEdns0().Option = append(q.IsEdns0().Option, &dns.EDNS0_COOKIE{Code: dns.EDNS0COOKIE, Cookie: "0102030405060708"})
	m = answer(pack(t, q))
	require.Equal(t, dns.RcodeSuccess, m.Rcode)
	require.Len(t, m.Answer, 1)

	// Class CHAOS: REFUSED; class ANY is served like IN.
	q = new(dns.Msg).SetQuestion("version.bind.", dns.TypeTXT)
	q.Question[0].Qclass = dns.ClassCHAOS
	require.Equal(t, dns.RcodeRefused, answer(pack(t, q)).Rcode)
	q = new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	q.Question[0].Qclass = dns.ClassANY
	require.Len(t, answer(pack(t, q)).Answer, 1)

	// A compression pointer in the question can only point at the header or
	// itself: malformed.
	q = new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA)
	ptr := append(append([]byte{}, pack(t, q)[:12]...), 0xc0, 12, 0, 1, 0, 1)
	require.Equal(t, dns.RcodeFormatError, answer(ptr).Rcode)

	// AXFR over UDP is not a plain query; without permission: REFUSED.
	q = new(dns.Msg).SetQuestion("inf.nz.", dns.TypeAXFR)
	require.Equal(t, dns.RcodeRefused, answer(pack(t, q)).Rcode)
}

// FuzzAnswerPacket feeds arbitrary packets to the handler: it never panics,
// answers every packet that unpacks as a query with the query's ID, and its
// answers always unpack.
func FuzzAnswerPacket(f *testing.F) {
	snap := testSnapshot(f)
	s := testServer(f, snap)
	seed := func(m *dns.Msg) { f.Add(pack(f, m)) }
	for _, name := range []string{"example.inf.nz.", "WWW.example.inf.nz.", "x.y.example.inf.nz.", "host.deleg.inf.nz.", "example.com.", "inf.nz."} {
		for _, qtype := range []uint16{dns.TypeA, dns.TypeANY, dns.TypeTXT, dns.TypeAXFR} {
			q := new(dns.Msg).SetQuestion(name, qtype)
			seed(q)
			q.SetEdns0(1232, true)
			seed(q)
		}
	}
	q := new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA)
	q.Opcode = dns.OpcodeNotify
	seed(q)
	f.Add([]byte{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0xc0, 12, 0, 1, 0, 1})
	f.Add([]byte{})
	out := make([]byte, 0, dns.MaxMsgSize)
	f.Fuzz(func(t *testing.T, pkt []byte) {
		for _, tcp := range []bool{false, true} {
			resp := s.answerPacket(snap, pkt, out, netip.Addr{}, tcp)
			var req dns.Msg
			if req.Unpack(pkt) != nil || req.Response {
				if resp != nil {
					unpack(t, resp)
				}
				continue
			}
			require.NotNil(t, resp, "a query that unpacks is answered")
			m := unpack(t, resp)
			require.Equal(t, req.Id, m.Id)
			require.True(t, m.Response)
			if !tcp {
				require.LessOrEqual(t, len(resp), udpLimit(&req, s.opts.maxUDP))
			}
			// The fast path and the slow one agree.
			got := m.String()
			slow := unpack(t, s.answerSlow(snap, pkt, out, netip.Addr{}, tcp))
			require.Equal(t, slow.String(), got)
		}
	})
}
