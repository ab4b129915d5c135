package dnsserver

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/zone"
)

// SOA timers of every zone. The negative-caching TTL (minimum) is the
// lowest record TTL, so that a name created after a NXDOMAIN answer is seen
// within five minutes.
const (
	soaTTL     = 3600
	soaRefresh = 7200
	soaRetry   = 900
	soaExpire  = 1209600
	soaMinimum = 300
	nsTTL      = 3600
)

// Snapshot is the set of zones the server is authoritative for, built once
// and never modified after; Lookup reads it without locks. The zero
// Snapshot has no zones: every name is REFUSED.
type Snapshot struct {
	zones map[string]*servedZone // by lower-case origin ("inf.nz.")

	loaded     bool // built from the database (NewSnapshot)
	versions   zone.Versions
	serial     uint32
	nextExpiry time.Time

	// cache holds packed answers to plain queries, per (name, type); it
	// belongs to this snapshot and so never holds stale answers.
	cache packetCache

	wireOnce  sync.Once
	wireZones map[string]bool // the zones' origins in lower-case wire format
}

// servedZone is one extension's zone.
type servedZone struct {
	origin string // lower case, fully qualified
	soa    *dns.SOA
	negSOA []dns.RR // the SOA for negative answers: TTL min(SOA TTL, minimum)
	apex   *node
	nodes  map[string]*node // every name that exists, empty non-terminals included
}

// node is a name that exists in a zone.
type node struct {
	name     string
	sets     []rrset // by typeRank; empty for an empty non-terminal or a domain without records
	cut      bool    // has NS and is not the apex: a delegation
	glue     []dns.RR
	wildcard *node // the "*" child, if any
}

type rrset struct {
	rtype uint16
	rrs   []dns.RR
}

func (n *node) set(t uint16) []dns.RR {
	for i := range n.sets {
		if n.sets[i].rtype == t {
			return n.sets[i].rrs
		}
	}
	return nil
}

// Serial returns the SOA serial of the snapshot's zones.
func (s *Snapshot) Serial() uint32 { return s.serial }

// Zones returns the origins of the snapshot's zones, sorted.
func (s *Snapshot) Zones() []string {
	out := make([]string, 0, len(s.zones))
	for o := range s.zones {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// NewSnapshot builds the zones of data: one per active extension, with SOA
// and NS at the apex and the domains' records below. A record that cannot
// be turned into DNS data (it passed validation, so this means a bug or a
// hand-edited row) is left out and reported in skipped; the rest is served.
func NewSnapshot(data *zone.SnapshotData) (snap *Snapshot, skipped []error) {
	snap = &Snapshot{zones: make(map[string]*servedZone, len(data.Zones)), loaded: true,
		versions: data.Versions, serial: data.Serial, nextExpiry: data.NextExpiry}
	for _, zd := range data.Zones {
		nameservers := zd.Nameservers
		if len(nameservers) == 0 {
			nameservers = []string{"ns1." + zd.Origin, "ns2." + zd.Origin}
		}
		z := newZone(zd.Origin, soaFor(zd.Origin, nameservers[0], data.Serial))
		for _, ns := range nameservers {
			z.add(&dns.NS{Hdr: dns.RR_Header{Name: zd.Origin, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: nsTTL}, Ns: ns})
		}
		for _, d := range zd.Domains {
			apex := d.FQDN(zd.Origin)
			z.ensure(apex)
			for _, r := range d.Records {
				rr, err := r.RR(apex)
				if err != nil {
					skipped = append(skipped, err)
					continue
				}
				z.add(rr)
			}
		}
		z.finish()
		snap.zones[z.origin] = z
	}
	return snap, skipped
}

func soaFor(origin, mname string, serial uint32) *dns.SOA {
	return &dns.SOA{Hdr: dns.RR_Header{Name: origin, Rrtype: dns.TypeSOA, Class: dns.ClassINET, Ttl: soaTTL},
		Ns: dns.Fqdn(strings.ToLower(mname)), Mbox: "hostmaster." + origin, Serial: serial,
		Refresh: soaRefresh, Retry: soaRetry, Expire: soaExpire, Minttl: soaMinimum}
}

func newZone(origin string, soa *dns.SOA) *servedZone {
	origin = strings.ToLower(dns.Fqdn(origin))
	z := &servedZone{origin: origin, soa: soa, nodes: map[string]*node{}}
	z.apex = z.ensure(origin)
	z.add(soa)
	neg := *soa
	neg.Hdr.Ttl = min(soa.Hdr.Ttl, soa.Minttl)
	z.negSOA = []dns.RR{&neg}
	return z
}

// ensure returns the node of name (lower case, inside the zone), creating it
// and the empty non-terminals between it and the apex.
func (z *servedZone) ensure(name string) *node {
	if n := z.nodes[name]; n != nil {
		return n
	}
	n := &node{name: name}
	z.nodes[name] = n
	if _, rest, _ := strings.Cut(name, "."); name != z.origin && rest != "" { // record names hold no escaped dots
		parent := z.ensure(rest)
		if strings.HasPrefix(name, "*.") {
			parent.wildcard = n
		}
	}
	return n
}

// add puts rr (owner inside the zone) into its node's record set.
func (z *servedZone) add(rr dns.RR) {
	h := rr.Header()
	h.Name = strings.ToLower(h.Name)
	n := z.ensure(h.Name)
	for i := range n.sets {
		if n.sets[i].rtype == h.Rrtype {
			for _, have := range n.sets[i].rrs {
				if dns.IsDuplicate(have, rr) {
					return
				}
			}
			n.sets[i].rrs = append(n.sets[i].rrs, rr)
			return
		}
	}
	n.sets = append(n.sets, rrset{rtype: h.Rrtype, rrs: []dns.RR{rr}})
}

// typeRank orders a node's sets: the one an ANY query gets comes first.
func typeRank(t uint16) int {
	switch t {
	case dns.TypeSOA:
		return 0
	case dns.TypeCNAME:
		return 1
	case dns.TypeA:
		return 2
	case dns.TypeAAAA:
		return 3
	case dns.TypeMX:
		return 4
	case dns.TypeTXT:
		return 5
	case dns.TypeNS:
		return 6
	}
	return 7 + int(t)
}

// finish gives each record set one TTL (the lowest, RFC 2181 5.2), orders
// the sets, marks delegations and collects their glue.
func (z *servedZone) finish() {
	for _, n := range z.nodes {
		slices.SortFunc(n.sets, func(a, b rrset) int { return typeRank(a.rtype) - typeRank(b.rtype) })
		for i := range n.sets {
			rrs := slices.Clip(n.sets[i].rrs)
			n.sets[i].rrs = rrs
			ttl := rrs[0].Header().Ttl
			for _, rr := range rrs {
				ttl = min(ttl, rr.Header().Ttl)
			}
			for _, rr := range rrs {
				rr.Header().Ttl = ttl
			}
		}
		n.cut = n != z.apex && n.set(dns.TypeNS) != nil
	}
	for _, n := range z.nodes {
		if !n.cut {
			continue
		}
		// Glue: addresses of nameservers inside the delegated name; other
		// nameservers are found by their own names.
		for _, rr := range n.set(dns.TypeNS) {
			target := strings.ToLower(rr.(*dns.NS).Ns)
			if target != n.name && !strings.HasSuffix(target, "."+n.name) {
				continue
			}
			if t := z.nodes[target]; t != nil {
				n.glue = append(n.glue, t.set(dns.TypeA)...)
				n.glue = append(n.glue, t.set(dns.TypeAAAA)...)
			}
		}
		n.glue = slices.Clip(n.glue)
	}
}

// records returns every record of the zone for a transfer: the SOA first,
// then the rest by name.
func (z *servedZone) records() []dns.RR {
	names := make([]string, 0, len(z.nodes))
	for name := range z.nodes {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return canonicalCompare(a, b) })
	out := []dns.RR{z.soa}
	for _, name := range names {
		for _, set := range z.nodes[name].sets {
			if set.rtype != dns.TypeSOA {
				out = append(out, set.rrs...)
			}
		}
	}
	return out
}

// canonicalCompare orders names label by label from the right (RFC 4034
// 6.1, without the byte-level details), which keeps a domain's names
// together in a transfer.
func canonicalCompare(a, b string) int {
	la, lb := dns.SplitDomainName(a), dns.SplitDomainName(b)
	for i, j := len(la)-1, len(lb)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if c := strings.Compare(la[i], lb[j]); c != 0 {
			return c
		}
	}
	return len(la) - len(lb)
}
