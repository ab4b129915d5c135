package cli_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// forwardingAddress is the address servertest gives forwarded hosts.
const forwardingAddress = "192.0.2.80"

// hostRecords returns the records of host of dom, as "TYPE content", in
// the order the server lists them.
func hostRecords(c *ctl, dom, host string) []string {
	c.t.Helper()
	var records []sdk.Record
	c.json(&records, "dns", "list", dom)
	var out []string
	for _, r := range records {
		if r.Name == host {
			out = append(out, r.Type+" "+r.Content)
		}
	}
	return out
}

// setCertificate records what the forward role's certificate manager
// records after talking to the CA (which these tests do not run; the
// domainfwd tests run one): the certificate of name is issued until
// notAfter, or failed with message.
func setCertificate(t *testing.T, srv *servertest.Server, name, state string, notAfter time.Time, message string) {
	t.Helper()
	d := dbtest.Connect(t, srv.DatabaseURL)
	q := d.Bun.NewUpdate().Table("forward_rules").Set("cert_state = ?", state).Set("cert_error = ?", message).Where("name = ?", name)
	if !notAfter.IsZero() {
		q = q.Set("cert_not_after = ?", notAfter)
	}
	res, err := q.Exec(context.Background())
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	require.EqualValues(t, 1, n, "no forward of %s", name)
}

func TestCLIDomainForwarding(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "forwarder"), home: t.TempDir()}
			const dom = "cli-web.inf.nz"
			c.ok("wallet", "deposit", "50")
			c.ok("domain", "register", dom)

			var f sdk.DomainForwarding
			c.json(&f, "forward", "list", dom)
			require.NotNil(t, f.Forwards, "an empty list, not null")
			require.Empty(t, f.Forwards)
			require.Equal(t, []string{forwardingAddress}, f.Addresses)
			require.Positive(t, f.MaxRules)
			table := c.ok("forward", "list", dom)
			require.Len(t, lines(table, "DOMAIN", "FORWARDS", "ADDRESSES"), 1, table)
			require.Len(t, lines(table, dom, "0 of ", forwardingAddress), 1, table)
			require.Len(t, lines(table, "HOST", "TARGET", "STATUS", "OPTIONS", "CERTIFICATE"), 1, table)

			// The domain itself, with the defaults: a temporary redirect,
			// no options, its certificate pending.
			table = c.ok("forward", "set", dom, "@", "https://example.com/")
			require.Len(t, lines(table, "HOST", "TARGET", "STATUS", "OPTIONS", "CERTIFICATE"), 1, table)
			require.Len(t, lines(table, "@", "https://example.com/", "302", "-", "pending"), 1, table)
			table = c.ok("forward", "list", dom)
			require.Len(t, lines(table, dom, "1 of ", forwardingAddress), 1, table)
			require.Len(t, lines(table, "@", "https://example.com/", "302", "-", "pending"), 1, table)
			require.Equal(t, []string{"A " + forwardingAddress}, hostRecords(c, dom, "@"))

			// Setting it again changes it, in place.
			var first, changed sdk.DomainForward
			c.json(&first, "forward", "set", dom, "@", "https://example.com/")
			c.json(&changed, "forward", "set", dom, "@", "https://example.org/new", "--status", "301", "--keep-path", "--keep-query")
			require.Equal(t, first.ID, changed.ID)
			require.Equal(t, dom, changed.Name)
			require.Equal(t, "https://example.org/new", changed.Target)
			require.Equal(t, 301, changed.Status)
			require.True(t, changed.KeepPath)
			require.True(t, changed.KeepQuery)
			table = c.ok("forward", "list", dom)
			require.Len(t, lines(table, dom, "1 of "), 1, table)
			require.Len(t, lines(table, "@", "https://example.org/new", "301", "keep path, keep query", "pending"), 1, table)
			require.Empty(t, lines(table, "https://example.com/"), table)

			// A host with an address of its own: refused, naming the
			// record and the flag, and nothing changes; with the flag
			// the forward replaces it.
			c.ok("dns", "upsert", dom, "--type", "A", "--name", "www", "--content", "203.0.113.7")
			r := c.run("forward", "set", dom, "www", "https://example.com/shop", "--keep-path")
			require.Equal(t, cli.ExitAPIError, r.code, r.stderr)
			require.Empty(t, r.stdout)
			require.Equal(t, "nameportctl: Forwarding www.cli-web.inf.nz replaces its DNS records: A 203.0.113.7 "+
				"(add --replace-records to replace them)\n", r.stderr)
			require.Equal(t, []string{"A 203.0.113.7"}, hostRecords(c, dom, "www"))
			table = c.ok("forward", "set", dom, "www", "https://example.com/shop", "--keep-path", "--replace-records")
			require.Len(t, lines(table, "www", "https://example.com/shop", "302", "keep path", "pending"), 1, table)
			require.Empty(t, lines(table, "keep query"), table)
			require.Equal(t, []string{"A " + forwardingAddress}, hostRecords(c, dom, "www"))

			// A delegated name is a conflict no flag resolves: no hint.
			c.ok("dns", "upsert", dom, "--type", "NS", "--name", "lab", "--content", "ns1.example.net")
			r = c.run("forward", "set", dom, "lab", "https://example.com/")
			require.Equal(t, cli.ExitAPIError, r.code, r.stderr)
			require.Contains(t, r.stderr, "This name is delegated to other name servers")
			require.NotContains(t, r.stderr, "--replace-records")

			// The certificate column as the forward role leaves it.
			notAfter := time.Date(2031, 7, 14, 12, 0, 0, 0, time.UTC)
			setCertificate(t, srv, "www."+dom, "issued", notAfter, "")
			setCertificate(t, srv, dom, "failed", time.Time{}, "urn:ietf:params:acme:error:rateLimited:\n  too many certificates")
			table = c.ok("forward", "list", dom)
			require.Len(t, lines(table, dom, "2 of "), 1, table)
			require.Len(t, lines(table, "www", "https://example.com/shop", "issued until "+notAfter.Local().Format(time.DateOnly)), 1, table)
			require.Len(t, lines(table, "@", "https://example.org/new",
				"failed: urn:ietf:params:acme:error:rateLimited: too many certificates"), 1, table)
			c.json(&f, "forward", "list", dom)
			require.Len(t, f.Forwards, 2)
			require.Equal(t, []string{"@", "www"}, []string{f.Forwards[0].Host, f.Forwards[1].Host}, "the domain itself first")
			require.Equal(t, "issued", f.Forwards[1].Certificate.State)
			require.True(t, notAfter.Equal(*f.Forwards[1].Certificate.NotAfter), "%v", f.Forwards[1].Certificate.NotAfter)

			// The server judges targets and statuses, in words; nothing is
			// stored.
			for _, tc := range []struct {
				msg  string
				args []string
			}{
				{`"http://10.0.0.1/" cannot be a forwarding target: it must name a host, not an IP address`,
					[]string{"shop", "http://10.0.0.1/"}},
				{`"javascript:alert(1)" cannot be a forwarding target: only http and https URLs can be targets`,
					[]string{"shop", "javascript:alert(1)"}},
				{"it is this forwarding itself", []string{"shop", "https://shop." + dom + "/"}},
				{"Choose 301, 302, 307 or 308 as the redirect status", []string{"shop", "https://example.com/", "--status", "303"}},
				{"Use letters, digits and hyphens for the host", []string{"sh_op", "https://example.com/"}},
			} {
				c.fails(cli.ExitAPIError, tc.msg, append([]string{"forward", "set", dom}, tc.args...)...)
			}
			c.json(&f, "forward", "list", dom)
			require.Len(t, f.Forwards, 2, "nothing stored")
			require.Empty(t, hostRecords(c, dom, "shop"))

			// Another account's domain does not exist for this key.
			other := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "stranger"), home: t.TempDir()}
			other.fails(cli.ExitAPIError, "Domain not found", "forward", "list", dom)
			other.fails(cli.ExitAPIError, "Domain not found", "forward", "set", dom, "www", "https://evil.example.net/", "--replace-records")
			other.fails(cli.ExitAPIError, "Domain not found", "forward", "delete", dom, "www")
			c.json(&f, "forward", "list", dom)
			require.Equal(t, "https://example.com/shop", f.Forwards[1].Target)

			// Deleting takes the forward's records with it; the address it
			// replaced does not come back.
			require.Equal(t, "Stopped forwarding www.cli-web.inf.nz.\n", c.ok("forward", "delete", dom, "WWW."+dom+"."), "a host in full")
			require.Empty(t, hostRecords(c, dom, "www"))
			c.fails(cli.ExitAPIError, "Forwarding rule not found", "forward", "delete", dom, "www")
			require.Empty(t, c.ok("forward", "delete", dom, "@", "--output", "json"))
			c.json(&f, "forward", "list", dom)
			require.Empty(t, f.Forwards)
			require.Empty(t, hostRecords(c, dom, "@"))
		})
	}
}

func TestCLIDomainForwardingUsageErrors(t *testing.T) {
	t.Parallel()
	c := &ctl{t: t, url: "http://127.0.0.1:1", key: "np_unused", home: t.TempDir()}
	for _, tc := range []struct {
		msg  string
		args []string
	}{
		{"missing DOMAIN HOST TARGET", []string{"forward", "set", "a.inf.nz", "www"}},
		{`unexpected argument "extra"`, []string{"forward", "set", "a.inf.nz", "www", "https://example.com/", "extra"}},
		{`invalid argument "permanent" for "--status"`, []string{"forward", "set", "a.inf.nz", "www", "https://example.com/", "--status", "permanent"}},
		{"missing DOMAIN HOST", []string{"forward", "delete", "a.inf.nz"}},
		{"missing DOMAIN", []string{"forward", "list"}},
		{"unknown flag: --replace", []string{"forward", "set", "a.inf.nz", "www", "https://example.com/", "--replace"}},
		{`unknown command "frob"`, []string{"forward", "frob"}},
	} {
		c.fails(cli.ExitUsage, tc.msg, tc.args...)
	}
	for _, args := range [][]string{{"forward"}, {"forward", "list"}, {"forward", "set"}, {"forward", "delete"}} {
		out := c.ok(append(args, "--help")...)
		require.Contains(t, out, "Examples:\n", args)
		require.Contains(t, out, "Usage:", args)
	}
	require.Contains(t, c.ok("--help"), "forward ")
}

// The Go SDK's domain forwarding against a real server on each engine: the
// preview names a host's own records, which a forward replaces only when
// asked; a retried set (the same Idempotency-Key) answers as the first
// time; refusals carry their codes; another registrar's domain is unknown.
// (The SDK module cannot start a server; its calls are tested here, where
// its one user outside the server is.)
func TestDomainForwardingThroughTheSDK(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			client := sdk.NewClient(registrarKey(t, srv.URL, "sdkfwd"), sdk.WithBaseURL(srv.URL), sdk.WithMaxRetries(0))
			const dom = "sdk-web.inf.nz"
			_, err := client.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 50})
			require.NoError(t, err)
			_, err = client.Domains.Register(ctx, sdk.RegisterRequest{Domain: dom})
			require.NoError(t, err)
			_, err = client.DNS.Upsert(ctx, dom, sdk.RecordSet{Name: "www", Type: "A", Values: []string{"203.0.113.7"}})
			require.NoError(t, err)

			p, err := client.Domains.PreviewDomainForward(ctx, dom, "www")
			require.NoError(t, err)
			require.Equal(t, sdk.DomainForwardPreview{Host: "www", Name: "www." + dom,
				Adds: []string{"A " + forwardingAddress}, Replaces: []string{"A 203.0.113.7"}}, *p)

			req := sdk.DomainForwardRequest{Target: "https://example.com/", Status: 308, KeepQuery: true}
			_, err = client.Domains.SetDomainForward(ctx, dom, "www", req)
			var apiErr *sdk.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusConflict, apiErr.StatusCode)
			require.Equal(t, sdk.CodeConflict, apiErr.Code)
			require.Contains(t, apiErr.Message, "A 203.0.113.7")

			req.ReplaceRecords = true
			retry := sdk.WithIdempotencyKey(ctx, "forward-www")
			fwd, err := client.Domains.SetDomainForward(retry, dom, "www", req)
			require.NoError(t, err)
			require.Equal(t, "www."+dom, fwd.Name)
			require.Equal(t, 308, fwd.Status)
			require.False(t, fwd.KeepPath)
			require.True(t, fwd.KeepQuery)
			require.Equal(t, "pending", fwd.Certificate.State)
			again, err := client.Domains.SetDomainForward(retry, dom, "www", req)
			require.NoError(t, err)
			require.Equal(t, fwd, again)

			p, err = client.Domains.PreviewDomainForward(ctx, dom, "www")
			require.NoError(t, err)
			require.Empty(t, p.Replaces, "its records are the forward's now")
			require.NotNil(t, p.Replaces)
			f, err := client.Domains.DomainForwarding(ctx, dom)
			require.NoError(t, err)
			require.Len(t, f.Forwards, 1)
			require.Equal(t, fwd.ID, f.Forwards[0].ID)
			require.Equal(t, fwd.Target, f.Forwards[0].Target)
			require.Equal(t, 308, f.Forwards[0].Status)
			require.Equal(t, []string{forwardingAddress}, f.Addresses)

			// The domain itself is "@"; a target that is an address is
			// invalid.
			apex, err := client.Domains.SetDomainForward(ctx, dom, "@", sdk.DomainForwardRequest{Target: "https://example.net"})
			require.NoError(t, err)
			require.Equal(t, dom, apex.Name)
			require.Equal(t, 302, apex.Status, "temporary by default")
			_, err = client.Domains.SetDomainForward(ctx, dom, "shop", sdk.DomainForwardRequest{Target: "http://[::1]/"})
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusUnprocessableEntity, apiErr.StatusCode)
			require.Equal(t, sdk.CodeInvalid, apiErr.Code)
			require.Contains(t, apiErr.Message, "it must name a host, not an IP address")

			// An empty host is refused before any request: "@" is the
			// domain itself.
			_, err = client.Domains.SetDomainForward(ctx, dom, "", req)
			require.EqualError(t, err, "nameport: host is empty")
			_, err = client.Domains.PreviewDomainForward(ctx, dom, "")
			require.EqualError(t, err, "nameport: host is empty")
			require.EqualError(t, client.Domains.DeleteDomainForward(ctx, dom, ""), "nameport: host is empty")
			_, err = client.Domains.DomainForwarding(ctx, "")
			require.EqualError(t, err, "nameport: domain is empty")

			other := sdk.NewClient(registrarKey(t, srv.URL, "sdkother"), sdk.WithBaseURL(srv.URL), sdk.WithMaxRetries(0))
			_, err = other.Domains.DomainForwarding(ctx, dom)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			_, err = other.Domains.PreviewDomainForward(ctx, dom, "www")
			require.True(t, sdk.IsNotFound(err), "%v", err)
			_, err = other.Domains.SetDomainForward(ctx, dom, "www", req)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			require.True(t, sdk.IsNotFound(other.Domains.DeleteDomainForward(ctx, dom, "www")))

			require.NoError(t, client.Domains.DeleteDomainForward(ctx, dom, "www"))
			err = client.Domains.DeleteDomainForward(ctx, dom, "www")
			require.True(t, sdk.IsNotFound(err), "%v", err)
			f, err = client.Domains.DomainForwarding(ctx, dom)
			require.NoError(t, err)
			require.Equal(t, []string{"@"}, hosts(f.Forwards))
			records, err := client.DNS.List(ctx, dom)
			require.NoError(t, err)
			require.False(t, slices.ContainsFunc(records, func(r sdk.Record) bool { return r.Name == "www" }), "%v", records)
		})
	}
}

func hosts(forwards []sdk.DomainForward) []string {
	out := make([]string, len(forwards))
	for i, f := range forwards {
		out[i] = f.Host
	}
	return out
}
