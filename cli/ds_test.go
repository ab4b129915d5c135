package cli_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// dns ds add|list|delete against a real server, on a domain registered
// with name servers of its own (delegated) and on one Nameport serves.
func TestCLIDS(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "dsctl"), home: t.TempDir()}
			c.ok("wallet", "deposit", "100")
			c.ok("domain", "register", "ds-deleg.inf.nz", "--nameserver", "ns1.example.net", "--nameserver", "ns2.example.net")
			c.ok("domain", "register", "ds-served.inf.nz")
			digest := strings.Repeat("1f", 32)

			c.fails(cli.ExitAPIError, "ds-served.inf.nz is not delegated", "dns", "ds", "add", "ds-served.inf.nz", "2371", "13", "2", digest)
			c.fails(cli.ExitAPIError, "A digest of type 2 is 64 hexadecimal characters long, not 62", "dns", "ds", "add", "ds-deleg.inf.nz", "2371", "13", "2", digest[2:])
			c.fails(cli.ExitAPIError, "Algorithm 7 (RSASHA1-NSEC3-SHA1) is deprecated", "dns", "ds", "add", "ds-deleg.inf.nz", "2371", "7", "2", digest)
			c.fails(cli.ExitUsage, "ALGORITHM must be a number", "dns", "ds", "add", "ds-deleg.inf.nz", "2371", "ecdsa", "2", digest)

			// The digest may come in pieces, as panels show it.
			var added []sdk.DS
			c.json(&added, "dns", "ds", "add", "ds-deleg.inf.nz", "2371", "13", "2", digest[:32], digest[32:])
			require.Len(t, added, 1)
			require.Equal(t, strings.ToUpper(digest), added[0].Digest)
			id := strconv.FormatInt(added[0].ID, 10)
			table := c.ok("dns", "ds", "list", "ds-deleg.inf.nz")
			require.Len(t, lines(table, "ID", "KEY TAG", "ALGORITHM", "DIGEST TYPE", "DIGEST"), 1, table)
			require.Len(t, lines(table, id, "2371", "13", "2", strings.ToUpper(digest)), 1, table)

			require.Contains(t, c.ok("dns", "ds", "delete", "ds-deleg.inf.nz", id), "Deleted")
			var list []sdk.DS
			c.json(&list, "dns", "ds", "list", "ds-deleg.inf.nz")
			require.Empty(t, list)
			c.fails(cli.ExitAPIError, "DS record not found", "dns", "ds", "delete", "ds-deleg.inf.nz", id)
		})
	}
}
