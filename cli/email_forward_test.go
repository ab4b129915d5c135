package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

var forwardingTokenInLink = regexp.MustCompile(`/email-forwarding/confirm\?token=([A-Za-z0-9_-]+)`)

// confirmForwarding does what the reader of address does with the
// confirmation mail: it reads the newest one from the outbox (the server's
// mailbox, as no SMTP server is configured) and follows its link, without
// any session.
func confirmForwarding(t *testing.T, srv *servertest.Server, address string) {
	t.Helper()
	d := dbtest.Connect(t, srv.DatabaseURL)
	var token string
	require.Eventually(t, func() bool {
		var bodies []string
		err := d.Bun.NewSelect().Table("mail_outbox").Column("body").
			Where("kind = ?", "verify_forwarding").Where("to_address = ?", address).
			OrderExpr("id DESC").Limit(1).Scan(context.Background(), &bodies)
		if err != nil || len(bodies) == 0 {
			return false
		}
		m := forwardingTokenInLink.FindStringSubmatch(bodies[0])
		if m == nil {
			return false
		}
		token = m[1]
		return true
	}, 15*time.Second, 10*time.Millisecond, "no confirmation mail to %s", address)
	body, err := json.Marshal(map[string]string{"token": token})
	require.NoError(t, err)
	resp, err := http.Post(srv.URL+"/api/email-forwarding/confirm", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestCLIEmailForwarding(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "mailer"), home: t.TempDir()}
			const dom = "cli-mail.inf.nz"
			c.ok("wallet", "deposit", "50")
			c.ok("domain", "register", dom)

			// Another service's MX: on names it, and replaces it only when
			// told to.
			c.ok("dns", "upsert", dom, "--type", "MX", "--name", "@", "--content", "20 mail.example.net")
			table := c.ok("email-forward", "list", dom)
			require.Len(t, lines(table, "DOMAIN", "FORWARDING", "MAIL HOST", "RULES"), 1, table)
			require.Len(t, lines(table, dom, "off", "mx.inf.nz", "0 of 100"), 1, table)
			require.Len(t, lines(table, "ID", "ALIAS", "DESTINATION", "VERIFIED"), 1, table)
			require.Contains(t, table, "Turning forwarding on replaces MX 20 mail.example.net")
			c.fails(cli.ExitAPIError, "Turning forwarding on replaces this domain's mail records", "email-forward", "on", dom)
			table = c.ok("email-forward", "on", dom, "--replace-mail-records")
			require.Len(t, lines(table, dom, "on", "mx.inf.nz"), 1, table)
			var records []sdk.Record
			c.json(&records, "dns", "list", dom)
			var mail []string
			for _, r := range records {
				if r.Type == "MX" || r.Type == "TXT" {
					mail = append(mail, r.Type+" "+r.Content)
				}
			}
			require.ElementsMatch(t, []string{"MX mx.inf.nz", "TXT v=spf1 mx ~all"}, mail)

			// A rule: one row per address, unverified until its link is
			// followed.
			table = c.ok("email-forward", "add", dom, "info", "you@example.com", "team@example.org")
			require.Len(t, lines(table, "info", "you@example.com", "no"), 1, table)
			require.Len(t, lines(table, "info", "team@example.org", "no"), 1, table)
			require.Contains(t, table, "receives nothing until its reader follows it")
			var rule sdk.ForwardingRule
			c.json(&rule, "email-forward", "add", dom, "*", "you@example.com")
			require.Equal(t, "*", rule.Alias)
			confirmForwarding(t, srv, "you@example.com")

			var f sdk.EmailForwarding
			c.json(&f, "email-forward", "list", dom)
			require.True(t, f.Enabled)
			require.Len(t, f.Rules, 2)
			require.Equal(t, "info", f.Rules[0].Alias)
			require.Equal(t, []sdk.ForwardingDestination{{Address: "team@example.org"}, {Address: "you@example.com", Verified: true}},
				f.Rules[0].Destinations)
			require.Equal(t, rule.ID, f.Rules[1].ID, "the catch-all last")
			table = c.ok("email-forward", "list", dom)
			require.Len(t, lines(table, dom, "on", "2 of 100"), 1, table)
			require.Len(t, lines(table, "info", "you@example.com", "yes"), 1, table)
			require.Len(t, lines(table, "info", "team@example.org", "no"), 1, table)
			require.Len(t, lines(table, "*", "you@example.com", "yes"), 1, table)

			c.fails(cli.ExitAPIError, "A rule forwards to at most 10 addresses", "email-forward", "add", dom, "sales",
				"a0@example.com", "a1@example.com", "a2@example.com", "a3@example.com", "a4@example.com", "a5@example.com",
				"a6@example.com", "a7@example.com", "a8@example.com", "a9@example.com", "a10@example.com")
			c.fails(cli.ExitAPIError, "which would send mail round in a loop", "email-forward", "add", dom, "sales", "me@"+dom)
			c.fails(cli.ExitAPIError, "This alias already has a rule", "email-forward", "add", dom, "info", "x@example.com")
			c.fails(cli.ExitAPIError, "Domain not found", "email-forward", "list", "someone-elses.inf.nz")

			var entries []sdk.ForwardingLogEntry
			c.json(&entries, "email-forward", "log", dom)
			require.Empty(t, entries)
			require.NotNil(t, entries, "an empty list, not null")
			table = c.ok("email-forward", "log", dom)
			require.Len(t, lines(table, "TIME", "FROM", "TO", "OUTCOME"), 1, table)

			require.Contains(t, c.ok("email-forward", "delete", dom, strconv.FormatInt(rule.ID, 10)), "Deleted forwarding rule")
			c.fails(cli.ExitAPIError, "Forwarding rule not found", "email-forward", "delete", dom, strconv.FormatInt(rule.ID, 10))
			table = c.ok("email-forward", "off", dom)
			require.Len(t, lines(table, dom, "off", "1 of 100"), 1, "the rules stay: %s", table)
			c.json(&records, "dns", "list", dom)
			for _, r := range records {
				require.NotContains(t, []string{"MX", "TXT"}, r.Type, "%+v", r)
			}
		})
	}
}

func TestCLIEmailForwardingUsageErrors(t *testing.T) {
	t.Parallel()
	c := &ctl{t: t, url: "http://127.0.0.1:1", key: "np_unused", home: t.TempDir()}
	for _, tc := range []struct {
		msg  string
		args []string
	}{
		{"missing DOMAIN ALIAS DEST", []string{"email-forward", "add", "a.inf.nz", "info"}},
		{"missing DOMAIN RULE_ID", []string{"email-forward", "delete", "a.inf.nz"}},
		{`RULE_ID must be a rule's number`, []string{"email-forward", "delete", "a.inf.nz", "info"}},
		{"missing DOMAIN", []string{"email-forward", "on"}},
		{`unexpected argument "b.inf.nz"`, []string{"email-forward", "off", "a.inf.nz", "b.inf.nz"}},
		{"unknown flag: --replace", []string{"email-forward", "on", "a.inf.nz", "--replace"}},
		{`unknown command "frob"`, []string{"email-forward", "frob"}},
	} {
		c.fails(cli.ExitUsage, tc.msg, tc.args...)
	}
	for _, args := range [][]string{
		{"email-forward"}, {"email-forward", "list"}, {"email-forward", "add"}, {"email-forward", "delete"},
		{"email-forward", "on"}, {"email-forward", "off"}, {"email-forward", "log"},
	} {
		out := c.ok(append(args, "--help")...)
		require.Contains(t, out, "Examples:\n", args)
		require.Contains(t, out, "Usage:", args)
	}
}
