package cli_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// nameportctl webhooks, against a real server and a receiver the test
// starts: add an endpoint (its secret printed once), send a test event,
// which arrives signed with that secret, read the log, delete it.
func TestCLIWebhooks(t *testing.T) {
	t.Parallel()
	type delivery struct{ body, signature string }
	got := make(chan delivery, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- delivery{string(body), r.Header.Get(sdk.WebhookSignatureHeader)}
	}))
	t.Cleanup(rcv.Close)
	srv := servertest.Start(t, db.SQLite, func(c *config.Config) { c.Demo, c.WebhooksAllowPrivateTargets = true, true })
	c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "hookctl"), home: t.TempDir()}

	c.fails(cli.ExitUsage, "--event", "webhooks", "create", rcv.URL)
	c.fails(cli.ExitAPIError, "Unknown event", "webhooks", "create", rcv.URL, "--event", "domain.bought")
	var made sdk.NewWebhookEndpoint
	c.json(&made, "webhooks", "create", rcv.URL, "--event", "dns.changed,domain.registered")
	require.True(t, strings.HasPrefix(made.Secret, "whsec_"))
	id := strconv.FormatInt(made.Endpoint.ID, 10)

	table := c.ok("webhooks", "list")
	require.Len(t, lines(table, id, rcv.URL, "domain.registered,dns.changed", "none"), 1, table)
	require.NotContains(t, table, made.Secret)

	c.ok("webhooks", "test", id)
	select {
	case d := <-got:
		require.Contains(t, d.body, `"type":"webhook.test"`)
		require.NoError(t, sdk.VerifyWebhookSignature([]byte(d.body), d.signature, made.Secret, time.Minute))
	case <-time.After(time.Minute):
		t.Fatal("the test event did not arrive")
	}
	require.Eventually(t, func() bool {
		var ds []sdk.WebhookDelivery
		c.json(&ds, "webhooks", "deliveries", id)
		return len(ds) == 1 && ds[0].State == "succeeded"
	}, time.Minute, 50*time.Millisecond)
	table = c.ok("webhooks", "deliveries", id)
	require.Len(t, lines(table, "webhook.test", "succeeded", "1", "200"), 1, table)

	// Its events change, and it turns off and on again.
	c.fails(cli.ExitUsage, "give --event, --enable or --disable", "webhooks", "update", id)
	c.fails(cli.ExitUsage, "not both", "webhooks", "update", id, "--enable", "--disable")
	c.fails(cli.ExitAPIError, "Unknown event", "webhooks", "update", id, "--event", "domain.bought")
	table = c.ok("webhooks", "update", id, "--event", "domain.renewed", "--disable")
	require.Len(t, lines(table, id, "domain.renewed", "disabled"), 1, table)
	var updated []sdk.WebhookEndpoint
	c.json(&updated, "webhooks", "update", id, "--enable")
	require.True(t, updated[0].Enabled)
	require.Equal(t, []string{"domain.renewed"}, updated[0].Events)

	require.Equal(t, "Deleted endpoint "+id+".\n", c.ok("webhooks", "delete", id))
	c.fails(cli.ExitAPIError, "Webhook endpoint not found", "webhooks", "delete", id)
	c.fails(cli.ExitUsage, "ID must be", "webhooks", "test", "x")
}
