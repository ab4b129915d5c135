package cli_test

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// nameportctl logs, against a real server: the requests a key made, as a
// table, as JSON, filtered, and as the server's CSV.
func TestCLILogs(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, db.SQLite, func(c *config.Config) { c.Demo = true })
	c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "logreader"), home: t.TempDir()}
	c.ok("wallet", "balance")
	c.fails(cli.ExitAPIError, "", "domain", "get", "missing.inf.nz")

	// Requests reach the log a moment after they are answered.
	var logs []sdk.RequestLog
	require.Eventually(t, func() bool {
		c.json(&logs, "logs", "--path", "/v1/wallet")
		return len(logs) == 1
	}, 30*time.Second, 20*time.Millisecond)
	require.Equal(t, "GET", logs[0].Method)
	require.Equal(t, 200, logs[0].Status)
	require.Equal(t, "Default", logs[0].KeyName)

	table := c.ok("logs", "--status", "4xx")
	require.Len(t, lines(table, "TIME", "KEY", "METHOD", "PATH", "STATUS", "LATENCY", "IDEMPOTENCY KEY", "REQUEST ID"), 1, table)
	require.Len(t, lines(table, "Default", "GET", "/v1/domains/missing.inf.nz", "404", "ms"), 1, table)
	require.NotContains(t, table, "/v1/wallet")

	rows, err := csv.NewReader(strings.NewReader(c.ok("logs", "--csv", "--path", "/v1/wallet", "--since", "1h"))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 2)
	require.Equal(t, "/v1/wallet", rows[1][4])
	require.Empty(t, strings.TrimSpace(c.ok("logs", "--csv", "--until", "2020-01-01"))[len("time,key_id,key,method,path,status,latency_ms,idempotency_key,request_id"):])

	c.fails(cli.ExitUsage, "--since must be a while ago", "logs", "--since", "yesterday")
	c.fails(cli.ExitAPIError, "status must be a class", "logs", "--status", "9")
}
