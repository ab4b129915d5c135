package dnsserver

import (
	"context"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// transferChunk is roughly how many bytes of records go in one message of a
// transfer; a message may hold 64 KB.
const transferChunk = 32 << 10

// transferReply decides a transfer request (AXFR or IXFR) from remote: it
// returns the complete answer when there is one to give in a single message
// (a refusal, or over UDP), or nil with the zone to stream over TCP. Over
// UDP an allowed IXFR gets the SOA alone, which tells the client to ask
// over TCP; an AXFR gets FORMERR (RFC 5936: AXFR is TCP only). A malformed
// request gets FORMERR, in NSD's order: records in the answer section (say)
// from anyone, an IXFR without the client's SOA from allowed clients.
//
// A signed request (TSIG, RFC 8945) is checked before the allow list:
// tsigStatus is what verifying its signature reported. A failure gets
// NOTAUTH with the TSIG error (BADKEY, BADSIG, BADTIME); a valid signature
// gets every answer signed with the same key.
func (s *Server) transferReply(req *dns.Msg, snap *Snapshot, remote netip.Addr, tcp bool, tsigStatus error) (*dns.Msg, *transferSource) {
	resp, src := s.transferDecision(req, snap, remote, tcp, tsigStatus)
	if resp != nil && resp.Rcode != dns.RcodeFormatError && req.IsTsig() != nil {
		signReply(resp, req, tsigErrorCode(tsigStatus))
	}
	return resp, src
}

// transferSource is what a transfer sends: a served zone, or one domain
// of it, to the holder of the domain's update key.
type transferSource struct {
	z *servedZone
	// domain, when set, is the domain's name: its records alone go,
	// between the zone's SOA under the domain's name (a zone's transfer
	// starts and ends with its SOA, RFC 5936 2.2).
	domain string
}

// domainTransfer returns the source of an AXFR of one domain signed with
// an update key for every name and type of it (WholeDomain): external-dns
// reads the records it manages so. ok is false for a request that is not
// one; refusal, when not empty, says why one is refused.
func (s *Server) domainTransfer(req *dns.Msg, snap *Snapshot) (src *transferSource, refusal string, ok bool) {
	t, q := req.IsTsig(), req.Question[0]
	if t == nil || s.opts.updates == nil {
		return nil, "", false
	}
	key, found := s.opts.updates.u.Key(dns.CanonicalName(t.Hdr.Name))
	if !found {
		return nil, "", false
	}
	name := lowerASCII(dns.CanonicalName(q.Name))
	switch {
	case q.Qtype != dns.TypeAXFR:
		return nil, "an update key transfers its domain by AXFR only", true
	case name != key.Domain:
		return nil, "an update key transfers its own domain only (" + key.Domain + ")", true
	case !key.WholeDomain:
		return nil, "only an update key for every name and type of its domain transfers it", true
	}
	_, parent, _ := strings.Cut(name, ".") // a domain is one label under its extension's zone
	z := snap.zones[parent]
	if z == nil || z.catalog {
		return nil, "the domain's zone is not served", true
	}
	return &transferSource{z: z, domain: name}, "", true
}

// records returns what src's transfer sends, SOA first and last.
func (s *Server) transferRecordsOf(src *transferSource, now time.Time) []dns.RR {
	if src.domain == "" {
		return append(s.transferRecords(src.z, now), src.z.soa)
	}
	soa := dns.Copy(src.z.soa).(*dns.SOA)
	soa.Hdr.Name = src.domain
	out := []dns.RR{soa}
	if d := src.z.domains.get(src.domain); d != nil {
		out = d.appendRecords(out)
	}
	return append(out, soa)
}

// logRefusal logs a refused transfer, unless refusals come too fast to log
// each (see logLimiter): the next line logged says how many were not.
func (s *Server) logRefusal(level slog.Level, zone string, remote netip.Addr, key, reason string) {
	ok, suppressed := s.refusalLog.allow()
	if !ok {
		return
	}
	attrs := []any{"zone", zone, "client", remote, "key", key, "reason", reason}
	if suppressed > 0 {
		attrs = append(attrs, "not_logged_before", suppressed)
	}
	s.logger.Log(context.Background(), level, "dns: transfer refused", attrs...)
}

func (s *Server) transferDecision(req *dns.Msg, snap *Snapshot, remote netip.Addr, tcp bool, tsigStatus error) (*dns.Msg, *transferSource) {
	q := req.Question[0]
	resp := new(dns.Msg)
	resp.SetReply(req)
	if malformedQuery(req) { // before the allow list, as NSD does
		resp.Rcode = dns.RcodeFormatError
		return resp, nil
	}
	withEDNS(resp, req, s.opts.maxUDP)
	if t := req.IsTsig(); t != nil {
		if code := tsigErrorCode(tsigStatus); code != 0 {
			s.logRefusal(slog.LevelWarn, q.Name, remote, t.Hdr.Name, tsigReason[code])
			return resp, nil // NOTAUTH with the error: signReply
		}
	}
	if !s.transferAuthorized(req, remote) {
		if src, refusal, ok := s.domainTransfer(req, snap); ok {
			switch {
			case refusal != "":
				s.logRefusal(slog.LevelInfo, q.Name, remote, req.IsTsig().Hdr.Name, refusal)
				resp.Rcode = dns.RcodeRefused
			case !tcp:
				resp.Rcode = dns.RcodeFormatError // AXFR is TCP only (RFC 5936)
			default:
				return nil, src
			}
			return resp, nil
		}
		key := "none"
		if t := req.IsTsig(); t != nil {
			key = t.Hdr.Name
		}
		s.logRefusal(slog.LevelInfo, q.Name, remote, key,
			"neither the address nor the key is allowed transfers (--dns-transfer-allow)")
		resp.Rcode = dns.RcodeRefused
		return resp, nil
	}
	if ixfrWithoutSOA(req) {
		resp.Rcode = dns.RcodeFormatError
		return resp, nil
	}
	z := snap.zones[lowerASCII(q.Name)]
	switch {
	case z == nil:
		resp.Rcode = dns.RcodeNotAuth
	case tcp:
		return nil, &transferSource{z: z}
	case q.Qtype == dns.TypeAXFR:
		resp.Rcode = dns.RcodeFormatError
	default:
		resp.Authoritative = true
		resp.Answer = []dns.RR{z.soa}
	}
	return resp, nil
}

// transfer answers AXFR, and IXFR (from the history when it reaches back
// to the client's serial, with the whole zone otherwise, as RFC 1995
// allows), over TCP to allowed clients.
func (s *Server) transfer(w dns.ResponseWriter, req *dns.Msg, snap *Snapshot, tcp bool) {
	resp, src := s.transferReply(req, snap, addrOf(w.RemoteAddr()), tcp, w.TsigStatus())
	if resp != nil {
		if err := w.WriteMsg(resp); err != nil {
			s.logger.Debug("dns: transfer write", "err", err)
		}
		return
	}
	z := src.z
	signed := req.IsTsig()
	kind := "AXFR"
	var records []dns.RR
	if src.domain != "" {
		kind = "AXFR of a domain"
		records = s.transferRecordsOf(src, time.Now())
	} else if req.Question[0].Qtype == dns.TypeIXFR {
		kind = "IXFR"
		records = snap.ixfr(z, clientSerial(req))
		if z.keys != nil && len(records) > 1 {
			// A signed zone changes its signatures and NSEC chain with
			// its records, which the history does not hold: the
			// difference from the signed zone sent at the client's
			// serial, or the whole zone (RFC 1995 allows it).
			records = s.signedIXFR(z, clientSerial(req), time.Now())
		}
	}
	if records == nil {
		if kind == "IXFR" {
			kind = "IXFR as AXFR"
		}
		records = s.transferRecordsOf(src, time.Now())
	}
	for len(records) > 0 {
		n, size := 0, 0
		for n < len(records) && (n == 0 || size+dns.Len(records[n]) <= transferChunk) {
			size += dns.Len(records[n])
			n++
		}
		resp := new(dns.Msg)
		resp.SetReply(req)
		resp.Authoritative = true
		resp.Compress = true
		resp.Answer = records[:n]
		if signed != nil {
			// Every message is signed; after the first, the MAC covers
			// the previous MAC, the message and the timers only (RFC 8945
			// 5.3.1), as the ResponseWriter does once told.
			signReply(resp, req, 0)
		}
		if err := w.WriteMsg(resp); err != nil {
			s.logger.Debug("dns: transfer write", "zone", z.origin, "err", err)
			return
		}
		w.TsigTimersOnly(true)
		records = records[n:]
	}
	key := "none"
	if signed != nil {
		key = signed.Hdr.Name
	}
	zoneName := z.origin
	if src.domain != "" {
		zoneName = src.domain
	}
	s.logger.Info("dns: zone transferred", "zone", zoneName, "kind", kind, "serial", z.soa.Serial, "to", w.RemoteAddr().String(), "key", key)
}

func addrOf(a net.Addr) netip.Addr {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.AddrPort().Addr()
	case *net.UDPAddr:
		return a.AddrPort().Addr()
	}
	return netip.Addr{}
}

func (s *Server) transferAllowed(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range s.opts.allowTransfer {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// notifyAll tells every configured secondary of each zone of snap that is
// new or has a new serial since prev; each NOTIFY is retried until
// acknowledged (RFC 1996 3.6) or the server stops.
func (s *Server) notifyAll(snap, prev *Snapshot) {
	for _, z := range snap.zones {
		if old := prev.zones[z.origin]; old != nil && old.soa.Serial == z.soa.Serial {
			continue
		}
		for _, target := range s.opts.notify {
			go s.notify(s.stop, z, target)
		}
	}
}

func (s *Server) notify(ctx context.Context, z *servedZone, target notifyTarget) {
	c := &dns.Client{Net: "udp", Timeout: 2 * time.Second, TsigProvider: s.opts.tsigKeys}
	key, signed := s.opts.tsigKeys[target.key]
	if target.key != "" && !signed {
		s.logger.Error("dns: notify not sent: no such TSIG key", "zone", z.origin, "to", target.addr, "key", target.key)
		return
	}
	wait := time.Second
	for attempt := 1; attempt <= 5; attempt++ {
		// Built anew each time: signing takes the TSIG record out of the
		// message, and the time signed must be now.
		m := new(dns.Msg)
		m.SetNotify(z.origin)
		m.Authoritative = true
		m.Answer = []dns.RR{z.soa} // a hint of the new serial (RFC 1996 3.7)
		if signed {
			m.SetTsig(key.Name, key.Algorithm, tsigFudge, time.Now().Unix())
		}
		// With a key, the answer must be signed with it too: miekg/dns
		// verifies it and reports an error otherwise.
		resp, _, err := c.ExchangeContext(ctx, m, target.addr)
		if err == nil && resp.Opcode == dns.OpcodeNotify {
			s.logger.Debug("dns: notified", "zone", z.origin, "serial", z.soa.Serial, "to", target.addr, "rcode", dns.RcodeToString[resp.Rcode])
			return
		}
		if err != nil && signed {
			s.logger.Debug("dns: notify", "zone", z.origin, "to", target.addr, "key", target.key, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait *= 2
	}
	s.logger.Warn("dns: notify unanswered", "zone", z.origin, "to", target.addr, "key", target.key)
}
