package dnsserver

import (
	"slices"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/zone"
)

// change is one step of the zones' history, from one serial to the next:
// what each zone lost and gained (zones without a difference are absent;
// their SOA moved all the same). IXFR answers from these (RFC 1995).
type change struct {
	from, to uint32
	zones    map[string]*zoneDiff
	// whole are the zones this change served anew (an extension added):
	// an IXFR across it sends the whole zone.
	whole map[string]bool
}

type zoneDiff struct {
	deleted, added []dns.RR
}

// DefaultHistory is how many changes a snapshot keeps for IXFR.
const DefaultHistory = 1000

// apply returns the snapshot that follows s once c is applied: every zone
// gets c's serial, and the domains c names are built again from their
// records now (or removed); every other domain is shared with s. The
// difference of each domain goes into the history, which keeps the last
// keep changes. Records that cannot be served are left out and reported
// in skipped, as NewSnapshot does.
func (s *Snapshot) apply(c *zone.Changes, keep int) (next *Snapshot, skipped []error) {
	next = &Snapshot{zones: make(map[string]*servedZone, len(s.zones)), loaded: true,
		versions: c.Versions, serial: c.Serial, nextExpiry: c.NextExpiry, catalogMembers: s.catalogMembers, durable: s.durable,
		signedDurable: s.signedDurable}
	step := &change{from: s.serial, to: c.Serial, zones: map[string]*zoneDiff{}}
	byZone := make(map[string][]zone.ChangedDomain)
	for _, d := range c.Domains {
		byZone[d.Origin] = append(byZone[d.Origin], d)
	}
	// The zones to serve, when the catalog moved.
	var now map[string]*zone.ZoneData
	if c.Zones != nil {
		// An answer may depend on which zones are served (a CNAME to a
		// name outside them is not followed): start the durable cache
		// again. Catalog changes are rare.
		next.durable = &packetCache{durable: true}
		next.signedDurable = &packetCache{durable: true}
		now = make(map[string]*zone.ZoneData, len(c.Zones))
		for i := range c.Zones {
			now[c.Zones[i].Origin] = &c.Zones[i]
		}
	}
	for origin, z := range s.zones {
		if z.catalog {
			next.zones[origin] = z // changes with the set of zones only (see Server.addCatalog)
			continue
		}
		nz := z.withSerial(c.Serial)
		diff := &zoneDiff{}
		if now != nil {
			zd := now[origin]
			if zd == nil {
				continue // no longer served
			}
			ns := apexNameservers(*zd)
			if !slices.Equal(ns, z.nameservers) || zd.Unsigned != z.unsigned {
				nz = zoneApex(*zd, c.Serial) // without a key: withKeys gives it one if signed
				nz.domains = z.domains
				if !slices.Equal(ns, z.nameservers) {
					diff.deleted = append(diff.deleted, z.apex.set(dns.TypeNS)...)
					diff.added = append(diff.added, nz.apex.set(dns.TypeNS)...)
				}
			}
			if zd.Unsigned != z.unsigned {
				// Signed or unsigned, the zone's transfer is another
				// (DNSKEY, RRSIGs, NSEC chain): IXFR sends it whole.
				if step.whole == nil {
					step.whole = map[string]bool{}
				}
				step.whole[origin] = true
			}
		}
		if changed := byZone[origin]; len(changed) > 0 {
			nz.domains = z.domains.clone()
			for _, cd := range changed {
				name := cd.Name + "." + origin
				var rrs []dns.RR // the domain's own: see buildDomain
				rrs, skipped = domainRRs(make([]dns.RR, 0, len(cd.Records)), origin, cd.Name, cd.Records, skipped)
				var built *domain
				if len(rrs) > 0 {
					built = nz.buildDomain(name, rrs)
				}
				old := z.domains.get(name)
				nz.domains.set(name, built)
				diff.add(old, built)
			}
		}
		if len(diff.deleted)+len(diff.added) > 0 {
			step.zones[origin] = diff
		}
		nz.finishApex()
		next.zones[origin] = nz
	}
	// Zones served anew, each with its domains as they are now (the
	// journal's rows for them are in that already).
	for _, zd := range c.Zones {
		if old := s.zones[zd.Origin]; old != nil && !old.catalog {
			continue
		}
		b := &builder{snap: next}
		next.zones[zd.Origin] = zoneApex(zd, c.Serial)
		for _, d := range zd.Domains {
			b.domain(zd.Origin, d)
		}
		next.zones[zd.Origin].finishApex()
		skipped = append(skipped, b.skipped...)
		if step.whole == nil {
			step.whole = map[string]bool{}
		}
		step.whole[zd.Origin] = true
	}
	if s.serial != c.Serial && keep > 0 {
		history := s.history
		if len(history) >= keep {
			history = history[len(history)-keep+1:]
		}
		next.history = append(slices.Clip(history), step)
	}
	return next, skipped
}

// add records what turned domain old into domain built (either may be
// nil): the records only old has are deleted, those only built has added.
// Records are the same when their data and TTL are (a TTL change is a
// deletion and an addition, as RFC 1995 has it). Both domains' nodes are
// sorted by name, so one merge pass finds the names to compare.
func (d *zoneDiff) add(old, built *domain) {
	var before, after []*node
	if old != nil {
		before = old.nodes
	}
	if built != nil {
		after = built.nodes
	}
	i, j := 0, 0
	for i < len(before) || j < len(after) {
		switch {
		case j == len(after) || i < len(before) && before[i].name < after[j].name:
			d.deleted = appendNode(d.deleted, before[i])
			i++
		case i == len(before) || after[j].name < before[i].name:
			d.added = appendNode(d.added, after[j])
			j++
		default:
			d.deleted = appendMissing(d.deleted, before[i], after[j])
			d.added = appendMissing(d.added, after[j], before[i])
			i, j = i+1, j+1
		}
	}
}

// appendNode appends the records of n's sets to out.
func appendNode(out []dns.RR, n *node) []dns.RR {
	for _, set := range n.sets {
		out = append(out, set.records()...)
	}
	return out
}

// appendMissing appends the records of n that other (a node of the same
// name) does not have, with the same TTL.
func appendMissing(out []dns.RR, n, other *node) []dns.RR {
	for _, set := range n.sets {
		theirs := other.set(set.rtype)
		if sameRecords(set.records(), theirs) {
			continue // the usual case, in the order both were built
		}
		for _, rr := range set.records() {
			found := false
			for _, o := range theirs {
				if o.Header().Ttl == rr.Header().Ttl && dns.IsDuplicate(o, rr) {
					found = true
					break
				}
			}
			if !found {
				out = append(out, rr)
			}
		}
	}
	return out
}

// sameRecords reports whether a and b hold the same records in the same
// order, with the same TTLs.
func sameRecords(a, b []dns.RR) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Header().Ttl != b[i].Header().Ttl || !dns.IsDuplicate(a[i], b[i]) {
			return false
		}
	}
	return true
}
