package dnsserver

import (
	"slices"

	"github.com/miekg/dns"
)

// ednsSize is the UDP payload size the server advertises and the most it
// sends over UDP unless configured otherwise: 1232 bytes avoids IP
// fragmentation on every common path (DNS flag day 2020).
const ednsSize = 1232

// reply builds the complete response to req from snap, without size limits
// (see fit). Zone transfers are handled apart (transfer.go).
func reply(snap *Snapshot, req *dns.Msg, maxUDP uint16) *dns.Msg {
	resp, _ := replyLookup(snap, req, maxUDP)
	return resp
}

// replyLookup is reply, with the result of the lookup it made, if any.
func replyLookup(snap *Snapshot, req *dns.Msg, maxUDP uint16) (*dns.Msg, Result) {
	var res Result
	resp := new(dns.Msg)
	resp.SetReply(req)
	resp.Compress = true
	if req.Opcode != dns.OpcodeQuery {
		resp.Rcode = dns.RcodeNotImplemented
		return withEDNS(resp, req, maxUDP), res
	}
	if len(req.Question) != 1 {
		resp.Rcode = dns.RcodeFormatError
		return withEDNS(resp, req, maxUDP), res
	}
	if malformedQuery(req) {
		resp.Rcode = dns.RcodeFormatError
		return resp, res // no OPT: the query's may be the fault
	}
	if opt := req.IsEdns0(); opt != nil && opt.Version() != 0 {
		resp.Rcode = dns.RcodeBadVers
		return withEDNS(resp, req, maxUDP), res
	}
	q := req.Question[0]
	switch {
	case q.Qclass != dns.ClassINET && q.Qclass != dns.ClassANY:
		resp.Rcode = dns.RcodeRefused // we serve class IN only
	case q.Qtype == dns.TypeAXFR || q.Qtype == dns.TypeIXFR:
		resp.Rcode = dns.RcodeRefused // a safety net: transferReply answers these
	default:
		res = Lookup(snap, q.Name, q.Qtype)
		resp.Rcode = res.Rcode
		resp.Authoritative = res.Authoritative
		resp.Answer, resp.Ns, resp.Extra = res.Answer, res.Ns, res.Extra
	}
	return withEDNS(resp, req, maxUDP), res
}

// malformedQuery reports whether req, a query with one question, breaks a
// rule that NSD and Knot answer with FORMERR from anyone: records in the
// answer section, or in the authority section of anything but an IXFR
// (whose SOA goes there, RFC 1995, see ixfrWithoutSOA); more than one OPT
// record, or one not owned by the root, or outside the additional section
// (RFC 6891 6.1.1). (An OPT whose options run past its end does not unpack:
// the packet gets FORMERR before it is a message.)
func malformedQuery(req *dns.Msg) bool {
	if len(req.Answer) > 0 || len(req.Ns) > 0 && req.Question[0].Qtype != dns.TypeIXFR {
		return true
	}
	opts := 0
	for i, rr := range req.Extra {
		switch h := rr.Header(); h.Rrtype {
		case dns.TypeOPT:
			opts++
			if h.Name != "." {
				return true
			}
		case dns.TypeTSIG:
			if i != len(req.Extra)-1 { // RFC 8945 5.1: the last record, once
				return true
			}
		}
	}
	return opts > 1
}

// ixfrWithoutSOA reports whether req is an IXFR without the client's SOA in
// its authority section (RFC 1995 3), which NSD answers with FORMERR once
// the client is allowed transfers (REFUSED before).
func ixfrWithoutSOA(req *dns.Msg) bool {
	return req.Question[0].Qtype == dns.TypeIXFR &&
		!slices.ContainsFunc(req.Ns, func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeSOA })
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

// fit truncates resp to limit bytes. Additional records go first, whole
// record sets from the end, without TC: they are a courtesy the client can
// do without (RFC 2181 9, and NSD's way). When the answer or authority
// section does not fit, TC tells the client to ask again over TCP (RFC
// 7766).
func fit(resp *dns.Msg, limit int) {
	resp.Compress = true
	if resp.Len() <= limit {
		return
	}
	// A slice of our own: resp.Extra may be the snapshot's.
	var opt dns.RR
	additional := make([]dns.RR, 0, len(resp.Extra))
	for _, rr := range resp.Extra {
		if rr.Header().Rrtype == dns.TypeOPT {
			opt = rr
		} else {
			additional = append(additional, rr)
		}
	}
	resp.Extra = nil
	if opt != nil {
		resp.Extra = []dns.RR{opt}
	}
	resp.Truncate(limit)
	resp.Compress = true
	if resp.Truncated {
		return
	}
	kept := make([]dns.RR, 0, len(additional)+1)
	for start := 0; start < len(additional); {
		end := start + 1
		for end < len(additional) && sameSet(additional[end], additional[start]) {
			end++
		}
		resp.Extra = append(kept, additional[start:end]...)
		if opt != nil {
			resp.Extra = append(resp.Extra, opt)
		}
		if resp.Len() > limit {
			break
		}
		kept = append(kept, additional[start:end]...)
		start = end
	}
	if opt != nil {
		kept = append(kept, opt)
	}
	resp.Extra = kept
}

func sameSet(a, b dns.RR) bool {
	ha, hb := a.Header(), b.Header()
	return ha.Rrtype == hb.Rrtype && ha.Name == hb.Name
}
