package server_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
)

// dialFrom opens a TCP connection to addr from the loopback address src,
// with a deadline that only keeps a broken test from hanging. Tests dial
// from 127.0.0.1x: those ephemeral ports never take a port another test
// picked for a listener on 127.0.0.1.
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	return c
}

// refused reports whether the server ended a new connection from src at
// once: reset before connect returned, or a first read that ends with EOF
// or a reset rather than the test's deadline.
func refused(t *testing.T, src, addr string) bool {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	if errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// keepAliveGet sends GET path on c and reads the answer, leaving c open.
func keepAliveGet(t *testing.T, c net.Conn, r *bufio.Reader, path string) int {
	t.Helper()
	_, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: nameport.test\r\n\r\n")
	require.NoError(t, err)
	resp, err := http.ReadResponse(r, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// metricValue reads one sample of a Prometheus text page.
func metricValue(t *testing.T, page, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(page)
	require.NotNil(t, m, "%s in\n%s", series, page)
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	return v
}

// TestConnectionFloodFromOneClient: one client opening more connections
// than its budget, to HTTP and to DNS over TCP, has the surplus closed at
// accept; meanwhile its own open connections, other clients and UDP are
// served, and /metrics counts the refusals.
func TestConnectionFloodFromOneClient(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.HTTPMaxConns, c.HTTPMaxConnsPerClient = 100, 4
		c.DNSTCPMaxConns, c.DNSTCPMaxConnsPerClient = 100, 3
	})
	httpAddr := strings.TrimPrefix(ts.url, "http://")

	// HTTP: four idle keep-alive connections fill the client's budget.
	var held []net.Conn
	for range 4 {
		c := dialFrom(t, "127.0.0.11", httpAddr)
		require.Equal(t, http.StatusOK, keepAliveGet(t, c, bufio.NewReader(c), "/healthz"))
		held = append(held, c)
	}
	for range 6 {
		require.True(t, refused(t, "127.0.0.11", httpAddr), "over the per-client budget")
	}
	other := clientFrom("127.0.0.12")
	resp, err := other.Get(ts.url + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "another client")
	// The held connections still work.
	require.Equal(t, http.StatusOK, keepAliveGet(t, held[0], bufio.NewReader(held[0]), "/healthz"))

	// DNS over TCP: likewise with three.
	ask := func(c net.Conn) error {
		dc := &dns.Conn{Conn: c}
		if err := dc.WriteMsg(new(dns.Msg).SetQuestion("example.com.", dns.TypeA)); err != nil {
			return err
		}
		_, err := dc.ReadMsg()
		return err
	}
	for range 3 {
		require.NoError(t, ask(dialFrom(t, "127.0.0.11", ts.dnsAddr)))
	}
	for range 5 {
		require.True(t, refused(t, "127.0.0.11", ts.dnsAddr), "over the per-client budget")
	}
	require.NoError(t, ask(dialFrom(t, "127.0.0.12", ts.dnsAddr)), "another client")
	udp, _, err := (&dns.Client{Timeout: 5 * time.Second}).Exchange(new(dns.Msg).SetQuestion("example.com.", dns.TypeA), ts.dnsAddr)
	require.NoError(t, err, "UDP")
	require.Equal(t, dns.RcodeRefused, udp.Rcode)

	resp, err = other.Get(ts.url + "/metrics")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, 6.0, metricValue(t, string(page), `nameport_connections_refused_total{listener="http",reason="per_client"}`))
	require.Equal(t, 0.0, metricValue(t, string(page), `nameport_connections_refused_total{listener="http",reason="total"}`))
	require.Equal(t, 5.0, metricValue(t, string(page), `nameport_connections_refused_total{listener="dns_tcp",reason="per_client"}`))
	require.GreaterOrEqual(t, metricValue(t, string(page), `nameport_connections_open{listener="http"}`), 5.0)
	require.GreaterOrEqual(t, metricValue(t, string(page), `nameport_connections_open{listener="dns_tcp"}`), 3.0)
}

// TestConnectionBudgetInAll: past the total budget, new connections from
// any client are closed at accept.
func TestConnectionBudgetInAll(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) { c.HTTPMaxConns = 3 })
	httpAddr := strings.TrimPrefix(ts.url, "http://")
	for i := range 3 {
		c := dialFrom(t, "127.0.0.1"+strconv.Itoa(i+1), httpAddr)
		require.Equal(t, http.StatusOK, keepAliveGet(t, c, bufio.NewReader(c), "/healthz"))
	}
	require.True(t, refused(t, "127.0.0.19", httpAddr))
}

// TestIdleHTTPConnectionIsClosed: a keep-alive connection without a next
// request is closed after --http-idle-timeout (it used to live 2 minutes).
func TestIdleHTTPConnectionIsClosed(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) { c.HTTPIdleTimeout = 100 * time.Millisecond })
	c := dialFrom(t, "127.0.0.11", strings.TrimPrefix(ts.url, "http://"))
	r := bufio.NewReader(c)
	require.Equal(t, http.StatusOK, keepAliveGet(t, c, r, "/healthz"))
	_, err := r.ReadByte()
	var ne net.Error
	require.Error(t, err)
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "closed by the server, not the test's deadline: %v", err)
}

// TestOversizedHeadersAreRefused: headers are bounded at 64 KiB (the
// default was 1 MiB per request).
func TestOversizedHeadersAreRefused(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	req, err := http.NewRequest("GET", ts.url+"/healthz", nil)
	require.NoError(t, err)
	req.Header.Set("X-Padding", strings.Repeat("a", 100<<10))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)

	req.Header.Set("X-Padding", strings.Repeat("a", 16<<10))
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// TestIdleDNSTCPConnectionIsClosed: --dns-tcp-idle-timeout reaches the DNS
// server.
func TestIdleDNSTCPConnectionIsClosed(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) { c.DNSTCPIdleTimeout = 100 * time.Millisecond })
	c := &dns.Conn{Conn: dialFrom(t, "127.0.0.11", ts.dnsAddr)}
	require.NoError(t, c.WriteMsg(new(dns.Msg).SetQuestion("example.com.", dns.TypeA)))
	_, err := c.ReadMsg()
	require.NoError(t, err)
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	require.Error(t, err)
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "closed by the server, not the test's deadline: %v", err)
}

// TestReverseProxyHasNoPerClientBudget: --http-max-conns-exempt lifts the
// per-client budget of a proxy, through which every client comes.
func TestReverseProxyHasNoPerClientBudget(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.HTTPMaxConns, c.HTTPMaxConnsPerClient = 100, 2
		c.HTTPMaxConnsExempt = []netip.Prefix{netip.MustParsePrefix("127.0.0.14/32")}
	})
	httpAddr := strings.TrimPrefix(ts.url, "http://")
	for range 5 {
		c := dialFrom(t, "127.0.0.14", httpAddr)
		require.Equal(t, http.StatusOK, keepAliveGet(t, c, bufio.NewReader(c), "/healthz"))
	}
	for range 2 {
		c := dialFrom(t, "127.0.0.15", httpAddr)
		require.Equal(t, http.StatusOK, keepAliveGet(t, c, bufio.NewReader(c), "/healthz"))
	}
	require.True(t, refused(t, "127.0.0.15", httpAddr), "others keep their budget")
}
