package dnsserver

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
)

// staticKeys is a key source that makes a key per zone once, as
// dnssec.Store does from the database.
func staticKeys(t testing.TB, algorithm uint8) (KeySource, map[string]*dnssec.Key) {
	t.Helper()
	keys := map[string]*dnssec.Key{}
	return func(_ context.Context, zones []string) ([]*dnssec.ZoneKeys, error) {
		var out []*dnssec.ZoneKeys
		for _, z := range zones {
			if keys[z] == nil {
				k, err := dnssec.Generate(z, algorithm)
				if err != nil {
					return nil, err
				}
				keys[z] = k
			}
			out = append(out, dnssec.CSK(keys[z]))
		}
		return out, nil
	}, keys
}

func signingServer(t testing.TB, algorithm uint8) (*Server, map[string]*dnssec.Key) {
	t.Helper()
	source, keys := staticKeys(t, algorithm)
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	s.Publish(testSnapshot(t))
	return s, keys
}

func askDO(t testing.TB, s *Server, name string, qtype uint16, do bool) *dns.Msg {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	q.SetEdns0(4096, do)
	return unpack(t, s.answerPacket(s.Snapshot(), pack(t, q), make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, true))
}

// requireSigned requires that every record set of rrs but delegation NS
// sets is followed by a signature its zone's key verifies, valid now.
func requireSigned(t *testing.T, keys map[string]*dnssec.Key, rrs []dns.RR, what string) {
	t.Helper()
	sets := map[string][]dns.RR{}
	var order []string
	for _, rr := range rrs {
		if rr.Header().Rrtype == dns.TypeRRSIG {
			continue
		}
		k := dns.CanonicalName(rr.Header().Name) + "/" + dns.TypeToString[rr.Header().Rrtype]
		if sets[k] == nil {
			order = append(order, k)
		}
		sets[k] = append(sets[k], rr)
	}
	for _, k := range order {
		set := sets[k]
		var sig *dns.RRSIG
		for _, rr := range rrs {
			if s, ok := rr.(*dns.RRSIG); ok && s.TypeCovered == set[0].Header().Rrtype &&
				dns.CanonicalName(s.Hdr.Name) == dns.CanonicalName(set[0].Header().Name) {
				sig = s
			}
		}
		require.NotNil(t, sig, "%s: no signature of %s", what, k)
		key := keys[sig.SignerName]
		require.NotNil(t, key, "%s: signer %s", what, sig.SignerName)
		require.NoError(t, sig.Verify(key.DNSKEY, set), "%s: %s", what, k)
		require.True(t, sig.ValidityPeriod(time.Now()), "%s: %s", what, k)
	}
}

func nsecOf(rrs []dns.RR) *dns.NSEC {
	for _, rr := range rrs {
		if n, ok := rr.(*dns.NSEC); ok {
			return n
		}
	}
	return nil
}

// With the DO bit, answers carry signatures that verify; the denial of
// existence is compact (RFC 9824). Without it, answers are those of an
// unsigned server, but for the DNSKEY set at the apex.
func TestSignedAnswers(t *testing.T) {
	t.Parallel()
	for _, alg := range []uint8{dnssec.ECDSAP256SHA256, dnssec.ED25519} {
		t.Run(dns.AlgorithmToString[alg], func(t *testing.T) {
			t.Parallel()
			s, keys := signingServer(t, alg)
			plain := testServer(t, testSnapshot(t))

			m := askDO(t, s, "inf.nz.", dns.TypeDNSKEY, true)
			require.Len(t, m.Answer, 2, m.String())
			requireSigned(t, keys, m.Answer, "DNSKEY")
			require.True(t, m.IsEdns0().Do())
			require.Equal(t, keys["inf.nz."].DNSKEY.String(), m.Answer[0].String())

			for _, q := range []struct {
				name  string
				qtype uint16
			}{{"example.inf.nz.", dns.TypeA}, {"ExAmple.INF.nz.", dns.TypeMX}, {"Foo.example.inf.nz.", dns.TypeA},
				{"chain1.example.inf.nz.", dns.TypeA}, {"cross.example.inf.nz.", dns.TypeMX}, {"api.dev.example.inf.nz.", dns.TypeA},
				{"inf.nz.", dns.TypeSOA}, {"inf.nz.", dns.TypeNS}, {"biz.ee.", dns.TypeNS}, {"biz.ee.", dns.TypeANY}, {"ttl.inf.nz.", dns.TypeA}} {
				what := q.name + " " + dns.TypeToString[q.qtype]
				m := askDO(t, s, q.name, q.qtype, true)
				require.Equal(t, dns.RcodeSuccess, m.Rcode, what)
				require.NotEmpty(t, m.Answer, what)
				requireSigned(t, keys, m.Answer, what)
				// Without DO: exactly the unsigned server's answer, byte for byte.
				req := new(dns.Msg).SetQuestion(q.name, q.qtype)
				req.SetEdns0(4096, false)
				pkt := pack(t, req)
				out := make([]byte, 0, dns.MaxMsgSize)
				require.Equal(t, plain.answerPacket(plain.Snapshot(), pkt, out, netip.Addr{}, false),
					s.answerPacket(s.Snapshot(), pkt, make([]byte, 0, dns.MaxMsgSize), netip.Addr{}, false), what)
			}

			// The apex's NS set keeps its addresses beside the DNSKEY set.
			require.Len(t, withoutOPT(askDO(t, s, "biz.ee.", dns.TypeNS, false).Extra), 1)
			requireSigned(t, keys, withoutOPT(askDO(t, s, "biz.ee.", dns.TypeNS, true).Extra), "NS additional")

			// The addresses of an MX answer's targets are signed; glue is not.
			m = askDO(t, s, "example.inf.nz.", dns.TypeMX, true)
			extra := withoutOPT(m.Extra)
			require.NotEmpty(t, extra)
			requireSigned(t, keys, extra, "MX additional")
			m = askDO(t, s, "host.deleg.inf.nz.", dns.TypeA, true)
			require.NotEmpty(t, withoutOPT(m.Extra))
			require.False(t, slices.ContainsFunc(m.Extra, func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeRRSIG }), m.String())
			require.Equal(t, dns.TypeOPT, m.Extra[len(m.Extra)-1].Header().Rrtype)

			// NXDOMAIN becomes NODATA with an NSEC at the name: NXNAME.
			m = askDO(t, s, "Nope.inf.nz.", dns.TypeA, true)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			require.Empty(t, m.Answer)
			requireSigned(t, keys, m.Ns, "nxdomain")
			n := nsecOf(m.Ns)
			require.NotNil(t, n, m.String())
			require.Equal(t, "Nope.inf.nz.", n.Hdr.Name)
			require.Equal(t, `\000.nope.inf.nz.`, n.NextDomain, "the next name in lower case: see denial")
			require.Equal(t, []uint16{dns.TypeRRSIG, dns.TypeNSEC, dns.TypeNXNAME}, n.TypeBitMap)
			require.Equal(t, uint32(300), n.Hdr.Ttl)
			// Without DO, still NXDOMAIN.
			require.Equal(t, dns.RcodeNameError, askDO(t, s, "nope.inf.nz.", dns.TypeA, false).Rcode)

			// The longest names: the next name may not grow.
			long := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." +
				strings.Repeat("d", 53) + ".inf.nz."
			m = askDO(t, s, long, dns.TypeA, true)
			require.Equal(t, dns.RcodeSuccess, m.Rcode, m.String())
			requireSigned(t, keys, m.Ns, "long nxdomain")
			n = nsecOf(m.Ns)
			require.Equal(t, long, n.Hdr.Name)
			require.Equal(t, strings.Repeat("a", 62)+"b"+long[63:], n.NextDomain)

			// A CNAME to a name that does not exist: the NSEC is the target's.
			m = askDO(t, s, "dangling.example.inf.nz.", dns.TypeA, true)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			requireSigned(t, keys, m.Answer, "dangling")
			requireSigned(t, keys, m.Ns, "dangling")
			require.Equal(t, "nothere.inf.nz.", nsecOf(m.Ns).Hdr.Name)

			// NODATA: the types that exist.
			m = askDO(t, s, "example.inf.nz.", dns.TypeSRV, true)
			requireSigned(t, keys, m.Ns, "nodata")
			require.Equal(t, []uint16{dns.TypeA, dns.TypeMX, dns.TypeTXT, dns.TypeAAAA, dns.TypeRRSIG, dns.TypeNSEC},
				nsecOf(m.Ns).TypeBitMap)
			m = askDO(t, s, "inf.nz.", dns.TypeA, true)
			require.Equal(t, []uint16{dns.TypeNS, dns.TypeSOA, dns.TypeRRSIG, dns.TypeNSEC, dns.TypeDNSKEY}, nsecOf(m.Ns).TypeBitMap)
			// An empty non-terminal; a wildcard without the type.
			m = askDO(t, s, "b.example.inf.nz.", dns.TypeA, true)
			require.Equal(t, []uint16{dns.TypeRRSIG, dns.TypeNSEC}, nsecOf(m.Ns).TypeBitMap)
			m = askDO(t, s, "foo.example.inf.nz.", dns.TypeMX, true)
			require.Equal(t, []uint16{dns.TypeA, dns.TypeTXT, dns.TypeRRSIG, dns.TypeNSEC}, nsecOf(m.Ns).TypeBitMap)

			// A referral: the NS set unsigned, the NSEC proving no DS.
			for _, q := range []struct {
				name  string
				qtype uint16
			}{{"host.deleg.inf.nz.", dns.TypeA}, {"deleg.inf.nz.", dns.TypeDS}, {"tocut.example.inf.nz.", dns.TypeA}} {
				m = askDO(t, s, q.name, q.qtype, true)
				requireSigned(t, keys, m.Answer, q.name)
				var sigs []string
				for _, rr := range m.Ns {
					if sig, ok := rr.(*dns.RRSIG); ok {
						sigs = append(sigs, dns.TypeToString[sig.TypeCovered])
					}
				}
				require.NotContains(t, sigs, "NS", q.name)
				n := nsecOf(m.Ns)
				require.NotNil(t, n, m.String())
				require.Equal(t, "deleg.inf.nz.", n.Hdr.Name)
				require.Equal(t, []uint16{dns.TypeNS, dns.TypeRRSIG, dns.TypeNSEC}, n.TypeBitMap)
				nsec := slices.DeleteFunc(slices.Clone(m.Ns), func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeNS })
				requireSigned(t, keys, nsec, q.name)
			}

			// Signatures are cached: the same bytes again.
			a := askDO(t, s, "example.inf.nz.", dns.TypeA, true)
			b := askDO(t, s, "example.inf.nz.", dns.TypeA, true)
			require.Equal(t, a.Answer, b.Answer)
		})
	}
}

// Transfers carry the zone unsigned, without the DNSKEY set; plain
// queries get the DNSKEY set.
func TestDNSKEYNotTransferred(t *testing.T) {
	t.Parallel()
	s, _ := signingServer(t, dnssec.ECDSAP256SHA256)
	for _, rr := range ZoneRecords(s.Snapshot(), "inf.nz.") {
		require.NotEqual(t, dns.TypeDNSKEY, rr.Header().Rrtype)
	}
	require.Len(t, askDO(t, s, "inf.nz.", dns.TypeDNSKEY, false).Answer, 1)
}

func withoutOPT(rrs []dns.RR) []dns.RR {
	return slices.DeleteFunc(slices.Clone(rrs), func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeOPT })
}

// A signature is made once per record set and reused, for the name in any
// case; made anew once sigRefresh old, and for a set whose content changed.
func TestSignatureCache(t *testing.T) {
	t.Parallel()
	k, err := dnssec.Generate("inf.nz.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	rr := func(s string) dns.RR {
		r, err := dns.NewRR(s)
		require.NoError(t, err)
		return r
	}
	var c sigCache
	now := time.Now()
	first := c.signature(k, []dns.RR{rr("a.inf.nz. 300 IN A 192.0.2.1")}, now)
	require.NotNil(t, first)
	same := c.signature(k, []dns.RR{rr("A.Inf.NZ. 300 IN A 192.0.2.1")}, now.Add(sigRefresh/2))
	require.Equal(t, first.Signature, same.Signature)
	require.Equal(t, "A.Inf.NZ.", same.Hdr.Name)
	require.Equal(t, "a.inf.nz.", first.Hdr.Name, "the cached signature is not modified")
	require.NotEqual(t, first.Signature, c.signature(k, []dns.RR{rr("a.inf.nz. 300 IN A 192.0.2.2")}, now).Signature)
	require.NotEqual(t, first.Signature, c.signature(k, []dns.RR{rr("a.inf.nz. 600 IN A 192.0.2.1")}, now).Signature)
	// TXT data differing in case only is other data.
	txt := c.signature(k, []dns.RR{rr(`a.inf.nz. 300 IN TXT "A"`)}, now)
	require.NotEqual(t, txt.Signature, c.signature(k, []dns.RR{rr(`a.inf.nz. 300 IN TXT "a"`)}, now).Signature)
	later := now.Add(sigRefresh + time.Minute)
	renewed := c.signature(k, []dns.RR{rr("a.inf.nz. 300 IN A 192.0.2.1")}, later)
	require.NotEqual(t, first.Signature, renewed.Signature)
	require.Equal(t, uint32(later.Add(sigValidity).Unix()), renewed.Expiration)
	require.Equal(t, uint32(later.Add(-sigInception).Unix()), renewed.Inception)
	require.NoError(t, renewed.Verify(k.DNSKEY, []dns.RR{rr("a.inf.nz. 300 IN A 192.0.2.1")}))
}

// WithSignatureTimes: signatures valid for the validity given, made anew
// once the refresh old.
func TestSignatureTimes(t *testing.T) {
	t.Parallel()
	k, err := dnssec.Generate("inf.nz.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	set := []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "a.inf.nz.", Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 300}, A: []byte{192, 0, 2, 1}}}
	c := sigCache{validity: 48 * time.Hour, refresh: 12 * time.Hour}
	now := time.Now()
	first := c.signature(k, set, now)
	require.Equal(t, uint32(now.Add(48*time.Hour).Unix()), first.Expiration)
	require.Equal(t, first.Signature, c.signature(k, set, now.Add(11*time.Hour)).Signature)
	require.NotEqual(t, first.Signature, c.signature(k, set, now.Add(13*time.Hour)).Signature)
}

// The cost of an answer with the DO bit (from the cache of signed
// answers) next to a plain one (the packet cache).
func BenchmarkSignedAnswer(b *testing.B) {
	s, _ := signingServer(b, dnssec.ECDSAP256SHA256)
	for _, q := range []struct {
		about string
		name  string
		do    bool
	}{
		{"plain", "example.inf.nz.", false},
		{"DO", "example.inf.nz.", true},
		{"DO, mixed case", "ExAmple.INF.nz.", true},
		{"DO, nxdomain", "nope.inf.nz.", true},
	} {
		b.Run(q.about, func(b *testing.B) {
			m := new(dns.Msg).SetQuestion(q.name, dns.TypeA)
			m.SetEdns0(1232, q.do)
			pkt := pack(b, m)
			out := make([]byte, 0, dns.MaxMsgSize)
			snap := s.Snapshot()
			b.ReportAllocs()
			for b.Loop() {
				out = s.answerPacket(snap, pkt, out, netip.Addr{}, false)
			}
		})
	}
}
