package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"

	"github.com/nameport/nameport/sdk"
)

type churnOptions struct {
	url, key string // the server's API and a registrar's key with money for one domain
	// db, instead of url and key, is the database of the DNS server (made
	// by dnsbench prepare): changes are written there through the record
	// service, as another process of the product writes them (see churnDB).
	db      string
	server  string // the DNS server, host:port
	changes int    // changes to make (0: as many as the duration takes)
	// rate, when above 0, starts that many changes a second whether or
	// not the ones before are done (open loop; with db each write still
	// waits for the one before to commit, and a late one starts at once);
	// 0 makes each change once the one before is answered (with
	// awaitAtEnd: taken by the API).
	rate     float64
	duration time.Duration // no change starts after this (0: no limit)
	// spread, one after another, waits a random time below it before each
	// change, so that changes do not fall in step with a server that
	// polls: written right after the answer to the one before, which came
	// right after a poll, each would wait a whole interval.
	spread time.Duration
	// awaitAtEnd sends every change first and asks DNS for each after the
	// last is sent: far fewer questions and no pile-up of changes waiting
	// for answers, for a run that wants changes applied, not timed (each
	// latency then includes the wait for the changes sent after it).
	awaitAtEnd bool
	// signed asks with the DO bit and waits for the record signed (an
	// RRSIG over the A set): the time to a signed answer.
	signed   bool
	poll     time.Duration // between questions about one change
	deadline time.Duration // a change not answered this long after it was written fails
}

// churnResult is what a churn run measured: from the moment each change is
// sent (to the API, or to the database) to the DNS answer that holds it.
type churnResult struct {
	writer    string          // "api" or "db": how changes were sent
	latencies []time.Duration // of the changes timed, sorted
	writes    []time.Duration // of the API calls or database writes, sorted
	started   int
	answered  int           // changes a DNS answer showed applied, timed or not
	elapsed   time.Duration // from the first change sent to the last answered
	failures  []error
	apiErrors int64 // failed answers of the API, retried or not
}

// churn registers a fresh domain through /v1 and adds records to it, one
// name per change, each an A record in 198.18.0.0/15 (the benchmarking
// range), and asks the server over DNS until the answer holds the record.
// A change counts as answered only by an answer with that very record.
func churn(ctx context.Context, o churnOptions, out io.Writer) error {
	if o.url == "" || o.key == "" || o.server == "" {
		return errors.New("churn: -url, -key and -server are required")
	}
	if o.changes < 1 && o.duration <= 0 {
		return errors.New("churn: give -changes, -duration or both")
	}
	if o.poll <= 0 || o.deadline <= 0 {
		return errors.New("churn: -poll and -deadline must be above 0")
	}
	// The SDK retries as it does for any registrar (5xx and 429 answers, the
	// same Idempotency-Key each time), and the time of a change includes its
	// retries; the failed answers are counted and shown.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 100 // changes at a rate overlap
	apiErrors := &countingTransport{next: transport}
	client := sdk.NewClient(o.key, sdk.WithBaseURL(o.url),
		sdk.WithHTTPClient(&http.Client{Timeout: o.deadline, Transport: apiErrors}))
	domain, err := registerChurnDomain(ctx, client)
	if err != nil {
		return err
	}
	// The first change also waits for the registration to be served; it
	// is not counted.
	first, err := send(ctx, client, domain, 0)
	if err == nil {
		_, err = first.await(ctx, o, domain)
	}
	if err != nil {
		return fmt.Errorf("churn: %s is not served: %w", domain, err)
	}
	// scripts/bench.sh starts dnsperf on this line, once changes flow.
	fmt.Fprintf(os.Stderr, "dnsbench: churn: %s is served; changing it\n", domain)
	res := runChanges(ctx, client, o, domain)
	res.apiErrors = apiErrors.failed.Load()
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, res.line())
	if len(res.failures) > 0 {
		return fmt.Errorf("churn: %d of %d changes failed; the first: %w", len(res.failures), res.started, res.failures[0])
	}
	return nil
}

// registerChurnDomain registers a name of its own, so that no record of an
// earlier run can answer for a change of this one.
func registerChurnDomain(ctx context.Context, client *sdk.Client) (string, error) {
	label, err := churnLabel()
	if err != nil {
		return "", err
	}
	domain := label + extension
	if _, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: domain}); err != nil {
		return "", fmt.Errorf("churn: register %s: %w", domain, err)
	}
	return domain, nil
}

// churnLabel is a label no earlier run has used: churn-<12 hex digits>.
func churnLabel() (string, error) {
	tag := make([]byte, 6)
	if _, err := rand.Read(tag); err != nil {
		return "", err
	}
	return "churn-" + hex.EncodeToString(tag), nil
}

func runChanges(ctx context.Context, client *sdk.Client, o churnOptions, domain string) churnResult {
	var (
		mu  sync.Mutex
		res = churnResult{writer: "api"}
		wg  sync.WaitGroup
	)
	var unanswered []sentChange // with awaitAtEnd
	start := time.Now()
	lastAnswer := start
	answered := func(c sentChange, latency time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			res.failures = append(res.failures, err)
			return
		}
		res.answered++
		res.latencies = append(res.latencies, latency)
		res.writes = append(res.writes, c.api)
		if now := time.Now(); now.After(lastAnswer) {
			lastAnswer = now
		}
	}
	one := func(i int) {
		c, err := send(ctx, client, domain, i)
		if err == nil && o.awaitAtEnd {
			mu.Lock()
			unanswered = append(unanswered, c)
			mu.Unlock()
			return
		}
		var latency time.Duration
		if err == nil {
			latency, err = c.await(ctx, o, domain)
		}
		answered(c, latency, err)
	}
	for i := 1; o.changes < 1 || i <= o.changes; i++ {
		at := o.nextChange(start, i)
		if o.duration > 0 && at.Sub(start) >= o.duration || !sleepUntil(ctx, at) {
			break
		}
		res.started++
		if o.rate > 0 {
			wg.Go(func() { one(i) })
			continue
		}
		one(i)
		if len(res.failures) > 0 {
			break
		}
	}
	wg.Wait()
	slices.SortFunc(unanswered, func(a, b sentChange) int { return a.i - b.i })
	for _, c := range unanswered {
		latency, err := c.await(ctx, o, domain)
		answered(c, latency, err)
	}
	res.elapsed = lastAnswer.Sub(start)
	slices.Sort(res.latencies)
	slices.Sort(res.writes)
	return res
}

// nextChange is when change i (from 1) starts: on the schedule of the rate,
// or now (after a random wait below spread) one after another.
func (o churnOptions) nextChange(start time.Time, i int) time.Time {
	switch {
	case o.rate > 0:
		return start.Add(time.Duration(float64(i-1) / o.rate * float64(time.Second)))
	case o.spread > 0:
		return time.Now().Add(mathrand.N(o.spread))
	}
	return time.Now()
}

// countingTransport counts the requests that fail: no answer, or a 5xx or
// 429 answer.
type countingTransport struct {
	next   http.RoundTripper
	failed atomic.Int64
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(r)
	if err != nil || res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests {
		t.failed.Add(1)
	}
	return res, err
}

func sleepUntil(ctx context.Context, at time.Time) bool {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// sentChange is change i, taken by the API.
type sentChange struct {
	i     int
	start time.Time     // when it was sent
	api   time.Duration // until the API answered
}

// send change i: the A record of c<i>.<domain>.
func send(ctx context.Context, client *sdk.Client, domain string, i int) (sentChange, error) {
	c := sentChange{i: i, start: time.Now()}
	if _, err := client.DNS.Upsert(ctx, domain, sdk.RecordSet{Name: c.label(), Type: "A",
		Values: []string{churnAddress(i).String()}, TTL: sdk.Int(300)}); err != nil {
		return c, fmt.Errorf("change %d: %w", i, err)
	}
	c.api = time.Since(c.start)
	return c, nil
}

func (c sentChange) label() string { return churnRecordLabel(c.i) }

// await asks DNS until an answer holds the change, and returns the time from
// sending the change to that answer.
func (c sentChange) await(ctx context.Context, o churnOptions, domain string) (time.Duration, error) {
	await := awaitRecord
	if o.signed {
		await = awaitSigned
	}
	at, err := await(ctx, o.server, c.label()+"."+domain+".", churnAddress(c.i), o.poll, o.deadline)
	if err != nil {
		return 0, fmt.Errorf("change %d: %w", c.i, err)
	}
	return at.Sub(c.start), nil
}

// churnAddress is change i's address in 198.18.0.0/15, distinct for the
// first 131,072 changes.
func churnAddress(i int) netip.Addr {
	return netip.AddrFrom4([4]byte{198, 18 + byte(i>>16&1), byte(i >> 8), byte(i)})
}

// awaitRecord asks server for the A records of name until an answer holds
// want (see awaitAnswer).
func awaitRecord(ctx context.Context, server, name string, want netip.Addr, poll, deadline time.Duration) (time.Time, error) {
	return awaitAnswer(ctx, server, name, "A "+want.String(), false, func(m *dns.Msg) bool { return holdsRecord(m, name, want) }, poll, deadline)
}

// awaitSigned asks server, with the DO bit, for the A records of name
// until an answer holds want and a signature over them.
func awaitSigned(ctx context.Context, server, name string, want netip.Addr, poll, deadline time.Duration) (time.Time, error) {
	return awaitAnswer(ctx, server, name, "A "+want.String()+" signed", true, func(m *dns.Msg) bool {
		return holdsRecord(m, name, want) && slices.ContainsFunc(m.Answer, func(rr dns.RR) bool {
			sig, ok := rr.(*dns.RRSIG)
			return ok && sig.TypeCovered == dns.TypeA && strings.EqualFold(sig.Hdr.Name, name)
		})
	}, poll, deadline)
}

// awaitGone asks server for the A records of name until an answer of the
// zone shows that gone is not among them (see awaitAnswer).
func awaitGone(ctx context.Context, server, name string, gone netip.Addr, poll, deadline time.Duration) (time.Time, error) {
	return awaitAnswer(ctx, server, name, "without A "+gone.String(), false, func(m *dns.Msg) bool { return lacksRecord(m, name, gone) }, poll, deadline)
}

// awaitAnswer asks server for the A records of name over UDP every poll,
// without waiting for the answer to the question before (a lost datagram or
// a slow answer must not hold the clock), until an answer passes done; it
// returns when that answer arrived. want says what done looks for, for the
// error; do sets the DO bit.
func awaitAnswer(ctx context.Context, server, name, want string, do bool, done func(*dns.Msg) bool, poll, deadline time.Duration) (time.Time, error) {
	conn, err := net.Dial("udp", server)
	if err != nil {
		return time.Time{}, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	answered := make(chan time.Time, 1)
	var replies atomic.Int64
	var last atomic.Value // the last answer without the record, for the error
	go func() {
		buf := make([]byte, dns.MaxMsgSize)
		for {
			n, err := conn.Read(buf)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err != nil { // e.g. refused while the server is not listening
				continue
			}
			at := time.Now()
			m := new(dns.Msg)
			if m.Unpack(buf[:n]) != nil {
				continue
			}
			replies.Add(1)
			if done(m) {
				answered <- at
				return
			}
			last.Store(summary(m))
		}
	}()

	q := new(dns.Msg).SetQuestion(name, dns.TypeA)
	q.RecursionDesired = false
	if do {
		q.SetEdns0(1232, true)
	}
	wire := make([]byte, 0, 512)
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		q.Id = dns.Id()
		if wire, err = q.PackBuffer(wire); err != nil {
			return time.Time{}, err
		}
		_, _ = conn.Write(wire) // a failed send is one question fewer; the next tick asks again
		select {
		case at := <-answered:
			return at, nil
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return time.Time{}, fmt.Errorf("%s %s: not answered within %s (%d other answers; the last: %v)",
					name, want, deadline.Round(time.Millisecond), replies.Load(), last.Load())
			}
			return time.Time{}, ctx.Err()
		case <-tick.C:
		}
	}
}

// lacksRecord says whether m is the zone's own answer (authoritative, no
// error or NXDOMAIN) to name's A records without gone among them. Refusals
// and failures say nothing of the zone and do not count.
func lacksRecord(m *dns.Msg, name string, gone netip.Addr) bool {
	if !m.Response || !m.Authoritative || m.Rcode != dns.RcodeSuccess && m.Rcode != dns.RcodeNameError ||
		len(m.Question) != 1 || !strings.EqualFold(m.Question[0].Name, name) || m.Question[0].Qtype != dns.TypeA {
		return false
	}
	return !answersWith(m, name, gone)
}

// holdsRecord says whether m answers name's A records with want among them.
func holdsRecord(m *dns.Msg, name string, want netip.Addr) bool {
	if !m.Response || m.Rcode != dns.RcodeSuccess || len(m.Question) != 1 ||
		!strings.EqualFold(m.Question[0].Name, name) || m.Question[0].Qtype != dns.TypeA {
		return false
	}
	return answersWith(m, name, want)
}

// answersWith says whether the answer section of m has the A record of name
// with address want.
func answersWith(m *dns.Msg, name string, want netip.Addr) bool {
	for _, rr := range m.Answer {
		a, ok := rr.(*dns.A)
		if !ok || !strings.EqualFold(a.Hdr.Name, name) {
			continue
		}
		if got, ok := netip.AddrFromSlice(a.A); ok && got.Unmap() == want {
			return true
		}
	}
	return false
}

func summary(m *dns.Msg) string {
	s := dns.RcodeToString[m.Rcode]
	for _, rr := range m.Answer {
		s += "; " + rr.String()
	}
	return s
}

// line is the result as key=value pairs for scripts/bench.sh.
func (r churnResult) line() string {
	pct := func(d []time.Duration, p float64) float64 {
		if len(d) == 0 {
			return 0
		}
		return float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds()) / 1000
	}
	rate := 0.0
	if r.elapsed > 0 {
		rate = float64(r.answered) / r.elapsed.Seconds()
	}
	line := fmt.Sprintf("changes=%d answered=%d failed=%d timed=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f %s_p50_ms=%.2f %s_p99_ms=%.2f",
		r.started, r.answered, len(r.failures), len(r.latencies), pct(r.latencies, 0.50), pct(r.latencies, 0.99),
		pct(r.latencies, 1), r.writer, pct(r.writes, 0.50), r.writer, pct(r.writes, 0.99))
	if r.writer == "api" {
		line += fmt.Sprintf(" api_errors=%d", r.apiErrors)
	}
	return line + fmt.Sprintf(" rate=%.1f", rate)
}
