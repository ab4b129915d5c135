package server_test

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
)

// envRequireKnot makes the Knot tests fail, rather than skip, when knotd is
// not installed: CI sets it, so that they never skip there unnoticed.
const envRequireKnot = "NAMEPORT_REQUIRE_KNOT"

// knotKey is the TSIG key of README's Knot configuration (xfr.example).
var knotKey = config.TSIGKey{Name: "xfr.example.", Algorithm: "hmac-sha256.", Secret: []byte("0123456789abcdef0123456789abcdef")}

// Knot DNS, a real secondary configured as README says (its "common" and
// "zones" blocks), transfers inf.nz from nameport with TSIG, answers what
// nameport answers, and follows a change made through the API: a signed
// NOTIFY, then a signed transfer.
func TestKnotAsSecondary(t *testing.T) {
	t.Parallel()
	knotd := requireKnot(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			knotAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTSIGKeys = []config.TSIGKey{knotKey}
				cfg.DNSTransferKeys = []string{knotKey.Name}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: knotAddr, Key: knotKey.Name}}
			})
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
			r := alice.do("POST", "/api/domains", map[string]any{"name": "shop", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			id := data(t, r)["domain"].(map[string]any)["id"]
			addRecord := func(rec map[string]any) {
				t.Helper()
				r := alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), rec)
				require.Equal(t, http.StatusCreated, r.status, r.raw)
			}
			addRecord(map[string]any{"type": "A", "name": "@", "content": "192.0.2.10", "ttl": 600})
			addRecord(map[string]any{"type": "AAAA", "name": "@", "content": "2001:db8::10"})
			addRecord(map[string]any{"type": "A", "name": "mail", "content": "192.0.2.25"})
			addRecord(map[string]any{"type": "MX", "name": "@", "content": "mail.shop.inf.nz", "priority": 10})
			addRecord(map[string]any{"type": "TXT", "name": "@", "content": "v=spf1 mx -all"})
			addRecord(map[string]any{"type": "CNAME", "name": "www", "content": "shop.inf.nz"})

			sec := startKnot(t, knotd, knotAddr, ts.dnsAddr, "common", "zones")
			waitKnotSerial(t, ts.dnsAddr, sec, "inf.nz.")
			questions := []struct {
				name  string
				qtype uint16
			}{
				{"shop.inf.nz.", dns.TypeA},
				{"shop.inf.nz.", dns.TypeAAAA},
				{"shop.inf.nz.", dns.TypeMX}, // with mail.shop's address
				{"shop.inf.nz.", dns.TypeTXT},
				{"www.shop.inf.nz.", dns.TypeA},     // CNAME, followed
				{"nothing.shop.inf.nz.", dns.TypeA}, // NXDOMAIN
				{"shop.inf.nz.", dns.TypeSRV},       // NODATA
				{"inf.nz.", dns.TypeSOA},
			}
			same := func() error {
				for _, q := range questions {
					want, err := dnsAsk(ts.dnsAddr, q.name, q.qtype)
					if err != nil {
						return fmt.Errorf("nameport %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
					}
					got, err := dnsAsk(sec.addr, q.name, q.qtype)
					if err != nil {
						return fmt.Errorf("knot %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
					}
					if w, g := comparableAnswer(want), comparableAnswer(got); w != g {
						return fmt.Errorf("%s %s:\nnameport: %s\nknot:     %s", q.name, dns.TypeToString[q.qtype], w, g)
					}
				}
				return nil
			}
			waitKnotAnswers(t, same)
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.True(t, m.Authoritative)
			require.Len(t, m.Answer, 1, "the data is there: %s", m)

			// A change: the SOA refresh is two hours, so only the signed
			// NOTIFY brings it this soon; and Knot takes it by IXFR.
			logged := len(sec.logs.String())
			addRecord(map[string]any{"type": "TXT", "name": "new", "content": "added later"})
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "new.shop.inf.nz.", dns.TypeTXT)
				return err == nil && len(m.Answer) == 1
			}, secondaryWait, 50*time.Millisecond, "Knot serves the change (signed NOTIFY, then a signed transfer)")
			waitKnotSerial(t, ts.dnsAddr, sec, "inf.nz.")
			questions = append(questions, struct {
				name  string
				qtype uint16
			}{"new.shop.inf.nz.", dns.TypeTXT})
			waitKnotAnswers(t, same)
			// An IXFR answered with the whole zone would be logged
			// "receiving AXFR-style IXFR", then "AXFR, incoming".
			primary := strings.Replace(ts.dnsAddr, ":", "@", 1)
			requireLoggedSince(t, "knot", sec, logged, "[inf.nz.] IXFR, incoming, remote "+primary+", finished",
				"AXFR-style", "AXFR, incoming")
		})
	}
}

// Knot as a consumer of nameport's catalog zone (RFC 9432), configured as
// README says (its "common" and "catalog" blocks) and given no extension by
// name: it serves the extensions the catalog lists, and an extension an
// admin adds through the API becomes a zone on Knot by itself (a NOTIFY of
// the catalog, its transfer, then the new zone's), with a domain's records.
func TestKnotAsCatalogConsumer(t *testing.T) {
	t.Parallel()
	knotd := requireKnot(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			knotAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTSIGKeys = []config.TSIGKey{knotKey}
				cfg.DNSTransferKeys = []string{knotKey.Name}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: knotAddr, Key: knotKey.Name}}
				cfg.DNSCatalogZone = "catalog.nameport.invalid."
			})
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
			registerWithA := func(name, extension, address string) {
				t.Helper()
				r := alice.do("POST", "/api/domains", map[string]any{"name": name, "extension": extension})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
				id := data(t, r)["domain"].(map[string]any)["id"]
				r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", id), map[string]any{"type": "A", "name": "@", "content": address})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
			}
			registerWithA("shop", ".inf.nz", "192.0.2.10")

			sec := startKnot(t, knotd, knotAddr, ts.dnsAddr, "common", "catalog")
			answers := func(name, address string) func() bool {
				return func() bool {
					m, err := dnsAsk(sec.addr, name, dns.TypeA)
					if err != nil || !m.Authoritative || len(m.Answer) != 1 {
						return false
					}
					a, ok := m.Answer[0].(*dns.A)
					return ok && a.Hdr.Name == name && a.A.String() == address
				}
			}
			require.True(t, pollUntil(secondaryWait, answers("shop.inf.nz.", "192.0.2.10")),
				"Knot serves inf.nz, which only the catalog names")
			waitKnotSerial(t, ts.dnsAddr, sec, "inf.nz.")

			// A new extension, and a domain in it.
			m, err := dnsAsk(sec.addr, "shop.biz.ee.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[m.Rcode], "not a zone of Knot's yet")
			admin := loginAdmin2(t, ts)
			r := admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".biz.ee", "description": "Business"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			registerWithA("shop", ".biz.ee", "198.51.100.7")
			require.True(t, pollUntil(secondaryWait, answers("shop.biz.ee.", "198.51.100.7")),
				"Knot serves the new extension's zone, named by the catalog")
			require.True(t, pollUntil(secondaryWait, answers("shop.inf.nz.", "192.0.2.10")), "and still the first")
		})
	}
}

// requireKnot returns the path of knotd, or skips the test when it is not
// installed (fails instead when NAMEPORT_REQUIRE_KNOT=1).
func requireKnot(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("knotd")
	if err != nil {
		// Debian installs it in /usr/sbin, which a user's PATH may lack.
		if _, statErr := os.Stat("/usr/sbin/knotd"); statErr == nil {
			return "/usr/sbin/knotd"
		}
		if os.Getenv(envRequireKnot) == "1" {
			t.Fatalf("knotd is not installed and %s=1 (Debian: apt-get install knot)", envRequireKnot)
		}
		t.Skipf("knotd is not installed (Debian: apt-get install knot); set %s=1 to make this a failure", envRequireKnot)
	}
	return path
}

// knotREADMEConfig returns README's Knot configuration blocks named parts
// (each marked "<!-- knot.conf: NAME -->"), joined, for a Knot in dir
// whose primary is the nameport at primary: README's example address,
// secret and storage are replaced by the test's.
func knotREADMEConfig(t *testing.T, dir, primary string, parts ...string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	blocks := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- knot\\.conf: (\\w+) -->\n```\\w*\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
		blocks[m[1]] = m[2]
	}
	host, port, err := net.SplitHostPort(primary)
	require.NoError(t, err)
	var conf strings.Builder
	for _, part := range parts {
		block, ok := blocks[part]
		require.True(t, ok, "README has no block marked <!-- knot.conf: %s -->", part)
		conf.WriteString(block + "\n")
	}
	out := conf.String()
	for example, actual := range map[string]string{
		"192.0.2.1@53":  host + "@" + port,
		"SECRET":        base64.StdEncoding.EncodeToString(knotKey.Secret),
		"/var/lib/knot": dir,
	} {
		out = strings.ReplaceAll(out, example, actual)
	}
	require.Contains(t, out, "address: "+host+"@"+port, "README's Knot configuration names nameport as 192.0.2.1@53")
	require.Contains(t, out, "secret: "+base64.StdEncoding.EncodeToString(knotKey.Secret), "README's Knot configuration has the key's secret as SECRET")
	return out
}

// startKnot runs knotd in the foreground, listening on addr, with the
// server settings a test needs (its directories in a temporary one, the
// log on standard output) followed by README's configuration blocks
// parts; it stops it when the test ends.
func startKnot(t *testing.T, knotd, addr, primary string, parts ...string) *secondary {
	t.Helper()
	dir := t.TempDir()
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	// As root, Knot would stay root (its user option is not set); as
	// anyone else it runs as that user: either way it may write dir.
	conf := fmt.Sprintf(`server:
    rundir: "%[1]s"
    listen: %[2]s@%[3]s

database:
    storage: "%[1]s"

log:
  - target: stdout
    any: info

template:
  - id: default
    storage: "%[1]s"

`, dir, host, port) + knotREADMEConfig(t, dir, primary, parts...)
	confPath := filepath.Join(dir, "knot.conf")
	require.NoError(t, os.WriteFile(confPath, []byte(conf), 0o600))

	logs := &lockedBuffer{}
	cmd := exec.Command(knotd, "-c", confPath)
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("knot config:\n%s\nknot log:\n%s", conf, logs.String())
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
	}, secondaryWait, 50*time.Millisecond, "knotd answers")
	select {
	case <-exited:
		t.Fatalf("knotd exited:\n%s", logs.String())
	default:
	}
	return &secondary{addr: addr, logs: logs}
}

// waitKnotSerial waits until Knot serves the SOA serial of zone that
// nameport serves: it has transferred the zone as it is now.
func waitKnotSerial(t *testing.T, primary string, sec *secondary, zone string) {
	t.Helper()
	serial := func(addr string) (uint32, error) {
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
	var last string
	ok := pollUntil(secondaryWait, func() bool {
		want, err := serial(primary)
		if err != nil {
			last = "nameport: " + err.Error()
			return false
		}
		got, err := serial(sec.addr)
		if err != nil {
			last = "knot: " + err.Error()
			return false
		}
		last = fmt.Sprintf("nameport serial %d, knot serial %d", want, got)
		return want == got
	})
	require.True(t, ok, "knot did not reach nameport's serial of %s: %s", zone, last)
}

// waitKnotAnswers waits until same reports no difference.
func waitKnotAnswers(t *testing.T, same func() error) {
	t.Helper()
	var err error
	ok := pollUntil(secondaryWait, func() bool { err = same(); return err == nil })
	require.True(t, ok, "knot does not answer as nameport does: %v", err)
}
