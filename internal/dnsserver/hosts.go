package dnsserver

import (
	"net/netip"
	"strings"

	"github.com/miekg/dns"
)

// hostTTL is the TTL of the host records WithZoneHost adds.
const hostTTL = 3600

// zoneHost is a host of the registry's own that every zone serves.
type zoneHost struct {
	label string // "mx"
	addrs []netip.Addr
}

// WithZoneHost makes every zone served (but the catalog) answer for
// label.<zone> with addrs: the registry's own hosts, such as the mail
// server of email forwarding ("mx.inf.nz", --mail-ipv4/--mail-ipv6), which
// domains' MX records name. A registered domain of that label (registration
// reserves it) would take precedence.
func WithZoneHost(label string, addrs ...netip.Addr) Option {
	return func(o *options) {
		if label = strings.ToLower(strings.Trim(label, ".")); label != "" && len(addrs) > 0 {
			o.hosts = append(o.hosts, zoneHost{label: label, addrs: addrs})
		}
	}
}

// addHosts gives each zone of snap that lacks them the hosts of
// WithZoneHost. Only zones built for snap lack them (a full load, a zone
// new to the catalog): the others are prev's, which already has them, and
// are never written to.
func (s *Server) addHosts(snap, prev *Snapshot) {
	if len(s.opts.hosts) == 0 {
		return
	}
	for origin, z := range snap.zones {
		if z.catalog || prev.zones[origin] == z {
			continue
		}
		for _, h := range s.opts.hosts {
			name := h.label + "." + origin
			if z.domains.get(name) != nil {
				continue
			}
			rrs := make([]dns.RR, 0, len(h.addrs))
			for _, a := range h.addrs {
				hdr := dns.RR_Header{Name: name, Class: dns.ClassINET, Ttl: hostTTL}
				if a.Is4() {
					hdr.Rrtype = dns.TypeA
					rrs = append(rrs, &dns.A{Hdr: hdr, A: a.AsSlice()})
				} else {
					hdr.Rrtype = dns.TypeAAAA
					rrs = append(rrs, &dns.AAAA{Hdr: hdr, AAAA: a.AsSlice()})
				}
			}
			z.domains.set(name, z.buildDomain(name, rrs))
		}
	}
}
