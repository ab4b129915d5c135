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
	nodes  map[string]*node // every name that has records, and the empty non-terminals above them
}

// node is a name that exists in a zone.
type node struct {
	name     string
	sets     []rrset // by typeRank; empty for an empty non-terminal
	cut      bool    // has NS and is not the apex: a delegation
	wildcard *node   // the "*" child, if any
}

// rrset is one record set. The addresses that go with an NS, MX or SRV set
// in the additional section (see additionalFor) are computed once per
// snapshot and kept after the records in the same slice, rrs[n:], which
// costs nothing for the sets without any.
type rrset struct {
	rtype uint16
	n     uint32 // the set's own records: rrs[:n]
	rrs   []dns.RR
}

// records returns the set's records, clipped so that appending to them
// never writes into the snapshot.
func (s *rrset) records() []dns.RR { return s.rrs[:s.n:s.n] }

// additional returns the addresses that go with the set in the additional
// section (the end of a clipped slice, so as safe to append to).
func (s *rrset) additional() []dns.RR { return s.rrs[s.n:] }

func (n *node) find(t uint16) *rrset {
	for i := range n.sets {
		if n.sets[i].rtype == t {
			return &n.sets[i]
		}
	}
	return nil
}

func (n *node) set(t uint16) []dns.RR {
	if s := n.find(t); s != nil {
		return s.records()
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
		nameservers := zd.Nameservers // zone.Load gives the default ones when none are configured
		if len(nameservers) == 0 {
			for _, h := range zone.DefaultNameservers(zd.Origin) {
				nameservers = append(nameservers, h+".")
			}
		}
		z := newZone(zd.Origin, soaFor(zd.Origin, nameservers[0], data.Serial))
		for _, ns := range nameservers {
			z.add(&dns.NS{Hdr: dns.RR_Header{Name: zd.Origin, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: nsTTL}, Ns: ns})
		}
		// A domain without records gets no node: the transfer carries
		// nothing for it, so a secondary answers NXDOMAIN, and so do we.
		for _, d := range zd.Domains {
			apex := d.FQDN(zd.Origin)
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
			n.sets[i].n++
			return
		}
	}
	n.sets = append(n.sets, rrset{rtype: h.Rrtype, n: 1, rrs: []dns.RR{rr}})
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
// the sets, marks delegations and adds their additional addresses to the
// NS, MX and SRV sets.
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
		for i := range n.sets {
			set := &n.sets[i]
			if extra := z.additionalFor(set.rtype, set.records()); len(extra) > 0 {
				set.rrs = slices.Clip(append(set.records(), extra...))
			}
		}
	}
}

// additionalFor returns the addresses that go in the additional section
// with the records rrs of type rtype, as NSD gives them: for each NS, MX or
// SRV target inside this zone, its A records, then each one's AAAA records
// (the order NSD uses, so that truncation drops the AAAA first). A target
// that does not exist takes the addresses of its closest encloser's
// wildcard, owned by the target. Only NS targets may be at or below a
// delegation (glue, needed to follow the referral); an MX or SRV target
// there is the child zone's data, not ours to give.
func (z *servedZone) additionalFor(rtype uint16, rrs []dns.RR) []dns.RR {
	var targets []string
	for _, rr := range rrs {
		var target string
		switch rr := rr.(type) {
		case *dns.NS:
			target = rr.Ns
		case *dns.MX:
			target = rr.Mx
		case *dns.SRV:
			target = rr.Target
		default:
			return nil
		}
		target = lowerASCII(target)
		if !slices.Contains(targets, target) {
			targets = append(targets, target)
		}
	}
	var a, aaaa []dns.RR
	for _, target := range targets {
		addresses := z.addressesOf(target, rtype == dns.TypeNS)
		if addresses == nil {
			continue
		}
		a = owned(a, addresses.set(dns.TypeA), target)
		aaaa = owned(aaaa, addresses.set(dns.TypeAAAA), target)
	}
	return append(a, aaaa...)
}

// addressesOf returns the node whose A and AAAA records answer for target
// (lower case): its own, or the wildcard that covers it; nil when target is
// outside the zone, or at or below a delegation and glue is not wanted.
func (z *servedZone) addressesOf(target string, glue bool) *node {
	if z.origin != "." && target != z.origin && !strings.HasSuffix(target, "."+z.origin) {
		return nil
	}
	var offs [128]int
	n := labelStarts(target, &offs)
	zoneLabels := 0
	if z.origin != "." {
		zoneLabels = dns.CountLabel(z.origin)
	}
	// Walk down from the apex, as Lookup does.
	closest := z.apex
	for i := n - zoneLabels - 1; i >= 0; i-- {
		child := z.nodes[target[offs[i]:]]
		if child == nil {
			if closest.wildcard == nil {
				return nil
			}
			return closest.wildcard
		}
		if child.cut && !glue {
			return nil
		}
		closest = child
	}
	return closest
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
				out = append(out, set.records()...)
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
