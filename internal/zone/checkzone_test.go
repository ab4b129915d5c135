package zone_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// envRequireCheckzone turns the skip of TestRealWorldZonesPassValidators
// into a failure when kzonecheck or named-checkzone is missing (CI sets it).
const envRequireCheckzone = "NAMEPORT_REQUIRE_CHECKZONE"

// checkzoneTools returns the paths of kzonecheck (Debian: knot-dnssecutils)
// and named-checkzone (bind9-utils), skipping the test without them.
func checkzoneTools(t *testing.T) (kzonecheck, namedCheckzone string) {
	t.Helper()
	var missing []string
	find := func(name string) string {
		path, err := exec.LookPath(name)
		if err != nil {
			missing = append(missing, name)
		}
		return path
	}
	kzonecheck, namedCheckzone = find("kzonecheck"), find("named-checkzone")
	if len(missing) > 0 {
		if os.Getenv(envRequireCheckzone) == "1" {
			t.Fatalf("%s not installed (apt-get install knot-dnssecutils bind9-utils), and %s=1", strings.Join(missing, ", "), envRequireCheckzone)
		}
		t.Skipf("%s not installed (apt-get install knot-dnssecutils bind9-utils)", strings.Join(missing, ", "))
	}
	return kzonecheck, namedCheckzone
}

// Real zone files (testdata/zones, README there) imported into domains,
// served by a nameport DNS server and transferred from it, make a zone the
// strictest validators accept: what they would refuse was refused at the
// import, line by line.
func TestRealWorldZonesPassValidators(t *testing.T) {
	t.Parallel()
	kzonecheck, namedCheckzone := checkzoneTools(t)
	files, err := filepath.Glob("testdata/zones/*.zone")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
		svc := zone.NewService(d, zone.Options{})
		expires := time.Now().AddDate(1, 0, 0)
		refused := map[string][]string{}
		for _, file := range files {
			text, err := os.ReadFile(file)
			require.NoError(t, err)
			name := strings.TrimSuffix(filepath.Base(file), ".zone")
			dom := registerDomain(t, d, name, ".inf.nz", expires)
			plan, err := svc.ApplyImport(ctx, dom, string(text), zone.ImportOptions{})
			require.NoError(t, err, file)
			require.NotEmpty(t, plan.Add, file)
			for _, n := range plan.Notes {
				require.NotEqual(t, zone.NoteApexNS, n.Kind, "%s: the apex NS are Nameport's own: %s", file, n.Message)
				if n.Kind == zone.NoteRefused {
					refused[name] = append(refused[name], n.Message)
				}
			}
		}
		// What validators refuse, and Nameport does not serve, was said.
		require.Equal(t, []string{
			"Line 17: record type RP is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)",
			"Line 21: record type NAPTR is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)",
			"Line 36: record type TYPE65226 is not supported (supported: A, AAAA, CNAME, MX, TXT, NS, SRV, CAA)",
			"Line 41: Mail server must be a host name, not an IP address: give the address an A record (like mail.pdns-test.inf.nz) and name that host",
			"Line 42: MX records cannot point to a CNAME: www.pdns-test.inf.nz is an alias of server1.pdns-test.inf.nz; name the host itself instead",
		}, refused["pdns-test"])

		addr := freeAddr(t)
		srv := dnsserver.New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)),
			dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.0/8")))
		require.NoError(t, srv.Reload(ctx, d))
		require.NoError(t, srv.Start())
		var stopped sync.WaitGroup
		t.Cleanup(func() {
			_ = srv.Shutdown(context.Background())
			stopped.Wait()
		})

		// Files kept as their projects wrote them, imported into a domain
		// as their owner would: the file's origin is the domain's name.
		for file, origin := range verbatimZones {
			text, err := os.ReadFile(filepath.Join("testdata/zones/verbatim", file))
			require.NoError(t, err)
			name := strings.TrimSuffix(file, ".zone")
			dom := registerDomain(t, d, name, ".inf.nz", expires)
			plan, err := svc.ApplyImport(ctx, dom, renameOrigin(string(text), origin, dom.FQDN()), zone.ImportOptions{})
			require.NoError(t, err, file)
			require.GreaterOrEqual(t, len(plan.Add), 40, "%s: what Nameport serves is imported", file)
			kinds := map[string]int{}
			for _, n := range plan.Notes {
				kinds[n.Kind]++
			}
			require.Equal(t, 1, kinds[zone.NoteSOA], file)
			require.Equal(t, 2, kinds[zone.NoteApexNS], "%s: its own name servers are not ours", file)
			require.Greater(t, kinds[zone.NoteRefused], 50, "%s: each type Nameport does not serve is said", file)
		}

		axfr := transferZone(t, addr, "inf.nz.")
		path := filepath.Join(t.TempDir(), "inf.nz.zone")
		require.NoError(t, os.WriteFile(path, []byte(axfr), 0o600))
		for _, want := range []string{
			"b.dnspython-example.inf.nz.\t300\tIN\tTXT\t\"foo\" \"bar\" \"baz\"",
			"hightxt.pdns-test.inf.nz.\t3600\tIN\tTXT\t\"v=spf1 mx ip4:192.0.2.210 \" \"-all\"",
		} {
			require.Contains(t, axfr, want, "TXT strings served as imported")
		}

		run(t, kzonecheck, "-o", "inf.nz", path)
		// The strictest checks named-checkzone has, on names inside the
		// zone only: no network needed.
		run(t, namedCheckzone, "-i", "local-sibling", "-k", "fail", "-n", "fail", "-m", "fail", "-M", "fail",
			"-S", "fail", "-r", "fail", "inf.nz", path)
	})
}

// verbatimZones are the files of testdata/zones/verbatim (sources in the
// README there), by the origin their names are written under.
var verbatimZones = map[string]string{
	"dnspython-tests-example.zone": "example.",
}

// renameOrigin rewrites the zone file text written for origin as the
// file of domain (both fully qualified): every name equal to origin or
// ending in it, and the bare owner of a line under "$ORIGIN .".
func renameOrigin(text, origin, domain string) string {
	label := regexp.QuoteMeta(strings.TrimSuffix(origin, "."))
	names := regexp.MustCompile(`(^|[\s.])` + label + `\.(\s|$)`)
	bare := regexp.MustCompile(`(?m)^` + label + `(\s)`)
	var out strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		// Two passes: a match's trailing space may start the next one.
		line = names.ReplaceAllString(names.ReplaceAllString(line, "${1}"+domain+"${2}"), "${1}"+domain+"${2}")
		out.WriteString(bare.ReplaceAllString(line, domain+"${1}"))
	}
	return out.String()
}

// transferZone returns the zone origin as an AXFR from addr gives it, one
// record per line.
func transferZone(t *testing.T, addr, origin string) string {
	t.Helper()
	msg := new(dns.Msg)
	msg.SetAxfr(origin)
	var b strings.Builder
	require.Eventually(t, func() bool {
		b.Reset()
		envelopes, err := (&dns.Transfer{}).In(msg, addr)
		if err != nil {
			return false
		}
		for env := range envelopes {
			if env.Error != nil {
				return false
			}
			for _, rr := range env.RR {
				b.WriteString(rr.String())
				b.WriteByte('\n')
			}
		}
		return true
	}, 5*time.Second, 20*time.Millisecond, "AXFR of %s", origin)
	return b.String()
}

// run runs a validator without network where unshare allows it (the checks
// must not depend on it), and requires it to accept.
func run(t *testing.T, tool string, args ...string) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	if unshare, err := exec.LookPath("unshare"); err == nil && exec.Command(unshare, "-n", "true").Run() == nil {
		cmd = exec.Command(unshare, append([]string{"-n", tool}, args...)...)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", tool, strings.Join(args, " "), out)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}
