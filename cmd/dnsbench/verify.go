package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
)

type verifyOptions struct {
	a, b    string
	names   string
	queries string
	sample  int
}

type question struct {
	name  string
	qtype uint16
	edns  bool
}

// verify asks servers a and b a sample of the query file, plus questions
// the file lacks (apex SOA and NS, NODATA, NXDOMAIN below a domain, the
// CNAME itself, mixed case), each without EDNS (as dnsperf sends them) and
// with it, and compares the answers (see answerKey). Any difference is an
// error.
func verify(ctx context.Context, o verifyOptions) error {
	nameA, nameB, ok := strings.Cut(o.names, ",")
	if !ok {
		nameA, nameB = "a", "b"
	}
	file, err := readQueries(o.queries)
	if err != nil {
		return err
	}
	var qs []question
	step := 1
	if o.sample > 0 && len(file) > o.sample {
		step = len(file) / o.sample
	}
	for i := 0; i < len(file); i += step {
		qs = append(qs, file[i])
	}
	qs = append(qs, extraQuestions()...)
	var all []question
	for _, q := range qs {
		all = append(all, q, question{q.name, q.qtype, true})
	}

	type result struct {
		q        question
		a, b     string
		rcode    int
		errA     error
		errB     error
		mismatch bool
	}
	results := make([]result, len(all))
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range work {
				q := all[i]
				r := result{q: q}
				ma, errA := exchange(ctx, o.a, q)
				mb, errB := exchange(ctx, o.b, q)
				r.errA, r.errB = errA, errB
				if errA == nil && errB == nil {
					r.a, r.b, r.rcode = answerKey(ma), answerKey(mb), ma.Rcode
					r.mismatch = r.a != r.b
				}
				results[i] = r
			}
		})
	}
	for i := range all {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}

	var mismatches, failures int
	rcodes := map[string]int{}
	for _, r := range results {
		switch {
		case r.errA != nil || r.errB != nil:
			failures++
			if failures <= 5 {
				fmt.Printf("no answer to %s: %s: %v, %s: %v\n", r.q, nameA, r.errA, nameB, r.errB)
			}
		case r.mismatch:
			mismatches++
			if mismatches <= 10 {
				fmt.Printf("DIFFERENT answers to %s:\n  %s: %s\n  %s: %s\n", r.q, nameA, r.a, nameB, r.b)
			}
		default:
			rcodes[dns.RcodeToString[r.rcode]]++
		}
	}
	var counts []string
	for rc, n := range rcodes {
		counts = append(counts, fmt.Sprintf("%s %d", rc, n))
	}
	slices.Sort(counts)
	fmt.Printf("verify: %d questions (%d from the query file, %d more; each without and with EDNS): %d same answers (%s), %d different, %d unanswered\n",
		len(all), len(qs)-len(extraQuestions()), len(extraQuestions()), len(all)-mismatches-failures,
		strings.Join(counts, ", "), mismatches, failures)
	if mismatches > 0 || failures > 0 {
		return errors.New("verify: the servers do not answer alike")
	}
	return nil
}

func (q question) String() string {
	s := q.name + " " + dns.TypeToString[q.qtype]
	if q.edns {
		s += " (EDNS)"
	}
	return s
}

// extraQuestions are answers the query file does not exercise.
func extraQuestions() []question {
	qs := []question{
		{origin, dns.TypeSOA, false},
		{origin, dns.TypeNS, false},
		{origin, dns.TypeA, false},
		{"ns1." + origin, dns.TypeA, false},
		{"nameport.net.", dns.TypeA, false}, // outside the zone
	}
	for _, i := range []int{1, 2, 77, 1234, 9999} {
		apex := domainLabel(i) + "." + origin
		qs = append(qs,
			question{apex, dns.TypeNS, false},
			question{apex, dns.TypeSOA, false},
			question{apex, dns.TypeSRV, false},
			question{"www." + apex, dns.TypeCNAME, false},
			question{"www." + apex, dns.TypeMX, false},
			question{"www." + apex, dns.TypeAAAA, false},
			question{"nothing." + apex, dns.TypeA, false},
			question{strings.ToUpper(apex[:1]) + apex[1:], dns.TypeTXT, false},
		)
	}
	return qs
}

// readQueries reads a dnsperf query file.
func readQueries(path string) ([]question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []question
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], ";") {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"name TYPE\"", path, line)
		}
		t, ok := dns.StringToType[strings.ToUpper(fields[1])]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown type %q", path, line, fields[1])
		}
		qs = append(qs, question{name: dns.Fqdn(fields[0]), qtype: t})
	}
	return qs, sc.Err()
}

// exchange asks server q over UDP, trying again on a timeout.
func exchange(ctx context.Context, server string, q question) (*dns.Msg, error) {
	m := new(dns.Msg).SetQuestion(q.name, q.qtype)
	m.RecursionDesired = false
	if q.edns {
		m.SetEdns0(1232, false)
	}
	c := &dns.Client{Timeout: 2 * time.Second}
	var err error
	for range 3 {
		var resp *dns.Msg
		if resp, _, err = c.ExchangeContext(ctx, m, server); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// answerKey is what two authoritative servers for the same zone must agree
// on: the rcode, the AA and TC bits, the answer section as a set of records
// (TTLs included), and the SOA of a negative answer. The additional section
// (glue, addresses of MX targets) and the NS records some servers add to
// the authority section of positive answers are a matter of style and not
// compared.
func answerKey(m *dns.Msg) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s aa=%t tc=%t answer=%q", dns.RcodeToString[m.Rcode], m.Authoritative, m.Truncated, rrStrings(m.Answer))
	if len(m.Answer) == 0 {
		var soa []dns.RR
		for _, rr := range m.Ns {
			if rr.Header().Rrtype == dns.TypeSOA {
				soa = append(soa, rr)
			}
		}
		fmt.Fprintf(&b, " authority-soa=%q", rrStrings(soa))
	}
	return b.String()
}

// rrStrings returns the records in presentation format with owner names in
// lower case, sorted.
func rrStrings(rrs []dns.RR) []string {
	out := make([]string, 0, len(rrs))
	for _, rr := range rrs {
		rr = dns.Copy(rr)
		rr.Header().Name = strings.ToLower(rr.Header().Name)
		out = append(out, rr.String())
	}
	slices.Sort(out)
	return out
}
