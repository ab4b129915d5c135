package server_test

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/domainfwd/pebbletest"
)

const envRequireLego = "NAMEPORT_REQUIRE_LEGO"

// lego (go-acme/lego, the Debian package) obtains a wildcard certificate
// from pebble through its rfc2136 provider with README's settings, under a
// key scoped to _acme-challenge TXT; the challenge records are gone after.
func TestLegoWildcardCertificateThroughDynamicUpdate(t *testing.T) {
	t.Parallel()
	lego := requireInstalled(t, "lego", envRequireLego, "lego")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			f := newUpdateKeyFixture(t, ts, "acme", "legowild", map[string]any{"name": "lego",
				"names": []string{"_acme-challenge"}, "types": []string{"TXT"}})
			pebble := pebbletest.New(t)
			pebble.Start(t, pebbletest.Options{DNSServer: ts.dnsAddr})

			dir := t.TempDir()
			cmd := exec.Command(lego, "--accept-tos", "--email", "acme@example.com", "--server", pebble.Directory,
				"--path", dir, "--dns", "rfc2136", "--dns.resolvers", ts.dnsAddr,
				// The test's domain has name servers nobody resolves: ask
				// the server the update went to, not each of them.
				"--dns.disable-cp",
				"-d", "*."+f.domain, "-d", f.domain, "run")
			cmd.Env = append(os.Environ(),
				"RFC2136_NAMESERVER="+ts.dnsAddr,
				"RFC2136_TSIG_KEY="+f.keyName,
				"RFC2136_TSIG_ALGORITHM=hmac-sha256.",
				"RFC2136_TSIG_SECRET="+f.secret,
				"RFC2136_PROPAGATION_TIMEOUT=30",
				"RFC2136_POLLING_INTERVAL=1",
				"LEGO_CA_CERTIFICATES="+pebble.CertFile())
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "lego:\n%s", out)

			// lego names a wildcard's files with _ for *.
			data, err := os.ReadFile(filepath.Join(dir, "certificates", "_."+f.domain+".crt"))
			require.NoError(t, err, "lego:\n%s", out)
			block, rest := pem.Decode(data)
			require.NotNil(t, block)
			cert, err := x509.ParseCertificate(block.Bytes)
			require.NoError(t, err)
			require.ElementsMatch(t, []string{"*." + f.domain, f.domain}, cert.DNSNames)
			chain := x509.NewCertPool()
			for block, rest = pem.Decode(rest); block != nil; block, rest = pem.Decode(rest) {
				c, err := x509.ParseCertificate(block.Bytes)
				require.NoError(t, err)
				chain.AddCert(c)
			}
			_, err = cert.Verify(x509.VerifyOptions{Roots: rootPool(pebble.IssuingRoot(t)), Intermediates: chain,
				DNSName: "x." + f.domain})
			require.NoError(t, err)

			require.Equal(t, []string{}, f.records(t), "the challenge records are gone")
		})
	}
}
