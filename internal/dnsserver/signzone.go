package dnsserver

import (
	"bytes"
	"slices"
	"time"

	"github.com/miekg/dns"
)

// Signed zone transfers. Answers to queries are signed one by one, with
// compact denial (sign.go); a secondary (or anyone checking the zone
// offline, as ldns-verify-zone and kzonecheck do) needs the zone whole
// instead: the DNSKEY set, an RRSIG over every record set the zone is
// authoritative for, and a chain of NSEC records (RFC 4034 4) from the
// apex through every authoritative name back to the apex, so that it can
// deny names itself. transferRecords makes that from the snapshot's zone;
// the signatures of a zone's last transfer are kept (sigCache.zoneSigner,
// by content), so that a transfer signs again only what changed since the
// last one (and the NSEC records, which change only when a neighbour
// does) and what is due to be signed anew.

// transferRecords returns the records of an AXFR of z, SOA first (the
// caller ends with the SOA again): the zone as it is for an unsigned
// zone, the zone signed with its NSEC chain for a signed one.
func (s *Server) transferRecords(z *servedZone, now time.Time) []dns.RR {
	records := z.records()
	if z.keys == nil {
		return records
	}
	signed := s.signZone(z, records, now)
	s.sigs.keepVersion(z.origin, z.soa.Serial, signed)
	return signed
}

// signedVersionsKept is how many signed versions of a zone are kept for
// IXFR: the secondaries of a zone are usually at the serial of its last
// transfer, or the one before.
const signedVersionsKept = 2

// signedVersion is a signed zone as a transfer sent it (SOA first). Its
// records are mostly the snapshot's and the signature cache's (shared).
type signedVersion struct {
	serial  uint32
	records []dns.RR
}

// keepVersion keeps records, the signed zone origin at serial as a
// transfer sent it, for the IXFRs from serial to come.
func (c *sigCache) keepVersion(origin string, serial uint32, records []dns.RR) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.versions == nil {
		c.versions = map[string][]signedVersion{}
	}
	kept := slices.DeleteFunc(slices.Clone(c.versions[origin]), func(v signedVersion) bool { return v.serial == serial })
	kept = append(kept, signedVersion{serial, records})
	if len(kept) > signedVersionsKept {
		kept = kept[len(kept)-signedVersionsKept:]
	}
	c.versions[origin] = kept
}

// signedIXFR returns the records of an incremental transfer of the signed
// zone z to a client at serial (RFC 1995 4): the difference between the
// zone as a transfer from this server sent it signed at serial and the
// zone signed now, as one change (a server may condense changes); nil when
// no transfer from this server sent it at serial: send the whole zone.
// Unchanged record sets keep their signatures (zoneSigner), so that the
// difference is the changed sets, their signatures, the NSEC records
// around them and the SOA's signature. A secondary whose copy came from
// another node (whose signatures differ) finds deletions it cannot apply,
// and falls back to AXFR.
func (s *Server) signedIXFR(z *servedZone, serial uint32, now time.Time) []dns.RR {
	s.sigs.mu.Lock()
	var old []dns.RR
	for _, v := range s.sigs.versions[z.origin] {
		if v.serial == serial {
			old = v.records
		}
	}
	s.sigs.mu.Unlock()
	if old == nil {
		return nil
	}
	current := s.transferRecords(z, now)
	deleted, added := difference(old[1:], current[1:]) // less the SOA, which brackets the change
	out := make([]dns.RR, 0, len(deleted)+len(added)+4)
	out = append(out, z.soa, soaAt(z, serial))
	out = append(out, deleted...)
	out = append(out, z.soa)
	out = append(out, added...)
	return append(out, z.soa)
}

// difference returns the records of old that are not in now, and those of
// now not in old. Records shared by both (the same pointer: unchanged
// domains, kept signatures) are set aside first; the rest are compared by
// content.
func difference(old, now []dns.RR) (deleted, added []dns.RR) {
	inNow := make(map[dns.RR]bool, len(now))
	for _, rr := range now {
		inNow[rr] = true
	}
	inOld := make(map[dns.RR]bool, len(old))
	var oldRest, nowRest []dns.RR
	for _, rr := range old {
		inOld[rr] = true
		if !inNow[rr] {
			oldRest = append(oldRest, rr)
		}
	}
	for _, rr := range now {
		if !inOld[rr] {
			nowRest = append(nowRest, rr)
		}
	}
	texts := func(rrs []dns.RR) map[string]bool {
		m := make(map[string]bool, len(rrs))
		for _, rr := range rrs {
			m[rr.String()] = true
		}
		return m
	}
	oldTexts, nowTexts := texts(oldRest), texts(nowRest)
	for _, rr := range oldRest {
		if !nowTexts[rr.String()] {
			deleted = append(deleted, rr)
		}
	}
	for _, rr := range nowRest {
		if !oldTexts[rr.String()] {
			added = append(added, rr)
		}
	}
	return deleted, added
}

// owner is one name of a zone and its records, in the order the zone had
// them (record sets together).
type owner struct {
	name string // lower case
	key  []byte // canonicalKey(name)
	rrs  []dns.RR
}

// signZone returns records (the whole zone z, SOA first) signed by z.keys:
// by name in canonical order (RFC 4034 6.1), each name's record sets each
// followed by its RRSIG, then its NSEC and that NSEC's RRSIG. What is
// below a delegation (glue) is the child's: neither signed nor in the
// chain; at the delegation itself only the DS set (and the NSEC) is
// signed, the NS set and any address there being the child's too (RFC
// 4035 2.2).
func (s *Server) signZone(z *servedZone, records []dns.RR, now time.Time) []dns.RR {
	byName := map[string]*owner{}
	var owners []*owner
	add := func(rr dns.RR) {
		name := lowerASCII(rr.Header().Name)
		o := byName[name]
		if o == nil {
			o = &owner{name: name, key: canonicalKey(name)}
			byName[name] = o
			owners = append(owners, o)
		}
		o.rrs = append(o.rrs, rr)
	}
	for _, rr := range records {
		add(rr)
	}
	for _, rr := range z.keys.DNSKEYs {
		add(rr)
	}
	for _, rr := range z.keys.CDS {
		add(rr)
	}
	slices.SortFunc(owners, func(a, b *owner) int { return bytes.Compare(a.key, b.key) })

	// Delegations: names with NS but the apex; below them, glue.
	cuts := map[string]bool{}
	for _, o := range owners {
		if o.name != z.origin && slices.ContainsFunc(o.rrs, func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeNS }) {
			cuts[o.name] = true
		}
	}
	glue := func(name string) bool {
		for off, end := dns.NextLabel(name, 0); !end; off, end = dns.NextLabel(name, off) {
			parent := name[off:]
			if parent == z.origin || len(parent) < len(z.origin) {
				return false
			}
			if cuts[parent] {
				return true
			}
		}
		return false
	}
	var chain []*owner // the authoritative names, in canonical order
	for _, o := range owners {
		if !glue(o.name) {
			chain = append(chain, o)
		}
	}
	nsecTTL := z.negSOA[0].Header().Ttl
	signer := s.sigs.zoneSigner(z.keys)
	defer signer.done()

	out := make([]dns.RR, 0, len(records)*3)
	next := 0 // index in chain of the next authoritative name
	for _, o := range owners {
		if next >= len(chain) || chain[next] != o {
			out = append(out, o.rrs...) // glue, as it is
			continue
		}
		cut := cuts[o.name]
		types := []uint16{dns.TypeRRSIG, dns.TypeNSEC}
		for start := 0; start < len(o.rrs); {
			end := start + 1
			for end < len(o.rrs) && o.rrs[end].Header().Rrtype == o.rrs[start].Header().Rrtype {
				end++
			}
			set := o.rrs[start:end:end]
			start = end
			out = append(out, set...)
			t := set[0].Header().Rrtype
			if cut && t != dns.TypeNS && t != dns.TypeDS {
				continue // an address at the delegation: the child's
			}
			types = append(types, t)
			if cut && t == dns.TypeNS {
				continue
			}
			out = s.appendSignatures(out, signer, set, o.name == z.origin, now)
		}
		next++
		slices.Sort(types)
		nsec := &dns.NSEC{Hdr: dns.RR_Header{Name: o.name, Rrtype: dns.TypeNSEC, Class: dns.ClassINET, Ttl: nsecTTL},
			NextDomain: chain[next%len(chain)].name, TypeBitMap: slices.Compact(types)}
		out = append(out, nsec)
		out = s.appendSignatures(out, signer, []dns.RR{nsec}, false, now)
	}
	return out
}

// appendSignatures appends the RRSIGs of set (at the apex or not) by
// signer's keys to out; a set that cannot be signed is logged and left
// unsigned (a validator then finds it bogus, as it would the answer).
func (s *Server) appendSignatures(out []dns.RR, signer *zoneSigner, set []dns.RR, apex bool, now time.Time) []dns.RR {
	for _, k := range signer.keys.SignersOf(set[0].Header().Rrtype, apex) {
		if sig := signer.signature(k, set, now); sig != nil {
			out = append(out, sig)
			continue
		}
		h := set[0].Header()
		s.logger.Warn("dnssec: signing failed", "name", h.Name, "type", dns.TypeToString[h.Rrtype])
	}
	return out
}

// canonicalKey returns a byte string whose order is the canonical order
// of names (RFC 4034 6.1): the labels from the right, in lower case, each
// compared as octets, a label before those it is a prefix of. Each octet
// b is written as 1, b and each label ends with 0, so that a label ends
// before any octet that would continue it. Names are compared by these
// keys rather than by their text, whose escapes (\000, \.) would order
// otherwise.
func canonicalKey(name string) []byte {
	var wire [256]byte
	n, err := dns.PackDomainName(dns.Fqdn(name), wire[:], 0, nil, false)
	if err != nil {
		return []byte(name) // not a name a zone holds; any order will do
	}
	var starts []int
	for off := 0; off < n && wire[off] != 0; off += int(wire[off]) + 1 {
		starts = append(starts, off)
	}
	key := make([]byte, 0, 2*n)
	for i := len(starts) - 1; i >= 0; i-- {
		label := wire[starts[i]+1 : starts[i]+1+int(wire[starts[i]])]
		for _, b := range label {
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			key = append(key, 1, b)
		}
		key = append(key, 0)
	}
	return key
}
