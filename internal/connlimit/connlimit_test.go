package connlimit_test

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/connlimit"
)

// Clients connect from 127.0.0.1x addresses: their ephemeral ports then
// never take a port another test picked for a listener on 127.0.0.1.

// dial connects to addr from the loopback address src; a reset before
// connect returns (the server refused it at once) gives nil.
func dial(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	if errors.Is(err, syscall.ECONNRESET) {
		return nil
	}
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	c := dial(t, src, addr)
	require.NotNil(t, c, "reset")
	return c
}

// refused reports whether the server closed a connection from src without
// a word. The deadline only keeps a broken test from hanging.
func refused(t *testing.T, src, addr string) bool {
	t.Helper()
	c := dial(t, src, addr)
	if c == nil {
		return true
	}
	require.NoError(t, c.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return err != nil
}

// TestBudgets: connections over the per-client or the total budget are
// closed at accept while the others are served, and a closed connection
// gives its place back.
func TestBudgets(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := connlimit.Wrap(inner, connlimit.Limits{Total: 3, PerClient: 2})
	defer l.Close()
	addr := l.Addr().String()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			// Greet, so that the client knows it was let in.
			_, _ = c.Write([]byte("+"))
			accepted <- c
		}
	}()
	greeted := func(c net.Conn) {
		t.Helper()
		b := make([]byte, 1)
		_, err := io.ReadFull(c, b)
		require.NoError(t, err)
	}

	a1, a2 := dialFrom(t, "127.0.0.11", addr), dialFrom(t, "127.0.0.11", addr)
	greeted(a1)
	greeted(a2)
	server1 := <-accepted
	<-accepted
	require.True(t, refused(t, "127.0.0.11", addr), "third from one client")
	b1 := dialFrom(t, "127.0.0.12", addr)
	greeted(b1)
	<-accepted
	require.True(t, refused(t, "127.0.0.13", addr), "fourth in all")
	require.Equal(t, connlimit.Stats{Open: 3, RefusedTotal: 1, RefusedPerClient: 1}, l.Stats())

	// The server closes one of the first client's: that client may connect
	// again.
	require.NoError(t, server1.Close())
	_ = server1.Close() // twice: gives back one place only
	greeted(dialFrom(t, "127.0.0.11", addr))
	<-accepted
	require.Equal(t, 3, l.Stats().Open)
}

// TestExemptClientsHaveNoPerClientBudget: a reverse proxy's connections
// are not limited per client, but count in the total.
func TestExemptClientsHaveNoPerClientBudget(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := connlimit.Wrap(inner, connlimit.Limits{Total: 4, PerClient: 1,
		Exempt: []netip.Prefix{netip.MustParsePrefix("127.0.0.11/32")}})
	defer l.Close()
	addr := l.Addr().String()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("+"))
		}
	}()
	for range 4 {
		_, err := io.ReadFull(dialFrom(t, "127.0.0.11", addr), make([]byte, 1))
		require.NoError(t, err)
	}
	require.True(t, refused(t, "127.0.0.11", addr), "over the total")
	require.Equal(t, connlimit.Stats{Open: 4, RefusedTotal: 1}, l.Stats())
}

// TestIPv6ClientIsItsSlash64: addresses of one IPv6 /64 share a budget.
func TestIPv6ClientIsItsSlash64(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:2:ffff::9]:2", true},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1", false},
		{"192.0.2.1:1", "192.0.2.2:1", false},
		{"[::ffff:192.0.2.1]:1", "192.0.2.1:2", true},
	} {
		a := connlimit.ClientOf(addrPort(tc.a))
		b := connlimit.ClientOf(addrPort(tc.b))
		require.Equal(t, tc.same, a == b, "%s %s", tc.a, tc.b)
	}
}

func addrPort(s string) net.Addr { return net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s)) }
