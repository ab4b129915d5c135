package dnsserver

import (
	"github.com/miekg/dns"
)

// clientSerial returns the serial of the SOA an IXFR request carries (its
// presence is checked before: ixfrWithoutSOA).
func clientSerial(req *dns.Msg) uint32 {
	for _, rr := range req.Ns {
		if soa, ok := rr.(*dns.SOA); ok {
			return soa.Serial
		}
	}
	return 0
}

// ixfr returns the records of an incremental transfer of zone z to a
// client at serial (RFC 1995 4): the current SOA, then for each change
// since serial the SOA before it, the records it deleted, the SOA after it
// and the records it added, and the current SOA again. A client that is
// up to date, or claims a serial ahead of ours (serial arithmetic, RFC
// 1982), gets the current SOA alone: there is nothing to send it. nil
// means the history does not reach back to serial (or z is the catalog
// zone, which keeps none): send the whole zone.
func (s *Snapshot) ixfr(z *servedZone, serial uint32) []dns.RR {
	current := z.soa.Serial
	if serial == current || serialAhead(serial, current) {
		return []dns.RR{z.soa}
	}
	if z.catalog {
		return nil
	}
	first := -1
	for i, c := range s.history {
		if c.from == serial {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	out := []dns.RR{z.soa}
	before := serial
	for _, c := range s.history[first:] {
		if c.from != before || c.whole[z.origin] { // a gap (apply chains them; be safe), or the zone began anew
			return nil
		}
		out = append(out, soaAt(z, c.from))
		if d := c.zones[z.origin]; d != nil {
			out = append(out, d.deleted...)
		}
		out = append(out, soaAt(z, c.to))
		if d := c.zones[z.origin]; d != nil {
			out = append(out, d.added...)
		}
		before = c.to
	}
	if before != current {
		return nil
	}
	return append(out, z.soa)
}

// soaAt returns z's SOA as it was at serial.
func soaAt(z *servedZone, serial uint32) dns.RR {
	if serial == z.soa.Serial {
		return z.soa
	}
	soa := *z.soa
	soa.Serial = serial
	return &soa
}

// serialAhead reports whether serial a is ahead of b in serial number
// arithmetic (RFC 1982): a secondary that claims it has not seen anything
// from us.
func serialAhead(a, b uint32) bool {
	return a != b && int32(a-b) > 0
}
