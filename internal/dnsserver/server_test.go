package dnsserver_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnsserver"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

func TestUnknownNamesAreRefusedOverUDPAndTCP(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	srv := dnsserver.New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.False(t, srv.Ready())
	srv.Publish(&dnsserver.Snapshot{})
	require.True(t, srv.Ready())
	require.NoError(t, srv.Start())
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

	for _, proto := range []string{"udp", "tcp"} {
		c := &dns.Client{Net: proto, Timeout: 2 * time.Second}
		q := new(dns.Msg).SetQuestion("example.com.", dns.TypeA)
		q.SetEdns0(1232, false)
		var resp *dns.Msg
		var err error
		require.Eventually(t, func() bool { resp, _, err = c.Exchange(q, addr); return err == nil }, 2*time.Second, 20*time.Millisecond, proto)
		require.Equal(t, dns.RcodeRefused, resp.Rcode, proto)
		require.Equal(t, q.Id, resp.Id, proto)
		require.False(t, resp.RecursionAvailable, proto)
		require.NotNil(t, resp.IsEdns0(), "EDNS0 is answered with EDNS0 (%s)", proto)
	}

	notify := new(dns.Msg).SetNotify("example.com.")
	resp, _, err := (&dns.Client{Timeout: 2 * time.Second}).Exchange(notify, addr)
	require.NoError(t, err)
	require.Equal(t, dns.RcodeNotImplemented, resp.Rcode)
}
