package dnsserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/zone"
)

// buildFromText builds a snapshot from zone-file text: each SOA starts a
// zone and the other records belong to the zone that encloses them.
func buildFromText(text string) (*Snapshot, error) {
	snap := &Snapshot{zones: map[string]*servedZone{}}
	zp := dns.NewZoneParser(strings.NewReader(text), ".", "")
	var order []*servedZone
	for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
		if soa, isSOA := rr.(*dns.SOA); isSOA {
			z := newZone(soa.Hdr.Name, soa)
			snap.zones[z.origin] = z
			order = append(order, z)
			snap.serial = soa.Serial
			continue
		}
		z, _ := snap.findZone(strings.ToLower(rr.Header().Name))
		if z == nil {
			return nil, fmt.Errorf("%s is in no zone of the text", rr.Header().Name)
		}
		z.add(rr)
	}
	if err := zp.Err(); err != nil {
		return nil, err
	}
	for _, z := range order {
		z.finish()
	}
	return snap, nil
}

const testZones = `
$ORIGIN inf.nz.
@                 3600 IN SOA   ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300
@                 3600 IN NS    ns1.nameport.net.
@                 3600 IN NS    ns2.nameport.net.
example            300 IN A     192.0.2.1
example            300 IN AAAA  2001:db8::1
example            300 IN MX    10 mail.example.inf.nz.
example            300 IN MX    20 shop.biz.ee.
example            600 IN TXT   "v=spf1 -all"
www.example        300 IN CNAME example.inf.nz.
mail.example       300 IN A     192.0.2.25
mail.example       300 IN AAAA  2001:db8::25
_sip._tcp.example  300 IN SRV   10 5 5060 sip.example.inf.nz.
_xmpp._tcp.example 300 IN SRV   10 5 5222 ns1.deleg.inf.nz.
a.b.example        300 IN A     192.0.2.3
*.example          300 IN A     192.0.2.99
*.example          300 IN TXT   "wild"
*.dev.example      300 IN CNAME target.example.inf.nz.
target.example     300 IN A     192.0.2.7
chain1.example     300 IN CNAME chain2.example.inf.nz.
chain2.example     300 IN CNAME www.example.inf.nz.
loop1.example      300 IN CNAME loop2.example.inf.nz.
loop2.example      300 IN CNAME LOOP1.example.inf.nz.
out.example        300 IN CNAME www.example.com.
dangling.example   300 IN CNAME nothere.inf.nz.
cross.example      300 IN CNAME shop.biz.ee.
tocut.example      300 IN CNAME host.deleg.inf.nz.
sub.example        300 IN NS    ns1.sub.example.inf.nz.
ns1.sub.example    300 IN A     192.0.2.54
deleg              300 IN NS    ns1.deleg.inf.nz.
deleg              900 IN NS    ns.other.net.
deleg              300 IN A     192.0.2.60
ns1.deleg          300 IN A     192.0.2.53
ns1.deleg          300 IN AAAA  2001:db8::53
sib                300 IN NS    ns1.deleg.inf.nz.
sib                300 IN NS    mail.example.inf.nz.
sib                300 IN NS    host.example.inf.nz.
sib                300 IN NS    www.example.inf.nz.
sib                300 IN NS    ns.other.net.
ttl                300 IN A     192.0.2.11
ttl                900 IN A     192.0.2.12

$ORIGIN biz.ee.
@                 3600 IN SOA   ns1.biz.ee. hostmaster.biz.ee. 42 7200 900 1209600 300
@                 3600 IN NS    ns1.biz.ee.
ns1                300 IN A     198.51.100.53
shop               300 IN A     198.51.100.1
shop               300 IN MX    10 example.inf.nz.
`

const (
	soaInf = "inf.nz. 300 IN SOA ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300"
	soaBiz = "biz.ee. 300 IN SOA ns1.biz.ee. hostmaster.biz.ee. 42 7200 900 1209600 300"
)

func testSnapshot(t testing.TB) *Snapshot {
	t.Helper()
	snap, err := buildFromText(testZones)
	require.NoError(t, err)
	return snap
}

func TestLookup(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	const (
		noerror  = dns.RcodeSuccess
		nxdomain = dns.RcodeNameError
		refused  = dns.RcodeRefused
	)
	tests := []struct {
		about  string
		qname  string
		qtype  uint16
		rcode  int
		aa     bool
		answer []string
		ns     []string
		extra  []string
	}{
		{about: "records of a domain's apex", qname: "example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"example.inf.nz. 300 IN A 192.0.2.1"}},
		{about: "the question's case is echoed", qname: "ExAmple.INF.nz.", qtype: dns.TypeAAAA, rcode: noerror, aa: true,
			answer: []string{"ExAmple.INF.nz. 300 IN AAAA 2001:db8::1"}},
		{about: "NODATA: the name exists, the type does not", qname: "example.inf.nz.", qtype: dns.TypeCAA, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "NODATA keeps the case of the zone part", qname: "Example.Inf.NZ.", qtype: dns.TypeSRV, rcode: noerror, aa: true,
			ns: []string{strings.Replace(soaInf, "inf.nz.", "Inf.NZ.", 1)}},
		{about: "NXDOMAIN: no such domain", qname: "nope.inf.nz.", qtype: dns.TypeA, rcode: nxdomain, aa: true,
			ns: []string{soaInf}},
		{about: "an empty non-terminal is NODATA, and no wildcard covers it", qname: "b.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "a wildcard's parent that is an empty non-terminal", qname: "dev.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "below an existing name without a wildcard: NXDOMAIN", qname: "x.a.b.example.inf.nz.", qtype: dns.TypeA, rcode: nxdomain, aa: true,
			ns: []string{soaInf}},
		{about: "below an empty non-terminal without a wildcard: NXDOMAIN", qname: "q.b.example.inf.nz.", qtype: dns.TypeA, rcode: nxdomain, aa: true,
			ns: []string{soaInf}},
		{about: "a wildcard answers for a missing name, owned by the query name", qname: "Foo.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"Foo.example.inf.nz. 300 IN A 192.0.2.99"}},
		{about: "a wildcard covers deeper names too", qname: "x.y.example.inf.nz.", qtype: dns.TypeTXT, rcode: noerror, aa: true,
			answer: []string{`x.y.example.inf.nz. 300 IN TXT "wild"`}},
		{about: "a wildcard without the type: NODATA", qname: "foo.example.inf.nz.", qtype: dns.TypeMX, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "a wildcard does not hide an existing name", qname: "mail.example.inf.nz.", qtype: dns.TypeTXT, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "the wildcard name itself", qname: "*.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"*.example.inf.nz. 300 IN A 192.0.2.99"}},
		{about: "a wildcard CNAME is synthesised and followed", qname: "api.dev.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"api.dev.example.inf.nz. 300 IN CNAME target.example.inf.nz.", "target.example.inf.nz. 300 IN A 192.0.2.7"}},
		{about: "a CNAME is followed inside the zone", qname: "WWW.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"WWW.example.inf.nz. 300 IN CNAME example.inf.nz.", "example.inf.nz. 300 IN A 192.0.2.1"}},
		{about: "a CNAME query gets the CNAME alone", qname: "www.example.inf.nz.", qtype: dns.TypeCNAME, rcode: noerror, aa: true,
			answer: []string{"www.example.inf.nz. 300 IN CNAME example.inf.nz."}},
		{about: "a chain of CNAMEs", qname: "chain1.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"chain1.example.inf.nz. 300 IN CNAME chain2.example.inf.nz.", "chain2.example.inf.nz. 300 IN CNAME www.example.inf.nz.",
				"www.example.inf.nz. 300 IN CNAME example.inf.nz.", "example.inf.nz. 300 IN A 192.0.2.1"}},
		{about: "a chain ending in NODATA", qname: "www.example.inf.nz.", qtype: dns.TypeCAA, rcode: noerror, aa: true,
			answer: []string{"www.example.inf.nz. 300 IN CNAME example.inf.nz."}, ns: []string{soaInf}},
		{about: "a CNAME loop stops", qname: "loop1.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"loop1.example.inf.nz. 300 IN CNAME loop2.example.inf.nz.", "loop2.example.inf.nz. 300 IN CNAME LOOP1.example.inf.nz."}},
		{about: "a CNAME out of our zones is left to the resolver", qname: "out.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"out.example.inf.nz. 300 IN CNAME www.example.com."}},
		{about: "a CNAME to a missing name: NXDOMAIN (RFC 6604)", qname: "dangling.example.inf.nz.", qtype: dns.TypeA, rcode: nxdomain, aa: true,
			answer: []string{"dangling.example.inf.nz. 300 IN CNAME nothere.inf.nz."}, ns: []string{soaInf}},
		{about: "a CNAME into another of our zones", qname: "cross.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"cross.example.inf.nz. 300 IN CNAME shop.biz.ee.", "shop.biz.ee. 300 IN A 198.51.100.1"}},
		{about: "a CNAME into another zone ending in NODATA", qname: "cross.example.inf.nz.", qtype: dns.TypeTXT, rcode: noerror, aa: true,
			answer: []string{"cross.example.inf.nz. 300 IN CNAME shop.biz.ee."}, ns: []string{soaBiz}},
		{about: "a CNAME into a delegation gets the referral", qname: "tocut.example.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"tocut.example.inf.nz. 300 IN CNAME host.deleg.inf.nz."},
			ns:     []string{"deleg.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "deleg.inf.nz. 300 IN NS ns.other.net."},
			extra:  []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53"}},
		{about: "a referral below a delegated domain, with glue for the nameserver in our zone", qname: "Host.DELEG.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: false,
			ns:    []string{"DELEG.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "DELEG.inf.nz. 300 IN NS ns.other.net."},
			extra: []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53"}},
		{about: "a referral at the delegated domain, its own A record hidden", qname: "deleg.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: false,
			ns:    []string{"deleg.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "deleg.inf.nz. 300 IN NS ns.other.net."},
			extra: []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53"}},
		{about: "NS at the delegation is a referral too", qname: "deleg.inf.nz.", qtype: dns.TypeNS, rcode: noerror, aa: false,
			ns:    []string{"deleg.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "deleg.inf.nz. 300 IN NS ns.other.net."},
			extra: []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53"}},
		{about: "DS at the delegation: NODATA from the parent (no DNSSEC)", qname: "deleg.inf.nz.", qtype: dns.TypeDS, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "DS below the delegation is the child's: referral", qname: "x.deleg.inf.nz.", qtype: dns.TypeDS, rcode: noerror, aa: false,
			ns:    []string{"deleg.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "deleg.inf.nz. 300 IN NS ns.other.net."},
			extra: []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53"}},
		{about: "DS at a domain that is not delegated: NODATA", qname: "example.inf.nz.", qtype: dns.TypeDS, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "a delegation below a domain's apex", qname: "www.sub.example.inf.nz.", qtype: dns.TypeAAAA, rcode: noerror, aa: false,
			ns:    []string{"sub.example.inf.nz. 300 IN NS ns1.sub.example.inf.nz."},
			extra: []string{"ns1.sub.example.inf.nz. 300 IN A 192.0.2.54"}},
		{about: "ANY gets one record set (RFC 8482)", qname: "example.inf.nz.", qtype: dns.TypeANY, rcode: noerror, aa: true,
			answer: []string{"example.inf.nz. 300 IN A 192.0.2.1"}},
		{about: "ANY at a CNAME gets the CNAME", qname: "www.example.inf.nz.", qtype: dns.TypeANY, rcode: noerror, aa: true,
			answer: []string{"www.example.inf.nz. 300 IN CNAME example.inf.nz."}},
		{about: "ANY at the zone apex gets the SOA", qname: "inf.nz.", qtype: dns.TypeANY, rcode: noerror, aa: true,
			answer: []string{"inf.nz. 3600 IN SOA ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300"}},
		{about: "ANY at an empty non-terminal: NODATA", qname: "b.example.inf.nz.", qtype: dns.TypeANY, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "the zone's SOA", qname: "INF.nz.", qtype: dns.TypeSOA, rcode: noerror, aa: true,
			answer: []string{"INF.nz. 3600 IN SOA ns1.nameport.net. hostmaster.inf.nz. 42 7200 900 1209600 300"}},
		{about: "the zone's NS", qname: "inf.nz.", qtype: dns.TypeNS, rcode: noerror, aa: true,
			answer: []string{"inf.nz. 3600 IN NS ns1.nameport.net.", "inf.nz. 3600 IN NS ns2.nameport.net."}},
		{about: "nothing else at the zone apex", qname: "inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "SOA at a domain: NODATA (domains are not zones)", qname: "example.inf.nz.", qtype: dns.TypeSOA, rcode: noerror, aa: true,
			ns: []string{soaInf}},
		{about: "one TTL per record set: the lowest", qname: "ttl.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"ttl.inf.nz. 300 IN A 192.0.2.11", "ttl.inf.nz. 300 IN A 192.0.2.12"}},
		{about: "outside our zones: REFUSED", qname: "example.com.", qtype: dns.TypeA, rcode: refused},
		{about: "the parent of a zone is outside it", qname: "nz.", qtype: dns.TypeNS, rcode: refused},
		{about: "a name that only ends like a zone", qname: "xinf.nz.", qtype: dns.TypeA, rcode: refused},
		{about: "the root", qname: ".", qtype: dns.TypeNS, rcode: refused},
		{about: "escaped dots are part of a label", qname: `a\.b.example.inf.nz.`, qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{`a\.b.example.inf.nz. 300 IN A 192.0.2.99`}},
		{about: "the other zone", qname: "shop.biz.ee.", qtype: dns.TypeA, rcode: noerror, aa: true,
			answer: []string{"shop.biz.ee. 300 IN A 198.51.100.1"}},
		{about: "a referral gives the addresses of every nameserver in the zone: below another delegation, outside the delegated name, covered by a wildcard (owned by the target); A first, then AAAA",
			qname: "www.sib.inf.nz.", qtype: dns.TypeA, rcode: noerror, aa: false,
			ns: []string{"sib.inf.nz. 300 IN NS ns1.deleg.inf.nz.", "sib.inf.nz. 300 IN NS mail.example.inf.nz.", "sib.inf.nz. 300 IN NS host.example.inf.nz.",
				"sib.inf.nz. 300 IN NS www.example.inf.nz.", "sib.inf.nz. 300 IN NS ns.other.net."},
			extra: []string{"ns1.deleg.inf.nz. 300 IN A 192.0.2.53", "mail.example.inf.nz. 300 IN A 192.0.2.25", "host.example.inf.nz. 300 IN A 192.0.2.99",
				"ns1.deleg.inf.nz. 300 IN AAAA 2001:db8::53", "mail.example.inf.nz. 300 IN AAAA 2001:db8::25"}},
		{about: "an MX answer carries its targets' addresses in this zone", qname: "Example.inf.nz.", qtype: dns.TypeMX, rcode: noerror, aa: true,
			answer: []string{"Example.inf.nz. 300 IN MX 10 mail.example.inf.nz.", "Example.inf.nz. 300 IN MX 20 shop.biz.ee."},
			extra:  []string{"mail.example.inf.nz. 300 IN A 192.0.2.25", "mail.example.inf.nz. 300 IN AAAA 2001:db8::25"}},
		{about: "an MX target in another of our zones is not looked up", qname: "shop.biz.ee.", qtype: dns.TypeMX, rcode: noerror, aa: true,
			answer: []string{"shop.biz.ee. 300 IN MX 10 example.inf.nz."}},
		{about: "an SRV target covered by a wildcard gets its addresses, owned by the target", qname: "_sip._tcp.example.inf.nz.", qtype: dns.TypeSRV, rcode: noerror, aa: true,
			answer: []string{"_sip._tcp.example.inf.nz. 300 IN SRV 10 5 5060 sip.example.inf.nz."},
			extra:  []string{"sip.example.inf.nz. 300 IN A 192.0.2.99"}},
		{about: "an SRV target below a delegation is the child's data: no addresses", qname: "_xmpp._tcp.example.inf.nz.", qtype: dns.TypeSRV, rcode: noerror, aa: true,
			answer: []string{"_xmpp._tcp.example.inf.nz. 300 IN SRV 10 5 5222 ns1.deleg.inf.nz."}},
		{about: "NS at a zone's apex carries the addresses of its nameservers in the zone", qname: "biz.ee.", qtype: dns.TypeNS, rcode: noerror, aa: true,
			answer: []string{"biz.ee. 3600 IN NS ns1.biz.ee."},
			extra:  []string{"ns1.biz.ee. 300 IN A 198.51.100.53"}},
		{about: "a CNAME to an MX: the addresses of the final answer's targets", qname: "www.example.inf.nz.", qtype: dns.TypeMX, rcode: noerror, aa: true,
			answer: []string{"www.example.inf.nz. 300 IN CNAME example.inf.nz.", "example.inf.nz. 300 IN MX 10 mail.example.inf.nz.", "example.inf.nz. 300 IN MX 20 shop.biz.ee."},
			extra:  []string{"mail.example.inf.nz. 300 IN A 192.0.2.25", "mail.example.inf.nz. 300 IN AAAA 2001:db8::25"}},
	}
	for _, tt := range tests {
		res := Lookup(snap, tt.qname, tt.qtype)
		what := fmt.Sprintf("%s (%s %s)", tt.about, tt.qname, dns.TypeToString[tt.qtype])
		require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[res.Rcode], what)
		require.Equal(t, tt.aa, res.Authoritative, what)
		require.Equal(t, normalise(t, tt.answer), texts(res.Answer), "answer: "+what)
		require.Equal(t, normalise(t, tt.ns), texts(res.Ns), "authority: "+what)
		require.Equal(t, normalise(t, tt.extra), texts(res.Extra), "additional: "+what)
	}

	// The snapshot's records come out untouched by case echoing.
	Lookup(snap, "WWW.EXAMPLE.INF.NZ.", dns.TypeA)
	require.Equal(t, []string{"www.example.inf.nz.\t300\tIN\tCNAME\texample.inf.nz."},
		texts(Lookup(snap, "www.example.inf.nz.", dns.TypeCNAME).Answer))
}

func TestEmptySnapshotRefusesEverything(t *testing.T) {
	t.Parallel()
	for _, snap := range []*Snapshot{{}, nil} {
		res := Lookup(snap, "example.inf.nz.", dns.TypeA)
		require.Equal(t, dns.RcodeRefused, res.Rcode)
		require.False(t, res.Authoritative)
	}
}

func normalise(t *testing.T, rrs []string) []string {
	t.Helper()
	out := []string{}
	for _, s := range rrs {
		rr, err := dns.NewRR(s)
		require.NoError(t, err, s)
		out = append(out, rr.String())
	}
	return out
}

func texts(rrs []dns.RR) []string {
	out := []string{}
	for _, rr := range rrs {
		out = append(out, rr.String())
	}
	return out
}

// A registered domain without records does not exist in DNS: a transfer
// carries nothing for it, so a secondary answers NXDOMAIN, and the primary
// answers the same. A domain with records below its apex only has an empty
// non-terminal there: NODATA, on both.
func TestDomainsWithoutRecordsDoNotExist(t *testing.T) {
	t.Parallel()
	data := &zone.SnapshotData{Serial: 7, Zones: []zone.ZoneData{{Origin: "inf.nz.", Domains: []zone.DomainData{
		{ID: 1, Name: "empty"},
		{ID: 2, Name: "below", Records: []zone.Record{{Name: "www", Type: zone.TypeA, Content: "192.0.2.1", TTL: 300}}},
	}}}}
	snap, skipped := NewSnapshot(data)
	require.Empty(t, skipped)
	soa := "inf.nz. 300 IN SOA ns1.inf.nz. hostmaster.inf.nz. 7 7200 900 1209600 300"
	for _, tt := range []struct {
		qname string
		qtype uint16
		rcode int
	}{
		{"empty.inf.nz.", dns.TypeA, dns.RcodeNameError},
		{"empty.inf.nz.", dns.TypeNS, dns.RcodeNameError},
		{"empty.inf.nz.", dns.TypeANY, dns.RcodeNameError},
		{"www.empty.inf.nz.", dns.TypeA, dns.RcodeNameError},
		{"below.inf.nz.", dns.TypeA, dns.RcodeSuccess},
	} {
		res := Lookup(snap, tt.qname, tt.qtype)
		what := tt.qname + " " + dns.TypeToString[tt.qtype]
		require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[res.Rcode], what)
		require.True(t, res.Authoritative, what)
		require.Empty(t, res.Answer, what)
		require.Equal(t, normalise(t, []string{soa}), texts(res.Ns), what)
	}
	require.Len(t, Lookup(snap, "www.below.inf.nz.", dns.TypeA).Answer, 1)

	// The transfer: the SOA, the NS records, the one record; nothing named
	// after the empty domain.
	var transferred []string
	for _, rr := range snap.zones["inf.nz."].records() {
		transferred = append(transferred, rr.Header().Name+" "+dns.TypeToString[rr.Header().Rrtype])
	}
	require.Equal(t, []string{"inf.nz. SOA", "inf.nz. NS", "inf.nz. NS", "www.below.inf.nz. A"}, transferred)
}
