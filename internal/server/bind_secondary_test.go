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

// envRequireBIND makes the BIND tests fail, rather than skip, when named is
// not installed: CI sets it, so that they never skip there unnoticed.
const envRequireBIND = "NAMEPORT_REQUIRE_BIND"

// BIND 9, a real secondary configured as README says (its "common" and
// "zones" blocks), transfers inf.nz from nameport with TSIG, answers what
// nameport answers, and follows a change made through the API: a signed
// NOTIFY, BIND's signed SOA query (which needs a signed answer), then a
// signed transfer.
func TestBINDAsSecondary(t *testing.T) {
	t.Parallel()
	named := requireBIND(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			bindAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTSIGKeys = []config.TSIGKey{knotKey}
				cfg.DNSTransferKeys = []string{knotKey.Name}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: bindAddr, Key: knotKey.Name}}
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

			sec := startBIND(t, named, bindAddr, ts.dnsAddr, "common", "zones")
			waitSecondarySerial(t, "bind", ts.dnsAddr, sec, "inf.nz.")
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
						return fmt.Errorf("bind %s %s: %w", q.name, dns.TypeToString[q.qtype], err)
					}
					if w, g := comparableAnswer(want), comparableAnswer(got); w != g {
						return fmt.Errorf("%s %s:\nnameport: %s\nbind:     %s", q.name, dns.TypeToString[q.qtype], w, g)
					}
				}
				return nil
			}
			waitBINDAnswers(t, same)
			m, err := dnsAsk(sec.addr, "shop.inf.nz.", dns.TypeMX)
			require.NoError(t, err)
			require.True(t, m.Authoritative)
			require.Len(t, m.Answer, 1, "the data is there: %s", m)

			// A change: the SOA refresh is two hours, so only the signed
			// NOTIFY brings it this soon; and BIND takes it by IXFR.
			logged := len(sec.logs.String())
			addRecord(map[string]any{"type": "TXT", "name": "new", "content": "added later"})
			require.Eventually(t, func() bool {
				m, err := dnsAsk(sec.addr, "new.shop.inf.nz.", dns.TypeTXT)
				return err == nil && len(m.Answer) == 1
			}, secondaryWait, 50*time.Millisecond, "BIND serves the change (signed NOTIFY, signed SOA query, signed transfer)")
			waitSecondarySerial(t, "bind", ts.dnsAddr, sec, "inf.nz.")
			questions = append(questions, struct {
				name  string
				qtype uint16
			}{"new.shop.inf.nz.", dns.TypeTXT})
			waitBINDAnswers(t, same)
			// BIND says so at debug level 3 (startBIND runs it with -d 3):
			// "got nonincremental response" for an IXFR answered with the
			// whole zone.
			primary := strings.Replace(ts.dnsAddr, ":", "#", 1)
			requireLoggedSince(t, "bind", sec, logged, "transfer of 'inf.nz/IN' from "+primary+": got incremental response",
				"got nonincremental response")
		})
	}
}

// BIND as a consumer of nameport's catalog zone (RFC 9432), configured as
// README says (its "common", "catalog" and "options" blocks) and given no
// extension by name: it serves the extensions the catalog lists, and an
// extension an admin adds through the API becomes a zone on BIND by itself
// (a NOTIFY of the catalog, its transfer, then the new zone's), with a
// domain's records.
func TestBINDAsCatalogConsumer(t *testing.T) {
	t.Parallel()
	named := requireBIND(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			bindAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				cfg.DNSTSIGKeys = []config.TSIGKey{knotKey}
				cfg.DNSTransferKeys = []string{knotKey.Name}
				cfg.DNSNotify = []config.NotifyTarget{{Addr: bindAddr, Key: knotKey.Name}}
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

			sec := startBIND(t, named, bindAddr, ts.dnsAddr, "common", "catalog")
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
				"BIND serves inf.nz, which only the catalog names")
			waitSecondarySerial(t, "bind", ts.dnsAddr, sec, "inf.nz.")

			// A new extension, and a domain in it.
			m, err := dnsAsk(sec.addr, "shop.biz.ee.", dns.TypeA)
			require.NoError(t, err)
			require.Equal(t, dns.RcodeToString[dns.RcodeRefused], dns.RcodeToString[m.Rcode], "not a zone of BIND's yet")
			admin := loginAdmin2(t, ts)
			r := admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".biz.ee", "description": "Business"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			registerWithA("shop", ".biz.ee", "198.51.100.7")
			require.True(t, pollUntil(secondaryWait, answers("shop.biz.ee.", "198.51.100.7")),
				"BIND serves the new extension's zone, named by the catalog")
			require.True(t, pollUntil(secondaryWait, answers("shop.inf.nz.", "192.0.2.10")), "and still the first")
		})
	}
}

// requireBIND returns the path of named, or skips the test when it is not
// installed (fails instead when NAMEPORT_REQUIRE_BIND=1).
func requireBIND(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("named")
	if err != nil {
		// Debian installs it in /usr/sbin, which a user's PATH may lack.
		if _, statErr := os.Stat("/usr/sbin/named"); statErr == nil {
			return "/usr/sbin/named"
		}
		if os.Getenv(envRequireBIND) == "1" {
			t.Fatalf("named is not installed and %s=1 (Debian: apt-get install bind9)", envRequireBIND)
		}
		t.Skipf("named is not installed (Debian: apt-get install bind9); set %s=1 to make this a failure", envRequireBIND)
	}
	return path
}

// bindREADMEBlocks returns README's BIND configuration blocks (each marked
// "<!-- named.conf: NAME -->") by name, for a BIND whose primary is the
// nameport at primary: README's example address and secret are replaced
// by the test's.
func bindREADMEBlocks(t *testing.T, primary string) map[string]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	host, port, err := net.SplitHostPort(primary)
	require.NoError(t, err)
	secret := base64.StdEncoding.EncodeToString(knotKey.Secret)
	blocks := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- named\\.conf: (\\w+) -->\n```\\w*\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
		block := strings.ReplaceAll(m[2], "192.0.2.1 port 53", host+" port "+port)
		blocks[m[1]] = strings.ReplaceAll(block, `"SECRET"`, `"`+secret+`"`)
	}
	common := blocks["common"]
	require.Contains(t, common, "primaries nameport { "+host+" port "+port, "README's BIND configuration names nameport as 192.0.2.1 port 53")
	require.Contains(t, common, `secret "`+secret+`"`, "README's BIND configuration has the key's secret as SECRET")
	return blocks
}

// startBIND runs named in the foreground, listening on addr, with the
// server options a test needs (its files in a temporary directory, no
// recursion, no control channel, no NOTIFY of its own, the log on
// standard error) followed by README's configuration blocks parts (with
// "catalog", README's catalog-zones option too); it stops it when the
// test ends. As root, named stays root (no -u); as anyone else it runs as
// that user: either way it may write the directory.
func startBIND(t *testing.T, named, addr, primary string, parts ...string) *secondary {
	t.Helper()
	dir := t.TempDir()
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	blocks := bindREADMEBlocks(t, primary)
	options := ""
	for _, part := range parts {
		if part == "catalog" {
			options = blocks["options"]
			require.NotEmpty(t, options, "README has no block marked <!-- named.conf: options -->")
		}
	}
	conf := fmt.Sprintf(`options {
    directory "%[1]s";
    pid-file "%[1]s/named.pid";
    session-keyfile "%[1]s/session.key";
    managed-keys-directory "%[1]s";
    listen-on port %[3]s { %[2]s; };
    listen-on-v6 { none; };
    recursion no;
    notify no;
    dnssec-validation no;
%[4]s};

controls { };

`, dir, host, port, options)
	for _, part := range parts {
		block, ok := blocks[part]
		require.True(t, ok, "README has no block marked <!-- named.conf: %s -->", part)
		conf += block + "\n"
	}
	confPath := filepath.Join(dir, "named.conf")
	require.NoError(t, os.WriteFile(confPath, []byte(conf), 0o600))

	logs := &lockedBuffer{}
	// -g: foreground, the log on standard error; -d 3: the debug level at
	// which BIND says whether a transfer it received was incremental;
	// -n 1: one worker thread is plenty for a test.
	cmd := exec.Command(named, "-g", "-d", "3", "-n", "1", "-c", confPath)
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
			t.Logf("named config:\n%s\nnamed log:\n%s", conf, logs.String())
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
	}, secondaryWait, 50*time.Millisecond, "named answers")
	select {
	case <-exited:
		t.Fatalf("named exited:\n%s", logs.String())
	default:
	}
	return &secondary{addr: addr, logs: logs}
}

// waitSecondarySerial waits until the secondary (who: its name in the
// failure) serves the SOA serial of zone that nameport serves: it has
// transferred the zone as it is now.
func waitSecondarySerial(t *testing.T, who, primary string, sec *secondary, zone string) {
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
			last = who + ": " + err.Error()
			return false
		}
		last = fmt.Sprintf("nameport serial %d, %s serial %d", want, who, got)
		return want == got
	})
	require.True(t, ok, "%s did not reach nameport's serial of %s: %s", who, zone, last)
}

// waitBINDAnswers waits until same reports no difference.
func waitBINDAnswers(t *testing.T, same func() error) {
	t.Helper()
	var err error
	ok := pollUntil(secondaryWait, func() bool { err = same(); return err == nil })
	require.True(t, ok, "bind does not answer as nameport does: %v", err)
}
