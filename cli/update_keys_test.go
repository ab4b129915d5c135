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

// dns keys add|list|revoke against a real server: the secret is printed
// once, a bad scope is refused with the server's reason, and a revoked key
// is gone.
func TestCLIUpdateKeys(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "keysctl"), home: t.TempDir()}
			c.ok("wallet", "deposit", "100")
			c.ok("domain", "register", "keys-ctl.inf.nz")

			c.fails(cli.ExitAPIError, "Key types must be among", "dns", "keys", "add", "keys-ctl.inf.nz", "certbot", "--type", "SOA")
			c.fails(cli.ExitAPIError, "is not inside keys-ctl.inf.nz", "dns", "keys", "add", "keys-ctl.inf.nz", "certbot", "--name", "www.other.inf.nz.")

			var made sdk.NewUpdateKey
			c.json(&made, "dns", "keys", "add", "keys-ctl.inf.nz", "certbot", "--name", "_acme-challenge", "--type", "txt")
			require.Equal(t, "certbot.keys-ctl.inf.nz.", made.Key.KeyName)
			require.Equal(t, []string{"_acme-challenge"}, made.Key.Names)
			require.Equal(t, []string{"TXT"}, made.Key.Types)
			require.NotEmpty(t, made.Secret)
			table := c.ok("dns", "keys", "add", "keys-ctl.inf.nz", "all", "--algorithm", "hmac-sha512")
			require.Contains(t, table, "all.keys-ctl.inf.nz.")
			require.Contains(t, table, "Secret (shown this once): ")
			require.Contains(t, table, "nsupdate -y hmac-sha512:all.keys-ctl.inf.nz.:")

			var keys []sdk.UpdateKey
			c.json(&keys, "dns", "keys", "list", "keys-ctl.inf.nz")
			require.Len(t, keys, 2)
			require.NotContains(t, c.ok("dns", "keys", "list", "keys-ctl.inf.nz"), made.Secret, "the secret is not listed")

			require.Contains(t, c.ok("dns", "keys", "revoke", "keys-ctl.inf.nz", strconv.FormatInt(made.Key.ID, 10)), "Revoked update key")
			c.fails(cli.ExitAPIError, "Update key not found", "dns", "keys", "revoke", "keys-ctl.inf.nz", strconv.FormatInt(made.Key.ID, 10))
			c.json(&keys, "dns", "keys", "list", "keys-ctl.inf.nz")
			require.Len(t, keys, 1)
			require.Equal(t, "all", keys[0].Name)
		})
	}
}
