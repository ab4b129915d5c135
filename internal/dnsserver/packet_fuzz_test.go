package dnsserver

// go test ./internal/dnsserver -run '^$' -fuzz '^FuzzPacketHandler$' -fuzztime 60s -parallel 1

import (
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
)

// fuzzZones are the test zones plus a domain whose answers outgrow 512 and
// 1232 bytes, so that truncation is exercised.
func fuzzZones() string {
	var b strings.Builder
	b.WriteString(testZones)
	b.WriteString("$ORIGIN inf.nz.\n")
	for i := range 60 {
		fmt.Fprintf(&b, "big 300 IN A 192.0.2.%d\n", i+1)
		fmt.Fprintf(&b, "big 300 IN AAAA 2001:db8::%x\n", i+1)
	}
	for i := range 12 {
		fmt.Fprintf(&b, "big 300 IN TXT \"%02d %s\"\n", i, strings.Repeat("x", 200))
	}
	b.WriteString("ns.big 300 IN NS ns1.ns.big.inf.nz.\n")
	for i := range 40 {
		fmt.Fprintf(&b, "ns1.ns.big 300 IN A 198.51.100.%d\n", i+1)
	}
	return b.String()
}

// fuzzServers are servers over the fuzz zones with the default, the least
// and the most UDP size, and one that signs, each with its own snapshot
// (and so its own cache).
func fuzzServers(f *testing.F) ([]*Server, []*Snapshot) {
	f.Helper()
	var servers []*Server
	var snaps []*Snapshot
	// The first knows a TSIG key and allows transfers signed with it, so
	// that signed requests reach the signature checks.
	for _, opts := range [][]Option{{WithTSIGKeys(xfrKey), WithTransferKeys(xfrKey.Name)}, {WithMaxUDPSize(512)}, {WithMaxUDPSize(4096)}} {
		snap, err := buildFromText(fuzzZones())
		require.NoError(f, err)
		s := testServer(f, snap)
		for _, o := range opts {
			o(&s.opts)
		}
		servers, snaps = append(servers, s), append(snaps, snap)
	}
	// The last signs (DNSSEC): queries with the DO bit take the caches of
	// signed answers.
	snap, err := buildFromText(fuzzZones())
	require.NoError(f, err)
	source, _ := staticKeys(f, dnssec.ECDSAP256SHA256)
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	s.Publish(snap)
	servers, snaps = append(servers, s), append(snaps, snap)
	return servers, snaps
}

func fuzzQuery(name string, qtype uint16, edns int, mutate func(*dns.Msg)) []byte {
	m := new(dns.Msg).SetQuestion(name, qtype)
	m.Id = 0xbeef
	if edns > 0 {
		m.SetEdns0(uint16(edns), edns%2 == 1)
	}
	if mutate != nil {
		mutate(m)
	}
	b, err := m.Pack()
	if err != nil {
		panic(err)
	}
	return b
}

// withOPTBytes returns pkt, a query without additional records, with opt
// (an OPT record as bytes, so that it can be malformed) as its additional
// section.
func withOPTBytes(pkt []byte, opt ...byte) []byte {
	pkt[11] = 1 // ARCOUNT
	return append(pkt, opt...)
}

// FuzzPacketHandler feeds raw bytes to the packet handler (answerPacket, the
// function both UDP and TCP queries go through) and checks:
//   - it never panics;
//   - it does not answer packets shorter than a header, or responses;
//     everything else gets an answer (RFC 8906);
//   - the answer is a DNS message miekg/dns reads, with QR set, the
//     query's ID, and the query's first question when the query can be read;
//   - over UDP it is at most the client's advertised size (512 bytes
//     without EDNS, never more than the server's maximum), over TCP at most
//     64 KB; it has an OPT record only when the query had one;
//   - a plain query answered from the packet cache gets what the slow path
//     (unpack, Lookup, pack) answers.
//
// FuzzAnswerPacket (packet_test.go) checks the basics on the plain test
// zones; this one adds answers larger than 512 and 1232 bytes, other UDP
// maximums, the question echo and the OPT rule, and queries that do not
// unpack.
func FuzzPacketHandler(f *testing.F) {
	setDO := func(m *dns.Msg) { m.IsEdns0().SetDo() }
	seeds := [][]byte{
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("ExAmPle.INF.nz.", dns.TypeAAAA, 1232, nil),
		fuzzQuery("www.example.inf.nz.", dns.TypeA, 4096, setDO),
		fuzzQuery("api.dev.example.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("loop1.example.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("host.deleg.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("deleg.inf.nz.", dns.TypeDS, 0, nil),
		fuzzQuery("nope.inf.nz.", dns.TypeMX, 0, nil),
		fuzzQuery("inf.nz.", dns.TypeSOA, 0, nil),
		fuzzQuery("inf.nz.", dns.TypeANY, 0, nil),
		fuzzQuery("shop.biz.ee.", dns.TypeA, 0, nil),
		fuzzQuery("example.com.", dns.TypeA, 1232, nil),
		fuzzQuery("big.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("big.inf.nz.", dns.TypeAAAA, 1232, nil),
		fuzzQuery("BIG.inf.nz.", dns.TypeTXT, 4096, nil),
		fuzzQuery("big.inf.nz.", dns.TypeTXT, 600, nil),
		fuzzQuery("big.inf.nz.", dns.TypeTXT, 100, nil),
		fuzzQuery("x.ns.big.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("inf.nz.", dns.TypeAXFR, 0, nil),
		fuzzQuery("inf.nz.", dns.TypeIXFR, 0, nil),
		fuzzQuery("example.inf.nz.", dns.TypeA, 1232, func(m *dns.Msg) { m.IsEdns0().SetVersion(1) }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 1232, func(m *dns.Msg) {
			m.IsEdns0().Option = append(m.IsEdns0().Option, &dns.EDNS0_COOKIE{Code: dns.EDNS0COOKIE, Cookie: "0123456789abcdef"})
		}),
		fuzzQuery("example.inf.nz.", dns.TypeA, 1232, func(m *dns.Msg) { m.Extra = append(m.Extra, m.Extra[0]) }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, func(m *dns.Msg) { m.Opcode = dns.OpcodeNotify }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, func(m *dns.Msg) { m.Question[0].Qclass = dns.ClassCHAOS }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, func(m *dns.Msg) { m.Question = append(m.Question, m.Question[0]) }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, func(m *dns.Msg) { m.Question = nil }),
		fuzzQuery("example.inf.nz.", dns.TypeA, 0, func(m *dns.Msg) {
			m.Answer = []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "x.", Rrtype: dns.TypeA, Class: dns.ClassINET}}}
		}),
		fuzzQuery("example.inf.nz.", dns.TypeMX, 0, nil),
		fuzzQuery("_sip._tcp.example.inf.nz.", dns.TypeSRV, 1232, nil),
		fuzzQuery("www.sib.inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("inf.nz.", dns.TypeIXFR, 0, func(m *dns.Msg) {
			m.Ns = []dns.RR{&dns.SOA{Hdr: dns.RR_Header{Name: "inf.nz.", Rrtype: dns.TypeSOA, Class: dns.ClassINET}, Ns: "a.", Mbox: "b."}}
		}),
		// An OPT record whose option runs past its end, and one owned by
		// "x." rather than the root.
		withOPTBytes(fuzzQuery("example.inf.nz.", dns.TypeA, 0, nil), 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 4, 0, 10, 0, 8),
		withOPTBytes(fuzzQuery("example.inf.nz.", dns.TypeA, 0, nil), 1, 'x', 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0),
		fuzzQuery(`a\.b.example.inf.nz.`, dns.TypeA, 0, nil),
		fuzzQuery(`\000\255.example.inf.nz.`, dns.TypeA, 0, nil),
		fuzzQuery(strings.Repeat("a.", 120)+"inf.nz.", dns.TypeA, 0, nil),
		fuzzQuery("*.example.inf.nz.", dns.TypeTXT, 0, nil),
		fuzzQuery(".", dns.TypeNS, 0, nil),
		signedFuzzQuery(dns.TypeIXFR, 0),
		signedFuzzQuery(dns.TypeAXFR, 0),
		signedFuzzQuery(dns.TypeIXFR, 10), // the TSIG record cut short
		signedFuzzQuery(dns.TypeA, 0),
		{0xbe, 0xef, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1}, // a pointer to itself
		{0xbe, 0xef, 0x81, 0x00, 0, 1, 0, 0, 0, 0, 0, 0},                         // a response
		{0xbe, 0xef, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0},                         // a bare header
		{0xbe, 0xef, 0x01},
		{},
	}
	for i, seed := range seeds {
		f.Add(seed, i%3 == 2, uint8(i))
	}

	servers, snaps := fuzzServers(f)
	f.Fuzz(func(t *testing.T, pkt []byte, tcp bool, which uint8) {
		s, snap := servers[int(which)%len(servers)], snaps[int(which)%len(snaps)]
		checkAnswer(t, s, snap, pkt, tcp)
	})
}

// FuzzPacketHandlerQuestions is FuzzPacketHandler on well-formed queries
// built from a question, flags and EDNS settings, so that the fuzzer spends
// its time on names and types (case, escapes, wildcards, CNAME chains,
// delegations, truncation) rather than on packets that do not unpack.
func FuzzPacketHandlerQuestions(f *testing.F) {
	for i, name := range []string{"example.inf.nz.", "ExAmPle.INF.nz.", "www.example.inf.nz.", "x.y.example.inf.nz.",
		"api.dev.example.inf.nz.", "chain1.example.inf.nz.", "loop1.example.inf.nz.", "tocut.example.inf.nz.",
		"cross.example.inf.nz.", "host.deleg.inf.nz.", "deleg.inf.nz.", "sub.example.inf.nz.", "big.inf.nz.",
		"BIG.INF.NZ.", "x.ns.big.inf.nz.", "empty.inf.nz.", "www.empty.inf.nz.", "inf.nz.", "biz.ee.", "nz.", ".",
		`a\.b.example.inf.nz.`, `\065.example.inf.nz.`, `\000.inf.nz.`, "*.example.inf.nz.", "*.inf.nz."} {
		for j, qtype := range []uint16{dns.TypeA, dns.TypeAAAA, dns.TypeTXT, dns.TypeANY, dns.TypeNS, dns.TypeDS} {
			k := i*7 + j
			f.Add(name, qtype, uint16(dns.ClassINET), uint16([]int{0, 512, 1232, 4096, 100, 65535}[k%6]), uint8(k), k%5 == 0, uint8(k))
		}
	}
	f.Add("inf.nz.", dns.TypeAXFR, uint16(dns.ClassINET), uint16(0), uint8(0), true, uint8(0))
	f.Add("example.inf.nz.", dns.TypeA, uint16(dns.ClassANY), uint16(1232), uint8(0), false, uint8(0))
	f.Add("example.inf.nz.", dns.TypeA, uint16(dns.ClassCHAOS), uint16(0), uint8(0), false, uint8(1))

	servers, snaps := fuzzServers(f)
	f.Fuzz(func(t *testing.T, name string, qtype, qclass, udpSize uint16, flags uint8, tcp bool, which uint8) {
		m := new(dns.Msg)
		m.Id = uint16(flags)<<8 | uint16(which)
		m.Question = []dns.Question{{Name: name, Qtype: qtype, Qclass: qclass}}
		m.RecursionDesired = flags&1 != 0
		m.CheckingDisabled = flags&2 != 0
		m.AuthenticatedData = flags&4 != 0
		if flags&8 != 0 {
			m.Opcode = int(flags>>4) & 0xf
		}
		if udpSize != 0 {
			m.SetEdns0(udpSize, flags&16 != 0)
		}
		pkt, err := m.Pack()
		if err != nil {
			return // not a name miekg/dns can write
		}
		s, snap := servers[int(which)%len(servers)], snaps[int(which)%len(snaps)]
		checkAnswer(t, s, snap, pkt, tcp)
	})
}

// checkAnswer answers pkt and checks the properties FuzzPacketHandler lists.
func checkAnswer(t *testing.T, s *Server, snap *Snapshot, pkt []byte, tcp bool) {
	t.Helper()
	out := make([]byte, 0, dns.MaxMsgSize)
	resp := s.answerPacket(snap, pkt, out, netip.Addr{}, tcp)
	if len(pkt) < 12 || pkt[2]&0x80 != 0 {
		require.Nil(t, resp, "no answer to a response or a runt")
		return
	}
	require.NotNil(t, resp, "every query gets an answer")

	var m dns.Msg
	require.NoError(t, m.Unpack(resp), "the answer is a DNS message")
	require.True(t, m.Response, "QR")
	require.Equal(t, uint16(pkt[0])<<8|uint16(pkt[1]), m.Id, "ID")

	// What the client asked, as miekg/dns or, failing that, the fast
	// path reads it.
	var req dns.Msg
	readable := req.Unpack(pkt) == nil
	var keyBuf [260]byte
	var plain plainQuery
	isPlain := parsePlain(pkt, &keyBuf, &plain)
	edns, udpSize := false, uint16(0)
	switch {
	case readable && req.IsEdns0() != nil:
		edns, udpSize = true, req.IsEdns0().UDPSize()
	case !readable && isPlain:
		edns, udpSize = plain.edns, plain.udpSize
	}

	if readable && len(req.Question) > 0 {
		require.Len(t, m.Question, 1, "the question is echoed")
		require.Equal(t, req.Question[0], m.Question[0], "the question is echoed")
	}
	if m.IsEdns0() != nil {
		require.True(t, edns, "OPT only in answer to OPT")
	}
	limit := dns.MaxMsgSize
	if !tcp {
		limit = dns.MinMsgSize
		if edns {
			limit = int(max(dns.MinMsgSize, min(udpSize, s.opts.maxUDP)))
		}
	}
	require.LessOrEqual(t, len(resp), limit, "size (tcp %v, edns %v, advertised %d)", tcp, edns, udpSize)

	if isPlain && readable {
		slow := s.answerSlow(snap, pkt, make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, tcp)
		var sm dns.Msg
		require.NoError(t, sm.Unpack(slow))
		require.Equal(t, sm.String(), m.String(), "the fast path answers what the slow path answers")
	}
}

// signedFuzzQuery is a query for inf.nz signed with xfrKey (an IXFR with
// the client's SOA), less its last cut bytes.
func signedFuzzQuery(qtype uint16, cut int) []byte {
	m := new(dns.Msg).SetQuestion("inf.nz.", qtype)
	if qtype == dns.TypeIXFR {
		m.SetIxfr("inf.nz.", 1, "a.", "b.")
	}
	m.SetTsig(xfrKey.Name, xfrKey.Algorithm, 300, time.Now().Unix())
	pkt, _, err := dns.TsigGenerateWithProvider(m, tsigKeyring{xfrKey.Name: xfrKey}, "", false)
	if err != nil {
		panic(err)
	}
	return pkt[:len(pkt)-cut]
}
