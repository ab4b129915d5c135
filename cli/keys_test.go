package cli_test

import (
	"strconv"
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

// nameportctl keys, against a real server: make a scoped key, use it
// within and outside its scopes, rotate it, revoke it.
func TestCLIKeys(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "keymaker"), home: t.TempDir()}

			table := c.ok("keys", "list")
			require.Len(t, lines(table, "ID", "NAME", "SCOPES", "ALLOWED FROM", "EXPIRES", "LAST USED"), 1, table)
			require.Len(t, lines(table, "Default (dashboard)", "read,dns,register,wallet", "anywhere", "never"), 1, table)

			// A key that may read and change DNS, from this machine, for a
			// day; its secret shown once.
			table = c.ok("keys", "create", "ci deploys", "--scope", "read,dns", "--allow", "127.0.0.1", "--allow", "::1", "--expires", "1d")
			require.Len(t, lines(table, "ci deploys", "read,dns", "127.0.0.1,::1"), 1, table)
			require.Contains(t, table, "This is the only time it is shown: store it now.")
			secret := strings.TrimSpace(strings.SplitN(strings.SplitN(table, "Secret: ", 2)[1], "\n", 2)[0])
			require.True(t, strings.HasPrefix(secret, "np_"), table)

			var keys []sdk.APIKey
			c.json(&keys, "keys", "list")
			require.Len(t, keys, 2)
			made := keys[1]
			require.Equal(t, "ci deploys", made.Name)
			require.Equal(t, []string{"read", "dns"}, made.Scopes)
			require.NotNil(t, made.ExpiresAt)
			require.WithinDuration(t, time.Now().Add(24*time.Hour), *made.ExpiresAt, 5*time.Minute)
			require.NotContains(t, c.ok("keys", "list"), secret, "secrets are never listed")
			id := strconv.FormatInt(made.ID, 10)

			// The scoped key at work: reads yes, deposits no, keys no.
			scoped := &ctl{t: t, url: srv.URL, key: secret, home: t.TempDir()}
			scoped.ok("wallet", "balance")
			scoped.fails(cli.ExitAPIError, "This API key lacks the wallet scope", "wallet", "deposit", "10")
			scoped.fails(cli.ExitAPIError, "This API key lacks the register and wallet scopes", "keys", "list")

			// Rotated: the old secret stops at once.
			var rotated sdk.NewAPIKey
			c.json(&rotated, "keys", "rotate", id)
			require.Equal(t, made.ID, rotated.Key.ID)
			require.NotEqual(t, secret, rotated.Secret)
			scoped.fails(cli.ExitAPIError, "Invalid API key", "wallet", "balance")
			scoped.key = rotated.Secret
			scoped.ok("wallet", "balance")

			// Revoked: gone.
			require.Equal(t, "Revoked key "+id+".\n", c.ok("keys", "revoke", id))
			scoped.fails(cli.ExitAPIError, "This API key was revoked", "wallet", "balance")
			c.fails(cli.ExitAPIError, "API key not found", "keys", "revoke", id)
			c.fails(cli.ExitAPIError, "rotate it instead of revoking it", "keys", "revoke", strconv.FormatInt(keys[0].ID, 10))
			c.json(&keys, "keys", "list")
			require.Len(t, keys, 1)

			// The server judges what the CLI passes on.
			c.fails(cli.ExitAPIError, `"10.0.0.0/33" is not an IP address or prefix`, "keys", "create", "x", "--scope", "read", "--allow", "10.0.0.0/33")
			c.fails(cli.ExitAPIError, "Expiry must be in the future", "keys", "create", "x", "--scope", "read", "--expires", "2020-01-01")
		})
	}
}

func TestCLIKeysUsageErrors(t *testing.T) {
	t.Parallel()
	// No server: every one of these fails before a request.
	c := &ctl{t: t, url: "http://127.0.0.1:1", key: "np_unused", home: t.TempDir()}
	for _, tc := range []struct {
		msg  string
		args []string
	}{
		{"missing NAME", []string{"keys", "create", "--scope", "read"}},
		{"choose what the key may do with --scope", []string{"keys", "create", "ci"}},
		{`--expires must be a date (2026-12-31), a time (2026-12-31T18:00:00Z) or a while (90d, 12h), not "soon"`,
			[]string{"keys", "create", "ci", "--scope", "read", "--expires", "soon"}},
		{`--expires must be`, []string{"keys", "create", "ci", "--scope", "read", "--expires", "-3d"}},
		{"missing ID", []string{"keys", "rotate"}},
		{`ID must be a key's number, as keys list shows it, not "ci"`, []string{"keys", "revoke", "ci"}},
		{`ID must be a key's number`, []string{"keys", "revoke", "0"}},
		{`unexpected argument "x"`, []string{"keys", "list", "x"}},
		{`unknown command "frob"`, []string{"keys", "frob"}},
	} {
		c.fails(cli.ExitUsage, tc.msg, tc.args...)
	}
	for _, args := range [][]string{{"keys"}, {"keys", "list"}, {"keys", "create"}, {"keys", "rotate"}, {"keys", "revoke"}} {
		out := c.ok(append(args, "--help")...)
		require.Contains(t, out, "Examples:\n", args)
	}
}
