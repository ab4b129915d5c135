package domainfwd

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// startServer runs a forwarding server over d until t ends.
func startServer(t *testing.T, d *db.DB, opts ServerOptions) *Server {
	t.Helper()
	if opts.HTTPAddr == "" {
		opts.HTTPAddr = "127.0.0.1:0"
	}
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	srv := NewServer(d, opts)
	require.NoError(t, srv.Start(context.Background()))
	t.Cleanup(func() { require.NoError(t, srv.Shutdown(context.Background())) })
	return srv
}

// noRedirects is a client that shows redirects rather than following them.
var noRedirects = &http.Client{Timeout: 10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// get asks addr for url's path with url's host, and returns the status
// and Location.
func get(t *testing.T, addr, host, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", "http://"+addr+path, nil)
	require.NoError(t, err)
	req.Host = host
	resp, err := noRedirects.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("Location")
}

// eventually waits until cond holds, for at most a minute.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, time.Minute, 20*time.Millisecond, what)
}

func TestServerServesTheRules(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// This process's server hears of changes at once; another node's
		// (same database, its own poll) within its poll.
		here := startServer(t, d, ServerOptions{PollInterval: time.Hour})
		there := startServer(t, d, ServerOptions{PollInterval: 20 * time.Millisecond})
		b := setup(t, d, "served", Options{Changed: here.Poke})
		expired := addDomain(t, d, "expired", time.Now().Add(-time.Hour))
		require.Empty(t, here.HTTPSAddr())

		status, _ := get(t, here.HTTPAddr(), "www.served.inf.nz", "/")
		require.Equal(t, http.StatusNotFound, status)

		_, err := b.rules.Set(ctx, b.domain, Input{Host: "www", Target: "https://example.com/shop", Status: 307, KeepPath: true, KeepQuery: true}, false)
		require.NoError(t, err)
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "@", Target: "https://example.org"}, false)
		require.NoError(t, err)
		// A rule of a domain that has expired is not served (written as
		// it would have been before the domain expired).
		dbtest.MustExec(t, d, `INSERT INTO forward_rules (domain_id, host, name, target, status, keep_path, keep_query, created_at, updated_at)
			VALUES (?, '@', 'expired.inf.nz', 'https://example.com', 301, FALSE, FALSE, ?, ?)`, expired.ID, time.Now().UTC(), time.Now().UTC())

		for _, srv := range []*Server{here, there} {
			eventually(t, "the rules are served", func() bool {
				status, _ := get(t, srv.HTTPAddr(), "served.inf.nz", "/")
				return status == http.StatusFound
			})
			status, location := get(t, srv.HTTPAddr(), "WWW.served.inf.nz:80", "/cart/1?x=y")
			require.Equal(t, http.StatusTemporaryRedirect, status)
			require.Equal(t, "https://example.com/shop/cart/1?x=y", location)
			status, location = get(t, srv.HTTPAddr(), "served.inf.nz", "/anything")
			require.Equal(t, http.StatusFound, status)
			require.Equal(t, "https://example.org", location)
			status, _ = get(t, srv.HTTPAddr(), "expired.inf.nz", "/")
			require.Equal(t, http.StatusNotFound, status)
		}

		// A change, and a rule gone.
		_, err = b.rules.Set(ctx, b.domain, Input{Host: "www", Target: "https://example.net/", Status: 308}, false)
		require.NoError(t, err)
		require.NoError(t, b.rules.Delete(ctx, b.domain, "@"))
		for _, srv := range []*Server{here, there} {
			eventually(t, "the change is served", func() bool {
				status, location := get(t, srv.HTTPAddr(), "www.served.inf.nz", "/a")
				return status == http.StatusPermanentRedirect && location == "https://example.net/"
			})
			eventually(t, "the deleted rule is not", func() bool {
				status, _ := get(t, srv.HTTPAddr(), "served.inf.nz", "/")
				return status == http.StatusNotFound
			})
		}
	})
}
