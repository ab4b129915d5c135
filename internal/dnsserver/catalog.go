package dnsserver

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"

	"github.com/miekg/dns"
)

// WithCatalogZone serves a catalog zone (RFC 9432, version 2) named name
// that lists every extension's zone, so that a secondary configured with
// this one zone (Knot's catalog-role: interpret, BIND's catalog-zones, NSD
// 4.9's catalog: consumer) picks up new extensions by itself. "": none, the
// default.
func WithCatalogZone(name string) Option {
	return func(o *options) {
		if name != "" {
			name = strings.ToLower(dns.Fqdn(name))
		}
		o.catalogZone = name
	}
}

// catalogTTL is the TTL of the catalog's records other than the SOA: RFC
// 9432 gives it no meaning and writes 0 in its examples, as the zone is for
// secondaries to transfer, not for resolvers to cache.
const catalogTTL = 0

// newCatalogZone builds the catalog zone name listing members (zone
// origins), with the SOA serial serial. Its contents are those RFC 9432
// asks for: the SOA, one NS record "invalid." (a zone needs one, and this
// one is never resolved), the schema version 2 at version.<name>, and for
// each member a PTR at <id>.zones.<name> naming it.
func newCatalogZone(name string, members []string, serial uint32) *servedZone {
	origin := strings.ToLower(dns.Fqdn(name))
	z := newZone(origin, soaFor(origin, "invalid.", serial))
	z.add(&dns.NS{Hdr: dns.RR_Header{Name: origin, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: catalogTTL}, Ns: "invalid."})
	z.add(&dns.TXT{Hdr: dns.RR_Header{Name: "version." + origin, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: catalogTTL}, Txt: []string{"2"}})
	for _, m := range members {
		member := strings.ToLower(dns.Fqdn(m))
		z.add(&dns.PTR{Hdr: dns.RR_Header{Name: catalogMemberID(member) + ".zones." + origin, Rrtype: dns.TypePTR,
			Class: dns.ClassINET, Ttl: catalogTTL}, Ptr: member})
	}
	z.finish()
	return z
}

// catalogMemberID is the label that stands for member (lower case, fully
// qualified) in the catalog: the hex SHA-1 of its name in wire format, as
// BIND's catalog zones (version 1) required and RFC 9432 still allows. It
// depends on the name alone, so it stays the same across reloads and
// restarts: a consumer that sees a member's label change takes the zone as
// removed and added again, and drops its data.
func catalogMemberID(member string) string {
	wire := make([]byte, 256)
	n, err := dns.PackDomainName(member, wire, 0, nil, false)
	if err != nil { // no zone has such a name; its text still gives a label of its own
		wire, n = []byte(member), len(member)
	}
	sum := sha1.Sum(wire[:n])
	return hex.EncodeToString(sum[:])
}
