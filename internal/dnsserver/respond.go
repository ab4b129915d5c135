package dnsserver

import (
	"github.com/miekg/dns"
)

// ednsSize is the UDP payload size the server advertises and the most it
// sends over UDP unless configured otherwise: 1232 bytes avoids IP
// fragmentation on every common path (DNS flag day 2020).
const ednsSize = 1232

// reply builds the complete response to req from snap, without size limits
// (see fit). Zone transfers are handled apart (transfer.go).
func reply(snap *Snapshot, req *dns.Msg, maxUDP uint16) *dns.Msg {
	resp := new(dns.Msg)
	resp.SetReply(req)
	resp.Compress = true
	if req.Opcode != dns.OpcodeQuery {
		resp.Rcode = dns.RcodeNotImplemented
		return withEDNS(resp, req, maxUDP)
	}
	if len(req.Question) != 1 {
		resp.Rcode = dns.RcodeFormatError
		return withEDNS(resp, req, maxUDP)
	}
	opts := 0
	for _, rr := range req.Extra {
		if rr.Header().Rrtype == dns.TypeOPT {
			opts++
		}
	}
	if opts > 1 {
		resp.Rcode = dns.RcodeFormatError // RFC 6891 6.1.1
		return resp
	}
	if opt := req.IsEdns0(); opt != nil && opt.Version() != 0 {
		resp.Rcode = dns.RcodeBadVers
		return withEDNS(resp, req, maxUDP)
	}
	q := req.Question[0]
	switch {
	case q.Qclass != dns.ClassINET && q.Qclass != dns.ClassANY:
		resp.Rcode = dns.RcodeRefused // we serve class IN only
	case q.Qtype == dns.TypeAXFR || q.Qtype == dns.TypeIXFR:
		resp.Rcode = dns.RcodeRefused // a safety net: transferReply answers these
	default:
		res := Lookup(snap, q.Name, q.Qtype)
		resp.Rcode = res.Rcode
		resp.Authoritative = res.Authoritative
		resp.Answer, resp.Ns, resp.Extra = res.Answer, res.Ns, res.Extra
	}
	return withEDNS(resp, req, maxUDP)
}

// withEDNS adds an OPT record to resp when req had one (RFC 6891), with the
// DO bit copied (RFC 3225).
func withEDNS(resp, req *dns.Msg, maxUDP uint16) *dns.Msg {
	if opt := req.IsEdns0(); opt != nil {
		resp.SetEdns0(maxUDP, opt.Do())
	}
	return resp
}

// udpLimit is the largest response a UDP client takes: 512 bytes without
// EDNS, else its advertised size, at least 512 and at most maxUDP.
func udpLimit(req *dns.Msg, maxUDP uint16) int {
	opt := req.IsEdns0()
	if opt == nil {
		return dns.MinMsgSize
	}
	return int(max(dns.MinMsgSize, min(opt.UDPSize(), maxUDP)))
}

// fit truncates resp to limit bytes, setting TC when records had to go: the
// client then asks again over TCP (RFC 7766).
func fit(resp *dns.Msg, limit int) {
	resp.Truncate(limit)
	resp.Compress = true
}
