package dnsserver

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"net/netip"
	"sync"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/dnssec"
)

// The fast path. Most queries are plain: one question of class IN, perhaps
// an OPT record, nothing else. Their answers depend only on the question's
// name (ignoring case) and type, so each snapshot keeps the packed answer
// per question and serves it by patching in the query's ID, RD and CD bits
// and its name as written (the owner names that echo the question point to
// it through compression, so they follow; see canonical), and by appending
// an OPT record when the query had one. A hit costs a map lookup and a
// copy, with no allocation.

const (
	cacheShards       = 32
	cacheMaxEntries   = 1 << 17  // per snapshot
	cacheMaxBytes     = 64 << 20 // per snapshot
	maxCacheableReply = 4096
	optLen            = 11 // an OPT record without options
)

// packetCache maps a plain question (lower-case wire name, type, class) to
// its packed answer (see canonical) with ID 0, RD and CD clear, and no OPT
// record.
//
// Each snapshot has one for the answers that hold only for it; the answers
// that depend on one domain alone go to a durable cache shared by the
// snapshots that follow one another by changes (apply), so that a change
// does not empty the cache: an entry there is used only while the
// snapshot still holds the domain it was made from (see current).
//
// Answers with the DO bit have caches of their own (Snapshot.signed and
// signedDurable), made and emptied alongside these, whose entries also
// name the key that signed them and when their oldest signature is due to
// be made anew (see cachedSigned).
type packetCache struct {
	once   sync.Once
	seed   maphash.Seed
	shards [cacheShards]cacheShard
	mu     sync.Mutex // guards entries and bytes
	count  int
	size   int
	// durable: when full, start again rather than refuse new entries (the
	// entries of domains changed since are dead weight).
	durable bool
}

type cacheShard struct {
	mu sync.RWMutex
	m  map[string]cacheEntry
}

// cacheEntry is a packed answer, and for a durable one the domain it was
// made from (or the domain whose absence it reports) and that domain's
// zone, and where its SOA serial is, if it has one (a negative answer):
// the serial is written anew from the zone it is served from.
//
// A signed answer's entry also has the key that signed it (durable ones)
// and the time (Unix seconds) from which it is stale: its oldest signature
// is then a refresh old and the signature cache signs it anew.
type cacheEntry struct {
	packed   []byte
	dom      *domain
	absent   string
	origin   string
	serialAt int // 0: none
	keys     *dnssec.ZoneKeys
	staleAt  int64
}

func (c *packetCache) init() {
	c.once.Do(func() {
		c.seed = maphash.MakeSeed()
		for i := range c.shards {
			c.shards[i].m = map[string]cacheEntry{}
		}
	})
}

func (c *packetCache) shard(key []byte) *cacheShard {
	return &c.shards[maphash.Bytes(c.seed, key)%cacheShards]
}

func (c *packetCache) get(key []byte) cacheEntry {
	c.init()
	sh := c.shard(key)
	sh.mu.RLock()
	v := sh.m[string(key)]
	sh.mu.RUnlock()
	return v
}

// put stores v unless the cache is full: a flood of random names fills it
// once and then goes the slow way, it does not grow memory. A durable
// cache that is full is emptied first.
func (c *packetCache) put(key []byte, v cacheEntry) {
	c.init()
	c.mu.Lock()
	if c.count >= cacheMaxEntries || c.size+len(v.packed)+len(key) > cacheMaxBytes {
		if !c.durable {
			c.mu.Unlock()
			return
		}
		for i := range c.shards {
			c.shards[i].mu.Lock()
			c.shards[i].m = map[string]cacheEntry{}
			c.shards[i].mu.Unlock()
		}
		c.count, c.size = 0, 0
	}
	c.count++
	c.size += len(v.packed) + len(key)
	c.mu.Unlock()
	sh := c.shard(key)
	sh.mu.Lock()
	old, replaced := sh.m[string(key)]
	sh.m[string(key)] = v
	sh.mu.Unlock()
	if replaced { // count it once (never under a shard's lock: reset takes them under mu)
		c.mu.Lock()
		c.count--
		c.size -= len(old.packed) + len(key)
		c.mu.Unlock()
	}
}

// cached returns the packed answer to key in snap's caches, or nil, and
// where to write the serial of its SOA (0: nowhere) and which.
func (s *Snapshot) cached(key []byte) (packed []byte, serialAt int, serial uint32) {
	if e := s.cache.get(key); e.packed != nil {
		return e.packed, 0, 0
	}
	if s.durable == nil {
		return nil, 0, 0
	}
	e := s.durable.get(key)
	if e.packed == nil {
		return nil, 0, 0
	}
	z := s.current(e)
	if z == nil {
		return nil, 0, 0
	}
	return e.packed, e.serialAt, z.soa.Serial
}

// current returns the zone of e, a durable entry, when e holds for this
// snapshot: made from the domain this snapshot holds (or the absence it
// still has), not from one a change has replaced since (or one a later
// snapshot holds, while this one still answers); nil otherwise.
func (s *Snapshot) current(e cacheEntry) *servedZone {
	z := s.zones[e.origin]
	switch {
	case z == nil:
		return nil
	case e.dom != nil && z.domains.get(e.dom.apex.name) != e.dom:
		return nil
	case e.dom == nil && (z.domains.get(e.absent) != nil || z.apex.wildcard != nil):
		return nil
	}
	return z
}

// cachedSigned returns the signed answer to key (a query with the DO bit)
// in snap's caches at now (Unix seconds), or nil: none, one signed by a
// key the zone no longer has, or one whose oldest signature is due to be
// made anew.
func (s *Snapshot) cachedSigned(key []byte, now int64) []byte {
	e := s.signed.get(key)
	if e.packed == nil {
		if s.signedDurable == nil {
			return nil
		}
		if e = s.signedDurable.get(key); e.packed == nil {
			return nil
		}
		if z := s.current(e); z == nil || z.keys != e.keys {
			return nil
		}
	}
	if now >= e.staleAt {
		return nil
	}
	return e.packed
}

// rememberSigned stores the signed answer to key, made from res and stale
// from staleAt: in the durable cache when it depends on one domain alone
// and has no SOA (whose signature covers the serial, which moves with
// every change), else in this snapshot's.
func (s *Snapshot) rememberSigned(key, packed []byte, res *Result, staleAt int64) {
	e := cacheEntry{packed: packed, staleAt: staleAt}
	if s.signedDurable != nil && !res.volatile && !res.negative && res.dom != nil {
		if z := s.zones[res.origin]; z != nil && z.keys != nil {
			e.dom, e.origin, e.keys = res.dom, res.origin, z.keys
			s.signedDurable.put(key, e)
			return
		}
	}
	s.signed.put(key, e)
}

// remember stores the packed answer to key, made from res: in the durable
// cache when it depends on one domain (or one's absence) alone, and, if it
// carries the zone's SOA, that SOA is where a negative answer has it: the
// last record, with nothing after it.
func (s *Snapshot) remember(key, packed []byte, res *Result) {
	durable := s.durable != nil && !res.volatile && (res.dom != nil || res.absent != "")
	serialAt := 0
	if durable && res.negative {
		serialAt = len(packed) - 20 // serial, refresh, retry, expire, minimum
		z := s.zones[res.origin]
		if z == nil || serialAt < headerSize || binary.BigEndian.Uint16(packed[10:]) != 0 ||
			binary.BigEndian.Uint32(packed[serialAt:]) != z.soa.Serial {
			durable = false
		}
	}
	if durable {
		s.durable.put(key, cacheEntry{packed: packed, dom: res.dom, absent: res.absent, origin: res.origin, serialAt: serialAt})
		return
	}
	s.cache.put(key, cacheEntry{packed: packed})
}

// plainQuery is what the fast path reads from a packet.
type plainQuery struct {
	nameEnd int // offset just past the question's name
	keyLen  int // of the key written to the key buffer: lower-case wire name, type, class
	edns    bool
	udpSize uint16
	do      bool
}

// parsePlain reads pkt as a plain query into q (using keyBuf for the key)
// and reports whether it is one: a query (QR clear, opcode QUERY) with one
// question of class IN that is not a transfer, no answer or authority
// records, and at most an OPT record of version 0, owned by the root and
// with well-formed options, as additional.
func parsePlain(pkt []byte, keyBuf *[260]byte, q *plainQuery) bool {
	if len(pkt) < 12 || pkt[2]&0xf8 != 0 || // QR, opcode
		binary.BigEndian.Uint16(pkt[4:]) != 1 || binary.BigEndian.Uint16(pkt[6:]) != 0 ||
		binary.BigEndian.Uint16(pkt[8:]) != 0 {
		return false
	}
	arcount := binary.BigEndian.Uint16(pkt[10:])
	if arcount > 1 {
		return false
	}
	off, n := 12, 0
	for {
		if off >= len(pkt) {
			return false
		}
		l := int(pkt[off])
		if l == 0 {
			keyBuf[n] = 0
			n++
			off++
			break
		}
		if l > 63 || off+1+l > len(pkt) || n+1+l > 255 { // also rules out compression pointers
			return false
		}
		keyBuf[n] = byte(l)
		n++
		for _, c := range pkt[off+1 : off+1+l] {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			keyBuf[n] = c
			n++
		}
		off += 1 + l
	}
	if off+4 > len(pkt) {
		return false
	}
	qtype := binary.BigEndian.Uint16(pkt[off:])
	qclass := binary.BigEndian.Uint16(pkt[off+2:])
	if qclass != dns.ClassINET || qtype == dns.TypeAXFR || qtype == dns.TypeIXFR || qtype == dns.TypeOPT {
		return false
	}
	copy(keyBuf[n:], pkt[off:off+4])
	q.nameEnd, q.keyLen = off, n+4
	off += 4
	q.edns, q.udpSize, q.do = false, 0, false
	if arcount == 1 {
		// OPT: root name, type 41, class = UDP size, TTL = extended rcode,
		// version, flags; then RDATA (options, ignored).
		if off+11 > len(pkt) || pkt[off] != 0 || binary.BigEndian.Uint16(pkt[off+1:]) != dns.TypeOPT ||
			pkt[off+6] != 0 { // version 0 only; others get BADVERS the slow way
			return false
		}
		rdlen := int(binary.BigEndian.Uint16(pkt[off+9:]))
		q.edns, q.udpSize, q.do = true, binary.BigEndian.Uint16(pkt[off+3:]), pkt[off+7]&0x80 != 0
		off += 11
		if off+rdlen > len(pkt) || !wellFormedOptions(pkt[off:off+rdlen]) {
			return false // FORMERR, the slow way
		}
		off += rdlen
	}
	return off == len(pkt)
}

// wellFormedOptions reports whether rdata, an OPT record's, is a sequence of
// options (code, length, data) that ends where it does.
func wellFormedOptions(rdata []byte) bool {
	for len(rdata) > 0 {
		if len(rdata) < 4 {
			return false
		}
		n := 4 + int(binary.BigEndian.Uint16(rdata[2:]))
		if n > len(rdata) {
			return false
		}
		rdata = rdata[n:]
	}
	return true
}

// limit is the largest UDP answer the query takes.
func (q *plainQuery) limit(maxUDP uint16) int {
	if !q.edns {
		return dns.MinMsgSize
	}
	return int(max(dns.MinMsgSize, min(q.udpSize, maxUDP)))
}

// canonical packs the answer to the plain question in pkt, asked in upper
// case, or returns nil when it must not be cached. Upper case because name
// compression in miekg/dns is case-sensitive: the owner names that echo the
// question then point into the question, while names from the zone data
// (lower case) never do, so patching the question's letters (patch)
// changes exactly the names that echo it.
func canonical(snap *Snapshot, pkt []byte, q *plainQuery, key []byte) ([]byte, *Result) {
	packed, res, _ := canonicalAnswer(snap, pkt, q, key, nil)
	return packed, res
}

// canonicalAnswer is canonical, with sign (nil: none) applied to the
// answer before it is packed; it also returns that answer.
func canonicalAnswer(snap *Snapshot, pkt []byte, q *plainQuery, key []byte, sign func(req, resp *dns.Msg)) ([]byte, *Result, *dns.Msg) {
	var req dns.Msg
	if err := req.Unpack(pkt); err != nil || len(req.Question) != 1 {
		return nil, nil, nil
	}
	upper := dns.Msg{Question: []dns.Question{{Name: upperASCII(req.Question[0].Name),
		Qtype: req.Question[0].Qtype, Qclass: req.Question[0].Qclass}}}
	resp, res := replyLookup(snap, &upper, ednsSize)
	if resp.Rcode == dns.RcodeRefused {
		return nil, nil, nil // names outside our zones are not worth the memory
	}
	if sign != nil {
		sign(&upper, resp)
	}
	resp.Compress = true
	packed, err := resp.Pack()
	if err != nil || len(packed) > maxCacheableReply {
		return nil, nil, nil
	}
	// The patching relies on the question being written as the key says.
	nameLen := q.nameEnd - 12
	if len(packed) < q.nameEnd+4 || !equalFoldBytes(packed[12:q.nameEnd], key[:nameLen]) ||
		!bytes.Equal(packed[q.nameEnd:q.nameEnd+4], key[nameLen:nameLen+4]) {
		return nil, nil, nil
	}
	return packed, &res, resp
}

// canonicalSigned is canonical for a query with the DO bit: the answer
// signed (signAnswer), and the time (Unix seconds) from which it is stale
// (see cacheEntry). The signatures' owners echo the question, as the
// records they cover do; nothing else in a signed answer depends on the
// question's case (the next name of a compact denial's NSEC is in lower
// case: see denial).
func (s *Server) canonicalSigned(snap *Snapshot, pkt []byte, q *plainQuery, key []byte, now time.Time) ([]byte, *Result, int64) {
	packed, res, resp := canonicalAnswer(snap, pkt, q, key, func(req, resp *dns.Msg) { s.signAnswerAt(snap, req, resp, now) })
	if packed == nil {
		return nil, nil, 0
	}
	// Stale when the oldest signature is due to be made anew: the
	// signature cache signs a set again once its signature has less than
	// freshFor left.
	_, refresh := s.sigs.times()
	fresh := int64(s.sigs.freshFor() / time.Second)
	staleAt := now.Add(refresh).Unix()
	for _, sec := range [][]dns.RR{resp.Answer, resp.Ns, resp.Extra} {
		for _, rr := range sec {
			if sig, ok := rr.(*dns.RRSIG); ok {
				staleAt = min(staleAt, int64(sig.Expiration)-fresh+1)
			}
		}
	}
	return packed, res, staleAt
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

func equalFoldBytes(a, b []byte) bool {
	return len(a) == len(b) && equalFoldASCII(string(a), string(b))
}

// patch writes into out the cached answer to the query in pkt, and returns
// it, or nil when it exceeds limit.
func patch(out, cached, pkt []byte, q *plainQuery, limit int, maxUDP uint16) []byte {
	size := len(cached)
	if q.edns {
		size += optLen
	}
	if size > limit {
		return nil
	}
	out = append(out[:0], cached...)
	copy(out[0:2], pkt[0:2])                   // ID
	out[2] |= pkt[2] & 0x01                    // RD
	out[3] |= pkt[3] & 0x10                    // CD
	copy(out[12:q.nameEnd], pkt[12:q.nameEnd]) // the name as the client wrote it
	if q.edns {
		binary.BigEndian.PutUint16(out[10:], binary.BigEndian.Uint16(out[10:])+1)
		out = appendOPT(out, q.do, maxUDP)
	}
	return out
}

// answerPacket answers the raw query pkt from a client at from over UDP
// (tcp false) or TCP, writing into out (which it may grow). It returns nil
// when no answer should be sent: packets too short to hold a header, and
// responses (answering those could loop between servers).
func (s *Server) answerPacket(snap *Snapshot, pkt, out []byte, from netip.Addr, tcp bool) []byte {
	if len(pkt) < 12 || pkt[2]&0x80 != 0 {
		return nil
	}
	var keyBuf [260]byte
	var q plainQuery
	if parsePlain(pkt, &keyBuf, &q) {
		limit := dns.MaxMsgSize
		if !tcp {
			limit = q.limit(s.opts.maxUDP)
		}
		key := keyBuf[:q.keyLen]
		if q.do && s.opts.keys != nil {
			// Signed (sign.go), from the caches of signed answers.
			if resp := s.answerSigned(snap, pkt, out, &q, key, limit); resp != nil {
				return resp
			}
			return s.answerSlow(snap, pkt, out, from, tcp)
		}
		cached, serialAt, serial := snap.cached(key)
		if cached == nil {
			if !snap.holdsWire(key[:q.nameEnd-12]) {
				return refused(out, pkt, &q, s.opts.maxUDP)
			}
			var res *Result
			if cached, res = canonical(snap, pkt, &q, key); cached != nil {
				snap.remember(key, cached, res)
			}
		}
		if cached != nil {
			if resp := patch(out, cached, pkt, &q, limit, s.opts.maxUDP); resp != nil {
				if serialAt > 0 {
					binary.BigEndian.PutUint32(resp[serialAt:], serial)
				}
				return resp
			}
		}
	}
	return s.answerSlow(snap, pkt, out, from, tcp)
}

// answerSigned answers the plain query in pkt with the DO bit from the
// caches of signed answers, filling them as answerPacket does the plain
// ones; nil: the slow way.
func (s *Server) answerSigned(snap *Snapshot, pkt, out []byte, q *plainQuery, key []byte, limit int) []byte {
	now := time.Now()
	cached := snap.cachedSigned(key, now.Unix())
	if cached == nil {
		if !snap.holdsWire(key[:q.nameEnd-12]) {
			return refused(out, pkt, q, s.opts.maxUDP)
		}
		var res *Result
		var staleAt int64
		if cached, res, staleAt = s.canonicalSigned(snap, pkt, q, key, now); cached == nil {
			return nil
		}
		snap.rememberSigned(key, cached, res, staleAt)
	}
	return patch(out, cached, pkt, q, limit, s.opts.maxUDP)
}

// refused answers a plain query for a name outside our zones: the query's
// header and question, with QR and REFUSED, RD and CD copied, and an OPT
// record if it had one. Random names are the usual flood; this keeps them
// cheap without filling the cache.
func refused(out, pkt []byte, q *plainQuery, maxUDP uint16) []byte {
	out = append(out[:0], pkt[:q.nameEnd+4]...)
	out[2] = 0x80 | pkt[2]&0x01
	out[3] = pkt[3]&0x10 | dns.RcodeRefused
	clear(out[6:12])
	if q.edns {
		out[11] = 1
		out = appendOPT(out, q.do, maxUDP)
	}
	return out
}

func appendOPT(out []byte, do bool, maxUDP uint16) []byte {
	var flags byte
	if do {
		flags = 0x80
	}
	return append(out, 0, 0, byte(dns.TypeOPT), byte(maxUDP>>8), byte(maxUDP), 0, 0, flags, 0, 0, 0)
}

// holdsWire reports whether the lower-case wire-format name is in one of
// the snapshot's zones.
func (s *Snapshot) holdsWire(name []byte) bool {
	s.wireOnce.Do(func() {
		s.wireZones = make(map[string]bool, len(s.zones))
		for origin := range s.zones {
			buf := make([]byte, 256)
			if n, err := dns.PackDomainName(origin, buf, 0, nil, false); err == nil {
				s.wireZones[string(buf[:n])] = true
			}
		}
	})
	for off := 0; off < len(name); off += int(name[off]) + 1 {
		if s.wireZones[string(name[off:])] {
			return true
		}
	}
	return false
}

// answerSlow unpacks the query and answers through reply; malformed queries
// get FORMERR (RFC 8906: always answer). A signed query is verified and
// its answer signed (or refused NOTAUTH), as a transfer is.
func (s *Server) answerSlow(snap *Snapshot, pkt, out []byte, from netip.Addr, tcp bool) []byte {
	req := new(dns.Msg)
	var resp *dns.Msg
	if err := req.Unpack(pkt); err != nil {
		resp = formErr(pkt)
	} else {
		var tsigStatus error
		if req.IsTsig() != nil {
			tsigStatus = s.verifyTSIG(pkt)
		}
		if isTransfer(req) {
			if resp, _ = s.transferReply(req, snap, from, tcp, tsigStatus); resp == nil {
				// Streaming a zone needs TCP's ResponseWriter (ServeDNS).
				resp = new(dns.Msg).SetRcode(req, dns.RcodeNotImplemented)
			}
		} else {
			resp = reply(snap, req, s.opts.maxUDP)
			if s.opts.keys != nil && dnssecOK(req) {
				s.signAnswer(snap, req, resp)
			}
			limit := dns.MaxMsgSize
			if !tcp {
				limit = udpLimit(req, s.opts.maxUDP)
			}
			if req.IsTsig() != nil {
				resp = s.signedAnswer(resp, req, tsigStatus, from, limit)
			} else {
				fit(resp, limit)
			}
		}
		if resp.IsTsig() != nil {
			packed, err := s.packSigned(resp, req, out)
			if err == nil {
				return packed
			}
			s.logger.Debug("dns: sign answer", "err", err)
			resp = formErr(pkt)
		}
	}
	packed, err := resp.PackBuffer(out[:cap(out)])
	if err != nil {
		s.logger.Debug("dns: pack answer", "err", err)
		packed, err = formErr(pkt).PackBuffer(out[:cap(out)])
		if err != nil {
			return nil
		}
	}
	return packed
}

// formErr answers a query that cannot be read: its header's ID and opcode,
// and FORMERR.
func formErr(pkt []byte) *dns.Msg {
	resp := new(dns.Msg)
	resp.Id = binary.BigEndian.Uint16(pkt[0:])
	resp.Response = true
	resp.Opcode = int(pkt[2]>>3) & 0xf
	resp.Rcode = dns.RcodeFormatError
	return resp
}
