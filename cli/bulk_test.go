package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// `domain check --file` and `domain register --file` as built, against a
// real server: a CSV with a name column, the total confirmed with --yes,
// progress as plain lines (not a terminal), each name's result, and exit 1
// when a name was refused for want of funds (charged nothing).
func TestCLIBulkFromFile(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, db.SQLite, func(c *config.Config) { c.Demo = true })
	c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "bulkcli"), home: t.TempDir()}
	file := filepath.Join(t.TempDir(), "names.csv")
	require.NoError(t, os.WriteFile(file, []byte("years,domain\n1,cli-bulk-1.inf.nz\n1,cli-bulk-2.inf.nz\n1,cli-bulk-3.inf.nz\n1,bad_name.inf.nz\n"), 0o600))

	var check sdk.BulkCheck
	c.json(&check, "domain", "check", "--file", file)
	require.Len(t, check.Results, 4)
	require.Equal(t, 3, check.Available)
	price := check.Results[0].Price
	table := c.ok("domain", "check", "--file", file)
	require.Len(t, lines(table, "cli-bulk-2.inf.nz", "yes", fmt.Sprintf("$%.2f/yr", price)), 1, table)
	require.Contains(t, table, "3 of 4 available")

	c.fails(cli.ExitUsage, "give NAME.EXT or --file, not both", "domain", "check", "x.inf.nz", "--file", file)
	c.fails(cli.ExitUsage, "no such file", "domain", "register", "--file", filepath.Join(t.TempDir(), "missing.csv"), "--yes")

	// Money for two of the three.
	c.ok("wallet", "deposit", fmt.Sprintf("%.2f", 2*price))
	r := c.run("domain", "register", "--file", file, "--yes")
	require.Equal(t, cli.ExitAPIError, r.code, r.stderr)
	require.Contains(t, r.stderr, "skipping bad_name.inf.nz")
	require.Contains(t, r.stderr, "3 of 3 done (2 registered, 1 refused)")
	require.Contains(t, r.stderr, "1 of 3 domains were refused")
	require.Len(t, lines(r.stdout, "cli-bulk-1.inf.nz", "registered"), 1, r.stdout)
	require.Len(t, lines(r.stdout, "cli-bulk-3.inf.nz", "refused", "$0.00"), 1, r.stdout)
	require.True(t, strings.Contains(r.stdout, "Insufficient"), r.stdout)
	var w sdk.Wallet
	c.json(&w, "wallet", "balance")
	require.Zero(t, w.Balance)
}
