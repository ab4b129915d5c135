package cli_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// `dns template` as built, against a real server on each engine: a template
// made of record lines, listed, applied to two domains of which one cannot
// take it (its CNAME would sit beside an A record the domain keeps) and so
// keeps its records, then deleted.
func TestCLIDNSTemplates(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "templater"), home: t.TempDir()}
			c.ok("wallet", "deposit", "100")
			c.ok("domain", "register", "cli-tmpl-a.inf.nz")
			c.ok("domain", "register", "cli-tmpl-b.inf.nz")
			c.ok("dns", "upsert", "cli-tmpl-b.inf.nz", "--type", "A", "--name", "shop", "--content", "192.0.2.99")

			c.fails(cli.ExitUsage, `write it as "name type value"`, "dns", "template", "create", "Web", "--record", "www A")
			c.fails(cli.ExitAPIError, "", "dns", "template", "create", "Bad", "--record", "www A not-an-address")
			var made []sdk.DNSTemplate
			c.json(&made, "dns", "template", "create", "Shop", "--record", "@ A 192.0.2.10", "--record", "@ A 192.0.2.11",
				"--record", "@ MX 10 mx.example.net", "--record", "shop CNAME shops.example.net.", "--ttl", "600")
			require.Len(t, made, 1)
			require.Len(t, made[0].Records, 3, "the two A lines make one set")
			require.Equal(t, []string{"192.0.2.10", "192.0.2.11"}, made[0].Records[0].Values)
			id := made[0].ID
			table := c.ok("dns", "template", "list")
			require.Len(t, lines(table, "Shop", "@ A 192.0.2.10, 192.0.2.11"), 1, table)

			c.fails(cli.ExitUsage, "give the domains", "dns", "template", "apply", "4")
			c.fails(cli.ExitUsage, "ID must be a template's number", "dns", "template", "apply", "web", "x.inf.nz")
			r := c.run("dns", "template", "apply", strconv.FormatInt(id, 10), "cli-tmpl-a.inf.nz", "cli-tmpl-b.inf.nz")
			require.Equal(t, cli.ExitAPIError, r.code, r.stderr)
			require.Contains(t, r.stderr, "2 of 2 done (1 applied, 1 refused)")
			require.Contains(t, r.stderr, "1 of 2 domains were refused")
			require.Len(t, lines(r.stdout, "cli-tmpl-a.inf.nz", "applied"), 1, r.stdout)
			require.Len(t, lines(r.stdout, "cli-tmpl-b.inf.nz", "refused", "shop already has A records"), 1, r.stdout)

			var records []sdk.Record
			c.json(&records, "dns", "list", "cli-tmpl-b.inf.nz")
			for _, rec := range records {
				require.NotEqual(t, "192.0.2.10", rec.Content, "the refused domain took none of the template")
			}
			table = c.ok("dns", "list", "cli-tmpl-a.inf.nz")
			require.Len(t, lines(table, "shop", "CNAME", "shops.example.net"), 1, table)

			require.Contains(t, c.ok("dns", "template", "delete", strconv.FormatInt(id, 10)), "Deleted DNS template")
			c.fails(cli.ExitAPIError, "DNS template not found", "dns", "template", "delete", strconv.FormatInt(id, 10))
		})
	}
}
