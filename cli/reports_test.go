package cli_test

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// nameportctl reports, against a real server: the tables, the JSON and a
// CSV export, after a deposit and two registrations.
func TestCLIReports(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "reportreader"), home: t.TempDir()}
			c.ok("wallet", "deposit", "50")
			c.ok("domain", "register", "report-one.inf.nz")
			c.ok("domain", "register", "report-two.biz.ee")
			month := time.Now().UTC().Format("2006-01")

			table := c.ok("reports")
			require.Len(t, lines(table, "MONTH", "REGISTRATIONS", "RENEWALS", "TOTAL"), 1, table)
			require.Len(t, lines(table, month, "2", "0"), 1, table)
			require.Len(t, lines(table, ".inf.nz", "1"), 1, table)
			require.Len(t, lines(table, ".biz.ee", "1"), 1, table)
			require.Len(t, lines(table, "30 days", "0", "$0.00"), 1, table)
			require.Len(t, lines(table, "basic", "2", "100", "98"), 1, table)

			var rep sdk.Report
			c.json(&rep, "reports")
			require.Equal(t, 2, rep.Months[11].Registrations)
			require.Equal(t, 50-rep.Balance, rep.Months[11].TotalSpend)

			out := c.ok("reports", "--csv", "extensions")
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			require.NoError(t, err, out)
			require.Equal(t, []string{"extension", "domains", "active", "expired"}, rows[0])
			require.Len(t, rows, 3)

			c.fails(cli.ExitUsage, "--csv must be one of activity, spend, extensions, renewals, allowance", "reports", "--csv", "nope")
		})
	}
}
