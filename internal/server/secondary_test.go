package server_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
)

// envRequireNSD makes the NSD test fail, rather than skip, when nsd is not
// installed: CI sets it, so that the test never skips there unnoticed.
const envRequireNSD = "NAMEPORT_REQUIRE_NSD"

// Eventual conditions get this long: generous, for a loaded 2-core machine.
const secondaryWait = 20 * time.Second

// NSD, a real secondary, transfers the zone from nameport, answers exactly
// what nameport answers, and follows a change made through the API (NOTIFY,
// then a new transfer). A client outside the allow list is refused.
// "Exactly": the rcode, the AA bit, the answer, the SOA of negative answers,
// a referral's NS records, and the additional section (glue, and the
// addresses of NS, MX and SRV targets); and for malformed queries, FORMERR
// from both.
func TestNSDAsSecondary(t *testing.T) {
	t.Parallel()
	nsd := requireNSD(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			nsdAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTransferAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: nsdAddr}}
			})

			// Data through the API: the extension, a user with funds, a
			// domain and its records.
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
			register := func(name string) any {
				t.Helper()
				r := alice.do("POST", "/api/domains", map[string]any{"name": name, "extension": ".inf.nz"})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
				return data(t, r)["domain"].(map[string]any)["id"]
			}
			addRecordTo := func(id any, rec map[string]any) map[string]any {
				t.Helper()
				r := alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), rec)
				require.Equal(t, http.StatusCreated, r.status, r.raw)
				return data(t, r)
			}
			id := register("shop")
			addRecord := func(rec map[string]any) map[string]any { t.Helper(); return addRecordTo(id, rec) }
			apexA := addRecord(map[string]any{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600})
			addRecord(map[string]any{"type": "A", "name": "@", "content": "192.0.2.11", "ttl": 600})
			addRecord(map[string]any{"type": "A", "name": "mail", "content": "192.0.2.25"})
			addRecord(map[string]any{"type": "AAAA", "name": "@", "content": "2001:db8::10"})
			addRecord(map[string]any{"type": "MX", "name": "@", "content": "mail.shop.inf.nz", "priority": 10})
			addRecord(map[string]any{"type": "MX", "name": "@", "content": "backup.example.com", "priority": 20})
			addRecord(map[string]any{"type": "TXT", "name": "@", "content": "v=spf1 mx -all"})
			// Longer than one character-string: split in two on the wire.
			addRecord(map[string]any{"type": "TXT", "name": "@", "content": "k=" + strings.Repeat("x0", 150)})
			addRecord(map[string]any{"type": "CNAME", "name": "www", "content": "shop.inf.nz"})
			addRecord(map[string]any{"type": "AAAA", "name": "mail", "content": "2001:db8::25"})
			addRecord(map[string]any{"type": "A", "name": "*.dyn", "content": "192.0.2.99"})
			addRecord(map[string]any{"type": "SRV", "name": "_sip._tcp", "content": "5 5060 mail.shop.inf.nz", "priority": 10})
			addRecord(map[string]any{"type": "SRV", "name": "_imap._tcp", "content": "5 143 x.dyn.shop.inf.nz", "priority": 10})
			addRecord(map[string]any{"type": "SRV", "name": "_xmpp._tcp", "content": "5 5222 ns1.deleg.inf.nz", "priority": 10})
			// A domain without records: nothing of it is transferred, so NSD
			// answers NXDOMAIN for it, and so must nameport.
			register("empty")
			// A delegated domain: its nameservers inside it (glue), in the
			// zone outside it (one covered by shop's wildcard), and outside
			// the zone.
			deleg := register("deleg")
			addRecordTo(deleg, map[string]any{"type": "A", "name": "ns1", "content": "192.0.2.53"})
			addRecordTo(deleg, map[string]any{"type": "AAAA", "name": "ns1", "content": "2001:db8::53"})
			for _, ns := range []string{"ns1.deleg.inf.nz", "mail.shop.inf.nz", "host.dyn.shop.inf.nz", "ns.elsewhere.net"} {
				addRecordTo(deleg, map[string]any{"type": "NS", "name": "@", "content": ns})
			}

			// NSD starts with nothing and transfers the zone at once.
			sec := startNSD(t, nsd, nsdAddr, ts.dnsAddr)
			waitSameSerial(t, ts.dnsAddr, sec)

			questions := []struct {
				name  string
				qtype uint16
			}{
				{"shop.inf.nz.", dns.TypeA},
				{"shop.inf.nz.", dns.TypeAAAA},
				{"shop.inf.nz.", dns.TypeMX},
				{"shop.inf.nz.", dns.TypeTXT},
				{"shop.inf.nz.", dns.TypeSOA},   // NODATA below the apex
				{"shop.inf.nz.", dns.TypeNS},    // NODATA: not a delegation
				{"SHOP.Inf.NZ.", dns.TypeA},     // case does not matter
				{"www.shop.inf.nz.", dns.TypeA}, // CNAME, followed inside the zone
				{"www.shop.inf.nz.", dns.TypeCNAME},
				{"mail.shop.inf.nz.", dns.TypeA},
				{"mail.shop.inf.nz.", dns.TypeTXT},
				{"nothing.shop.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"unregistered.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"inf.nz.", dns.TypeSOA},
				{"inf.nz.", dns.TypeNS},
				{"inf.nz.", dns.TypeA},           // NODATA at the apex
				{"empty.inf.nz.", dns.TypeA},     // NXDOMAIN: registered, no records
				{"empty.inf.nz.", dns.TypeNS},    // likewise
				{"www.empty.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"deleg.inf.nz.", dns.TypeNS},    // a referral with glue
				{"host.deleg.inf.nz.", dns.TypeA},
				{"deleg.inf.nz.", dns.TypeDS},            // NODATA from the parent side
				{"_sip._tcp.shop.inf.nz.", dns.TypeSRV},  // the target's addresses
				{"_imap._tcp.shop.inf.nz.", dns.TypeSRV}, // a target covered by a wildcard
				{"_xmpp._tcp.shop.inf.nz.", dns.TypeSRV}, // a target below a delegation: none
				{"x.dyn.shop.inf.nz.", dns.TypeA},
				{"dyn.shop.inf.nz.", dns.TypeA}, // NODATA: an empty non-terminal
			}
			sameAnswers := func() error {
				for _, q := range questions {
					want, err := dnsAsk(ts.dnsAddr, q.name, q.qtype)
					if err != nil {
						return fmt.Errorf("nameport %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
					}
					got, err := dnsAsk(sec.addr, q.name, q.qtype)
					if err != nil {
						return fmt.Errorf("nsd %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
					}
					if w, g := comparableAnswer(want), comparableAnswer(got); w != g {
						return fmt.Errorf("%s %s:\nnameport: %s\nnsd:      %s", q.name, dns.TypeToString[q.qtype], w, g)
					}
				}
				return nil
			}
			waitSameAnswers(t, sameAnswers)
			// The comparison is not vacuous: the data is there.
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.Len(t, m.Answer, 2, m.String())
			require.True(t, m.Authoritative)
			m, err = dnsAsk(sec.addr, "unregistered.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeNameError, m.Rcode)
			m, err = dnsAsk(sec.addr, "empty.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeNameError, m.Rcode)
			m, err = dnsAsk(sec.addr, "host.deleg.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.False(t, m.Authoritative)
			require.Len(t, withoutOPT(m.Extra), 5, "glue: ns1.deleg, mail.shop and host.dyn.shop (A), ns1.deleg and mail.shop (AAAA)\n%s", m)
			m, err = dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.Len(t, withoutOPT(m.Extra), 2, "mail.shop's A and AAAA\n%s", m)

			// Malformed queries: FORMERR from both; their well-formed
			// neighbours are answered.
			for _, tt := range malformedQueries(t) {
				want, err := rawAsk(ts.dnsAddr, tt.pkt)
				require.NoError(t, err, "nameport: "+tt.about)
				got, err := rawAsk(sec.addr, tt.pkt)
				require.NoError(t, err, "nsd: "+tt.about)
				require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[got.Rcode], "nsd: "+tt.about)
				require.Equal(t, dns.RcodeToString[got.Rcode], dns.RcodeToString[want.Rcode], "nameport answers as nsd: "+tt.about)
			}

			// A change through the API: nameport notifies, NSD transfers
			// again and serves the new data. (The SOA refresh is two hours:
			// only the NOTIFY brings the change this soon.) It comes by
			// IXFR.
			before, err := soaSerial(sec.addr)
			require.NoError(t, err)
			r := alice.do("PUT", fmt.Sprintf("/api/domains/%v/dns/%v", id, apexA["id"]),
				map[string]any{"type": "A", "name": "@", "content": "198.51.100.77", "ttl": 600})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			addRecord(map[string]any{"type": "TXT", "name": "new", "content": "added later"})
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "new.shop.inf.nz.", dns.TypeTXT)
				if err != nil || len(m.Answer) != 1 {
					return false
				}
				m, err = dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeA)
				return err == nil && slices.Contains(sortedRRs(m.Answer), "shop.inf.nz.\t600\tIN\tA\t198.51.100.77")
			}, secondaryWait, 50*time.Millisecond, "NSD serves the change (NOTIFY, then a transfer)")
			waitSameSerial(t, ts.dnsAddr, sec)
			questions = append(questions, struct {
				name  string
				qtype uint16
			}{"new.shop.inf.nz.", dns.TypeTXT})
			waitSameAnswers(t, sameAnswers)
			requireNSDReceivedIXFR(t, sec, before, "new.shop.inf.nz.", "added later")

			// Transfers: refused to an address outside the allow list (it
			// holds 127.0.0.1/32 only), given to one inside it.
			m, err = axfrFrom(ts.dnsAddr, "127.0.0.3", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeRefused, m.Rcode)
			require.Empty(t, m.Answer)
			m, err = axfrFrom(ts.dnsAddr, "127.0.0.1", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeSuccess, m.Rcode)
			require.NotEmpty(t, m.Answer)
			require.IsType(t, &dns.SOA{}, m.Answer[0])
		})
	}
}

// NSD as a secondary with TSIG: nameport allows transfers signed with the
// key only (no address), and signs its NOTIFY; NSD transfers the zone
// with the key, and follows a change announced by a signed NOTIFY. An
// unsigned transfer request, from the very address NSD uses, is refused.
func TestNSDAsSecondaryWithTSIG(t *testing.T) {
	t.Parallel()
	nsd := requireNSD(t)
	key := config.TSIGKey{Name: "xfr.inf.nz.", Algorithm: "hmac-sha256.", Secret: []byte("0123456789abcdef0123456789abcdef")}
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			nsdAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTSIGKeys = []config.TSIGKey{key}
				cfg.DNSTransferKeys = []string{key.Name}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: nsdAddr, Key: key.Name}}
			})
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
			r := alice.do("POST", "/api/domains", map[string]any{"name": "shop", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			id := data(t, r)["domain"].(map[string]any)["id"]
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			sec := startNSD(t, nsd, nsdAddr, ts.dnsAddr, key)
			waitSameSerial(t, ts.dnsAddr, sec)
			same := func() error {
				for _, qtype := range []uint16{dns.TypeA, dns.TypeTXT} {
					want, err := dnsAsk(ts.dnsAddr, "shop.inf.nz.", qtype)
					if err != nil {
						return err
					}
					got, err := dnsAsk(sec.addr, "shop.inf.nz.", qtype)
					if err != nil {
						return err
					}
					if w, g := comparableAnswer(want), comparableAnswer(got); w != g {
						return fmt.Errorf("%s:\nnameport: %s\nnsd:      %s", dns.TypeToString[qtype], w, g)
					}
				}
				return nil
			}
			waitSameAnswers(t, same)
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeA)
			require.NoError(t, err)
			require.Len(t, m.Answer, 1, "the data is there: %s", m)

			// A change: only the signed NOTIFY brings it this soon, and it
			// comes by IXFR.
			before, err := soaSerial(sec.addr)
			require.NoError(t, err)
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "TXT", "name": "@", "content": "signed"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeTXT)
				return err == nil && len(m.Answer) == 1
			}, secondaryWait, 50*time.Millisecond, "NSD serves the change (signed NOTIFY, then a signed transfer)")
			waitSameSerial(t, ts.dnsAddr, sec)
			waitSameAnswers(t, same)
			requireNSDReceivedIXFR(t, sec, before, "shop.inf.nz.", "signed")

			m, err = axfrFrom(ts.dnsAddr, "127.0.0.1", "inf.nz.")
			require.NoError(t, err)
			require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[m.Rcode], "unsigned, and no address is allowed")
		})
	}
}

// requireNSD returns the path of nsd, or skips the test when it is not
// installed (fails instead when NAMEPORT_REQUIRE_NSD=1).
func requireNSD(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("nsd")
	if err != nil {
		// Debian installs it in /usr/sbin, which a user's PATH may lack.
		if _, statErr := os.Stat("/usr/sbin/nsd"); statErr == nil {
			return "/usr/sbin/nsd"
		}
		if os.Getenv(envRequireNSD) == "1" {
			t.Fatalf("nsd is not installed and %s=1 (Debian: apt-get install nsd)", envRequireNSD)
		}
		t.Skipf("nsd is not installed (Debian: apt-get install nsd); set %s=1 to make this a failure", envRequireNSD)
	}
	return path
}

// secondary is a running NSD.
type secondary struct {
	addr string
	logs *lockedBuffer
}

// startNSD runs nsd in the foreground as a secondary of inf.nz that
// transfers from primary and listens on addr, and stops it (and the
// processes it forked) when the test ends. Like nameport in the test, it
// allows transfers to 127.0.0.1, so that both look at a transfer request
// from there (and find an IXFR without the client's SOA malformed). It
// keeps the IXFRs it receives and gives them on (store-ixfr; see
// requireNSDReceivedIXFR).
//
// With a key, NSD requests transfers and takes NOTIFY signed with it
// (TSIG), and nothing unsigned from the primary.
func startNSD(t *testing.T, nsd, addr, primary string, key ...config.TSIGKey) *secondary {
	t.Helper()
	keyName, keySection := "NOKEY", ""
	if len(key) == 1 {
		keyName = key[0].Name
		keySection = fmt.Sprintf("key:\n    name: %q\n    algorithm: %s\n    secret: %q\n\n",
			key[0].Name, strings.TrimSuffix(key[0].Algorithm, "."), base64.StdEncoding.EncodeToString(key[0].Secret))
	}
	dir := t.TempDir()
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	primaryHost, primaryPort, err := net.SplitHostPort(primary)
	require.NoError(t, err)
	rrl := ""
	if nsdHasRRL(nsd) {
		rrl = "    rrl-ratelimit: 0\n"
	}
	conf := fmt.Sprintf(`server:
    ip-address: %[1]s
    port: %[2]s
    do-ip4: yes
    do-ip6: no
    server-count: 1
    username: ""
    chroot: ""
    zonesdir: "%[3]s"
    pidfile: "%[3]s/nsd.pid"
    xfrdfile: "%[3]s/xfrd.state"
    xfrdir: "%[3]s"
    zonelistfile: "%[3]s/zone.list"
    database: ""
    verbosity: 2
%[4]s
remote-control:
    control-enable: no

%[7]szone:
    name: "inf.nz"
    zonefile: "%[3]s/inf.nz.zone"
    request-xfr: %[5]s@%[6]s %[8]s
    allow-notify: %[5]s %[8]s
    provide-xfr: 127.0.0.1 NOKEY
    store-ixfr: yes
`, host, port, dir, rrl, primaryHost, primaryPort, keySection, keyName)
	confPath := filepath.Join(dir, "nsd.conf")
	require.NoError(t, os.WriteFile(confPath, []byte(conf), 0o600))

	logs := &lockedBuffer{}
	cmd := exec.Command(nsd, "-d", "-c", confPath)
	cmd.Stdout, cmd.Stderr = logs, logs
	// Its own process group: NSD forks its server and xfrd processes, and
	// the cleanup must end them all.
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
			t.Logf("nsd config:\n%s\nnsd log:\n%s", conf, logs.String())
		}
	})
	sec := &secondary{addr: addr, logs: logs}
	require.Eventually(t, func() bool {
		select {
		case <-exited:
			return true // reported below
		default:
		}
		_, err := dnsAsk(addr, "inf.nz.", dns.TypeSOA)
		return err == nil
	}, secondaryWait, 50*time.Millisecond, "nsd answers")
	select {
	case <-exited:
		t.Fatalf("nsd exited:\n%s", logs.String())
	default:
	}
	return sec
}

var (
	rrlOnce    sync.Once
	rrlSupport bool
)

// nsdHasRRL reports whether this nsd was built with response rate limiting
// (Debian's is): its options are then set so that RRL is off.
func nsdHasRRL(nsd string) bool {
	rrlOnce.Do(func() {
		out, _ := exec.Command(nsd, "-v").CombinedOutput()
		rrlSupport = bytes.Contains(out, []byte("--enable-ratelimit"))
	})
	return rrlSupport
}

// waitSameSerial waits until the secondary serves the SOA serial that
// nameport serves: it has transferred the zone as it is now.
func waitSameSerial(t *testing.T, primary string, sec *secondary) {
	t.Helper()
	var last string
	ok := pollUntil(secondaryWait, func() bool {
		want, err := soaSerial(primary)
		if err != nil {
			last = "nameport: " + err.Error()
			return false
		}
		got, err := soaSerial(sec.addr)
		if err != nil {
			last = "nsd: " + err.Error()
			return false
		}
		last = fmt.Sprintf("nameport serial %d, nsd serial %d", want, got)
		return want == got
	})
	require.True(t, ok, "nsd did not reach nameport's serial: %s", last)
}

// waitSameAnswers waits until same reports no difference twice in a row.
// Right after a transfer NSD briefly runs its old server process next to
// the new one, and a query may still meet the old data; so one pass after
// the serial matches is not yet the answer NSD settles on.
func waitSameAnswers(t *testing.T, same func() error) {
	t.Helper()
	var err error
	passes := 0
	ok := pollUntil(secondaryWait, func() bool {
		if err = same(); err != nil {
			passes = 0
			return false
		}
		passes++
		return passes == 2
	})
	require.True(t, ok, "nsd does not answer as nameport does: %v", err)
}

// requireNSDReceivedIXFR requires that NSD took the changes since serial
// by IXFR, among them the TXT record of owner added with text. NSD 4.6
// does not log whether a transfer it received was incremental; but with
// store-ixfr (and without create-ixfr) it keeps the IXFRs it receives and
// gives them on as they came, while an AXFR leaves it nothing incremental
// to give (it then answers an IXFR with the whole zone). So NSD's own
// answer to an IXFR from serial, in the incremental form (RFC 1995: the
// current SOA, then serial's SOA as the first deletion), shows how it got
// the change.
func requireNSDReceivedIXFR(t *testing.T, sec *secondary, serial uint32, owner, text string) {
	t.Helper()
	var last string
	ok := pollUntil(secondaryWait, func() bool {
		current, err := soaSerial(sec.addr)
		if err != nil {
			last = err.Error()
			return false
		}
		rrs, err := ixfrFrom(sec.addr, "inf.nz.", serial)
		if err != nil {
			last = err.Error()
			return false
		}
		var b strings.Builder
		for _, rr := range rrs {
			b.WriteString(rr.String() + "\n")
		}
		last = fmt.Sprintf("IXFR from %d (NSD at %d):\n%s", serial, current, b.String())
		return len(rrs) >= 4 && soaSerialOf(rrs[0]) == current && soaSerialOf(rrs[1]) == serial &&
			soaSerialOf(rrs[len(rrs)-1]) == current && slices.ContainsFunc(rrs, func(rr dns.RR) bool {
			txt, ok := rr.(*dns.TXT)
			return ok && txt.Hdr.Name == owner && slices.Equal(txt.Txt, []string{text})
		})
	})
	require.True(t, ok, "NSD gives the change on incrementally, so it received it by IXFR: %s", last)
}

// ixfrFrom asks addr over TCP for an IXFR of zone from serial and returns
// every record of the answer.
func ixfrFrom(addr, zone string, serial uint32) ([]dns.RR, error) {
	tr := &dns.Transfer{DialTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second}
	envelopes, err := tr.In(new(dns.Msg).SetIxfr(zone, serial, "a.", "b."), addr)
	if err != nil {
		return nil, err
	}
	var rrs []dns.RR
	for e := range envelopes {
		if e.Error != nil {
			return nil, e.Error
		}
		rrs = append(rrs, e.RR...)
	}
	return rrs, nil
}

// soaSerialOf is rr's serial if it is an SOA record, else 0.
func soaSerialOf(rr dns.RR) uint32 {
	if soa, ok := rr.(*dns.SOA); ok {
		return soa.Serial
	}
	return 0
}

// requireLoggedSince waits until a line of the secondary's log past its
// first from bytes (its length before a change) holds want, then requires
// that none holds any of unwanted: the secondary's own word on how it took
// the change.
func requireLoggedSince(t *testing.T, who string, sec *secondary, from int, want string, unwanted ...string) {
	t.Helper()
	since := func() string { return sec.logs.String()[from:] }
	require.True(t, pollUntil(secondaryWait, func() bool { return strings.Contains(since(), want) }),
		"%s logs %q after the change:\n%s", who, want, since())
	for _, u := range unwanted {
		require.NotContains(t, since(), u, "%s after the change", who)
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

func soaSerial(addr string) (uint32, error) {
	m, err := dnsAsk(addr, "inf.nz.", dns.TypeSOA)
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

// axfrFrom asks addr for a transfer of zone over TCP from the local address
// from, and returns the first message of the answer.
func axfrFrom(addr, from, zone string) (*dns.Msg, error) {
	c := &dns.Client{Net: "tcp", Timeout: 5 * time.Second,
		Dialer: &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}}
	resp, _, err := c.Exchange(new(dns.Msg).SetAxfr(zone), addr)
	return resp, err
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

type rawQuery struct {
	about string
	pkt   []byte
	rcode int // what NSD answers
}

// malformedQueries are packets NSD and Knot answer with FORMERR, each but
// the last, and the well-formed neighbour of the EDNS ones.
func malformedQueries(t *testing.T) []rawQuery {
	t.Helper()
	pack := func(m *dns.Msg) []byte {
		b, err := m.Pack()
		require.NoError(t, err)
		return b
	}
	// A query for shop.inf.nz with raw bytes as its one additional record.
	withOPT := func(opt ...byte) []byte {
		b := pack(new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA))
		b[11] = 1 // ARCOUNT
		return append(b, opt...)
	}
	// Root owner, type OPT, 1232 bytes, no flags, then RDLENGTH and options.
	withAnswer := new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA)
	withAnswer.Answer = []dns.RR{&dns.A{Hdr: dns.RR_Header{Name: "shop.inf.nz.", Rrtype: dns.TypeA, Class: dns.ClassINET}, A: net.IPv4(192, 0, 2, 1)}}
	withAuthority := new(dns.Msg).SetQuestion("shop.inf.nz.", dns.TypeA)
	withAuthority.Ns = withAnswer.Answer
	return []rawQuery{
		{"an EDNS option running past the end of the OPT record", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 4, 0, 10, 0, 8), dns.RcodeFormatError},
		{"an EDNS option whose header is cut short", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 3, 0, 10, 0), dns.RcodeFormatError},
		{"an OPT record not owned by the root", withOPT(1, 'x', 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0), dns.RcodeFormatError},
		{"IXFR over UDP without the client's SOA", pack(new(dns.Msg).SetQuestion("inf.nz.", dns.TypeIXFR)), dns.RcodeFormatError},
		{"a record in the answer section", pack(withAnswer), dns.RcodeFormatError},
		{"a record in the authority section", pack(withAuthority), dns.RcodeFormatError},
		{"a well-formed EDNS option", withOPT(0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 12, 0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8), dns.RcodeSuccess},
	}
}

// rawAsk sends pkt over UDP to addr and reads the answer, trying again on a
// timeout.
func rawAsk(addr string, pkt []byte) (*dns.Msg, error) {
	var err error
	for range 3 {
		var c *dns.Conn
		if c, err = dns.Dial("udp", addr); err != nil {
			continue
		}
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		var m *dns.Msg
		if _, err = c.Write(pkt); err == nil {
			m, err = c.ReadMsg()
		}
		c.Close()
		if err == nil {
			return m, nil
		}
	}
	return nil, err
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

type lockedBuffer = servertest.LockedBuffer
