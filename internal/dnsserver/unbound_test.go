package dnsserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
)

// envRequireUnbound makes the unbound test fail, rather than skip, when
// unbound is not installed: CI sets it, so that the test never skips there
// unnoticed.
const envRequireUnbound = "NAMEPORT_REQUIRE_UNBOUND"

// Zones beside testZones for the negative proofs: one served through a
// proxy that rewrites its addresses, one whose trust anchor is another key.
const tamperZones = `
$ORIGIN tamper.test.
@    3600 IN SOA ns1.tamper.test. hostmaster.tamper.test. 42 7200 900 1209600 300
@    3600 IN NS  ns1.tamper.test.
www   300 IN A   192.0.2.44
$ORIGIN wrongkey.test.
@    3600 IN SOA ns1.wrongkey.test. hostmaster.wrongkey.test. 42 7200 900 1209600 300
@    3600 IN NS  ns1.wrongkey.test.
www   300 IN A   192.0.2.45
`

// Unbound, a validating resolver with the zones' keys as trust anchors,
// validates what nameport signs: positive answers, wildcards, CNAME chains
// within and across zones, names that do not exist (compact denial),
// NODATA, an empty non-terminal, the absence of DS at a delegation, and an
// answer from below that delegation, which is insecure (validated as
// unsigned: NOERROR without AD), not bogus. Answers altered on the way,
// and answers signed with a key other than the anchor, are bogus:
// SERVFAIL.
func TestUnboundValidates(t *testing.T) {
	t.Parallel()
	unbound := requireProgram(t, "unbound", envRequireUnbound, "unbound")
	snap, err := buildFromText(testZones + tamperZones)
	require.NoError(t, err)
	source, keys := staticKeys(t, dnssec.ECDSAP256SHA256)
	addr := freeLoopbackAddr(t)
	srv := New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	srv.Publish(snap)
	require.NoError(t, srv.Start())
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

	child := startChild(t)
	proxy := startTamperProxy(t, addr)

	other, err := dnssec.Generate("wrongkey.test.", dnssec.ECDSAP256SHA256)
	require.NoError(t, err)
	anchors := []string{keys["inf.nz."].DS().String(), keys["biz.ee."].DS().String(),
		keys["tamper.test."].DS().String(), other.DS().String()}
	stubs := map[string]string{"inf.nz": addr, "biz.ee": addr, "wrongkey.test": addr,
		"tamper.test": proxy, "deleg.inf.nz": child}
	resolver := startUnbound(t, unbound, anchors, stubs)

	type check struct {
		name   string
		qtype  uint16
		rcodes []int // NOERROR, or those listed
		ad     bool
		answer bool // has an answer of qtype
	}
	noerror := []int{dns.RcodeSuccess}
	// A resolver may give back NXDOMAIN for an NXNAME proof (RFC 9824 3.4).
	nxname := []int{dns.RcodeSuccess, dns.RcodeNameError}
	for _, c := range []check{
		{"inf.nz.", dns.TypeDNSKEY, noerror, true, true},
		{"inf.nz.", dns.TypeSOA, noerror, true, true},
		{"example.inf.nz.", dns.TypeA, noerror, true, true},
		{"ExAmple.Inf.NZ.", dns.TypeMX, noerror, true, true},
		{"mail.example.inf.nz.", dns.TypeAAAA, noerror, true, true},
		{"foo.example.inf.nz.", dns.TypeA, noerror, true, true},                      // a wildcard
		{"x.y.example.inf.nz.", dns.TypeTXT, noerror, true, true},                    // a wildcard, deeper
		{"chain1.example.inf.nz.", dns.TypeA, noerror, true, true},                   // CNAME, CNAME, CNAME, A
		{"api.dev.example.inf.nz.", dns.TypeA, noerror, true, true},                  // a wildcard CNAME
		{"cross.example.inf.nz.", dns.TypeMX, noerror, true, true},                   // CNAME into biz.ee
		{"ttl.inf.nz.", dns.TypeA, noerror, true, true},                              // TTLs made one
		{"nope.inf.nz.", dns.TypeA, nxname, true, false},                             // no such name
		{"q.b.example.inf.nz.", dns.TypeAAAA, nxname, true, false},                   // none below an empty non-terminal
		{"dangling.example.inf.nz.", dns.TypeA, nxname, true, false},                 // a CNAME to no name
		{"example.inf.nz.", dns.TypeSRV, noerror, true, false},                       // NODATA
		{"inf.nz.", dns.TypeA, noerror, true, false},                                 // NODATA at the apex
		{"b.example.inf.nz.", dns.TypeA, noerror, true, false},                       // an empty non-terminal
		{"foo.example.inf.nz.", dns.TypeMX, noerror, true, false},                    // a wildcard without the type
		{"deleg.inf.nz.", dns.TypeDS, noerror, true, false},                          // no DS: proven
		{"host.deleg.inf.nz.", dns.TypeA, noerror, false, true},                      // below it: insecure
		{"shop.biz.ee.", dns.TypeA, noerror, true, true},                             // the other zone
		{"www.tamper.test.", dns.TypeA, []int{dns.RcodeServerFailure}, false, false}, // altered
		{"www.wrongkey.test.", dns.TypeA, []int{dns.RcodeServerFailure}, false, false},
	} {
		what := c.name + " " + dns.TypeToString[c.qtype]
		m := resolve(t, resolver, c.name, c.qtype)
		require.Contains(t, c.rcodes, m.Rcode, "%s\n%s", what, m)
		require.Equal(t, c.ad, m.AuthenticatedData, "%s: AD\n%s", what, m)
		has := false
		for _, rr := range m.Answer {
			has = has || rr.Header().Rrtype == c.qtype
		}
		require.Equal(t, c.answer, has, "%s: answer\n%s", what, m)
	}
	// Unaltered, the tampered zone's data is what the proxy changed.
	direct := resolve(t, addr, "www.tamper.test.", dns.TypeA)
	require.Equal(t, "192.0.2.44", direct.Answer[0].(*dns.A).A.String())
}

// resolve asks addr (over UDP, then TCP if truncated) with RD and DO.
func resolve(t *testing.T, addr, name string, qtype uint16) *dns.Msg {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	q.SetEdns0(1232, true)
	c := &dns.Client{Timeout: 10 * time.Second}
	m, _, err := c.Exchange(q, addr)
	require.NoError(t, err, name)
	if m.Truncated {
		c.Net = "tcp"
		m, _, err = c.Exchange(q, addr)
		require.NoError(t, err, name)
	}
	return m
}

// requireProgram returns the path of program, skipping the test when it is
// not installed (failing it when requiredBy is set to 1).
func requireProgram(t *testing.T, program, requiredBy, debianPackage string) string {
	t.Helper()
	if path, err := exec.LookPath(program); err == nil {
		return path
	}
	if _, err := os.Stat("/usr/sbin/" + program); err == nil {
		return "/usr/sbin/" + program
	}
	if os.Getenv(requiredBy) == "1" {
		t.Fatalf("%s is not installed and %s=1 (Debian: apt-get install %s)", program, requiredBy, debianPackage)
	}
	t.Skipf("%s is not installed (Debian: apt-get install %s); set %s=1 to make this a failure", program, debianPackage, requiredBy)
	return ""
}

// freeLoopbackAddr returns a loopback address whose port is free for both
// UDP and TCP.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		l.Close()
		if pc, err := net.ListenPacket("udp", addr); err == nil {
			pc.Close()
			return addr
		}
	}
	t.Fatal("no free port")
	return ""
}

// startDNS serves h over UDP and TCP on a free loopback address.
func startDNS(t *testing.T, h dns.HandlerFunc) string {
	t.Helper()
	addr := freeLoopbackAddr(t)
	for _, proto := range []string{"udp", "tcp"} {
		started := make(chan struct{})
		s := &dns.Server{Addr: addr, Net: proto, Handler: h, NotifyStartedFunc: func() { close(started) }}
		failed := make(chan error, 1)
		go func() { failed <- s.ListenAndServe() }()
		select {
		case <-started:
		case err := <-failed:
			t.Fatalf("%s %s: %v", proto, addr, err)
		}
		t.Cleanup(func() { _ = s.Shutdown() })
	}
	return addr
}

// startChild serves deleg.inf.nz, the child of a delegation, unsigned.
func startChild(t *testing.T) string {
	t.Helper()
	soa, err := dns.NewRR("deleg.inf.nz. 300 IN SOA ns1.deleg.inf.nz. hostmaster.deleg.inf.nz. 1 7200 900 1209600 300")
	require.NoError(t, err)
	return startDNS(t, func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg).SetReply(req)
		m.Authoritative = true
		q := req.Question[0]
		if strings.EqualFold(q.Name, "host.deleg.inf.nz.") && q.Qtype == dns.TypeA {
			rr, _ := dns.NewRR(q.Name + " 300 IN A 192.0.2.80")
			m.Answer = []dns.RR{rr}
		} else {
			m.Ns = []dns.RR{soa}
		}
		_ = w.WriteMsg(m)
	})
}

// startTamperProxy forwards queries to upstream and changes every address
// in the answers, leaving the signatures as they were.
func startTamperProxy(t *testing.T, upstream string) string {
	t.Helper()
	return startDNS(t, func(w dns.ResponseWriter, req *dns.Msg) {
		c := &dns.Client{Net: "tcp", Timeout: 5 * time.Second}
		m, _, err := c.Exchange(req, upstream)
		if err != nil {
			m = new(dns.Msg).SetRcode(req, dns.RcodeServerFailure)
		}
		for _, rr := range m.Answer {
			if a, ok := rr.(*dns.A); ok {
				a.A = net.IPv4(192, 0, 2, 66)
			}
		}
		_ = w.WriteMsg(m)
	})
}

// startUnbound runs unbound as a validating resolver trusting anchors (DS
// records) and sending the queries for each zone of stubs to its address;
// it returns the resolver's address once it answers.
func startUnbound(t *testing.T, unbound string, anchors []string, stubs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	addr := freeLoopbackAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	var conf strings.Builder
	fmt.Fprintf(&conf, `server:
    interface: %s
    port: %s
    do-ip6: no
    do-daemonize: no
    num-threads: 1
    username: ""
    chroot: ""
    directory: "%[3]s"
    pidfile: "%[3]s/unbound.pid"
    use-syslog: no
    logfile: ""
    verbosity: 1
    val-log-level: 2
    access-control: 127.0.0.0/8 allow
    do-not-query-localhost: no
    module-config: "validator iterator"
    harden-dnssec-stripped: yes
    qname-minimisation: no
    so-reuseport: no
    # .test is served locally by default (RFC 6761): ask the stubs.
    local-zone: "test." nodefault
`, host, port, dir)
	for _, a := range anchors {
		fmt.Fprintf(&conf, "    trust-anchor: %q\n", strings.ReplaceAll(a, "\t", " "))
	}
	conf.WriteString("remote-control:\n    control-enable: no\n")
	for zone, at := range stubs {
		h, p, _ := net.SplitHostPort(at)
		fmt.Fprintf(&conf, "stub-zone:\n    name: %q\n    stub-addr: %s@%s\n", zone, h, p)
	}
	path := filepath.Join(dir, "unbound.conf")
	require.NoError(t, os.WriteFile(path, []byte(conf.String()), 0o600))
	cmd := exec.Command(unbound, "-d", "-c", path)
	logs := &lockedLog{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("unbound config:\n%s\nunbound log:\n%s", conf.String(), logs.String())
		}
	})
	// Ready once it answers (it binds its port after reading the anchors).
	require.Eventually(t, func() bool {
		select {
		case <-exited:
			return true // reported below
		default:
		}
		q := new(dns.Msg).SetQuestion("inf.nz.", dns.TypeSOA)
		_, _, err := (&dns.Client{Timeout: time.Second}).Exchange(q, addr)
		return err == nil
	}, 20*time.Second, 50*time.Millisecond)
	select {
	case <-exited:
		t.Fatalf("unbound exited:\n%s", logs.String())
	default:
	}
	return addr
}

// lockedLog is a buffer a process writes to while the test reads it.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedLog) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
