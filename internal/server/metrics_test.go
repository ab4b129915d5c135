package server_test

import (
	"net"
	"net/http"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
)

// clientFrom is an HTTP client whose connections leave from the loopback
// address src (any of 127.0.0.0/8 works on Linux; tests use 127.0.0.1x,
// whose ephemeral ports never take one another test picked on 127.0.0.1).
func clientFrom(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// TestMetricsOnlyFromAllowedAddresses: /metrics answers the TCP peers of
// --metrics-allow alone; an X-Forwarded-For header changes nothing.
func TestMetricsOnlyFromAllowedAddresses(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.MetricsAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.12/32")}
	})
	get := func(c *http.Client, forwardedFor string) int {
		t.Helper()
		req, err := http.NewRequest("GET", ts.url+"/metrics", nil)
		require.NoError(t, err)
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		resp, err := c.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, get(clientFrom("127.0.0.12"), ""))
	require.Equal(t, http.StatusForbidden, get(clientFrom("127.0.0.11"), ""))
	require.Equal(t, http.StatusForbidden, get(clientFrom("127.0.0.11"), "127.0.0.12"))
	require.Equal(t, http.StatusForbidden, get(clientFrom("127.0.0.13"), ""))

	// By default, loopback only: the other tests scrape from 127.0.0.1.
	def := start(t, db.SQLite)
	resp, err := http.Get(def.url + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}
