package dnsserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
)

// dsZones has a delegation with a DS set (secure) and one without (plain).
func dsZones(child *dnssec.Key) string {
	ds := child.DS()
	return `
$ORIGIN inf.nz.
@        3600 IN SOA ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300
@        3600 IN NS  ns1.nameport.net.
secure    300 IN NS  ns1.other.net.
secure   3600 IN DS ` + fmt.Sprintf("%d %d %d %s", ds.KeyTag, ds.Algorithm, ds.DigestType, ds.Digest) + `
plain     300 IN NS  ns1.other.net.
`
}

// A referral to a delegation with DS records carries the DS set, signed by
// the parent's key, and no NSEC (nothing is denied); a DS query at the
// delegation is answered by the parent, authoritatively and signed.
// Without DO the referral still carries the DS set, unsigned.
func TestReferralCarriesDS(t *testing.T) {
	t.Parallel()
	child, err := dnssec.Generate("secure.inf.nz.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	snap, err := buildFromText(dsZones(child))
	require.NoError(t, err)
	source, keys := staticKeys(t, dnssec.ECDSAP256SHA256)
	s := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	s.Publish(snap)
	require.NoError(t, s.withKeys(context.Background(), s.Snapshot(), nil))

	m := askDO(t, s, "host.secure.inf.nz.", dns.TypeA, true)
	require.False(t, m.Authoritative)
	require.Nil(t, nsecOf(m.Ns), m.String())
	var ds []dns.RR
	var sig *dns.RRSIG
	for _, rr := range m.Ns {
		switch v := rr.(type) {
		case *dns.DS:
			ds = append(ds, v)
		case *dns.RRSIG:
			require.Equal(t, dns.TypeDS, v.TypeCovered, "only the DS set is signed in a referral\n%s", m)
			sig = v
		}
	}
	require.Len(t, ds, 1, m.String())
	require.Equal(t, child.DS().Digest, ds[0].(*dns.DS).Digest)
	require.NotNil(t, sig, m.String())
	require.Equal(t, "inf.nz.", sig.SignerName)
	require.NoError(t, sig.Verify(keys["inf.nz."].DNSKEY, ds))
	require.True(t, sig.ValidityPeriod(time.Now()))

	m = askDO(t, s, "secure.inf.nz.", dns.TypeDS, true)
	require.True(t, m.Authoritative, m.String())
	require.Len(t, m.Answer, 2, m.String()) // the DS and its RRSIG
	requireSigned(t, keys, m.Answer, "DS query")

	m = askDO(t, s, "host.secure.inf.nz.", dns.TypeA, false)
	require.True(t, hasType(m.Ns, dns.TypeDS), m.String())
	require.False(t, hasType(m.Ns, dns.TypeRRSIG), m.String())

	// A delegation without DS still gets the NSEC that proves it.
	m = askDO(t, s, "host.plain.inf.nz.", dns.TypeA, true)
	require.NotNil(t, nsecOf(m.Ns), m.String())
	require.False(t, hasType(m.Ns, dns.TypeDS))
	m = askDO(t, s, "secure.inf.nz.", dns.TypeA, true) // NODATA from the parent's side: a referral
	require.True(t, hasType(m.Ns, dns.TypeDS), m.String())
}

// Unbound, trusting only the parent zone's key, follows the signed DS of
// a delegation into a child zone signed with its own key (a small signer
// here): the child's answer comes back validated, with AD.
func TestUnboundValidatesBelowDS(t *testing.T) {
	t.Parallel()
	unbound := requireProgram(t, "unbound", envRequireUnbound, "unbound")
	child, err := dnssec.Generate("secure.inf.nz.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	snap, err := buildFromText(dsZones(child))
	require.NoError(t, err)
	source, keys := staticKeys(t, dnssec.ECDSAP256SHA256)
	addr := freeLoopbackAddr(t)
	srv := New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	srv.Publish(snap)
	require.NoError(t, srv.Start())
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

	childAddr := startSignedChild(t, child)
	resolver := startUnbound(t, unbound, []string{keys["inf.nz."].DS().String()},
		map[string]string{"inf.nz": addr, "secure.inf.nz": childAddr})

	m := resolve(t, resolver, "host.secure.inf.nz.", dns.TypeA)
	require.Equal(t, dns.RcodeSuccess, m.Rcode, m.String())
	require.True(t, m.AuthenticatedData, "AD\n%s", m)
	require.True(t, hasType(m.Answer, dns.TypeA), m.String())
	m = resolve(t, resolver, "secure.inf.nz.", dns.TypeDS)
	require.True(t, m.AuthenticatedData, "AD\n%s", m)
	require.True(t, hasType(m.Answer, dns.TypeDS), m.String())
}

// startSignedChild serves secure.inf.nz signed with k: its SOA, NS and
// DNSKEY at the apex and host's A record, each set with its RRSIG; other
// names and types are not asked in the test, and get the signed SOA.
func startSignedChild(t *testing.T, k *dnssec.Key) string {
	t.Helper()
	records := map[string][]dns.RR{}
	add := func(s string) {
		rr, err := dns.NewRR(s)
		require.NoError(t, err)
		key := strings.ToLower(rr.Header().Name) + "/" + dns.TypeToString[rr.Header().Rrtype]
		records[key] = append(records[key], rr)
	}
	add("secure.inf.nz. 300 IN SOA ns1.other.net. hostmaster.secure.inf.nz. 1 7200 900 1209600 300")
	add("secure.inf.nz. 300 IN NS ns1.other.net.")
	add("host.secure.inf.nz. 300 IN A 192.0.2.81")
	records["secure.inf.nz./DNSKEY"] = []dns.RR{k.DNSKEY}
	now := time.Now()
	signed := map[string][]dns.RR{}
	for key, set := range records {
		sig := &dns.RRSIG{Algorithm: k.DNSKEY.Algorithm, KeyTag: k.Tag(), SignerName: k.Zone,
			Inception: uint32(now.Add(-time.Hour).Unix()), Expiration: uint32(now.Add(time.Hour).Unix())}
		sig.Hdr.Ttl = set[0].Header().Ttl
		require.NoError(t, sig.Sign(k.Signer, set))
		signed[key] = append(append([]dns.RR{}, set...), sig)
	}
	return startDNS(t, func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg).SetReply(req)
		m.Authoritative = true
		q := req.Question[0]
		if set := signed[strings.ToLower(q.Name)+"/"+dns.TypeToString[q.Qtype]]; set != nil {
			m.Answer = set
		} else {
			m.Ns = signed["secure.inf.nz./SOA"]
		}
		m.SetEdns0(1232, true)
		_ = w.WriteMsg(m)
	})
}
