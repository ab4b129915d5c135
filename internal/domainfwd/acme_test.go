package domainfwd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/domainfwd/pebbletest"
	"github.com/nameport/nameport/internal/zone"
)

// acmeSetup is everything between an ACME CA and a visitor: Nameport's DNS
// server answering for label.inf.nz, a forwarding server with HTTPS, and a
// pebble that validates names through that DNS server and at that
// forwarding server's ports.
type acmeSetup struct {
	bundle
	dns    string
	acme   ACMEOptions
	fwd    *Server
	pebble *pebbletest.Pebble
}

// setupACME starts it all for label.inf.nz. certmagic keeps some state per
// name for the whole process, so tests running at once use labels of
// their own.
func setupACME(t *testing.T, d *db.DB, label string, acme ACMEOptions, validity time.Duration) *acmeSetup {
	t.Helper()
	ctx := context.Background()
	s := &acmeSetup{dns: freeAddr(t)}
	dnsSrv := dnsserver.New(s.dns, quiet)
	// The forwarding server hears of a rule only when poked (forward), so
	// that the CA never asks before our DNS answers.
	s.bundle = setup(t, d, label, Options{Records: zone.NewService(d, zone.Options{Changed: dnsSrv.Poke})})
	require.NoError(t, dnsSrv.Reload(ctx, d))
	require.NoError(t, dnsSrv.Start())
	watchCtx, cancel := context.WithCancel(ctx)
	var watching sync.WaitGroup
	watching.Go(func() { dnsSrv.Watch(watchCtx, d, 500*time.Millisecond) })
	t.Cleanup(func() {
		cancel()
		watching.Wait()
		_ = dnsSrv.Shutdown(context.Background())
	})

	s.pebble = pebbletest.New(t)
	acme.Directory, acme.CARoots, acme.Sealer = s.pebble.Directory, s.pebble.Roots, testSealer(t)
	s.acme = acme
	s.fwd = startServer(t, d, ServerOptions{HTTPSAddr: "127.0.0.1:0", ACME: acme, PollInterval: time.Hour})
	s.pebble.Start(t, pebbletest.Options{HTTPPort: port(t, s.fwd.HTTPAddr()), TLSPort: port(t, s.fwd.HTTPSAddr()),
		DNSServer: s.dns, Validity: validity})
	return s
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	n, err := strconv.Atoi(p)
	require.NoError(t, err)
	return n
}

// forward sets the rule, waits until our DNS server answers for its name
// with the forwarding address, as the CA will ask it, and then tells the
// forwarding server.
func (s *acmeSetup) forward(t *testing.T, in Input) *Rule {
	t.Helper()
	rule, err := s.rules.Set(context.Background(), s.domain, in, false)
	require.NoError(t, err)
	c := &dns.Client{Net: "tcp", Timeout: 2 * time.Second}
	eventually(t, "DNS answers for "+rule.Name, func() bool {
		resp, _, err := c.Exchange(new(dns.Msg).SetQuestion(rule.Name+".", dns.TypeA), s.dns)
		if err != nil || len(resp.Answer) == 0 {
			return false
		}
		a, ok := resp.Answer[0].(*dns.A)
		return ok && a.A.String() == "127.0.0.1"
	})
	s.fwd.Poke()
	return rule
}

// waitCertificate waits until the rule of name records an issued
// certificate, and returns it; a failure ends the test with the CA's word.
func (s *acmeSetup) waitCertificate(t *testing.T, name string, after *time.Time) *Rule {
	t.Helper()
	var found *Rule
	eventually(t, "a certificate for "+name, func() bool {
		rules, err := s.rules.List(context.Background(), s.domain)
		require.NoError(t, err)
		for _, r := range rules {
			if r.Name != name {
				continue
			}
			if r.Certificate.State == CertFailed {
				t.Fatalf("no certificate for %s: %s", name, r.Certificate.Error)
			}
			if r.Certificate.State == CertIssued && (after == nil || r.Certificate.NotAfter.After(*after)) {
				found = &r
				return true
			}
		}
		return false
	})
	return found
}

// visit asks the HTTPS server at addr for path on name, trusting roots,
// and returns the response (its body closed).
func visit(t *testing.T, addr, name, path string, roots *x509.CertPool) (*http.Response, error) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			},
			TLSClientConfig: &tls.Config{RootCAs: roots},
		}}
	resp, err := client.Get("https://" + name + path)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp, nil
}

// handshake returns the certificate addr serves for name, or the error.
func handshake(addr, name string) (*x509.Certificate, error) {
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", addr,
		&tls.Config{ServerName: name, InsecureSkipVerify: true}) // the certificate is looked at, not trusted
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0], nil
}

func TestCertificatesForForwardedNames(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		label := "certs-" + string(d.Engine)
		s := setupACME(t, d, label, ACMEOptions{}, 0)
		name := "www." + label + ".inf.nz"
		s.forward(t, Input{Host: "www", Target: "https://example.com/landing", Status: 301, KeepPath: true})

		rule := s.waitCertificate(t, name, nil)
		require.Empty(t, rule.Certificate.Error)
		require.WithinDuration(t, time.Now().Add(90*24*time.Hour), *rule.Certificate.NotAfter, 24*time.Hour, "pebble's 90 days")

		// A visitor over HTTPS gets the redirect, under a certificate that
		// chains to pebble's root.
		root := s.pebble.IssuingRoot(t)
		roots := x509.NewCertPool()
		roots.AddCert(root)
		resp, err := visit(t, s.fwd.HTTPSAddr(), name, "/docs/a?b=c", roots)
		require.NoError(t, err)
		require.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
		require.Equal(t, "https://example.com/landing/docs/a", resp.Header.Get("Location"))
		require.NotEmpty(t, resp.TLS.VerifiedChains)
		chain := resp.TLS.VerifiedChains[0]
		require.True(t, chain[len(chain)-1].Equal(root), "the chain ends at pebble's root")
		require.Equal(t, []string{name}, chain[0].DNSNames)
		require.Equal(t, *rule.Certificate.NotAfter, chain[0].NotAfter.UTC(), "the state recorded is the certificate served")
		// And over HTTP the same.
		status, location := get(t, s.fwd.HTTPAddr(), name, "/docs/a")
		require.Equal(t, http.StatusMovedPermanently, status)
		require.Equal(t, "https://example.com/landing/docs/a", location)

		// A name without a rule gets no certificate, even one of the
		// domain: nothing is asked of the CA, nothing stored.
		for _, other := range []string{"nope." + label + ".inf.nz", label + ".inf.nz", "example.com", "127.0.0.1", ""} {
			_, err := handshake(s.fwd.HTTPSAddr(), other)
			require.Error(t, err, "a handshake for %q", other)
		}
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_storage WHERE key LIKE '%nope%' OR key LIKE ?", "%/"+label+".inf.nz/%"))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_storage WHERE key LIKE '%.crt'"), "one certificate obtained")

		// Another forwarding node on the same database serves the same
		// certificate, obtained once and shared.
		served, err := handshake(s.fwd.HTTPSAddr(), name)
		require.NoError(t, err)
		other := startServer(t, d, ServerOptions{HTTPSAddr: "127.0.0.1:0", ACME: s.acme, PollInterval: time.Hour})
		shared, err := handshake(other.HTTPSAddr(), name)
		require.NoError(t, err)
		require.Equal(t, served.SerialNumber, shared.SerialNumber)
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_storage WHERE key LIKE '%.crt'"))
		require.GreaterOrEqual(t, Totals().CertificatesIssued, uint64(1))

		// A rule removed takes its certificate along.
		require.NoError(t, s.rules.Delete(ctx, s.domain, "www"))
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM acme_storage WHERE key LIKE ?", "%/"+name+"/%"))
		s.fwd.Poke()
		eventually(t, "the removed name's certificate is no longer served", func() bool {
			_, err := handshake(s.fwd.HTTPSAddr(), name)
			return err != nil
		})
	})
}

func TestCertificateRenewal(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		label := "renew-" + string(d.Engine)
		// Certificates valid for an hour, renewed with 99.9% of it left:
		// the first renewal is due seconds after the issuance.
		s := setupACME(t, d, label, ACMEOptions{RenewalWindowRatio: 0.999, RenewCheckInterval: 500 * time.Millisecond}, time.Hour)
		name := label + ".inf.nz"
		s.forward(t, Input{Host: "@", Target: "https://example.com/"})
		first := s.waitCertificate(t, name, nil)
		require.WithinDuration(t, time.Now().Add(time.Hour), *first.Certificate.NotAfter, 5*time.Minute)
		served, err := handshake(s.fwd.HTTPSAddr(), name)
		require.NoError(t, err)

		// Renewed in the background, without a visitor asking.
		renewed := s.waitCertificate(t, name, first.Certificate.NotAfter)
		require.True(t, renewed.Certificate.NotAfter.After(*first.Certificate.NotAfter))
		eventually(t, "the renewed certificate is served", func() bool {
			now, err := handshake(s.fwd.HTTPSAddr(), name)
			return err == nil && now.SerialNumber.Cmp(served.SerialNumber) != 0 && !now.NotAfter.Before(*renewed.Certificate.NotAfter)
		})
		require.GreaterOrEqual(t, Totals().CertificatesRenewed, uint64(1))
	})
}

func TestChallengeTypes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		label string
		acme  ACMEOptions
	}{
		{"http01", ACMEOptions{DisableTLSALPNChallenge: true}},
		{"tlsalpn01", ACMEOptions{DisableHTTPChallenge: true}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			t.Parallel()
			s := setupACME(t, dbtest.Open(t, db.SQLite), tc.label, tc.acme, 0)
			s.forward(t, Input{Host: "shop", Target: "https://example.com/"})
			s.waitCertificate(t, "shop."+tc.label+".inf.nz", nil)
		})
	}
}

func TestCertificateFailureIsRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := setupACME(t, dbtest.Open(t, db.SQLite), "fails", ACMEOptions{DisableTLSALPNChallenge: true}, 0)
	// The name points at an address where no forwarding server listens,
	// so the CA cannot validate it.
	elsewhere, err := NewService(s.d, Options{Records: s.records, IPv4: []string{"127.0.0.2"}})
	require.NoError(t, err)
	before := Totals().CertificateFailures
	rule, err := elsewhere.Set(ctx, s.domain, Input{Host: "www", Target: "https://example.com/"}, false)
	require.NoError(t, err)
	c := &dns.Client{Net: "tcp", Timeout: 2 * time.Second}
	eventually(t, "DNS answers for "+rule.Name, func() bool {
		resp, _, err := c.Exchange(new(dns.Msg).SetQuestion(rule.Name+".", dns.TypeA), s.dns)
		return err == nil && len(resp.Answer) == 1
	})
	s.fwd.Poke()
	eventually(t, "the failure is recorded", func() bool {
		rules, err := s.rules.List(ctx, s.domain)
		require.NoError(t, err)
		return len(rules) == 1 && rules[0].Certificate.State == CertFailed
	})
	rules, err := s.rules.List(ctx, s.domain)
	require.NoError(t, err)
	require.Contains(t, rules[0].Certificate.Error, "127.0.0.2", "the CA's own words")
	require.Nil(t, rules[0].Certificate.NotAfter)
	require.Greater(t, Totals().CertificateFailures, before)
	_, err = handshake(s.fwd.HTTPSAddr(), rule.Name)
	require.Error(t, err, "nothing to serve")
}
