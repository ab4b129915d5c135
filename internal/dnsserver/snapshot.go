package dnsserver

import (
	"context"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnssec"
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

// Snapshot is the set of zones the server is authoritative for, never
// modified once published; Lookup reads it without locks. A change makes a
// new snapshot that shares every domain it does not touch with the one
// before (see apply). The zero Snapshot has no zones: every name is REFUSED.
type Snapshot struct {
	zones map[string]*servedZone // by lower-case origin ("inf.nz.")

	loaded     bool // built from zone data (NewSnapshot, build, apply)
	versions   zone.Versions
	serial     uint32
	nextExpiry time.Time
	// history holds the changes that led to this snapshot, oldest first,
	// the last one ending at serial: IXFR answers from it (see ixfr.go).
	history []*change
	// catalogMembers are the zones the catalog zone lists (see addCatalog).
	catalogMembers []string

	// cache holds packed answers to plain queries, per (name, type); it
	// belongs to this snapshot and so never holds stale answers. durable
	// holds those that depend on one domain alone, for this snapshot and
	// those that follow it by changes (see packetCache); nil: none.
	cache   packetCache
	durable *packetCache
	// signed and signedDurable are the same for answers with the DO bit,
	// signed (see cachedSigned): apart, so that plain answers keep their
	// room, and emptied when the plain ones are.
	signed        packetCache
	signedDurable *packetCache

	wireOnce  sync.Once
	wireZones map[string]bool // the zones' origins in lower-case wire format
}

// origins returns the origins of the zones s serves.
func (s *Snapshot) origins() []string {
	out := make([]string, 0, len(s.zones))
	for origin := range s.zones {
		out = append(out, origin)
	}
	return out
}

// servedZone is one extension's zone: its apex, rebuilt with every new
// serial, and its domains, each one a subtree shared between snapshots
// until a change touches it.
type servedZone struct {
	origin  string // lower case, fully qualified
	soa     *dns.SOA
	negSOA  []dns.RR // the SOA for negative answers: TTL min(SOA TTL, minimum)
	apex    *node
	domains domainIndex
	// catalog marks the catalog zone (RFC 9432): it changes only with the
	// set of zones, not with their serial.
	catalog bool
	// nameservers are those of the apex (fully qualified, lower case).
	nameservers []string
	// keys sign the zone's answers to queries with the DO bit, and are
	// published as its DNSKEY set (sign.go); nil: unsigned.
	keys *dnssec.ZoneKeys
	// unsigned: the extension has DNSSEC off; the zone gets no key.
	unsigned bool

	// pending holds records added (add) until finish builds the domains.
	pending map[string][]dns.RR
}

// domain is a name directly below a zone's apex (a registered domain) and
// every name under it that exists: a subtree that does not depend on any
// other domain, so that a change rebuilds only the domains it touches.
type domain struct {
	apex  *node
	nodes []*node // sorted by name, the apex among them
}

// find returns the node of name (lower case), or nil.
func (d *domain) find(name string) *node {
	if len(d.nodes) == 1 {
		if d.apex.name == name {
			return d.apex
		}
		return nil
	}
	i, ok := slices.BinarySearchFunc(d.nodes, name, func(n *node, name string) int { return strings.Compare(n.name, name) })
	if !ok {
		return nil
	}
	return d.nodes[i]
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
// domain and kept after the records in the same slice, rrs[n:], which
// costs nothing for the sets without any. Addresses in another domain of
// the zone may change without this one: a set with targets there
// (foreign) looks its addresses up as it answers.
type rrset struct {
	rtype   uint16
	foreign bool
	n       uint32 // the set's own records: rrs[:n]
	rrs     []dns.RR
}

// records returns the set's records, clipped so that appending to them
// never writes into the snapshot.
func (s *rrset) records() []dns.RR { return s.rrs[:s.n:s.n] }

// additional returns the addresses that go with the set in the additional
// section (the end of a clipped slice, so as safe to append to).
func (s *rrset) additional() []dns.RR { return s.rrs[s.n:] }

// additionalIn returns the set's additional addresses, looked up in z now
// when some of its targets are in other domains of z (which makes res
// volatile).
func (s *rrset) additionalIn(z *servedZone, res *Result) []dns.RR {
	if s.foreign {
		res.volatile = true
		return z.additionalFor(s.rtype, s.records(), nil)
	}
	return s.additional()
}

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
	b := newBuilder(data)
	for _, zd := range data.Zones {
		for _, d := range zd.Domains {
			b.domain(zd.Origin, d)
		}
	}
	return b.finish()
}

// builder builds a snapshot domain by domain, as zone.Stream reads them.
type builder struct {
	snap    *Snapshot
	skipped []error
}

// newBuilder starts a snapshot of the zones of head (their domains are
// added by domain).
func newBuilder(head *zone.SnapshotData) *builder {
	snap := &Snapshot{zones: make(map[string]*servedZone, len(head.Zones)), loaded: true,
		versions: head.Versions, serial: head.Serial, nextExpiry: head.NextExpiry, durable: &packetCache{durable: true},
		signedDurable: &packetCache{durable: true}}
	for _, zd := range head.Zones {
		z := zoneApex(zd, head.Serial)
		snap.zones[z.origin] = z
	}
	return &builder{snap: snap}
}

// zoneApex returns the zone of zd with its apex (SOA at serial, NS) and no
// domains.
func zoneApex(zd zone.ZoneData, serial uint32) *servedZone {
	nameservers := apexNameservers(zd)
	z := newZone(zd.Origin, soaFor(zd.Origin, nameservers[0], serial))
	z.nameservers, z.unsigned = nameservers, zd.Unsigned
	for _, ns := range nameservers {
		z.add(&dns.NS{Hdr: dns.RR_Header{Name: zd.Origin, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: nsTTL}, Ns: ns})
	}
	z.finishApex()
	return z
}

// domain adds a domain of the zone origin. A domain without records gets
// no node: the transfer carries nothing for it, so a secondary answers
// NXDOMAIN, and so do we.
func (b *builder) domain(origin string, d zone.DomainData) {
	z := b.snap.zones[origin]
	if z == nil {
		return
	}
	var rrs []dns.RR // the domain's own: see buildDomain
	rrs, b.skipped = domainRRs(make([]dns.RR, 0, len(d.Records)), origin, d.Name, d.Records, b.skipped)
	if len(rrs) > 0 {
		z.domains.set(d.FQDN(origin), z.buildDomain(d.FQDN(origin), rrs))
	}
}

// finish returns the snapshot built, and the records left out.
func (b *builder) finish() (*Snapshot, []error) {
	for _, z := range b.snap.zones {
		z.finishApex() // again: the apex's additional addresses may be in the domains
	}
	return b.snap, b.skipped
}

// source hands the head of a snapshot to start, then each of its domains
// to each, as zone.Stream does: the database (databaseSource) or the
// snapshot file (snapshotFileData.source).
type source func(start func(*zone.SnapshotData) error, each func(origin string, dom zone.DomainData) error) error

// databaseSource reads the zones from d in one pass (zone.Stream).
func databaseSource(ctx context.Context, d *db.DB, now time.Time) source {
	return func(start func(*zone.SnapshotData) error, each func(string, zone.DomainData) error) error {
		return zone.Stream(ctx, d, now, start, each)
	}
}

// build builds a snapshot from src: one goroutine builds domains while the
// other reads the next ones. enc, when not nil, encodes the snapshot file
// of all src gives, beside the builder: the reader is the busier of the
// two when it reads the database.
func build(src source, enc *snapshotEncoder) (*Snapshot, []error, error) {
	type item struct {
		origin string
		dom    zone.DomainData
	}
	const batchSize = 256
	var (
		b       *builder
		batch   []item
		batches = make(chan []item, 16)
		built   = make(chan struct{})
	)
	err := src(func(head *zone.SnapshotData) error {
		b = newBuilder(head)
		if enc != nil {
			enc.start(head)
		}
		go func() {
			defer close(built)
			for batch := range batches {
				for _, it := range batch {
					b.domain(it.origin, it.dom)
					if enc != nil {
						enc.domain(it.origin, it.dom)
					}
				}
			}
		}()
		return nil
	}, func(origin string, dom zone.DomainData) error {
		batch = append(batch, item{origin, dom})
		if len(batch) == batchSize {
			batches <- batch
			batch = make([]item, 0, batchSize)
		}
		return nil
	})
	if b == nil { // src failed before start
		return nil, nil, err
	}
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	<-built
	if err != nil {
		return nil, nil, err
	}
	snap, skipped := b.finish()
	return snap, skipped, nil
}

// apexNameservers are the name servers of zd's apex (zone.Load gives the
// default ones when none are configured).
func apexNameservers(zd zone.ZoneData) []string {
	if len(zd.Nameservers) > 0 {
		return zd.Nameservers
	}
	var out []string
	for _, h := range zone.DefaultNameservers(zd.Origin) {
		out = append(out, h+".")
	}
	return out
}

// domainRRs appends the DNS records of a domain (label name under origin)
// to rrs; records that cannot be served are added to skipped instead.
func domainRRs(rrs []dns.RR, origin, name string, records []zone.Record, skipped []error) ([]dns.RR, []error) {
	apex := name + "." + origin
	for _, r := range records {
		rr, err := r.RR(apex)
		if err != nil {
			skipped = append(skipped, err)
			continue
		}
		rrs = append(rrs, rr)
	}
	return rrs, skipped
}

func soaFor(origin, mname string, serial uint32) *dns.SOA {
	return &dns.SOA{Hdr: dns.RR_Header{Name: origin, Rrtype: dns.TypeSOA, Class: dns.ClassINET, Ttl: soaTTL},
		Ns: dns.Fqdn(strings.ToLower(mname)), Mbox: "hostmaster." + origin, Serial: serial,
		Refresh: soaRefresh, Retry: soaRetry, Expire: soaExpire, Minttl: soaMinimum}
}

func newZone(origin string, soa *dns.SOA) *servedZone {
	origin = strings.ToLower(dns.Fqdn(origin))
	z := &servedZone{origin: origin, apex: &node{name: origin}}
	z.setSOA(soa)
	return z
}

// setSOA makes soa the zone's SOA, at the apex and in negative answers.
func (z *servedZone) setSOA(soa *dns.SOA) {
	z.soa = soa
	if set := z.apex.find(dns.TypeSOA); set != nil {
		set.rrs, set.n = []dns.RR{soa}, 1
	} else {
		z.apex.sets = append(z.apex.sets, rrset{rtype: dns.TypeSOA, n: 1, rrs: []dns.RR{soa}})
	}
	neg := *soa
	neg.Hdr.Ttl = min(soa.Hdr.Ttl, soa.Minttl)
	z.negSOA = []dns.RR{&neg}
}

// domainOf returns the name of the domain that holds name (lower case,
// below the zone's apex): the name's last label before the origin, with
// the origin.
func (z *servedZone) domainOf(name string) string {
	rest := name[:len(name)-len(z.origin)] // "www.example." under "inf.nz."
	if z.origin == "." {
		rest = name[:len(name)-1] + "."
	}
	rest = rest[:len(rest)-1] // without the dot before the origin
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// inZone reports whether name (lower case, fully qualified) is at or below
// the zone's apex.
func (z *servedZone) inZone(name string) bool {
	return z.origin == "." || name == z.origin || strings.HasSuffix(name, "."+z.origin)
}

// add puts rr (owner inside the zone) into the zone: into the apex node at
// once, below it when finish builds the domains. (The records of a
// snapshot built from the database go straight to buildDomain.)
func (z *servedZone) add(rr dns.RR) {
	h := rr.Header()
	h.Name = strings.ToLower(h.Name)
	if h.Name == z.origin {
		addTo(z.apex, rr)
		return
	}
	if z.pending == nil {
		z.pending = map[string][]dns.RR{}
	}
	d := z.domainOf(h.Name)
	z.pending[d] = append(z.pending[d], rr)
}

// finish builds the domains of the records added, then the apex.
func (z *servedZone) finish() {
	z.finishApex()
	for name, rrs := range z.pending {
		z.domains.set(name, z.buildDomain(name, rrs))
	}
	z.pending = nil
	z.finishApex()
}

// addTo puts rr into its record set at n, unless it is there already.
func addTo(n *node, rr dns.RR) {
	t := rr.Header().Rrtype
	for i := range n.sets {
		if n.sets[i].rtype == t {
			for _, have := range n.sets[i].rrs[:n.sets[i].n] {
				if dns.IsDuplicate(have, rr) {
					return
				}
			}
			n.sets[i].rrs = append(n.sets[i].rrs[:n.sets[i].n], rr)
			n.sets[i].n++
			return
		}
	}
	n.sets = append(n.sets, rrset{rtype: t, n: 1, rrs: []dns.RR{rr}})
}

// buildDomain builds the domain name (lower case) of zone z from its
// records rrs (owners inside it; lower-cased here): a node for each owner,
// and for the empty non-terminals between an owner and the domain. rrs
// becomes the domain's: its record sets are parts of it (sorted here by
// owner and type, the records of a set in the order given), so that a
// domain costs one slice of records, not one per set.
func (z *servedZone) buildDomain(name string, rrs []dns.RR) *domain {
	for _, rr := range rrs {
		h := rr.Header()
		h.Name = lowerASCII(h.Name)
	}
	slices.SortStableFunc(rrs, func(a, b dns.RR) int {
		ha, hb := a.Header(), b.Header()
		if c := strings.Compare(ha.Name, hb.Name); c != 0 {
			return c
		}
		return int(ha.Rrtype) - int(hb.Rrtype)
	})
	nodes := map[string]*node{}
	var ensure func(owner string) *node
	ensure = func(owner string) *node {
		if n := nodes[owner]; n != nil {
			return n
		}
		n := &node{name: owner}
		nodes[owner] = n
		if owner != name {
			_, parent, _ := strings.Cut(owner, ".") // record names hold no escaped dots
			p := ensure(parent)
			if strings.HasPrefix(owner, "*.") {
				p.wildcard = n
			}
		}
		return n
	}
	for i := 0; i < len(rrs); {
		owner := rrs[i].Header().Name
		end := i
		types := 0
		for end < len(rrs) && rrs[end].Header().Name == owner {
			if end == i || rrs[end].Header().Rrtype != rrs[end-1].Header().Rrtype {
				types++
			}
			rrs[end].Header().Name = owner // one string per name, not per record
			end++
		}
		n := ensure(owner)
		n.sets = make([]rrset, 0, types)
		for j := i; j < end; {
			t := rrs[j].Header().Rrtype
			k := j
			for k < end && rrs[k].Header().Rrtype == t {
				k++
			}
			set := withoutDuplicates(rrs[j:k:k])
			n.sets = append(n.sets, rrset{rtype: t, n: uint32(len(set)), rrs: set})
			j = k
		}
		i = end
	}
	d := &domain{apex: ensure(name), nodes: make([]*node, 0, len(nodes))}
	for _, n := range nodes {
		d.nodes = append(d.nodes, n)
	}
	slices.SortFunc(d.nodes, func(a, b *node) int { return strings.Compare(a.name, b.name) })
	for _, n := range d.nodes {
		finishSets(n)
		n.cut = n.set(dns.TypeNS) != nil
	}
	for _, n := range d.nodes {
		for i := range n.sets {
			set := &n.sets[i]
			for _, target := range targetsOf(set.records()) {
				if z.inZone(target) && (target == z.origin || z.domainOf(target) != name) {
					set.foreign = true
				}
			}
			if set.foreign {
				continue // looked up as it answers: additionalIn
			}
			if extra := z.additionalFor(set.rtype, set.records(), d); len(extra) > 0 {
				set.rrs = slices.Clip(append(set.records(), extra...))
			}
		}
	}
	return d
}

// finishApex orders the apex's sets, gives each one TTL, and computes the
// additional addresses of its NS set; and points the apex at a wildcard
// domain ("*" under the zone), if there is one.
func (z *servedZone) finishApex() {
	finishSets(z.apex)
	for i := range z.apex.sets {
		set := &z.apex.sets[i]
		if extra := z.additionalFor(set.rtype, set.records(), nil); len(extra) > 0 {
			set.rrs = slices.Clip(append(set.records(), extra...))
		} else {
			set.rrs = set.records()
		}
	}
	wild := "*." + z.origin
	if z.origin == "." {
		wild = "*."
	}
	z.apex.wildcard = nil
	if d := z.domains.get(wild); d != nil {
		z.apex.wildcard = d.apex
	}
}

// withoutDuplicates returns rrs, or a copy without the records that
// repeat an earlier one (validation keeps them out of the database; this
// keeps them out of answers whatever the data).
func withoutDuplicates(rrs []dns.RR) []dns.RR {
	for i := 1; i < len(rrs); i++ {
		for j := range i {
			if dns.IsDuplicate(rrs[i], rrs[j]) {
				out := slices.Clone(rrs[:i])
				for _, rr := range rrs[i+1:] {
					if !slices.ContainsFunc(out, func(have dns.RR) bool { return dns.IsDuplicate(have, rr) }) {
						out = append(out, rr)
					}
				}
				return slices.Clip(out)
			}
		}
	}
	return rrs
}

// finishSets orders n's sets and gives each one TTL (the lowest, RFC 2181
// 5.2).
func finishSets(n *node) {
	slices.SortFunc(n.sets, func(a, b rrset) int { return typeRank(a.rtype) - typeRank(b.rtype) })
	for i := range n.sets {
		rrs := n.sets[i].records()
		n.sets[i].rrs = rrs
		ttl := rrs[0].Header().Ttl
		for _, rr := range rrs {
			ttl = min(ttl, rr.Header().Ttl)
		}
		for _, rr := range rrs {
			rr.Header().Ttl = ttl
		}
	}
}

// withSerial returns a copy of z with its SOA at serial: a new apex, the
// same domains.
func (z *servedZone) withSerial(serial uint32) *servedZone {
	c := *z
	apex := *z.apex
	apex.sets = slices.Clone(z.apex.sets)
	c.apex = &apex
	soa := *z.soa
	soa.Serial = serial
	c.setSOA(&soa)
	return &c
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

// additionalFor returns the addresses that go in the additional section
// with the records rrs of type rtype, as NSD gives them: for each NS, MX or
// SRV target inside this zone, its A records, then each one's AAAA records
// (the order NSD uses, so that truncation drops the AAAA first). A target
// that does not exist takes the addresses of its closest encloser's
// wildcard, owned by the target. Only NS targets may be at or below a
// delegation (glue, needed to follow the referral); an MX or SRV target
// there is the child zone's data, not ours to give. building is a domain
// being built, not yet in the zone's index, whose names it looks in.
func (z *servedZone) additionalFor(rtype uint16, rrs []dns.RR, building *domain) []dns.RR {
	targets := targetsOf(rrs)
	if len(targets) == 0 {
		return nil
	}
	var a, aaaa []dns.RR
	for _, target := range targets {
		addresses := z.addressesOf(target, rtype == dns.TypeNS, building)
		if addresses == nil {
			continue
		}
		a = owned(a, addresses.set(dns.TypeA), target)
		aaaa = owned(aaaa, addresses.set(dns.TypeAAAA), target)
	}
	return append(a, aaaa...)
}

// targetsOf returns the distinct targets (lower case) of NS, MX or SRV
// records; none for other types.
func targetsOf(rrs []dns.RR) []string {
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
	return targets
}

// addressesOf returns the node whose A and AAAA records answer for target
// (lower case): its own, or the wildcard that covers it; nil when target is
// outside the zone, or at or below a delegation and glue is not wanted.
func (z *servedZone) addressesOf(target string, glue bool, building *domain) *node {
	if !z.inZone(target) {
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
	var dom *domain
	for i := n - zoneLabels - 1; i >= 0; i-- {
		name := target[offs[i]:]
		var child *node
		if dom == nil {
			if building != nil && building.apex.name == name {
				dom = building
			} else {
				dom = z.domains.get(name)
			}
			if dom != nil {
				child = dom.apex
			}
		} else {
			child = dom.find(name)
		}
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
	out := []dns.RR{z.soa}
	for _, set := range z.apex.sets {
		// The DNSKEY set is left out: the transfer of a signed zone adds
		// it with the signatures and the NSEC chain (signzone.go).
		if set.rtype != dns.TypeSOA && set.rtype != dns.TypeDNSKEY {
			out = append(out, set.records()...)
		}
	}
	names := z.domains.names()
	slices.SortFunc(names, canonicalCompare)
	for _, name := range names {
		out = z.domains.get(name).appendRecords(out)
	}
	return out
}

// appendRecords appends the domain's records to out, by name in canonical
// order.
func (d *domain) appendRecords(out []dns.RR) []dns.RR {
	nodes := d.nodes
	if len(nodes) > 1 {
		nodes = slices.Clone(nodes)
		slices.SortFunc(nodes, func(a, b *node) int { return canonicalCompare(a.name, b.name) })
	}
	for _, n := range nodes {
		for _, set := range n.sets {
			out = append(out, set.records()...)
		}
	}
	return out
}

// domainShards is how many maps a zone's domains are spread over: a change
// copies the maps of the domains it touches, each 1/domainShards of the
// zone, and shares the rest.
const domainShards = 1024

var shardSeed = maphash.MakeSeed()

// domainIndex maps the domains of a zone by name (lower case, fully
// qualified). Copying one (clone) copies an array of pointers; set copies
// the map it writes to the first time after a clone. The zero value is an
// empty index.
type domainIndex struct {
	shards *[domainShards]map[string]*domain
	owned  *[domainShards]bool // maps this index may write to: not shared
}

func shardOf(name string) int { return int(maphash.String(shardSeed, name) % domainShards) }

func (x *domainIndex) get(name string) *domain {
	if x.shards == nil {
		return nil
	}
	return x.shards[shardOf(name)][name]
}

// set makes d the domain called name; nil removes it.
func (x *domainIndex) set(name string, d *domain) {
	if x.shards == nil {
		x.shards = new([domainShards]map[string]*domain)
		x.owned = new([domainShards]bool)
	}
	i := shardOf(name)
	m := x.shards[i]
	if !x.owned[i] {
		m = make(map[string]*domain, len(m)+1)
		for k, v := range x.shards[i] {
			m[k] = v
		}
		x.shards[i], x.owned[i] = m, true
	}
	if d == nil {
		delete(m, name)
	} else {
		m[name] = d
	}
}

// clone returns an index with the same domains that shares x's maps until
// it writes to them; x must not be written to afterwards.
func (x *domainIndex) clone() domainIndex {
	if x.shards == nil {
		return domainIndex{}
	}
	shards := *x.shards
	return domainIndex{shards: &shards, owned: new([domainShards]bool)}
}

// names returns the names of the domains, in no order.
func (x *domainIndex) names() []string {
	if x.shards == nil {
		return nil
	}
	var out []string
	for _, m := range x.shards {
		for name := range m {
			out = append(out, name)
		}
	}
	return out
}

// len returns how many domains x holds.
func (x *domainIndex) len() int {
	n := 0
	if x.shards != nil {
		for _, m := range x.shards {
			n += len(m)
		}
	}
	return n
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
