package dnsserver

import (
	"github.com/miekg/dns"
)

// Result is the answer to one question, before it becomes a message.
// Its records may be shared with the snapshot: never modify them.
type Result struct {
	Rcode int
	// Authoritative is the AA bit: set for answers from our zones, clear for
	// referrals and for names outside them.
	Authoritative bool
	Answer        []dns.RR
	Ns            []dns.RR
	Extra         []dns.RR

	// dom is the domain that holds the question's name, if any; volatile
	// says the result depends on more than dom (the zone's apex, another
	// domain's records). Only a result that depends on dom alone may outlive its
	// snapshot in the packet cache (see durableCache).
	dom    *domain
	origin string // of dom's zone (or of absent's)
	// absent is the domain whose absence the result depends on (an
	// NXDOMAIN for a name under a domain not registered), instead of dom.
	absent string
	// negative says the result carries the zone's SOA (NXDOMAIN, NODATA),
	// whose serial the cache writes anew for each snapshot.
	negative bool
	volatile bool
}

// depends records that the result depends on d (nil: the zone's apex, or
// a name below no domain).
func (r *Result) depends(d *domain, origin string) {
	switch {
	case d == nil:
		r.volatile = true
	case r.dom == nil:
		r.dom, r.origin = d, origin
	case r.dom != d:
		r.volatile = true
	}
}

// maxChain bounds how many CNAMEs Lookup follows inside our zones.
const maxChain = 8

// Lookup answers the question (qname, qtype) from snap: a pure function of
// its arguments, in the manner of coredns's file plugin.
//
//   - Names outside every zone: REFUSED (the server never recurses).
//   - A name that exists: its records of qtype (AA); a CNAME instead, followed
//     through our zones (loop-safe); otherwise NODATA: NOERROR, no answer, and
//     the zone's SOA in the authority section with TTL min(SOA TTL, minimum).
//     Empty non-terminals exist; a registered domain without records does
//     not (NXDOMAIN, as on a secondary, which gets nothing for it by AXFR).
//     NS, MX and SRV answers carry the addresses of their targets in this
//     zone in the additional section, as NSD gives them.
//   - A name at or below a delegation (NS at a domain's apex or below it):
//     a referral, without AA, with the NS records in the authority section
//     and the addresses of the nameservers in this zone (glue) in the
//     additional section. DS at the delegation itself is answered by the
//     parent side: its DS records (zone.AddDS), or NODATA.
//   - A name that does not exist: the wildcard of its closest encloser if
//     there is one (RFC 4592), its records owned by the query name;
//     otherwise NXDOMAIN with the SOA.
//   - ANY: one record set (RFC 8482).
//
// Owner names that come from the question keep its letter case.
func Lookup(snap *Snapshot, qname string, qtype uint16) Result {
	var res Result
	lname := lowerASCII(qname)
	z, zoneOff := snap.findZone(lname)
	if z == nil {
		res.Rcode = dns.RcodeRefused
		return res
	}
	res.Authoritative = true
	snap.resolve(&res, z, qname, lname, zoneOff, qtype, 0)
	return res
}

// findZone returns the zone that holds lname (lower case), the deepest one
// if several do, and the offset in lname where the zone's origin starts.
func (s *Snapshot) findZone(lname string) (*servedZone, int) {
	if s == nil || len(s.zones) == 0 {
		return nil, 0
	}
	var offs [128]int
	n := labelStarts(lname, &offs)
	for i := 0; i < n; i++ {
		if z := s.zones[lname[offs[i]:]]; z != nil {
			return z, offs[i]
		}
	}
	if z := s.zones["."]; z != nil {
		return z, len(lname) - 1
	}
	return nil, 0
}

// resolve answers qname (lname in lower case) from zone z, which holds it
// from offset zoneOff. depth counts the CNAMEs followed so far.
func (s *Snapshot) resolve(res *Result, z *servedZone, qname, lname string, zoneOff int, qtype uint16, depth int) {
	var offs [128]int
	n := labelStarts(lname, &offs)
	k := n // the index of the zone origin's first label
	for i := range n {
		if offs[i] == zoneOff {
			k = i
			break
		}
	}
	// Walk down from the apex towards qname; stop at a delegation, or at the
	// first name that does not exist (its parent is the closest encloser).
	closest := z.apex
	var dom *domain // once the walk is below the apex
	i := k - 1
	for ; i >= 0; i-- {
		var child *node
		if dom == nil {
			if dom = z.domains.get(lname[offs[i]:]); dom != nil {
				child = dom.apex
			}
		} else {
			child = dom.find(lname[offs[i]:])
		}
		if child == nil {
			break
		}
		closest = child
		if child.cut && !(i == 0 && qtype == dns.TypeDS) {
			res.depends(dom, z.origin)
			referral(res, z, child, qname[offs[i]:], depth)
			return
		}
	}
	if dom == nil && i == k-1 && i >= 0 && depth == 0 && z.apex.wildcard == nil && res.dom == nil {
		// Below no domain: the answer holds while that domain is absent.
		res.absent, res.origin = lname[offs[i]:], z.origin
	} else {
		res.depends(dom, z.origin)
	}
	switch {
	case i < 0:
		s.answer(res, z, closest, qname, qtype, depth)
	case closest.wildcard != nil:
		s.answer(res, z, closest.wildcard, qname, qtype, depth)
	default:
		res.Rcode = dns.RcodeNameError
		res.Ns = owned(res.Ns, z.negSOA, qname[zoneOff:])
		res.negative = true
	}
}

// answer answers from node n, which exists (or is the wildcard that stands
// for qname); owner is the query name.
func (s *Snapshot) answer(res *Result, z *servedZone, n *node, owner string, qtype uint16, depth int) {
	zoneOwner := owner[len(owner)-len(z.origin):]
	if qtype == dns.TypeANY {
		if len(n.sets) == 0 {
			res.Ns = owned(res.Ns, z.negSOA, zoneOwner)
			res.negative = true
			return
		}
		res.Answer = owned(res.Answer, n.sets[0].records(), owner)
		res.Extra = shared(res.Extra, n.sets[0].additionalIn(z, res))
		return
	}
	if cname := n.set(dns.TypeCNAME); cname != nil && qtype != dns.TypeCNAME {
		res.Answer = owned(res.Answer, cname, owner)
		s.chase(res, cname[0].(*dns.CNAME).Target, qtype, depth+1)
		return
	}
	if set := n.find(qtype); set != nil {
		res.Answer = owned(res.Answer, set.records(), owner)
		res.Extra = shared(res.Extra, set.additionalIn(z, res))
		return
	}
	res.Ns = owned(res.Ns, z.negSOA, zoneOwner)
	res.negative = true
}

// chase follows a CNAME to target when target is in one of our zones; the
// final name decides the rcode and the authority section (RFC 6604).
// Outside our zones the resolver follows it.
func (s *Snapshot) chase(res *Result, target string, qtype uint16, depth int) {
	if depth > maxChain {
		return
	}
	lt := lowerASCII(target)
	for _, rr := range res.Answer {
		if equalFoldASCII(rr.Header().Name, lt) {
			return // a loop
		}
	}
	z, zoneOff := s.findZone(lt)
	if z == nil {
		return
	}
	s.resolve(res, z, lt, lt, zoneOff, qtype, depth)
}

// referral points at the delegation cut: its NS records in the authority
// section, and glue.
func referral(res *Result, z *servedZone, cut *node, owner string, depth int) {
	if depth == 0 {
		res.Authoritative = false
	}
	ns := cut.find(dns.TypeNS)
	res.Ns = owned(res.Ns, ns.records(), owner)
	// The delegation's DS set (RFC 4035 3.1.4), for all: small, and what a
	// validator asks for next anyway. signAnswer signs it, and then proves
	// no absence of DS.
	res.Ns = owned(res.Ns, cut.set(dns.TypeDS), owner)
	res.Extra = shared(res.Extra, ns.additionalIn(z, res))
}

// shared appends rrs, records of the snapshot, to dst, without copying
// when dst is empty (the snapshot's slices are clipped, so appending to
// them never writes into them).
func shared(dst, rrs []dns.RR) []dns.RR {
	if len(dst) == 0 {
		return rrs
	}
	return append(dst, rrs...)
}

// owned appends rrs to dst with owner as their owner name. Records already
// owned by that exact name are shared, not copied; the snapshot's slices
// are clipped, so appending to a shared slice never writes into them.
func owned(dst, rrs []dns.RR, owner string) []dns.RR {
	if len(rrs) == 0 {
		return dst
	}
	if rrs[0].Header().Name == owner {
		if dst == nil {
			return rrs
		}
		return append(dst, rrs...)
	}
	for _, rr := range rrs {
		dst = append(dst, withOwner(rr, owner))
	}
	return dst
}

// withOwner returns a shallow copy of rr owned by owner. The copy is made
// per concrete type because dns.Copy deep-copies every field, which costs
// allocations on the hot path of wildcard and case-echoing answers; the
// shared rdata is never modified.
func withOwner(rr dns.RR, owner string) dns.RR {
	var c dns.RR
	switch v := rr.(type) {
	case *dns.A:
		x := *v
		c = &x
	case *dns.AAAA:
		x := *v
		c = &x
	case *dns.CNAME:
		x := *v
		c = &x
	case *dns.MX:
		x := *v
		c = &x
	case *dns.TXT:
		x := *v
		c = &x
	case *dns.NS:
		x := *v
		c = &x
	case *dns.SRV:
		x := *v
		c = &x
	case *dns.CAA:
		x := *v
		c = &x
	case *dns.SOA:
		x := *v
		c = &x
	default:
		c = dns.Copy(rr)
	}
	c.Header().Name = owner
	return c
}

// labelStarts stores the offset of each label of name (fully qualified,
// presentation format, escapes allowed) in offs and returns their count.
func labelStarts(name string, offs *[128]int) int {
	if name == "" || name == "." {
		return 0
	}
	n := 1
	offs[0] = 0
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '\\':
			if i+3 < len(name) && isDigit(name[i+1]) && isDigit(name[i+2]) && isDigit(name[i+3]) {
				i += 3
			} else {
				i++
			}
		case '.':
			if i+1 < len(name) && n < len(offs) {
				offs[n] = i + 1
				n++
			}
		}
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lowerASCII returns s with ASCII letters in lower case, without allocating
// when it has none in upper case. (DNS compares names ASCII-case-
// insensitively; other bytes appear escaped in presentation format.)
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] >= 'A' && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if ca >= 'A' && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if cb >= 'A' && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return false
		}
	}
	return true
}
