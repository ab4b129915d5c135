package dnsserver

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/dnssec"
)

// Online DNSSEC signing (RFC 4033-4035). Each zone's key (dnssec.Key, a
// CSK) is published as the DNSKEY set at its apex, a record set like the
// others, so that plain queries get it from the packet cache and NODATA
// proofs list it. A query with the DO bit gets its answer signed here: an
// RRSIG for each record set of the answer and authority sections, their
// signatures cached by content (sigCache); and the packed signed answers
// are cached beside the plain ones (cachedSigned), whose cache stays
// exactly as it was.
//
// Denial of existence is compact (RFC 9824, "black lies"), which an online
// signer can give without a chain of names: a name that does not exist
// gets NOERROR and an NSEC owned by the name itself whose next name is its
// immediate successor and whose types are RRSIG, NSEC and NXNAME; a name
// without the type asked gets an NSEC of its types; a referral gets the
// delegation's signed DS set (zone.AddDS), or else its NSEC (NS, without
// DS), so that the child is provably unsigned. An answer from a wildcard is
// signed as if its name existed (as Cloudflare does): nothing needs to
// prove that the name asked is absent.
//
// Zone transfers of a signed zone carry it signed, with an NSEC chain
// rather than compact denial (signzone.go).

// KeySource returns the signing keys of zones (origins), making the ones
// that are missing: dnssec.Store.Keys.
type KeySource func(ctx context.Context, zones []string) ([]*dnssec.ZoneKeys, error)

// WithDNSSEC signs the zones with the keys of keys (see sign.go): every
// zone but the catalog zone.
func WithDNSSEC(keys KeySource) Option {
	return func(o *options) { o.keys = keys }
}

// Signature validity: a signature is valid from an hour back (clocks of
// validators running late) for a week, and made anew once it is a day old,
// so that what a resolver caches (for a TTL, a day at most) is always valid
// for days more. WithSignatureTimes changes the week and the day.
const (
	sigInception = time.Hour
	sigValidity  = 7 * 24 * time.Hour
	sigRefresh   = 24 * time.Hour
	// sigCacheMax bounds the signatures kept; when full, the cache starts
	// again (the signatures of changed record sets are dead weight).
	sigCacheMax = 1 << 18
)

// WithSignatureTimes makes signatures valid for validity and made anew
// once refresh old (defaults: a week and a day). config checks that
// validity-refresh outlasts what a resolver caches.
func WithSignatureTimes(validity, refresh time.Duration) Option {
	return func(o *options) { o.sigValidity, o.sigRefresh = validity, refresh }
}

// withKeys gives each zone of snap (but the catalog zone) its keys and
// DNSKEY set (and CDS and CDNSKEY during a KSK rollover), asking the key
// source for the zones it has no keys for yet, and again for reread
// (origins whose keys may have changed: a rollover moved their serial, or
// a full load, which reads everything again).
// Zones carried over from the snapshot before have them already; the
// others are copied before they are written to, so that a published
// snapshot is never modified.
func (s *Server) withKeys(ctx context.Context, snap *Snapshot, reread []string) error {
	if s.opts.keys == nil {
		return nil
	}
	s.keysMu.Lock()
	defer s.keysMu.Unlock()
	for _, origin := range reread {
		delete(s.zoneKeys, origin)
	}
	var missing []string
	for origin, z := range snap.zones {
		if !z.catalog && !z.unsigned && s.zoneKeys[origin] == nil {
			missing = append(missing, origin)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		keys, err := s.opts.keys(ctx, missing)
		if err != nil {
			return fmt.Errorf("dnsserver: dnssec keys: %w", err)
		}
		if s.zoneKeys == nil {
			s.zoneKeys = map[string]*dnssec.ZoneKeys{}
		}
		for _, k := range keys {
			s.zoneKeys[k.Zone] = k
		}
	}
	for origin, z := range snap.zones {
		k := s.zoneKeys[origin]
		if z.catalog || z.unsigned || k == nil || z.keys == k {
			continue
		}
		c := *z
		apex := *z.apex
		apex.sets = slices.DeleteFunc(slices.Clone(z.apex.sets), func(set rrset) bool {
			return set.rtype == dns.TypeDNSKEY || set.rtype == dns.TypeCDS || set.rtype == dns.TypeCDNSKEY
		})
		apex.sets = append(apex.sets, rrset{rtype: dns.TypeDNSKEY, n: uint32(len(k.DNSKEYs)), rrs: k.DNSKEYs})
		for _, t := range []uint16{dns.TypeCDS, dns.TypeCDNSKEY} {
			var rrs []dns.RR
			for _, rr := range k.CDS {
				if rr.Header().Rrtype == t {
					rrs = append(rrs, rr)
				}
			}
			if len(rrs) > 0 {
				apex.sets = append(apex.sets, rrset{rtype: t, n: uint32(len(rrs)), rrs: rrs})
			}
		}
		// In typeRank order, as finishSets sorts (which would also drop
		// the NS set's additional addresses kept after its records).
		slices.SortStableFunc(apex.sets, func(a, b rrset) int { return typeRank(a.rtype) - typeRank(b.rtype) })
		c.apex, c.keys = &apex, k
		snap.zones[origin] = &c
	}
	return nil
}

// signAnswer adds the DNSSEC records to resp, the answer to req (with the
// DO bit) from snap; answers from zones without a key stay as they are.
func (s *Server) signAnswer(snap *Snapshot, req, resp *dns.Msg) {
	s.signAnswerAt(snap, req, resp, time.Now())
}

// signAnswerAt is signAnswer at now.
func (s *Server) signAnswerAt(snap *Snapshot, req, resp *dns.Msg, now time.Time) {
	if resp.Rcode != dns.RcodeSuccess && resp.Rcode != dns.RcodeNameError || len(req.Question) != 1 {
		return
	}
	qname := req.Question[0].Name
	// The name the answer ends at: the question's, or the last CNAME's
	// target (RFC 6604: the rcode and the proofs are that name's).
	final := qname
	if n := len(resp.Answer); n > 0 {
		if c, ok := resp.Answer[n-1].(*dns.CNAME); ok {
			final = c.Target
		}
	}
	var ns []dns.RR
	switch {
	case resp.Rcode == dns.RcodeNameError:
		z, _ := snap.findZone(lowerASCII(final))
		if z == nil || z.keys == nil {
			break
		}
		resp.Rcode = dns.RcodeSuccess
		ns = append(ns, denial(z, final, []uint16{dns.TypeRRSIG, dns.TypeNSEC, dns.TypeNXNAME}))
	case hasType(resp.Ns, dns.TypeSOA): // NODATA
		z, _ := snap.findZone(lowerASCII(final))
		if z == nil || z.keys == nil {
			break
		}
		ns = append(ns, denial(z, final, snap.typesAt(z, lowerASCII(final))))
	}
	// Referrals: the NSEC of each delegation, proving it has no DS.
	for _, rr := range resp.Ns {
		if rr.Header().Rrtype != dns.TypeNS {
			continue
		}
		owner := rr.Header().Name
		if slices.ContainsFunc(ns, func(have dns.RR) bool { return equalFoldASCII(have.Header().Name, owner) }) {
			continue
		}
		z, _ := snap.findZone(lowerASCII(owner))
		if z == nil || z.keys == nil || lowerASCII(owner) == z.origin || hasDS(resp.Ns, owner) {
			continue // a delegation with DS: its signed DS set is the proof
		}
		ns = append(ns, denial(z, owner, snap.typesAt(z, lowerASCII(owner))))
	}
	resp.Answer = s.signSets(snap, resp.Answer, now)
	resp.Ns = s.signSets(snap, append(slices.Clip(resp.Ns), ns...), now)
	// The addresses in the additional section are signed too (RFC 4035
	// 3.1.1), but for glue; the OPT record stays last.
	var opt []dns.RR
	extra := make([]dns.RR, 0, len(resp.Extra))
	for _, rr := range resp.Extra {
		if rr.Header().Rrtype == dns.TypeOPT {
			opt = append(opt, rr)
		} else {
			extra = append(extra, rr)
		}
	}
	resp.Extra = append(s.signSets(snap, extra, now), opt...)
}

// hasDS reports whether rrs hold a DS record owned by owner.
func hasDS(rrs []dns.RR, owner string) bool {
	return slices.ContainsFunc(rrs, func(rr dns.RR) bool {
		return rr.Header().Rrtype == dns.TypeDS && equalFoldASCII(rr.Header().Name, owner)
	})
}

func hasType(rrs []dns.RR, t uint16) bool {
	return slices.ContainsFunc(rrs, func(rr dns.RR) bool { return rr.Header().Rrtype == t })
}

// denial returns the NSEC of compact denial for name in z: owned by name,
// next name its immediate successor (RFC 4034 6.1: \000.name), with types.
// The next name is in lower case, whatever the question's case: it is not
// compressed, so the cached signed answers (canonicalSigned, made from the
// question in upper case) could not echo the question's case there.
func denial(z *servedZone, name string, types []uint16) dns.RR {
	next := successor(lowerASCII(name))
	return &dns.NSEC{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeNSEC, Class: dns.ClassINET, Ttl: z.negSOA[0].Header().Ttl},
		NextDomain: next, TypeBitMap: types}
}

// typesAt returns the types at lname (lower case) in z, for an NSEC: those
// of its node (of the wildcard that stands for it), with RRSIG and NSEC;
// only those two for an empty non-terminal, or a name that does not exist.
func (s *Snapshot) typesAt(z *servedZone, lname string) []uint16 {
	types := []uint16{dns.TypeRRSIG, dns.TypeNSEC}
	switch n := z.nodeAt(lname); {
	case n == nil:
	case n.cut && n != z.apex:
		// The parent's side of a delegation: NS and DS; the addresses
		// there are glue, the child's.
		types = append(types, dns.TypeNS)
		if n.find(dns.TypeDS) != nil {
			types = append(types, dns.TypeDS)
		}
	default:
		for _, set := range n.sets {
			types = append(types, set.rtype)
		}
	}
	slices.Sort(types)
	return slices.Compact(types)
}

// nodeAt returns the node that answers for lname (lower case, in z): its
// own, the delegation above it, or the wildcard of its closest encloser;
// nil when there is none. It walks down as resolve does.
func (z *servedZone) nodeAt(lname string) *node {
	var offs [128]int
	n := labelStarts(lname, &offs)
	k := n
	if z.origin != "." {
		k = n - dns.CountLabel(z.origin)
	}
	closest := z.apex
	var dom *domain
	for i := k - 1; i >= 0; i-- {
		var child *node
		if dom == nil {
			if dom = z.domains.get(lname[offs[i]:]); dom != nil {
				child = dom.apex
			}
		} else {
			child = dom.find(lname[offs[i]:])
		}
		if child == nil {
			return closest.wildcard
		}
		closest = child
		if child.cut {
			return child
		}
	}
	return closest
}

// signSets returns rrs with each record set followed by its signature, by
// the key of the zone that holds it. What is at or below a delegation (its
// NS set, glue) is the child's, not ours to sign (RFC 4035 2.2), but for
// the NSEC (and DS) at the delegation itself. rrs may be the snapshot's: a
// new slice is returned.
func (s *Server) signSets(snap *Snapshot, rrs []dns.RR, now time.Time) []dns.RR {
	if len(rrs) == 0 {
		return rrs
	}
	out := make([]dns.RR, 0, len(rrs)+4)
	for start := 0; start < len(rrs); {
		end := start + 1
		for end < len(rrs) && sameSet(rrs[end], rrs[start]) {
			end++
		}
		set := rrs[start:end:end]
		out = append(out, set...)
		start = end
		h := set[0].Header()
		z, _ := snap.findZone(lowerASCII(h.Name))
		if z == nil || z.keys == nil || h.Rrtype == dns.TypeRRSIG {
			continue
		}
		if h.Rrtype != dns.TypeNSEC && h.Rrtype != dns.TypeDS {
			if n := z.nodeAt(lowerASCII(h.Name)); n != nil && n.cut && n != z.apex {
				continue
			}
		}
		for _, k := range z.keys.SignersOf(h.Rrtype, equalFoldASCII(h.Name, z.origin)) {
			if sig := s.sigs.signature(k, set, now); sig != nil {
				out = append(out, sig)
			} else {
				s.logger.Warn("dnssec: signing failed", "name", h.Name, "type", dns.TypeToString[h.Rrtype])
			}
		}
	}
	return out
}

// sigCache keeps the signature of each record set signed, by the key and
// the set's content (owner in lower case, type, TTL, data): a record set
// changed gets another key, so a new signature; an unchanged one is signed
// again only when its signature is sigRefresh old.
//
// Zone transfers keep theirs apart (zones): a whole zone's signatures
// would fill the answers' cache, and a zone larger than it would be
// signed anew at each transfer.
type sigCache struct {
	// validity and refresh are the signatures' times (WithSignatureTimes);
	// zero: sigValidity and sigRefresh.
	validity, refresh time.Duration

	mu sync.Mutex
	m  map[string]*dns.RRSIG
	// zones holds, by origin, the signatures of the zone's last transfer
	// (see zoneSigner).
	zones map[string]map[string]*dns.RRSIG
	// versions holds, by origin, the zone as its last transfers sent it
	// signed, newest last (see signedIXFR).
	versions map[string][]signedVersion
}

// signature returns the RRSIG of set (one record set, owned as the answer
// has it) by k, or nil if it cannot be signed.
func (c *sigCache) signature(k *dnssec.Key, set []dns.RR, now time.Time) *dns.RRSIG {
	key := sigKey(k, set)
	if key == "" {
		return nil
	}
	c.mu.Lock()
	sig := c.m[key]
	c.mu.Unlock()
	if c.stale(sig, now) {
		if sig = c.sign(k, set, now); sig == nil {
			return nil
		}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= sigCacheMax {
			c.m = map[string]*dns.RRSIG{}
		}
		c.m[key] = sig
		c.mu.Unlock()
	}
	return ownedAs(sig, set)
}

// times returns the signatures' validity and refresh.
func (c *sigCache) times() (validity, refresh time.Duration) {
	if c.validity == 0 {
		return sigValidity, sigRefresh
	}
	return c.validity, c.refresh
}

// freshFor is how long a signature stays fresh: it is made anew once it
// has less than this left.
func (c *sigCache) freshFor() time.Duration {
	validity, refresh := c.times()
	return validity - refresh
}

// stale reports whether sig is missing or due to be made anew.
func (c *sigCache) stale(sig *dns.RRSIG, now time.Time) bool {
	return sig == nil || int64(sig.Expiration)-now.Unix() < int64(c.freshFor()/time.Second)
}

// sign returns the RRSIG of set by k made at now, or nil if it cannot be
// signed.
func (c *sigCache) sign(k *dnssec.Key, set []dns.RR, now time.Time) *dns.RRSIG {
	validity, _ := c.times()
	sig := &dns.RRSIG{Algorithm: k.DNSKEY.Algorithm, KeyTag: k.Tag(), SignerName: k.Zone,
		Inception: uint32(now.Add(-sigInception).Unix()), Expiration: uint32(now.Add(validity).Unix())}
	sig.Hdr.Ttl = set[0].Header().Ttl
	if err := sig.Sign(k.Signer, set); err != nil {
		return nil
	}
	return sig
}

// ownedAs returns sig owned by the name set has (as the question spelled
// it), copied if it is owned otherwise.
func ownedAs(sig *dns.RRSIG, set []dns.RR) *dns.RRSIG {
	if owner := set[0].Header().Name; sig.Hdr.Name != owner {
		c := *sig
		c.Hdr.Name = owner
		return &c
	}
	return sig
}

// zoneSigner signs one transfer of a zone: with the signatures of the
// zone's last transfer where they are still good, keeping those it gives
// for the next (done). Two transfers of a zone at once each keep theirs;
// the last done wins.
type zoneSigner struct {
	c         *sigCache
	keys      *dnssec.ZoneKeys
	old, next map[string]*dns.RRSIG
}

func (c *sigCache) zoneSigner(keys *dnssec.ZoneKeys) *zoneSigner {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.zones[keys.Zone]
	return &zoneSigner{c: c, keys: keys, old: old, next: make(map[string]*dns.RRSIG, len(old))}
}

// signature returns the RRSIG of set by k (one of the zone's keys), or nil
// if it cannot be signed.
func (z *zoneSigner) signature(k *dnssec.Key, set []dns.RR, now time.Time) *dns.RRSIG {
	key := sigKey(k, set)
	if key == "" {
		return nil
	}
	sig := z.old[key]
	if z.c.stale(sig, now) {
		if sig = z.c.sign(k, set, now); sig == nil {
			return nil
		}
	}
	z.next[key] = sig
	return ownedAs(sig, set)
}

// done keeps the transfer's signatures for the zone's next one.
func (z *zoneSigner) done() {
	z.c.mu.Lock()
	defer z.c.mu.Unlock()
	if z.c.zones == nil {
		z.c.zones = map[string]map[string]*dns.RRSIG{}
	}
	z.c.zones[z.keys.Zone] = z.next
}

// sigKey is the cache key of set's signature by k: the key's tag, then the
// set in wire format with its owner in lower case.
func sigKey(k *dnssec.Key, set []dns.RR) string {
	buf := make([]byte, 0, 256)
	buf = binary.BigEndian.AppendUint16(buf, k.Tag())
	buf = append(buf, k.Zone...)
	buf = append(buf, 0)
	buf = append(buf, lowerASCII(set[0].Header().Name)...)
	buf = append(buf, 0)
	size := 0
	for _, rr := range set {
		size = max(size, dns.Len(rr))
	}
	wire := make([]byte, size+64)
	for _, rr := range set {
		off, err := dns.PackRR(rr, wire, 0, nil, false)
		if err != nil {
			return ""
		}
		// Skip the owner (written above, in lower case) to type, class,
		// TTL, length and data.
		nameEnd, err := skipName(wire[:off])
		if err != nil {
			return ""
		}
		buf = append(buf, wire[nameEnd:off]...)
	}
	return string(buf)
}

// skipName returns the offset just past the uncompressed name at the start
// of wire.
func skipName(wire []byte) (int, error) {
	off := 0
	for off < len(wire) {
		l := int(wire[off])
		if l == 0 {
			return off + 1, nil
		}
		off += 1 + l
	}
	return 0, fmt.Errorf("dnsserver: name runs past its record")
}

// dnssecOK reports whether req has the DO bit (RFC 3225).
func dnssecOK(req *dns.Msg) bool {
	opt := req.IsEdns0()
	return opt != nil && opt.Do()
}

// successor returns the name that follows name in canonical order (RFC
// 4034 6.1): \000.name, or, when that would be longer than a name may
// be, name with the last byte of its first label one higher (RFC 4471
// 3.1.2), which is still after it and before its other successors.
func successor(name string) string {
	next := "\\000." + name
	var wire [512]byte // room for a name longer than allowed, to see it is
	if n, err := dns.PackDomainName(next, wire[:], 0, nil, false); err == nil && n <= 255 {
		return next
	}
	n, err := dns.PackDomainName(name, wire[:], 0, nil, false)
	if err != nil || n < 2 || wire[0] == 0 {
		return next
	}
	if last := &wire[wire[0]]; *last < 0xff {
		*last++
	}
	out, _, err := dns.UnpackDomainName(wire[:n], 0)
	if err != nil {
		return next
	}
	return out
}
