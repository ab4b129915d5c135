package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/miekg/dns"
)

// export transfers zone from server (which must allow this address) and
// writes it as a BIND zone file: the records exactly as the server holds
// them, the SOA first, one per line, owner names absolute; unsigned leaves
// out what signing adds (see signingTypes). A signed zone's transfer is
// signed whole before its first message: the read timeout allows for a
// large zone on a busy machine.
func export(server, zoneName, out string, unsigned bool) error {
	zoneName = dns.Fqdn(zoneName)
	tr := &dns.Transfer{DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Minute}
	envelopes, err := tr.In(new(dns.Msg).SetAxfr(zoneName), server)
	if err != nil {
		return fmt.Errorf("export: AXFR %s from %s: %w", zoneName, server, err)
	}
	var records []dns.RR
	for e := range envelopes {
		if e.Error != nil {
			return fmt.Errorf("export: AXFR %s from %s: %w", zoneName, server, e.Error)
		}
		for _, rr := range e.RR {
			if !unsigned || !signingTypes[rr.Header().Rrtype] {
				records = append(records, rr)
			}
		}
	}
	if len(records) < 2 || records[0].Header().Rrtype != dns.TypeSOA || records[len(records)-1].Header().Rrtype != dns.TypeSOA {
		return fmt.Errorf("export: AXFR %s from %s: not a complete transfer (%d records)", zoneName, server, len(records))
	}
	records = records[:len(records)-1] // the closing SOA

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "; %s as transferred from %s, serial %d\n", zoneName, server, records[0].(*dns.SOA).Serial)
	for _, rr := range records {
		fmt.Fprintln(w, rr.String())
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "dnsbench: %s: %d records of %s\n", out, len(records), zoneName)
	return nil
}

// signingTypes are the types DNSSEC signing adds to a zone (DS records,
// the delegations' own, are data).
var signingTypes = map[uint16]bool{dns.TypeRRSIG: true, dns.TypeNSEC: true, dns.TypeNSEC3: true,
	dns.TypeNSEC3PARAM: true, dns.TypeDNSKEY: true, dns.TypeCDS: true, dns.TypeCDNSKEY: true}

// wait polls server for the SOA of zone, every 10 ms (start times are
// measured with it), until it answers with one.
func wait(ctx context.Context, server, zoneName string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	q := new(dns.Msg).SetQuestion(dns.Fqdn(zoneName), dns.TypeSOA)
	c := &dns.Client{Timeout: time.Second}
	var last string
	for {
		resp, _, err := c.ExchangeContext(ctx, q, server)
		switch {
		case err != nil:
			last = err.Error()
		case resp.Rcode == dns.RcodeSuccess && len(resp.Answer) == 1 && resp.Answer[0].Header().Rrtype == dns.TypeSOA:
			return nil
		default:
			last = dns.RcodeToString[resp.Rcode]
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait: %s does not answer the SOA of %s (last: %s)", server, zoneName, last)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
