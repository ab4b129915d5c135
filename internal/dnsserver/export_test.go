package dnsserver

import (
	"net/netip"

	"github.com/miekg/dns"
)

// ZoneRecords returns every record of the zone origin in snap, as a
// transfer sends them (SOA first), or nil when snap has no such zone.
func ZoneRecords(snap *Snapshot, origin string) []dns.RR {
	z := snap.zones[origin]
	if z == nil {
		return nil
	}
	return z.records()
}

// IXFR returns the records of an incremental transfer of origin to a
// client at serial, or nil when the history does not reach back to it.
func IXFR(snap *Snapshot, origin string, serial uint32) []dns.RR {
	return snap.ixfr(snap.zones[origin], serial)
}

// AnswerPacket answers the raw query pkt as the server answers one over
// TCP from its published snapshot, through the packet caches.
func AnswerPacket(s *Server, pkt []byte) []byte {
	return s.answerPacket(s.Snapshot(), pkt, make([]byte, 0, dns.MaxMsgSize), netip.MustParseAddr("192.0.2.1"), true)
}
