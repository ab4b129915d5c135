// Package connlimit bounds the connections a listener keeps open: in total
// and per client (an IPv4 address, or an IPv6 /64, which one host usually
// holds whole). A connection over its budget is closed as soon as it is
// accepted, so a flood from one client costs an accept and a close per
// connection and never holds the file descriptors the others need.
package connlimit

import (
	"io"
	"net"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
)

// Limits are a listener's budgets; 0 means no limit.
type Limits struct {
	Total     int
	PerClient int
	// Exempt clients (a reverse proxy, through which every client comes)
	// have no per-client budget; their connections count in Total.
	Exempt []netip.Prefix
}

// Stats are a listener's counts since it was wrapped.
type Stats struct {
	Open int
	// Refused connections, by the budget they were over.
	RefusedTotal, RefusedPerClient uint64
}

// Listener is a net.Listener that keeps to Limits.
type Listener struct {
	net.Listener
	limits Limits

	mu        sync.Mutex
	open      int
	perClient map[netip.Prefix]int

	refusedTotal, refusedPerClient atomic.Uint64
}

// Wrap returns l bounded by limits.
func Wrap(l net.Listener, limits Limits) *Listener {
	return &Listener{Listener: l, limits: limits, perClient: make(map[netip.Prefix]int)}
}

// Accept returns the next connection within budget, closing the others
// as they come.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := ClientOf(c.RemoteAddr())
		if l.exempt(c.RemoteAddr()) {
			client = netip.Prefix{} // not counted per client
		}
		if l.admit(client) {
			return &conn{Conn: c, l: l, client: client}, nil
		}
		// A reset rather than a FIN: the socket is freed at once instead of
		// waiting in TIME_WAIT, and the client learns at its first read.
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		c.Close()
	}
}

func (l *Listener) exempt(a net.Addr) bool {
	if len(l.limits.Exempt) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return false
	}
	ip := ap.Addr().Unmap()
	return slices.ContainsFunc(l.limits.Exempt, func(p netip.Prefix) bool { return p.Contains(ip) })
}

func (l *Listener) admit(client netip.Prefix) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.limits.Total > 0 && l.open >= l.limits.Total {
		l.refusedTotal.Add(1)
		return false
	}
	if l.limits.PerClient > 0 && client.IsValid() && l.perClient[client] >= l.limits.PerClient {
		l.refusedPerClient.Add(1)
		return false
	}
	l.open++
	if client.IsValid() {
		l.perClient[client]++
	}
	return true
}

func (l *Listener) release(client netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if client.IsValid() {
		if n := l.perClient[client] - 1; n > 0 {
			l.perClient[client] = n
		} else {
			delete(l.perClient, client)
		}
	}
}

// Stats returns the listener's counts.
func (l *Listener) Stats() Stats {
	l.mu.Lock()
	open := l.open
	l.mu.Unlock()
	return Stats{Open: open, RefusedTotal: l.refusedTotal.Load(), RefusedPerClient: l.refusedPerClient.Load()}
}

// ClientOf is the network a peer is counted under: its IPv4 address, or
// its IPv6 /64. Not an IP address (a Unix socket): not counted per client.
func ClientOf(a net.Addr) netip.Prefix {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Prefix{}
	}
	ip := ap.Addr().Unmap()
	if ip.Is4() {
		return netip.PrefixFrom(ip, 32)
	}
	p, _ := ip.Prefix(64)
	return p
}

// conn gives its place back once, at its first Close.
type conn struct {
	net.Conn
	l      *Listener
	client netip.Prefix
	once   sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.client) })
	return err
}

// CloseWrite half-closes a TCP connection, as net/http does to let a
// client read its last response before the close.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// ReadFrom keeps the kernel's zero-copy paths (sendfile, splice) of a TCP
// connection.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}
