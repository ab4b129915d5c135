package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
)

// visit asks the forward role at addr for path on host, without following
// the redirect. A change reaches the forward role of the process that made
// it at once, but in the background: callers wait for it (eventually).
func visit(t *testing.T, addr, host, path string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	require.NoError(t, err)
	req.Host = host
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

// aRecords are the addresses DNS answers for name.
func aRecords(t *testing.T, ts *testServer, name string) []string {
	t.Helper()
	m, err := dnsAsk(ts.dnsAddr, dns.Fqdn(name), dns.TypeA)
	require.NoError(t, err)
	var out []string
	for _, rr := range m.Answer {
		if a, ok := rr.(*dns.A); ok {
			out = append(out, a.A.String())
		}
	}
	slices.Sort(out)
	return out
}

func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, 10*time.Millisecond, what)
}

// A forward made in the web app is served by the forward role of the same
// process at once, and by DNS: the host's A record points at the forwarding
// address; removing it removes both.
func TestDomainForwardingEndToEnd(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) {
				c.Roles = append(c.Roles, config.RoleForward)
				c.ForwardIPv4 = []string{"192.0.2.80"}
			})
			require.NotEmpty(t, ts.forwardAddr)
			alice := fundedUser(t, ts)
			id := registerDomain(t, alice, "shopfront", ".inf.nz")
			addRecord(t, alice, id, map[string]any{"type": "A", "name": "www", "content": "203.0.113.7"})
			base := fmt.Sprintf("/api/domains/%v/domain-forwarding", id)

			// The preview names what forwarding www replaces; without
			// consent nothing changes.
			r := alice.do("GET", base+"/www/preview", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, []any{"A 192.0.2.80"}, data(t, r)["adds"])
			require.Equal(t, []any{"A 203.0.113.7"}, data(t, r)["replaces"])
			forward := map[string]any{"target": "https://example.com/shop", "status": 301, "keepPath": true, "keepQuery": true}
			r = alice.do("PUT", base+"/www", forward)
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Contains(t, r.body["error"], "A 203.0.113.7")
			eventually(t, func() bool { return slices.Equal(aRecords(t, ts, "www.shopfront.inf.nz"), []string{"203.0.113.7"}) },
				"www keeps its own address")

			forward["replaceRecords"] = true
			r = alice.do("PUT", base+"/www", forward)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "www.shopfront.inf.nz", data(t, r)["name"])
			require.Equal(t, "pending", data(t, r)["certificate"].(map[string]any)["state"], "HTTPS is off in this test")
			eventually(t, func() bool {
				return visit(t, ts.forwardAddr, "WWW.shopfront.inf.nz.", "/").StatusCode == http.StatusMovedPermanently
			}, "the forward role serves the new forward")
			resp := visit(t, ts.forwardAddr, "WWW.shopfront.inf.nz.", "/spring/sale?size=m")
			require.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
			require.Equal(t, "https://example.com/shop/spring/sale?size=m", resp.Header.Get("Location"))
			eventually(t, func() bool {
				return slices.Equal(aRecords(t, ts, "www.shopfront.inf.nz"), []string{"192.0.2.80"})
			}, "DNS points www at the forwarding address")

			// The domain itself, with a temporary redirect by default.
			r = alice.do("PUT", base+"/@", map[string]any{"target": "https://example.com/"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.EqualValues(t, 302, data(t, r)["status"])
			eventually(t, func() bool {
				return visit(t, ts.forwardAddr, "shopfront.inf.nz", "/").StatusCode == http.StatusFound
			}, "the domain itself forwards")
			resp = visit(t, ts.forwardAddr, "shopfront.inf.nz", "/anything")
			require.Equal(t, http.StatusFound, resp.StatusCode)
			require.Equal(t, "https://example.com/", resp.Header.Get("Location"))

			r = alice.do("GET", base, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			forwards := data(t, r)["forwards"].([]any)
			require.Len(t, forwards, 2)
			require.Equal(t, "@", forwards[0].(map[string]any)["host"])
			require.Equal(t, []any{"192.0.2.80"}, data(t, r)["addresses"])

			// Another account sees and changes nothing of it.
			bob := signedUp(t, ts, "bob", "user")
			require.Equal(t, http.StatusNotFound, bob.do("GET", base, nil).status)
			require.Equal(t, http.StatusNotFound, bob.do("DELETE", base+"/www", nil).status)

			// Bad targets are refused in words, and change nothing.
			for _, target := range []string{"http://127.0.0.1/", "http://[::1]/", "http://10.0.0.1/", "javascript:alert(1)",
				"https://shopfront.inf.nz/", "https://münchen.example/", "https://example.com/" + strings.Repeat("a", 10_000)} {
				r = alice.do("PUT", base+"/shop", map[string]any{"target": target})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", target, r.raw)
				require.NotEmpty(t, r.body["error"])
			}
			require.Len(t, data(t, alice.do("GET", base, nil))["forwards"], 2)

			r = alice.do("DELETE", base+"/www", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			eventually(t, func() bool {
				return visit(t, ts.forwardAddr, "www.shopfront.inf.nz", "/").StatusCode == http.StatusNotFound
			}, "the forward is gone")
			eventually(t, func() bool { return len(aRecords(t, ts, "www.shopfront.inf.nz")) == 0 }, "the forward's A record went with it")
		})
	}
}
