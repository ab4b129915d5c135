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
	named := requireInstalled(t, "named", envRequireBIND, "bind9")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			bindAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				allowSignedTransfersAndNotify(cfg, knotKey, bindAddr)
			})
			alice := fundedUser(t, ts)
			shop := registerShopWithRecords(t, alice)

			sec := startBIND(t, named, bindAddr, ts.dnsAddr, "common", "zones")
			logged := requireServesShopAndItsChange(t, ts, sec, alice, shop, "signed NOTIFY, signed SOA query, signed transfer")
			// BIND takes the change by IXFR, and says so at debug level 3
			// (startBIND runs it with -d 3): "got nonincremental response"
			// for an IXFR answered with the whole zone.
			primary := strings.Replace(ts.dnsAddr, ":", "#", 1)
			requireLoggedSince(t, sec, logged, "transfer of 'inf.nz/IN' from "+primary+": got incremental response",
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
	named := requireInstalled(t, "named", envRequireBIND, "bind9")
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			bindAddr := freeDNSAddr(t)
			ts := startWith(t, engine, func(cfg *config.Config) {
				allowSignedTransfersAndNotify(cfg, knotKey, bindAddr)
				cfg.DNSCatalogZone = "catalog.nameport.invalid."
			})
			alice := fundedUser(t, ts)
			registerWithA(t, alice, "shop", ".inf.nz", "192.0.2.10")

			sec := startBIND(t, named, bindAddr, ts.dnsAddr, "common", "catalog")
			requireConsumesCatalog(t, ts, sec, alice)
		})
	}
}

// bindREADMEBlocks returns README's BIND configuration blocks (each marked
// "<!-- named.conf: NAME -->") by name, for a BIND whose primary is the
// nameport at primary: README's example address and secret are replaced
// by the test's.
func bindREADMEBlocks(t *testing.T, primary string) map[string]string {
	t.Helper()
	host, port := splitHostPort(t, primary)
	secret := base64.StdEncoding.EncodeToString(knotKey.Secret)
	blocks := readmeConfigBlocks(t, "named.conf")
	for name, block := range blocks {
		block = strings.ReplaceAll(block, "192.0.2.1 port 53", host+" port "+port)
		blocks[name] = strings.ReplaceAll(block, `"SECRET"`, `"`+secret+`"`)
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
	host, port := splitHostPort(t, addr)
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
	// -g: foreground, the log on standard error; -d 3: the debug level at
	// which BIND says whether a transfer it received was incremental;
	// -n 1: one worker thread is plenty for a test.
	return startSecondary(t, exec.Command(named, "-g", "-d", "3", "-n", "1", "-c", confPath), addr, confPath, conf)
}
