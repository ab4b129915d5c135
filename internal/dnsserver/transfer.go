package dnsserver

import (
	"context"
	"net"
	"net/netip"
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
func (s *Server) transferReply(req *dns.Msg, snap *Snapshot, remote netip.Addr, tcp bool) (*dns.Msg, *servedZone) {
	q := req.Question[0]
	resp := new(dns.Msg)
	resp.SetReply(req)
	if malformedQuery(req) { // before the allow list, as NSD does
		resp.Rcode = dns.RcodeFormatError
		return resp, nil
	}
	withEDNS(resp, req, s.opts.maxUDP)
	if !s.transferAllowed(remote) {
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
		return nil, z
	case q.Qtype == dns.TypeAXFR:
		resp.Rcode = dns.RcodeFormatError
	default:
		resp.Authoritative = true
		resp.Answer = []dns.RR{z.soa}
	}
	return resp, nil
}

// transfer answers AXFR, and IXFR with a whole zone (RFC 1995 allows it),
// over TCP to allowed clients.
func (s *Server) transfer(w dns.ResponseWriter, req *dns.Msg, snap *Snapshot, tcp bool) {
	resp, z := s.transferReply(req, snap, addrOf(w.RemoteAddr()), tcp)
	if resp != nil {
		_ = w.WriteMsg(resp)
		return
	}
	records := append(z.records(), z.soa)
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
		if err := w.WriteMsg(resp); err != nil {
			s.logger.Debug("dns: transfer write", "zone", z.origin, "err", err)
			return
		}
		records = records[n:]
	}
	s.logger.Info("dns: zone transferred", "zone", z.origin, "serial", z.soa.Serial, "to", w.RemoteAddr().String())
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

// notifyAll tells every configured secondary that every zone of snap has
// changed; each NOTIFY is retried until acknowledged (RFC 1996 3.6) or the
// server stops.
func (s *Server) notifyAll(snap *Snapshot) {
	for _, target := range s.opts.notify {
		for _, z := range snap.zones {
			go s.notify(s.stop, z, target)
		}
	}
}

func (s *Server) notify(ctx context.Context, z *servedZone, target string) {
	m := new(dns.Msg)
	m.SetNotify(z.origin)
	m.Authoritative = true
	m.Answer = []dns.RR{z.soa} // a hint of the new serial (RFC 1996 3.7)
	c := &dns.Client{Net: "udp", Timeout: 2 * time.Second}
	wait := time.Second
	for attempt := 1; attempt <= 5; attempt++ {
		resp, _, err := c.ExchangeContext(ctx, m, target)
		if err == nil && resp.Opcode == dns.OpcodeNotify {
			s.logger.Debug("dns: notified", "zone", z.origin, "serial", z.soa.Serial, "to", target, "rcode", dns.RcodeToString[resp.Rcode])
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait *= 2
	}
	s.logger.Warn("dns: notify unanswered", "zone", z.origin, "to", target)
}
