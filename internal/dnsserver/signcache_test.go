package dnsserver

import (
	"io"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/zone"
)

// With the DO bit, the fast path (a cached signed answer, patched) answers
// exactly what the slow path (unpack, Lookup, sign, pack) answers, for
// names in any case: the signatures come from the same signature cache.
func TestSignedPackedAnswersMatchTheSlowPath(t *testing.T) {
	t.Parallel()
	s, keys := signingServer(t, dnssec.ECDSAP256SHA256)
	snap := s.Snapshot()
	names := []string{"example.inf.nz.", "ExAmPle.inf.NZ.", "www.example.inf.nz.", "WWW.EXAMPLE.INF.NZ.", "nope.inf.nz.",
		"NoPe.inf.nz.", "Foo.Example.inf.nz.", "api.dev.example.inf.nz.", "host.deleg.inf.nz.", "inf.nz.", "b.example.inf.nz.",
		"chain1.example.inf.nz.", "Dangling.example.inf.nz.", "example.com.", "shop.BIZ.ee.", "biz.ee."}
	types := []uint16{dns.TypeA, dns.TypeAAAA, dns.TypeMX, dns.TypeTXT, dns.TypeNS, dns.TypeSOA, dns.TypeANY,
		dns.TypeCNAME, dns.TypeDS, dns.TypeDNSKEY, dns.TypeSRV}
	for _, name := range names {
		for _, qtype := range types {
			for round := range 2 { // the first fills the cache, the second hits it
				for _, size := range []uint16{4096, 1232, 512} {
					q := new(dns.Msg).SetQuestion(name, qtype)
					q.Id = uint16(1000 + round)
					q.RecursionDesired = round == 0
					q.CheckingDisabled = round == 1
					q.SetEdns0(size, true)
					what := name + " " + dns.TypeToString[qtype]
					fast := s.answerPacket(snap, pack(t, q), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false)
					slow := s.answerSlow(snap, pack(t, q), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false)
					// The same records, signatures included (compression may
					// differ: the cached answer's names cannot point into a
					// question in lower case, as with plain answers).
					m := unpack(t, fast)
					require.Equal(t, unpack(t, slow).String(), m.String(), what)
					require.Equal(t, name, m.Question[0].Name, what)
					require.True(t, m.IsEdns0().Do(), what)
					if m.Rcode == dns.RcodeSuccess && !m.Truncated {
						requireSigned(t, keys, m.Answer, what)
					}
				}
			}
		}
	}
}

// signedKey is the packet cache key of a query for (name, qtype).
func signedKey(t *testing.T, name string, qtype uint16) []byte {
	t.Helper()
	var keyBuf [260]byte
	var q plainQuery
	require.True(t, parsePlain(pack(t, new(dns.Msg).SetQuestion(name, qtype)), &keyBuf, &q))
	return keyBuf[:q.keyLen]
}

// Signed answers are cached as packets beside the plain ones: served again
// the same without signing; emptied when a change touches their domain
// (the new answer carries the new data, signed), kept when it does not;
// not served once their oldest signature is due to be made anew, nor when
// the zone has another key.
func TestSignedAnswersAreCached(t *testing.T) {
	t.Parallel()
	prio := 10
	data := &zone.SnapshotData{Serial: 1, Zones: []zone.ZoneData{{Origin: "inf.nz.", Nameservers: []string{"ns1.nameport.net."}}}}
	for _, name := range []string{"one", "two"} {
		data.Zones[0].Domains = append(data.Zones[0].Domains, zone.DomainData{Name: name, Records: []zone.Record{
			{Name: "@", Type: zone.TypeA, Content: "192.0.2.1", TTL: 300},
			{Name: "@", Type: zone.TypeMX, Content: "mail.example.com", TTL: 300, Priority: &prio},
		}})
	}
	snap, skipped := NewSnapshot(data)
	require.Empty(t, skipped)
	source, keys := staticKeys(t, dnssec.ECDSAP256SHA256) // signatures with a random part: a new one differs
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	s.Publish(snap)
	ask := func(s *Server, name string, qtype uint16) []byte {
		q := new(dns.Msg).SetQuestion(name, qtype)
		q.Id = 4242
		q.SetEdns0(1232, true)
		return s.answerPacket(s.Snapshot(), pack(t, q), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false)
	}
	forgetSignatures := func(s *Server) {
		s.sigs.mu.Lock()
		s.sigs.m = nil
		s.sigs.mu.Unlock()
	}

	one := ask(s, "one.inf.nz.", dns.TypeA)
	two := ask(s, "Two.inf.nz.", dns.TypeA)
	nx := ask(s, "nope.inf.nz.", dns.TypeA)
	requireSigned(t, keys, unpack(t, one).Answer, "one")
	require.NotNil(t, snap.signedDurable.get(signedKey(t, "one.inf.nz.", dns.TypeA)).packed, "a positive answer outlives changes")
	require.Nil(t, snap.signedDurable.get(signedKey(t, "nope.inf.nz.", dns.TypeA)).packed, "the SOA's signature covers the serial")
	require.NotNil(t, snap.signed.get(signedKey(t, "nope.inf.nz.", dns.TypeA)).packed)
	forgetSignatures(s) // what is served now is the cached packet, or signed anew (and so other bytes)
	require.Equal(t, one, ask(s, "one.inf.nz.", dns.TypeA))
	require.Equal(t, two, ask(s, "Two.inf.nz.", dns.TypeA))
	require.Equal(t, nx, ask(s, "nope.inf.nz.", dns.TypeA))
	require.NotEqual(t, one, s.answerSlow(s.Snapshot(), pack(t, func() *dns.Msg {
		q := new(dns.Msg).SetQuestion("one.inf.nz.", dns.TypeA)
		q.Id = 4242
		q.SetEdns0(1232, true)
		return q
	}()), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false), "signed anew: another signature")

	// A change to one: its answer is made again, with the new address,
	// signed; two's is still the cached one; the negative answer has the
	// new serial, signed.
	next, skipped := snap.apply(&zone.Changes{Serial: 2, Domains: []zone.ChangedDomain{{Origin: "inf.nz.", Name: "one",
		Records: []zone.Record{{Name: "@", Type: zone.TypeA, Content: "192.0.2.200", TTL: 300}}}}}, 10)
	require.Empty(t, skipped)
	s.Publish(next)
	forgetSignatures(s)
	m := unpack(t, ask(s, "one.inf.nz.", dns.TypeA))
	require.Len(t, m.Answer, 2, m.String())
	require.Equal(t, "192.0.2.200", m.Answer[0].(*dns.A).A.String())
	requireSigned(t, keys, m.Answer, "one, changed")
	require.Equal(t, two, ask(s, "Two.inf.nz.", dns.TypeA))
	m = unpack(t, ask(s, "nope.inf.nz.", dns.TypeA))
	require.Equal(t, uint32(2), m.Ns[0].(*dns.SOA).Serial, m.String())
	requireSigned(t, keys, m.Ns, "nxdomain after the change")

	// The cached packet is stale when its oldest signature is due to be
	// signed anew, and not before.
	key := signedKey(t, "two.inf.nz.", dns.TypeA)
	e := next.signedDurable.get(key)
	require.NotNil(t, e.packed)
	now := time.Now().Unix()
	require.Greater(t, e.staleAt, now)
	require.LessOrEqual(t, e.staleAt, now+int64(sigRefresh/time.Second)+1)
	require.NotNil(t, next.cachedSigned(key, e.staleAt-1))
	require.Nil(t, next.cachedSigned(key, e.staleAt))
	set := []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "two.inf.nz.", Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 300},
		A: netip.MustParseAddr("192.0.2.1").AsSlice()}}
	var sigs sigCache
	// Signed when the packet's oldest signature was (expiring as it does).
	first := sigs.signature(keys["inf.nz."], set, time.Unix(e.staleAt-1, 0).Add(-sigRefresh))
	require.Equal(t, e.staleAt, int64(first.Expiration)-int64((sigValidity-sigRefresh)/time.Second)+1)
	require.Equal(t, first.Signature, sigs.signature(keys["inf.nz."], set, time.Unix(e.staleAt-1, 0)).Signature)
	require.NotEqual(t, first.Signature, sigs.signature(keys["inf.nz."], set, time.Unix(e.staleAt, 0)).Signature,
		"stale exactly when the signature cache signs again")

	// Another key (a rollover: the server's key for the zone replaced,
	// the next snapshot published): the durable entries signed with the
	// old one are not served.
	k2, err := dnssec.Generate("inf.nz.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	s.keysMu.Lock()
	s.zoneKeys["inf.nz."] = dnssec.CSK(k2)
	s.keysMu.Unlock()
	later, _ := next.apply(&zone.Changes{Serial: 3}, 10)
	s.Publish(later)
	require.Same(t, next.signedDurable, later.signedDurable)
	require.NotNil(t, later.signedDurable.get(key).packed)
	require.Nil(t, later.cachedSigned(key, now))
	m = unpack(t, ask(s, "two.inf.nz.", dns.TypeA))
	requireSigned(t, map[string]*dnssec.Key{"inf.nz.": k2}, m.Answer, "two, another key")
}
