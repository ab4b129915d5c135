package dnsserver

import (
	"fmt"
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

// withRawOPT returns q packed with raw appended to its additional section:
// an OPT record as bytes, so that it can be malformed.
func withRawOPT(t *testing.T, q *dns.Msg, raw []byte) []byte {
	t.Helper()
	b := pack(t, q)
	b[11]++ // ARCOUNT
	return append(b, raw...)
}

// rawOPT is an OPT record (1232 bytes, version 0) owned by owner (wire
// format) with rdata as its options.
func rawOPT(owner, rdata []byte) []byte {
	b := append([]byte{}, owner...)
	b = append(b, 0, byte(dns.TypeOPT), 0x04, 0xd0, 0, 0, 0, 0, byte(len(rdata)>>8), byte(len(rdata)))
	return append(b, rdata...)
}

// Packets that NSD and Knot answer with FORMERR get FORMERR here too, over
// the fast path and the slow one; the well-formed neighbours of each are
// answered. An IXFR without the client's SOA is refused to clients that may
// not transfer, as NSD does.
func TestMalformedQueriesGetFormErr(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	s := testServer(t, snap)
	s.opts.allowTransfer = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	out := make([]byte, 0, dns.MaxMsgSize)
	query := func() *dns.Msg { return new(dns.Msg).SetQuestion("example.inf.nz.", dns.TypeA) }
	soa := &dns.SOA{Hdr: dns.RR_Header{Name: "inf.nz.", Rrtype: dns.TypeSOA, Class: dns.ClassINET}, Ns: "a.", Mbox: "b.", Serial: 1}
	ixfr := func(withSOA bool) []byte {
		q := new(dns.Msg).SetQuestion("inf.nz.", dns.TypeIXFR)
		if withSOA {
			q.Ns = []dns.RR{soa}
		}
		return pack(t, q)
	}
	withAnswer := query()
	withAnswer.Answer = []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "example.inf.nz.", Rrtype: dns.TypeA, Class: dns.ClassINET}, A: []byte{192, 0, 2, 1}}}
	withAuthority := query()
	withAuthority.Ns = []dns.RR{soa}
	optInAnswer := query()
	optInAnswer.SetEdns0(1232, false)
	optInAnswer.Answer, optInAnswer.Extra = optInAnswer.Extra, nil

	root := []byte{0}
	cookie := []byte{0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8}
	for _, tt := range []struct {
		about string
		pkt   []byte
		rcode int
	}{
		{"an EDNS option", withRawOPT(t, query(), rawOPT(root, cookie)), dns.RcodeSuccess},
		{"an EDNS option running past the end of the OPT record", withRawOPT(t, query(), rawOPT(root, cookie[:10])), dns.RcodeFormatError},
		{"an EDNS option whose header is cut short", withRawOPT(t, query(), rawOPT(root, cookie[:3])), dns.RcodeFormatError},
		{"an OPT record not owned by the root", withRawOPT(t, query(), rawOPT([]byte{1, 'x', 0}, nil)), dns.RcodeFormatError},
		{"an OPT record owned by the question's name (a pointer)", withRawOPT(t, query(), rawOPT([]byte{0xc0, 12}, nil)), dns.RcodeFormatError},
		{"an OPT record in the answer section", pack(t, optInAnswer), dns.RcodeFormatError},
		{"a record in the answer section", pack(t, withAnswer), dns.RcodeFormatError},
		{"a record in the authority section of a query", pack(t, withAuthority), dns.RcodeFormatError},
		{"IXFR over UDP without the client's SOA", ixfr(false), dns.RcodeFormatError},
		{"IXFR over UDP with the client's SOA", ixfr(true), dns.RcodeSuccess},
	} {
		for _, from := range []string{"127.0.0.1", "192.0.2.1"} {
			what := tt.about + " from " + from
			m := unpack(t, s.answerPacket(snap, tt.pkt, out, netip.MustParseAddr(from), false))
			rcode := tt.rcode
			if strings.Contains(tt.about, "IXFR") && from != "127.0.0.1" {
				// Outside the allow list, the SOA is not looked for (as NSD).
				rcode = dns.RcodeRefused
			}
			require.Equal(t, dns.RcodeToString[rcode], dns.RcodeToString[m.Rcode], what)
			require.Equal(t, uint16(pkt16(tt.pkt)), m.Id, what)
			if rcode == dns.RcodeFormatError {
				require.Empty(t, m.Answer, what)
				require.Nil(t, m.IsEdns0(), "no OPT in answer to a query that may have got it wrong: "+what)
				slow := unpack(t, s.answerSlow(snap, tt.pkt, out, netip.MustParseAddr(from), false))
				require.Equal(t, dns.RcodeFormatError, slow.Rcode, what)
			}
		}
	}
}

func pkt16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }

// Additional addresses are left out, whole record sets from the end, when
// the answer would outgrow the client's size: no TC for them (the client
// has what it asked for). TC only when the referral itself does not fit.
func TestAdditionalDataGoesFirstAndWithoutTC(t *testing.T) {
	t.Parallel()
	var text strings.Builder
	text.WriteString("inf.nz. 3600 IN SOA ns1.inf.nz. hostmaster.inf.nz. 1 7200 900 1209600 300\n")
	for i := range 8 {
		fmt.Fprintf(&text, "deleg.inf.nz. 300 IN NS ns%d.deleg.inf.nz.\n", i)
		for j := range 4 {
			fmt.Fprintf(&text, "ns%d.deleg.inf.nz. 300 IN A 192.0.2.%d\n", i, i*10+j)
			fmt.Fprintf(&text, "ns%d.deleg.inf.nz. 300 IN AAAA 2001:db8::%d\n", i, i*10+j)
		}
	}
	for i := range 40 {
		fmt.Fprintf(&text, "huge.inf.nz. 300 IN NS ns%d.a-rather-long-name-for-a-nameserver.example.com.\n", i)
	}
	snap, err := buildFromText(text.String())
	require.NoError(t, err)
	s := testServer(t, snap)
	out := make([]byte, 0, dns.MaxMsgSize)
	for _, edns := range []uint16{0, 1232} {
		for round := range 2 { // the first fills the cache, the second hits it
			q := new(dns.Msg).SetQuestion("www.deleg.inf.nz.", dns.TypeA)
			if edns > 0 {
				q.SetEdns0(edns, false)
			}
			b := s.answerPacket(snap, pack(t, q), out, netip.Addr{}, false)
			m := unpack(t, b)
			what := fmt.Sprintf("EDNS %d, round %d", edns, round)
			require.LessOrEqual(t, len(b), max(512, int(edns)), what)
			require.False(t, m.Truncated, what)
			require.Len(t, m.Ns, 8, what)
			glue := m.Extra
			if edns > 0 {
				require.IsType(t, &dns.OPT{}, glue[len(glue)-1], "the OPT record stays: "+what)
				glue = glue[:len(glue)-1]
			}
			require.NotEmpty(t, glue, what)
			require.Less(t, len(glue), 64, "some glue left out: "+what)
			require.Zero(t, len(glue)%4, "whole record sets: "+what)
			require.IsType(t, &dns.A{}, glue[0], "A records first: "+what)
			// Over TCP all of it.
			m = unpack(t, s.answerPacket(snap, pack(t, q), out, netip.Addr{}, true))
			require.Len(t, m.Extra, 64+min(int(edns), 1), what)
		}
	}
	// The snapshot's glue is untouched by truncation.
	require.Len(t, Lookup(snap, "deleg.inf.nz.", dns.TypeNS).Extra, 64)

	q := new(dns.Msg).SetQuestion("huge.inf.nz.", dns.TypeA)
	m := unpack(t, s.answerPacket(snap, pack(t, q), out, netip.Addr{}, false))
	require.True(t, m.Truncated, "a referral that does not fit")
}
