package server_test

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/domainfwd/pebbletest"
)

// envRequireCertbot makes the tests with certbot, lego and nsupdate fail,
// rather than skip, when they are not installed: CI sets it.
const envRequireCertbot = "NAMEPORT_REQUIRE_CERTBOT"

// updateKeyFixture is a registrar with a domain registered through the
// API, and an update key of it made through /v1.
type updateKeyFixture struct {
	ts      *testServer
	apiKey  string
	domain  string
	keyName string
	secret  string
	keyID   string
}

func newUpdateKeyFixture(t *testing.T, ts *testServer, user, name string, key map[string]any) updateKeyFixture {
	t.Helper()
	seedCatalog(t, ts)
	b, apiKey := registrar(t, ts, user)
	require.Equal(t, http.StatusCreated, b.do("POST", "/api/wallet/deposit", map[string]any{"amount": 200}).status)
	registerDomain(t, b, name, ".inf.nz")
	domain := name + ".inf.nz"
	r := v1(t, ts, apiKey, "POST", "/v1/domains/"+domain+"/update-keys", key)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	// An update reaches the DNS server once it serves the extension's
	// zone, which it does as soon as it has seen the new extension: on a
	// loaded machine that may come after the key. Before, an update is
	// refused NOTAUTH ("not a zone of this server"), rightly.
	require.Eventually(t, func() bool {
		m := askDO(t, ts.dnsAddr, "inf.nz.", dns.TypeSOA)
		return m.Rcode == dns.RcodeSuccess && m.Authoritative && len(m.Answer) > 0
	}, 10*time.Second, 20*time.Millisecond, "the DNS server serves inf.nz.")
	k := r.body["key"].(map[string]any)
	return updateKeyFixture{ts: ts, apiKey: apiKey, domain: domain, keyName: k["keyName"].(string),
		secret: r.body["secret"].(string), keyID: fmt.Sprint(k["id"])}
}

// records returns the domain's records through /v1 as "name TYPE content".
func (f updateKeyFixture) records(t *testing.T) []string {
	t.Helper()
	r := v1(t, f.ts, f.apiKey, "GET", "/v1/domains/"+f.domain+"/records", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	out := []string{}
	for _, rec := range r.body["records"].([]any) {
		m := rec.(map[string]any)
		out = append(out, fmt.Sprintf("%s %s %s", m["name"], m["type"], m["content"]))
	}
	slices.Sort(out)
	return out
}

// nsupdate runs nsupdate with script, signed with the fixture's key
// (-y), over TCP when tcp; it returns nsupdate's output and whether it
// succeeded.
func (f updateKeyFixture) nsupdate(t *testing.T, bin string, tcp bool, script string) (string, bool) {
	t.Helper()
	host, port, err := net.SplitHostPort(f.ts.dnsAddr)
	require.NoError(t, err)
	args := []string{"-y", "hmac-sha256:" + f.keyName + ":" + f.secret, "-t", "10"}
	if tcp {
		args = append(args, "-v")
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader("server " + host + " " + port + "\nzone inf.nz.\n" + script + "send\n")
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// nsupdate (BIND's client) adds and deletes records under a key scoped to
// names and types, over UDP and TCP; the records appear and go in /v1.
// What is outside the key's scope is refused and changes nothing.
func TestNsupdateUnderUpdateKey(t *testing.T) {
	t.Parallel()
	bin := requireInstalled(t, "nsupdate", envRequireCertbot, "bind9-dnsutils")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			f := newUpdateKeyFixture(t, ts, "nsup", "dyn", map[string]any{"name": "home",
				"names": []string{"host", "_acme-challenge"}, "types": []string{"A", "AAAA", "TXT"}})
			require.Equal(t, "home.dyn.inf.nz.", f.keyName)

			for _, tcp := range []bool{false, true} {
				out, ok := f.nsupdate(t, bin, tcp, "update add host.dyn.inf.nz. 300 A 192.0.2.7\n"+
					"update add host.dyn.inf.nz. 300 AAAA 2001:db8::7\n"+
					"update add _acme-challenge.dyn.inf.nz. 60 TXT \"token\"\n")
				require.True(t, ok, out)
				require.Equal(t, []string{"_acme-challenge TXT token", "host A 192.0.2.7", "host AAAA 2001:db8::7"}, f.records(t))

				out, ok = f.nsupdate(t, bin, tcp, "update delete host.dyn.inf.nz. AAAA\n"+
					"update delete _acme-challenge.dyn.inf.nz. TXT \"token\"\n")
				require.True(t, ok, out)
				require.Equal(t, []string{"host A 192.0.2.7"}, f.records(t))

				// Outside the key's names, or its types: refused whole.
				for _, script := range []string{
					"update add host.dyn.inf.nz. 300 TXT \"in scope\"\nupdate add www.dyn.inf.nz. 300 A 192.0.2.8\n",
					"update add host.dyn.inf.nz. 300 MX 10 mail.example.com.\n",
					"update delete host.dyn.inf.nz.\n", // every type
				} {
					out, ok = f.nsupdate(t, bin, tcp, script)
					require.False(t, ok, out)
					require.Contains(t, out, "REFUSED")
					require.Equal(t, []string{"host A 192.0.2.7"}, f.records(t))
				}
				// A prerequisite that fails.
				out, ok = f.nsupdate(t, bin, tcp, "prereq nxdomain host.dyn.inf.nz.\nupdate add host.dyn.inf.nz. 300 A 192.0.2.9\n")
				require.False(t, ok, out)
				require.Contains(t, out, "YXDOMAIN")
				out, ok = f.nsupdate(t, bin, tcp, "update delete host.dyn.inf.nz. A\n")
				require.True(t, ok, out)
				require.Equal(t, []string{}, f.records(t))
			}

			// Listed with its last use; revoked, it signs nothing.
			r := v1(t, ts, f.apiKey, "GET", "/v1/domains/"+f.domain+"/update-keys", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keys := r.body["keys"].([]any)
			require.Len(t, keys, 1)
			require.NotEmpty(t, keys[0].(map[string]any)["lastUsedAt"])
			r = v1(t, ts, f.apiKey, "DELETE", "/v1/domains/"+f.domain+"/update-keys/"+f.keyID, nil)
			require.Equal(t, http.StatusNoContent, r.status, r.raw)
			out, ok := f.nsupdate(t, bin, false, "update add host.dyn.inf.nz. 300 A 192.0.2.7\n")
			require.False(t, ok, out)
			require.Equal(t, []string{}, f.records(t))
		})
	}
}

// certbot, with its RFC 2136 plugin and a key scoped to _acme-challenge
// TXT, obtains a wildcard certificate from pebble for a domain registered
// on Nameport: pebble resolves the challenge through Nameport's DNS. The
// challenge records are gone afterwards.
func TestCertbotWildcardCertificateThroughDynamicUpdate(t *testing.T) {
	t.Parallel()
	certbot := requireInstalled(t, "certbot", envRequireCertbot, "certbot python3-certbot-dns-rfc2136")
	if err := exec.Command("/usr/bin/python3", "-c", "import certbot_dns_rfc2136").Run(); err != nil {
		if os.Getenv(envRequireCertbot) == "1" {
			t.Fatalf("certbot's RFC 2136 plugin is not installed and %s=1 (Debian: apt-get install python3-certbot-dns-rfc2136)", envRequireCertbot)
		}
		t.Skipf("certbot's RFC 2136 plugin is not installed (Debian: apt-get install python3-certbot-dns-rfc2136)")
	}
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			f := newUpdateKeyFixture(t, ts, "acme", "wild", map[string]any{"name": "certbot",
				"names": []string{"_acme-challenge"}, "types": []string{"TXT"}})
			pebble := pebbletest.New(t)
			pebble.Start(t, pebbletest.Options{DNSServer: ts.dnsAddr})

			dir := t.TempDir()
			host, port, err := net.SplitHostPort(ts.dnsAddr)
			require.NoError(t, err)
			// README's configuration, with the test's server address.
			ini := filepath.Join(dir, "rfc2136.ini")
			require.NoError(t, os.WriteFile(ini, []byte(fmt.Sprintf(`dns_rfc2136_server = %s
dns_rfc2136_port = %s
dns_rfc2136_name = %s
dns_rfc2136_secret = %s
dns_rfc2136_algorithm = HMAC-SHA256
`, host, port, f.keyName, f.secret)), 0o600))
			cmd := exec.Command(certbot, "certonly", "--non-interactive", "--agree-tos", "-m", "acme@example.com",
				"--server", pebble.Directory, "--config-dir", filepath.Join(dir, "config"), "--work-dir", filepath.Join(dir, "work"),
				"--logs-dir", filepath.Join(dir, "logs"), "--dns-rfc2136", "--dns-rfc2136-credentials", ini,
				"--dns-rfc2136-propagation-seconds", "0", "-d", "*."+f.domain, "-d", f.domain)
			cmd.Env = append(os.Environ(), "REQUESTS_CA_BUNDLE="+pebble.CertFile())
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "certbot:\n%s", out)

			pemData, err := os.ReadFile(filepath.Join(dir, "config", "live", f.domain, "cert.pem"))
			require.NoError(t, err, "certbot:\n%s", out)
			block, _ := pem.Decode(pemData)
			require.NotNil(t, block)
			cert, err := x509.ParseCertificate(block.Bytes)
			require.NoError(t, err)
			require.ElementsMatch(t, []string{"*." + f.domain, f.domain}, cert.DNSNames)
			// Issued by pebble's CA.
			_, err = cert.Verify(x509.VerifyOptions{Roots: rootPool(pebble.IssuingRoot(t)), Intermediates: intermediates(t, dir, f.domain),
				DNSName: "x." + f.domain})
			require.NoError(t, err)

			require.Equal(t, []string{}, f.records(t), "the challenge records are gone")
		})
	}
}

func rootPool(root *x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(root)
	return p
}

// intermediates reads the chain certbot saved.
func intermediates(t *testing.T, dir, domain string) *x509.CertPool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "config", "live", domain, "chain.pem"))
	require.NoError(t, err)
	p := x509.NewCertPool()
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		c, err := x509.ParseCertificate(block.Bytes)
		require.NoError(t, err)
		p.AddCert(c)
	}
	return p
}
