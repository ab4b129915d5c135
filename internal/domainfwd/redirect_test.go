package domainfwd

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRedirectLocation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                string
		target              string
		keepPath, keepQuery bool
		request             string // path and query as sent
		want                string
	}{
		{"fixed target", "https://example.com/landing", false, false, "/any/path?a=1", "https://example.com/landing"},
		{"bare origin", "https://example.com", false, false, "/x", "https://example.com"},
		{"path kept", "https://example.com", true, false, "/a/b?q=1", "https://example.com/a/b"},
		{"path joined with one slash", "https://example.com/blog/", true, false, "/post", "https://example.com/blog/post"},
		{"path joined without trailing slash", "https://example.com/blog", true, false, "/post", "https://example.com/blog/post"},
		{"root adds nothing", "https://example.com/blog", true, false, "/", "https://example.com/blog"},
		{"root of a bare origin", "https://example.com", true, true, "/", "https://example.com"},
		{"query kept", "https://example.com/s", false, true, "/ignored?q=go&page=2", "https://example.com/s?q=go&page=2"},
		{"queries merged", "https://example.com/s?ref=fwd", false, true, "/?q=go", "https://example.com/s?ref=fwd&q=go"},
		{"target query without the request's", "https://example.com/s?ref=fwd", true, true, "/a", "https://example.com/s/a?ref=fwd"},
		{"both kept", "https://example.com/base/?ref=1", true, true, "/x/y?z=2", "https://example.com/base/x/y?ref=1&z=2"},
		{"escaped path stays escaped", "https://example.com", true, false, "/a%20b/%2F", "https://example.com/a%20b/%2F"},
		{"fragment last", "https://example.com/doc#part", true, true, "/p?q=1", "https://example.com/doc/p?q=1#part"},
		{"port kept", "http://example.com:8080/", true, false, "/x", "http://example.com:8080/x"},
		{"double slash stays on the target's host", "https://example.com", true, false, "//evil.example/x", "https://example.com//evil.example/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, err := compile(tc.target, 301, tc.keepPath, tc.keepQuery)
			require.NoError(t, err)
			h := newRedirector()
			h.table.Store(&table{routes: map[string]*route{"www.example.inf.nz": rt}})
			req := httptest.NewRequest("GET", "http://www.example.inf.nz"+tc.request, nil)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, 301, rec.Code)
			require.Equal(t, tc.want, rec.Header().Get("Location"))
		})
	}
}

func TestRedirectMatchesHost(t *testing.T) {
	t.Parallel()
	h := newRedirector()
	routes := map[string]*route{}
	for name, status := range map[string]int{"example.inf.nz": 301, "www.example.inf.nz": 302, "shop.example.inf.nz": 307, "a.b.example.inf.nz": 308} {
		rt, err := compile("https://"+strings.ReplaceAll(name, ".inf.nz", ".com"), status, false, false)
		require.NoError(t, err)
		routes[name] = rt
	}
	h.table.Store(&table{routes: routes})
	for _, tc := range []struct {
		host     string
		status   int
		location string
	}{
		{"example.inf.nz", 301, "https://example.com"},
		{"www.example.inf.nz", 302, "https://www.example.com"},
		{"WWW.Example.INF.nz", 302, "https://www.example.com"},
		{"www.example.inf.nz.", 302, "https://www.example.com"},
		{"www.example.inf.nz:8081", 302, "https://www.example.com"},
		{"Shop.Example.Inf.Nz.:443", 307, "https://shop.example.com"},
		{"a.b.example.inf.nz", 308, "https://a.b.example.com"},
		{"b.example.inf.nz", 404, ""},
		{"other.example.inf.nz", 404, ""},
		{"xwww.example.inf.nz", 404, ""},
		{"127.0.0.1:8081", 404, ""},
		{"[::1]:8081", 404, ""},
		{"[::1]", 404, ""},
		{"", 404, ""},
	} {
		req := httptest.NewRequest("GET", "/p", nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, tc.status, rec.Code, tc.host)
		require.Equal(t, tc.location, rec.Header().Get("Location"), tc.host)
		if tc.status == http.StatusNotFound {
			require.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
			require.Contains(t, rec.Body.String(), "No forwarding")
		}
	}
}

func TestRedirectCounts(t *testing.T) {
	// Not parallel: it reads the process's counters.
	before := Totals()
	h := newRedirector()
	rt, err := compile("https://example.com", 308, false, false)
	require.NoError(t, err)
	h.table.Store(&table{routes: map[string]*route{"example.inf.nz": rt}})
	for _, host := range []string{"example.inf.nz", "example.inf.nz", "nope.inf.nz"} {
		req := httptest.NewRequest("HEAD", "/", nil)
		req.Host = host
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	after := Totals()
	require.GreaterOrEqual(t, after.Redirects[308]-before.Redirects[308], uint64(2))
	require.GreaterOrEqual(t, after.NotFound-before.NotFound, uint64(1))
	require.Len(t, after.Redirects, len(Statuses))
}

func TestParseTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"https://example.com", "https://example.com"},
		{"  HTTPS://Example.COM/Path?Q=1#F  ", "https://example.com/Path?Q=1#F"},
		{"http://www.example.co.uk:8080/a/b/", "http://www.example.co.uk:8080/a/b/"},
		{"https://example.com./x", "https://example.com/x"},
		{"https://a-b.example.com/%E2%82%AC", "https://a-b.example.com/%E2%82%AC"},
	} {
		u, err := parseTarget(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, u.String(), tc.in)
	}
	u, err := parseTarget("https://xn--bcher-kva.com/")
	require.NoError(t, err, "punycode hosts are fine")
	require.Equal(t, "xn--bcher-kva.com", u.Hostname())
}
