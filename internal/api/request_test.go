package api

import (
	"net/http"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClientAddr(t *testing.T) {
	t.Parallel()
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:1::/48")}
	tests := []struct {
		name    string
		peer    string
		xff     []string
		trusted []netip.Prefix
		want    string
	}{
		{"no proxy trusted: the peer", "203.0.113.7:5000", []string{"198.51.100.1"}, nil, "203.0.113.7"},
		{"untrusted peer: its header is ignored", "203.0.113.7:5000", []string{"198.51.100.1"}, proxies, "203.0.113.7"},
		{"trusted peer: the right-most untrusted hop", "10.0.0.1:5000", []string{"1.2.3.4, 198.51.100.1"}, proxies, "198.51.100.1"},
		{"forged left part is skipped", "10.0.0.1:5000", []string{"6.6.6.6", "198.51.100.1, 10.9.9.9"}, proxies, "198.51.100.1"},
		{"trusted peer without header", "10.0.0.1:5000", nil, proxies, "10.0.0.1"},
		{"every hop trusted: the left-most", "10.0.0.1:5000", []string{"10.0.0.3, 10.0.0.2"}, proxies, "10.0.0.3"},
		{"garbage hop: the proxy that passed it on", "10.0.0.1:5000", []string{"1.2.3.4, nonsense, 10.0.0.2"}, proxies, "10.0.0.2"},
		{"IPv6 peer and hops with ports", "[2001:db8:1::9]:443", []string{"[2001:db8:2::5]:1234"}, proxies, "2001:db8:2::5"},
		{"mapped IPv4 is IPv4", "[::ffff:10.0.0.1]:80", []string{"::ffff:198.51.100.2"}, proxies, "198.51.100.2"},
	}
	for _, tt := range tests {
		r, err := http.NewRequest("GET", "/", nil)
		require.NoError(t, err)
		r.RemoteAddr = tt.peer
		for _, v := range tt.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		require.Equal(t, tt.want, ClientAddr(r, tt.trusted), tt.name)
	}
}
