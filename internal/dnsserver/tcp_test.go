package dnsserver_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/dnsserver"
)

// startEmpty runs a server with no zones (every answer REFUSED) on a free
// loopback address.
func startEmpty(t *testing.T, opts ...dnsserver.Option) (*dnsserver.Server, string) {
	t.Helper()
	addr := freeAddr(t)
	srv := dnsserver.New(addr, quiet, opts...)
	srv.Publish(&dnsserver.Snapshot{})
	require.NoError(t, srv.Start())
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return srv, addr
}

// dialDNS opens a DNS-over-TCP connection from the loopback address src
// (127.0.0.1x: their ephemeral ports never take a port another test picked
// for a listener on 127.0.0.1).
func dialDNS(t *testing.T, src, addr string) *dns.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	// The deadline only keeps a broken test from hanging.
	require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
	return &dns.Conn{Conn: c}
}

// ask sends one query on c and reads the answer.
func ask(c *dns.Conn) (*dns.Msg, error) {
	q := new(dns.Msg).SetQuestion("example.com.", dns.TypeA)
	if err := c.WriteMsg(q); err != nil {
		return nil, err
	}
	return c.ReadMsg()
}

// closedByServer reports whether the server closed c (the read ends with
// EOF or a reset, not with the test's deadline).
func closedByServer(c *dns.Conn) bool {
	_, err := c.Conn.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// TestZeroLengthTCPMessageClosesTheConnection: RFC 7766 makes a message of
// length zero an error; the connection ends and the next query on it is
// never answered (it used to be, and two zero bytes every few seconds kept
// the connection for ever).
func TestZeroLengthTCPMessageClosesTheConnection(t *testing.T) {
	t.Parallel()
	_, addr := startEmpty(t)
	c := dialDNS(t, "127.0.0.11", addr)
	_, err := ask(c)
	require.NoError(t, err, "the connection works")
	_, err = c.Conn.Write([]byte{0, 0})
	require.NoError(t, err)
	_, err = ask(c)
	require.Error(t, err, "no answer after a zero-length message")
	require.True(t, closedByServer(c))

	// Anything shorter than a header, likewise.
	c = dialDNS(t, "127.0.0.11", addr)
	_, err = c.Conn.Write([]byte{0, 3, 1, 2, 3})
	require.NoError(t, err)
	require.True(t, closedByServer(c))
}

// TestIdleTCPConnectionIsClosed: a connection that sends nothing after its
// answer is closed after the idle timeout.
func TestIdleTCPConnectionIsClosed(t *testing.T) {
	t.Parallel()
	_, addr := startEmpty(t, dnsserver.WithTCPIdleTimeout(100*time.Millisecond))
	c := dialDNS(t, "127.0.0.11", addr)
	_, err := ask(c)
	require.NoError(t, err)
	require.True(t, closedByServer(c))
}

// TestTCPConnectionIsBounded: a connection ends after 128 queries, and
// once it has lived its time, however busy it is.
func TestTCPConnectionIsBounded(t *testing.T) {
	t.Parallel()
	_, addr := startEmpty(t)
	c := dialDNS(t, "127.0.0.11", addr)
	answered := 0
	for range 200 {
		if _, err := ask(c); err != nil {
			break
		}
		answered++
	}
	require.Equal(t, 128, answered)

	// A lifetime shorter than any round trip: over before the first read.
	_, addr = startEmpty(t, dnsserver.WithTCPLifetime(time.Nanosecond))
	_, err := ask(dialDNS(t, "127.0.0.11", addr))
	require.Error(t, err)
}

// TestTCPConnectionBudgets: over its per-client budget a client's new
// connections are closed at accept, while other clients and UDP are
// served; the counts say so.
func TestTCPConnectionBudgets(t *testing.T) {
	t.Parallel()
	srv, addr := startEmpty(t, dnsserver.WithTCPLimits(connlimit.Limits{Total: 100, PerClient: 3}))
	for range 3 {
		_, err := ask(dialDNS(t, "127.0.0.11", addr))
		require.NoError(t, err, "within the budget")
	}
	for range 5 {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.11")}}
		c, err := d.Dial("tcp", addr)
		if errors.Is(err, syscall.ECONNRESET) {
			continue // refused before connect returned
		}
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
		require.True(t, closedByServer(&dns.Conn{Conn: c}), "over the budget")
	}
	_, err := ask(dialDNS(t, "127.0.0.12", addr))
	require.NoError(t, err, "another client")
	resp, _, err := (&dns.Client{Timeout: 5 * time.Second}).Exchange(new(dns.Msg).SetQuestion("example.com.", dns.TypeA), addr)
	require.NoError(t, err, "UDP")
	require.Equal(t, dns.RcodeRefused, resp.Rcode)
	require.Equal(t, connlimit.Stats{Open: 4, RefusedPerClient: 5}, srv.TCPConns())
}

// TestMalformedQueriesOverTCPGetFormErr: over TCP, where miekg/dns reads
// the query, the packets NSD answers with FORMERR get FORMERR too, and the
// connection goes on.
func TestMalformedQueriesOverTCPGetFormErr(t *testing.T) {
	t.Parallel()
	// Allowed transfers: the IXFR's SOA is looked for.
	_, addr := startEmpty(t, dnsserver.WithTransfer(netip.MustParsePrefix("127.0.0.11/32")))
	c := dialDNS(t, "127.0.0.11", addr)
	query := func() []byte {
		b, err := new(dns.Msg).SetQuestion("example.com.", dns.TypeA).Pack()
		require.NoError(t, err)
		b[11] = 1 // ARCOUNT: the OPT record appended below
		return b
	}
	ixfr, err := new(dns.Msg).SetQuestion("example.com.", dns.TypeIXFR).Pack()
	require.NoError(t, err)
	for about, pkt := range map[string][]byte{
		"an EDNS option running past the end of the OPT record": append(query(), 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 4, 0, 10, 0, 8),
		"an OPT record not owned by the root":                   append(query(), 1, 'x', 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0),
		"IXFR without the client's SOA":                         ixfr,
	} {
		_, err := c.Write(pkt)
		require.NoError(t, err, about)
		m, err := c.ReadMsg()
		require.NoError(t, err, about)
		require.Equal(t, dns.RcodeToString[dns.RcodeFormatError], dns.RcodeToString[m.Rcode], about)
	}
	m, err := ask(c)
	require.NoError(t, err)
	require.Equal(t, dns.RcodeRefused, m.Rcode, "a well-formed query on the same connection")
}
