package server_test

// What the tests of real secondaries (NSD, Knot, BIND; their own files)
// share: the data they are given through the API, running the daemon,
// waiting for it to catch up with nameport, and comparing its answers with
// nameport's.

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/servertest"
)

// Eventual conditions get this long: generous, for a loaded 2-core machine.
const secondaryWait = 20 * time.Second

// secondary is a running DNS daemon, a secondary of nameport.
type secondary struct {
	name string // the program (nsd, knotd, named), for messages
	addr string
	logs *lockedBuffer
}

type lockedBuffer = servertest.LockedBuffer

// requireInstalled returns the path of program, or skips the test when it
// is not installed; it fails instead when the environment variable
// requiredBy is 1: CI sets it, so that the test never skips there
// unnoticed.
func requireInstalled(t *testing.T, program, requiredBy, debianPackage string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		// Debian installs it in /usr/sbin, which a user's PATH may lack.
		if _, statErr := os.Stat("/usr/sbin/" + program); statErr == nil {
			return "/usr/sbin/" + program
		}
		if os.Getenv(requiredBy) == "1" {
			t.Fatalf("%s is not installed and %s=1 (Debian: apt-get install %s)", program, requiredBy, debianPackage)
		}
		t.Skipf("%s is not installed (Debian: apt-get install %s); set %s=1 to make this a failure", program, debianPackage, requiredBy)
	}
	return path
}

// allowSignedTransfersAndNotify makes nameport give transfers only to
// requests signed with key (no address is allowed), and send NOTIFY signed
// with it to notifyAddr.
func allowSignedTransfersAndNotify(cfg *config.Config, key config.TSIGKey, notifyAddr string) {
	cfg.DNSTSIGKeys = []config.TSIGKey{key}
	cfg.DNSTransferKeys = []string{key.Name}
	cfg.DNSNotify = []config.NotifyTarget{{Addr: notifyAddr, Key: key.Name}}
}

// readmeConfigBlocks returns README's configuration blocks marked
// "<!-- MARKER: NAME -->" (marker is e.g. knot.conf), by name.
func readmeConfigBlocks(t *testing.T, marker string) map[string]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	blocks := map[string]string{}
	pattern := regexp.MustCompile("(?s)<!-- " + regexp.QuoteMeta(marker) + ": (\\w+) -->\n```\\w*\n(.*?)```")
	for _, m := range pattern.FindAllStringSubmatch(string(text), -1) {
		blocks[m[1]] = m[2]
	}
	return blocks
}

// startSecondary writes conf to confPath, runs cmd (which reads it) with
// its output in the secondary's log, and waits until it answers an SOA
// query for inf.nz on addr. It stops the daemon when the test ends, and
// then shows conf and the log if the test failed. The daemon runs in its
// own process group, and the stop ends the whole group: NSD forks its
// server and xfrd processes.
func startSecondary(t *testing.T, cmd *exec.Cmd, addr, confPath, conf string) *secondary {
	t.Helper()
	require.NoError(t, os.WriteFile(confPath, []byte(conf), 0o600))
	name := filepath.Base(cmd.Path)
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	pgid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-exited
		}
		// Children that outlived the parent.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		if t.Failed() {
			t.Logf("%s config:\n%s\n%s log:\n%s", name, conf, name, logs.String())
		}
	})
	require.Eventually(t, func() bool {
		select {
		case <-exited:
			return true // reported below
		default:
		}
		_, err := dnsAsk(addr, "inf.nz.", dns.TypeSOA)
		return err == nil
	}, secondaryWait, 50*time.Millisecond, "%s answers", name)
	select {
	case <-exited:
		t.Fatalf("%s exited:\n%s", name, logs.String())
	default:
	}
	return &secondary{name: name, addr: addr, logs: logs}
}

// fundedUser seeds the catalog (the extensions) and returns alice, signed
// up, with funds for a few names.
func fundedUser(t *testing.T, ts *testServer) *browser {
	t.Helper()
	seedCatalog(t, ts)
	alice := signedUp(t, ts, "alice", "user")
	require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
	return alice
}

// registerDomain registers name under extension for user through the API
// and returns the domain's id.
func registerDomain(t *testing.T, user *browser, name, extension string) any {
	t.Helper()
	r := user.do("POST", "/api/domains", map[string]any{"name": name, "extension": extension})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	return data(t, r)["domain"].(map[string]any)["id"]
}

// addRecord adds rec to user's domain id through the API and returns the
// record as created.
func addRecord(t *testing.T, user *browser, id any, rec map[string]any) map[string]any {
	t.Helper()
	r := user.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), rec)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	return data(t, r)
}

// registerWithA registers name under extension for user, with an A record
// of address at its apex.
func registerWithA(t *testing.T, user *browser, name, extension, address string) {
	t.Helper()
	id := registerDomain(t, user, name, extension)
	addRecord(t, user, id, map[string]any{"type": "A", "name": "@", "content": address})
}

// question is a query a secondary must answer as nameport does.
type question struct {
	name  string
	qtype uint16
}

// shopQuestions ask about the records registerShopWithRecords adds.
var shopQuestions = []question{
	{"shop.inf.nz.", dns.TypeA},
	{"shop.inf.nz.", dns.TypeAAAA},
	{"shop.inf.nz.", dns.TypeMX}, // with mail.shop's address
	{"shop.inf.nz.", dns.TypeTXT},
	{"www.shop.inf.nz.", dns.TypeA},     // CNAME, followed
	{"nothing.shop.inf.nz.", dns.TypeA}, // NXDOMAIN
	{"shop.inf.nz.", dns.TypeSRV},       // NODATA
	{"inf.nz.", dns.TypeSOA},
}

// registerShopWithRecords registers shop.inf.nz for user with the records
// shopQuestions ask about, and returns its id.
func registerShopWithRecords(t *testing.T, user *browser) any {
	t.Helper()
	shop := registerDomain(t, user, "shop", ".inf.nz")
	for _, rec := range []map[string]any{
		{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600},
		{"type": "AAAA", "name": "@", "content": "2001:db8::10"},
		{"type": "A", "name": "mail", "content": "192.0.2.25"},
		{"type": "MX", "name": "@", "content": "mail.shop.inf.nz", "priority": 10},
		{"type": "TXT", "name": "@", "content": "v=spf1 mx -all"},
		{"type": "CNAME", "name": "www", "content": "shop.inf.nz"},
	} {
		addRecord(t, user, shop, rec)
	}
	return shop
}

// requireServesShopAndItsChange waits until the secondary has transferred
// inf.nz and answers shopQuestions as nameport does (the data there: shop's
// MX record). Then it adds a TXT record to user's shop through the API and
// waits until the secondary serves it and again answers as nameport does,
// the new record too. The SOA refresh is two hours, so only the NOTIFY
// brings the change this soon; howItArrives names the steps, for the
// failure message. It returns the length of the secondary's log before the
// change, for the caller's check of how the change came.
func requireServesShopAndItsChange(t *testing.T, ts *testServer, sec *secondary, user *browser, shop any, howItArrives string) (logBeforeChange int) {
	t.Helper()
	waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
	waitSameAnswers(t, ts.dnsAddr, sec, shopQuestions)
	m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
	require.NoError(t, err)
	require.True(t, m.Authoritative)
	require.Len(t, m.Answer, 1, "the data is there: %s", m)

	logBeforeChange = len(sec.logs.String())
	addRecord(t, user, shop, map[string]any{"type": "TXT", "name": "new", "content": "added later"})
	require.Eventually(t, func() bool {
		m, err := dnsAsk(sec.addr, "new.shop.inf.nz.", dns.TypeTXT)
		return err == nil && len(m.Answer) == 1
	}, secondaryWait, 50*time.Millisecond, "%s serves the change (%s)", sec.name, howItArrives)
	waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")
	waitSameAnswers(t, ts.dnsAddr, sec, append(slices.Clone(shopQuestions), question{"new.shop.inf.nz.", dns.TypeTXT}))
	return logBeforeChange
}

// requireConsumesCatalog requires that the secondary, a consumer of
// nameport's catalog zone given no extension by name, serves inf.nz (where
// user has registered shop with the A record 192.0.2.10), which only the
// catalog names; and that an extension an admin adds through the API
// becomes a zone on the secondary by itself (a NOTIFY of the catalog, its
// transfer, then the new zone's), with a domain's records.
func requireConsumesCatalog(t *testing.T, ts *testServer, sec *secondary, user *browser) {
	t.Helper()
	require.True(t, pollUntil(secondaryWait, answersA(sec, "shop.inf.nz.", "192.0.2.10")),
		"%s serves inf.nz, which only the catalog names", sec.name)
	waitSameSerial(t, ts.dnsAddr, sec, "inf.nz.")

	// A new extension, and a domain in it.
	m, err := dnsAsk(sec.addr, "shop.biz.ee.", dns.TypeA)
	require.NoError(t, err)
	require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[m.Rcode], "not a zone of %s's yet", sec.name)
	admin := loginAdmin2(t, ts)
	r := admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".biz.ee", "description": "Business"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	registerWithA(t, user, "shop", ".biz.ee", "198.51.100.7")
	require.True(t, pollUntil(secondaryWait, answersA(sec, "shop.biz.ee.", "198.51.100.7")),
		"%s serves the new extension's zone, named by the catalog", sec.name)
	require.True(t, pollUntil(secondaryWait, answersA(sec, "shop.inf.nz.", "192.0.2.10")), "and still the first")
}

// answersA is a condition: the secondary answers name's A query
// authoritatively with address alone.
func answersA(sec *secondary, name, address string) func() bool {
	return func() bool {
		m, err := dnsAsk(sec.addr, name, dns.TypeA)
		if err != nil || !m.Authoritative || len(m.Answer) != 1 {
			return false
		}
		a, ok := m.Answer[0].(*dns.A)
		return ok && a.Hdr.Name == name && a.A.String() == address
	}
}

// waitSameSerial waits until the secondary serves the SOA serial of zone
// that nameport (at primary) serves: it has transferred the zone as it is
// now.
func waitSameSerial(t *testing.T, primary string, sec *secondary, zone string) {
	t.Helper()
	var last string
	ok := pollUntil(secondaryWait, func() bool {
		want, err := zoneSerial(primary, zone)
		if err != nil {
			last = "nameport: " + err.Error()
			return false
		}
		got, err := zoneSerial(sec.addr, zone)
		if err != nil {
			last = sec.name + ": " + err.Error()
			return false
		}
		last = fmt.Sprintf("nameport serial %d, %s serial %d", want, sec.name, got)
		return want == got
	})
	require.True(t, ok, "%s did not reach nameport's serial of %s: %s", sec.name, zone, last)
}

// waitSameAnswers waits until the secondary answers every question as
// nameport (at primary) does, twice in a row. Right after a transfer NSD
// briefly runs its old server process next to the new one, and a query
// may still meet the old data; so one pass after the serial matches is
// not yet the answer NSD settles on.
func waitSameAnswers(t *testing.T, primary string, sec *secondary, questions []question) {
	t.Helper()
	var err error
	passes := 0
	ok := pollUntil(secondaryWait, func() bool {
		if err = firstDifferentAnswer(primary, sec, questions); err != nil {
			passes = 0
			return false
		}
		passes++
		return passes == 2
	})
	require.True(t, ok, "%s does not answer as nameport does: %v", sec.name, err)
}

// firstDifferentAnswer asks nameport (at primary) and the secondary each
// question, and describes the first that they answer differently (see
// comparableAnswer), or the first that either fails to answer; nil if
// there is none.
func firstDifferentAnswer(primary string, sec *secondary, questions []question) error {
	for _, q := range questions {
		want, err := dnsAsk(primary, q.name, q.qtype)
		if err != nil {
			return fmt.Errorf("nameport %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
		}
		got, err := dnsAsk(sec.addr, q.name, q.qtype)
		if err != nil {
			return fmt.Errorf("%s %s %s: %w", sec.name, q.name, dns.TypeToString[q.qtype], err)
		}
		if w, g := comparableAnswer(want), comparableAnswer(got); w != g {
			return fmt.Errorf("%s %s:\nnameport: %s\n%-9s %s", q.name, dns.TypeToString[q.qtype], w, sec.name+":", g)
		}
	}
	return nil
}

// requireLoggedSince waits until a line of the secondary's log past its
// first from bytes (its length before a change) holds want, then requires
// that none holds any of unwanted: the secondary's own word on how it took
// the change.
func requireLoggedSince(t *testing.T, sec *secondary, from int, want string, unwanted ...string) {
	t.Helper()
	since := func() string { return sec.logs.String()[from:] }
	require.True(t, pollUntil(secondaryWait, func() bool { return strings.Contains(since(), want) }),
		"%s logs %q after the change:\n%s", sec.name, want, since())
	for _, u := range unwanted {
		require.NotContains(t, since(), u, "%s after the change", sec.name)
	}
}

// pollUntil polls cond every 50 ms until it holds or wait passes.
func pollUntil(wait time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(wait)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// zoneSerial is the serial of the SOA record of zone that addr answers.
func zoneSerial(addr, zone string) (uint32, error) {
	m, err := dnsAsk(addr, zone, dns.TypeSOA)
	if err != nil {
		return 0, err
	}
	if m.Rcode != dns.RcodeSuccess || len(m.Answer) != 1 {
		return 0, fmt.Errorf("SOA: %s, %d answers", dns.RcodeToString[m.Rcode], len(m.Answer))
	}
	soa, ok := m.Answer[0].(*dns.SOA)
	if !ok {
		return 0, fmt.Errorf("SOA: answer is %T", m.Answer[0])
	}
	return soa.Serial, nil
}

// dnsAsk sends one UDP query (with EDNS, as resolvers do), trying again on a
// timeout: a busy machine may drop a datagram.
func dnsAsk(addr, name string, qtype uint16) (*dns.Msg, error) {
	m := new(dns.Msg).SetQuestion(name, qtype)
	m.RecursionDesired = false
	m.SetEdns0(1232, false)
	c := &dns.Client{Timeout: 2 * time.Second}
	var err error
	for range 3 {
		var resp *dns.Msg
		if resp, _, err = c.Exchange(m, addr); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// comparableAnswer is what two authoritative servers must agree on: the
// rcode, the AA bit, the answer section (as a set), the SOA of a negative
// answer, the NS records of a referral, and the additional section (as a
// set, without OPT). (NSD also puts the zone's NS records in the authority
// section of positive answers; nameport leaves them out, as RFC 2181 allows.)
func comparableAnswer(m *dns.Msg) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rcode=%s aa=%t answer=%q", dns.RcodeToString[m.Rcode], m.Authoritative, sortedRRs(m.Answer))
	if len(m.Answer) == 0 {
		var soa []dns.RR
		for _, rr := range m.Ns {
			if rr.Header().Rrtype == dns.TypeSOA {
				soa = append(soa, rr)
			}
		}
		fmt.Fprintf(&b, " authority-soa=%q", sortedRRs(soa))
	}
	if !m.Authoritative {
		fmt.Fprintf(&b, " referral=%q", sortedRRs(m.Ns))
	}
	fmt.Fprintf(&b, " additional=%q", sortedRRs(withoutOPT(m.Extra)))
	return b.String()
}

func withoutOPT(rrs []dns.RR) []dns.RR {
	return slices.DeleteFunc(slices.Clone(rrs), func(rr dns.RR) bool { return rr.Header().Rrtype == dns.TypeOPT })
}

// sortedRRs returns the records in presentation format, owner names in
// lower case, sorted.
func sortedRRs(rrs []dns.RR) []string {
	out := make([]string, 0, len(rrs))
	for _, rr := range rrs {
		rr = dns.Copy(rr)
		rr.Header().Name = strings.ToLower(rr.Header().Name)
		out = append(out, rr.String())
	}
	slices.Sort(out)
	return out
}

// splitHostPort is addr's host and port, which a daemon's configuration
// names apart.
func splitHostPort(t *testing.T, addr string) (host, port string) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	return host, port
}
