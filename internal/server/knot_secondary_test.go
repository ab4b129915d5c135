package server_test

import (
	"encoding/base64"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	knotd := requireInstalled(t, "knotd", envRequireKnot, "knot")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			knotAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				allowSignedTransfersAndNotify(cfg, knotKey, knotAddr)
			})
			alice := fundedUser(t, ts)
			shop := registerShopWithRecords(t, alice)

			sec := startKnot(t, knotd, knotAddr, ts.dnsAddr, "common", "zones")
			logged := requireServesShopAndItsChange(t, ts, sec, alice, shop, "signed NOTIFY, then a signed transfer")
			// Knot takes the change by IXFR. An IXFR answered with the whole
			// zone would be logged "receiving AXFR-style IXFR", then "AXFR,
			// incoming".
			primary := strings.Replace(ts.dnsAddr, ":", "@", 1)
			requireLoggedSince(t, sec, logged, "[inf.nz.] IXFR, incoming, remote "+primary+", finished",
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
	knotd := requireInstalled(t, "knotd", envRequireKnot, "knot")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			knotAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				allowSignedTransfersAndNotify(cfg, knotKey, knotAddr)
				cfg.DNSCatalogZone = "catalog.nameport.invalid."
			})
			alice := fundedUser(t, ts)
			registerWithA(t, alice, "shop", ".inf.nz", "192.0.2.10")

			sec := startKnot(t, knotd, knotAddr, ts.dnsAddr, "common", "catalog")
			requireConsumesCatalog(t, ts, sec, alice)
		})
	}
}

// knotREADMEConfig returns README's Knot configuration blocks named parts
// (each marked "<!-- knot.conf: NAME -->"), joined, for a Knot in dir
// whose primary is the nameport at primary: README's example address,
// secret and storage are replaced by the test's.
func knotREADMEConfig(t *testing.T, dir, primary string, parts ...string) string {
	t.Helper()
	blocks := readmeConfigBlocks(t, "knot.conf")
	host, port := splitHostPort(t, primary)
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
	host, port := splitHostPort(t, addr)
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
	return startSecondary(t, exec.Command(knotd, "-c", confPath), addr, confPath, conf)
}
