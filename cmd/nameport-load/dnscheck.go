package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
)

// dnsChecks counts the DNS queries of the final check.
type dnsChecks struct {
	Sets, Empty, Absent int
}

// checkDNS: invariant 4. Real queries to the running server's DNS port
// answer exactly what the database holds: each record set's values (a
// sample of at most max sets), NODATA or NXDOMAIN for sets clients deleted,
// NODATA at the apex of registered domains without address records, and
// NXDOMAIN for names clients tried to register and nobody holds.
func (c *checker) checkDNS(ctx context.Context, addr string, zones []string, a *acks, max int, rng *rand.Rand) dnsChecks {
	var n dnsChecks
	sets := c.recordSets(ctx)
	// Owner names that hold any record, the domains that hold any, and
	// the registered domains with their expiry (an expired domain does not
	// resolve).
	owners := map[string]bool{}
	withRecords := map[string]bool{}
	for k := range sets {
		owners[ownerName(k)] = true
		withRecords[k.Domain] = true
	}
	type reg struct {
		full    string
		expired bool
	}
	var regs []reg
	registered := map[string]bool{}
	c.rows(ctx, `SELECT name || extension, expires_at <= now() FROM domains`, func(r *sql.Rows) error {
		var d reg
		if err := r.Scan(&d.full, &d.expired); err != nil {
			return err
		}
		regs = append(regs, d)
		registered[d.full] = true
		return nil
	})

	keys := make([]recordSetKey, 0, len(sets))
	for k := range sets {
		if k.Type == "A" || k.Type == "TXT" {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y recordSetKey) int { return strings.Compare(ownerName(x)+x.Type, ownerName(y)+y.Type) })
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	if len(keys) > max {
		keys = keys[:max]
	}
	for i, k := range keys {
		m, err := query(addr, ownerName(k), dns.StringToType[k.Type], i%5 == 0)
		n.Sets++
		if err != nil {
			c.violate("dns: %s %s: %v", ownerName(k), k.Type, err)
			continue
		}
		got := answerValues(m, ownerName(k), dns.StringToType[k.Type])
		switch {
		case m.Rcode != dns.RcodeSuccess:
			c.violate("dns: %s %s answered %s; the database holds %v", ownerName(k), k.Type, dns.RcodeToString[m.Rcode], sets[k])
		case !m.Authoritative:
			c.violate("dns: %s %s answered without the AA bit", ownerName(k), k.Type)
		case !slices.Equal(got, sets[k]):
			c.violate("dns: %s %s answered %v; the database holds %v", ownerName(k), k.Type, got, sets[k])
		}
	}

	// Sets clients deleted, and apexes without address records: no records
	// of the type; NXDOMAIN when nothing at all lives at the name.
	var empty []recordSetKey
	for k := range a.deletedSets {
		if len(sets[k]) == 0 && registered[k.Domain] {
			empty = append(empty, k)
		}
	}
	for _, d := range regs {
		k := recordSetKey{Domain: d.full, Name: "@", Type: "A"}
		if !d.expired && len(sets[k]) == 0 && !a.deletedSets[k] {
			empty = append(empty, k)
		}
	}
	slices.SortFunc(empty, func(x, y recordSetKey) int { return strings.Compare(ownerName(x)+x.Type, ownerName(y)+y.Type) })
	rng.Shuffle(len(empty), func(i, j int) { empty[i], empty[j] = empty[j], empty[i] })
	if len(empty) > max {
		empty = empty[:max]
	}
	for _, k := range empty {
		name := ownerName(k)
		// A domain's apex exists once the domain has records, at it or
		// below it; a domain without any is NXDOMAIN, as on a secondary.
		wantRcode := dns.RcodeSuccess
		if k.Name != "@" && !owners[name] || k.Name == "@" && !withRecords[k.Domain] {
			wantRcode = dns.RcodeNameError
		}
		m, err := query(addr, name, dns.StringToType[k.Type], false)
		n.Empty++
		if err != nil {
			c.violate("dns: %s %s: %v", name, k.Type, err)
			continue
		}
		if got := answerValues(m, name, dns.StringToType[k.Type]); len(got) > 0 || m.Rcode != wantRcode {
			c.violate("dns: %s %s answered %s %v; want %s with no records (the database holds none)",
				name, k.Type, dns.RcodeToString[m.Rcode], got, dns.RcodeToString[wantRcode])
		}
	}

	// Names clients tried and failed to register (lost, refused, unknown)
	// do not exist.
	var absent []string
	for full := range a.triedNames {
		if !registered[full] {
			absent = append(absent, full)
		}
	}
	slices.Sort(absent)
	rng.Shuffle(len(absent), func(i, j int) { absent[i], absent[j] = absent[j], absent[i] })
	if len(absent) > max {
		absent = absent[:max]
	}
	for _, full := range absent {
		m, err := query(addr, full+".", dns.TypeA, false)
		n.Absent++
		if err != nil {
			c.violate("dns: %s A: %v", full, err)
			continue
		}
		if m.Rcode != dns.RcodeNameError {
			c.violate("dns: %s, which nobody registered, answered %s; want NXDOMAIN", full, dns.RcodeToString[m.Rcode])
		}
	}
	c.checkSOA(ctx, addr, zones)
	return n
}

// checkSOA: every zone's SOA serial is the one the database names
// (zone_version.serial plus catalog_version, modulo 2^32).
func (c *checker) checkSOA(ctx context.Context, addr string, zones []string) {
	dbSerial := func() (uint32, error) {
		var zs, cv int64
		err := c.db.QueryRowContext(ctx, `SELECT z.serial, c.version FROM zone_version z, catalog_version c
			WHERE z.id = 1 AND c.id = 1`).Scan(&zs, &cv)
		return uint32(zs + cv), err
	}
	for _, z := range zones {
		for try := 0; ; try++ {
			before, err := dbSerial()
			if err != nil {
				c.violate("dns: read the zone serial: %v", err)
				return
			}
			m, err := query(addr, z, dns.TypeSOA, false)
			after, _ := dbSerial()
			if before != after && try < 3 {
				continue // a change landed meanwhile
			}
			if err != nil {
				c.violate("dns: %s SOA: %v", z, err)
				break
			}
			var got []uint32
			for _, rr := range m.Answer {
				if soa, ok := rr.(*dns.SOA); ok {
					got = append(got, soa.Serial)
				}
			}
			if len(got) != 1 || got[0] != after {
				c.violate("dns: %s SOA serials %v; the database says %d", z, got, after)
			}
			break
		}
	}
}

// ownerName is the absolute DNS name of a record set.
func ownerName(k recordSetKey) string {
	if k.Name == "@" {
		return k.Domain + "."
	}
	return k.Name + "." + k.Domain + "."
}

// query asks addr once over UDP (TCP when told or when the answer is
// truncated), retrying a lost packet.
func query(addr, name string, qtype uint16, tcp bool) (*dns.Msg, error) {
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.SetEdns0(4096, false)
	netw := "udp"
	if tcp {
		netw = "tcp"
	}
	var lastErr error
	for range 3 {
		cl := &dns.Client{Net: netw, Timeout: 2 * time.Second}
		r, _, err := cl.Exchange(m, addr)
		if err == nil && r.Truncated && netw == "udp" {
			netw = "tcp"
			continue
		}
		if err == nil {
			return r, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("no answer over %s: %w", netw, lastErr)
}

// answerValues are the values of the answer's records of qtype at name,
// sorted, written as the database stores them.
func answerValues(m *dns.Msg, name string, qtype uint16) []string {
	var out []string
	for _, rr := range m.Answer {
		if rr.Header().Rrtype != qtype || !strings.EqualFold(rr.Header().Name, name) {
			continue
		}
		switch v := rr.(type) {
		case *dns.A:
			out = append(out, v.A.String())
		case *dns.TXT:
			out = append(out, strings.Join(v.Txt, ""))
		default:
			out = append(out, strings.TrimPrefix(rr.String(), rr.Header().String()))
		}
	}
	slices.Sort(out)
	return out
}

// soaProbe watches the SOA serial of every zone all through the run,
// restarts included: it must never go back (RFC 1982 order, so that
// secondaries keep following).
type soaProbe struct {
	mu         sync.Mutex
	last       map[string]uint32
	answers    int
	otherCodes map[string]int
	violations []string
}

func (p *soaProbe) run(ctx context.Context, addr string, zones []string) {
	p.last = map[string]uint32{}
	p.otherCodes = map[string]int{}
	for ctx.Err() == nil {
		for _, z := range zones {
			m := new(dns.Msg)
			m.SetQuestion(z, dns.TypeSOA)
			r, _, err := (&dns.Client{Timeout: 500 * time.Millisecond}).Exchange(m, addr)
			if err != nil {
				continue // down between a kill and the restart
			}
			p.mu.Lock()
			if r.Rcode != dns.RcodeSuccess || len(r.Answer) == 0 {
				p.otherCodes[dns.RcodeToString[r.Rcode]]++
			} else if soa, ok := r.Answer[0].(*dns.SOA); ok {
				p.answers++
				if prev, seen := p.last[z]; seen && soa.Serial != prev && !serialAfter(soa.Serial, prev) {
					p.violations = append(p.violations, fmt.Sprintf("dns: the SOA serial of %s went back from %d to %d", z, prev, soa.Serial))
				}
				if prev, seen := p.last[z]; !seen || serialAfter(soa.Serial, prev) {
					p.last[z] = soa.Serial
				}
			}
			p.mu.Unlock()
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// serialAfter reports whether serial a comes after b in RFC 1982 order.
func serialAfter(a, b uint32) bool { return a != b && a-b < 1<<31 }

// freshnessProbe checks, all through the run, that DNS answers what clients
// were told at most freshAfter after they were told it: record sets a
// client changed (or deleted) and has not touched since, queried live.
type freshnessProbe struct {
	// after is how long a change may take to reach DNS (see
	// defaultFreshAfter).
	after      time.Duration
	checked    int
	violations []string
}

// defaultFreshAfter is how long a change may take to reach DNS: DESIGN.md
// says DNS nodes notice a change within a second (this one polls every
// 500 ms and is poked by its own writes). Tests on a busy CI machine allow
// more: they look for answers that stay wrong, not for speed.
const defaultFreshAfter = 1500 * time.Millisecond

func (p *freshnessProbe) run(ctx context.Context, addr string, a *acks, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0xf7e5))
	for ctx.Err() == nil {
		for _, c := range a.settledSets(p.after, 5, rng.IntN) {
			name, qtype := ownerName(c.key), dns.StringToType[c.key.Type]
			m, err := query(addr, name, qtype, false)
			if err != nil || !a.unchanged(c) {
				continue // the server is down, or the owner changed the set meanwhile
			}
			p.checked++
			got := answerValues(m, name, qtype)
			if !slices.Equal(got, c.values) && len(p.violations) < 20 {
				p.violations = append(p.violations, fmt.Sprintf("dns: %s %s answered %s %v during the run, more than %s after "+
					"the client was told %v", name, c.key.Type, dns.RcodeToString[m.Rcode], got, p.after, c.values))
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}
