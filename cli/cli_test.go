package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
	"github.com/nameport/nameport/sdk"
)

// binary is nameportctl, built once for every test of the package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nameportctl-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "nameportctl")
	build := exec.Command("go", "build", "-o", binary, "github.com/nameport/nameport/cmd/nameportctl")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build nameportctl:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// ctl runs the built binary against one server with one API key.
type ctl struct {
	t    *testing.T
	url  string
	key  string
	home string
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs nameportctl with args, its configuration in NAMEPORT_URL and
// NAMEPORT_API_KEY and an empty home (no config file).
func (c *ctl) run(args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = []string{"HOME=" + c.home, "XDG_CONFIG_HOME=" + c.home}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NAMEPORT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if c.url != "" {
		cmd.Env = append(cmd.Env, "NAMEPORT_URL="+c.url)
	}
	if c.key != "" {
		cmd.Env = append(cmd.Env, "NAMEPORT_API_KEY="+c.key)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		exitErr, ok := err.(*exec.ExitError)
		require.True(c.t, ok, "run %v: %v", args, err)
		code = exitErr.ExitCode()
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// ok runs nameportctl and requires success.
func (c *ctl) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	require.Equal(c.t, cli.ExitOK, r.code, "%v: %s", args, r.stderr)
	require.Empty(c.t, r.stderr, args)
	return r.stdout
}

// json runs nameportctl with --output json and decodes its output into out.
func (c *ctl) json(out any, args ...string) {
	c.t.Helper()
	stdout := c.ok(append(args, "--output", "json")...)
	require.NoError(c.t, json.Unmarshal([]byte(stdout), out), stdout)
}

// fails runs nameportctl and requires exit code with one line on stderr
// that contains msg.
func (c *ctl) fails(code int, msg string, args ...string) {
	c.t.Helper()
	r := c.run(args...)
	require.Equal(c.t, code, r.code, "%v: %s%s", args, r.stdout, r.stderr)
	require.True(c.t, strings.HasPrefix(r.stderr, "nameportctl: "), r.stderr)
	require.Equal(c.t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
	require.Contains(c.t, r.stderr, msg)
}

// registrarKey signs up a registrar through the web app and returns its API
// key.
func registrarKey(t *testing.T, url, username string) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"username": username, "email": username + "@example.com",
		"password": "secret123", "confirmPassword": "secret123", "fullName": "Test " + username, "userType": "registrar"})
	require.NoError(t, err)
	resp, err := http.Post(url+"/api/auth/register", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Data struct {
			APIKey string `json:"apiKey"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	require.NotEmpty(t, out.Data.APIKey)
	servertest.VerifyEmail(t, url, username+"@example.com") // so the key may register and deposit
	return out.Data.APIKey
}

func dollars(v float64) string {
	c := int64(math.Round(v * 100))
	return fmt.Sprintf("$%d.%02d", c/100, c%100)
}

// lines returns the table rows that contain every one of words.
func lines(table string, words ...string) []string {
	var out []string
	for _, line := range strings.Split(table, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if all && line != "" {
			out = append(out, line)
		}
	}
	return out
}

func TestCLIAgainstTheServer(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, func(c *config.Config) { c.Demo = true })
			c := &ctl{t: t, url: srv.URL, key: registrarKey(t, srv.URL, "acme"), home: t.TempDir()}
			const dom = "cli-site.inf.nz"

			var avail sdk.Availability
			c.json(&avail, "domain", "check", dom)
			require.True(t, avail.Available)
			require.Equal(t, dom, avail.Domain)
			price := avail.Price
			table := c.ok("domain", "check", dom)
			require.Len(t, lines(table, "DOMAIN", "AVAILABLE", "PRICE/YEAR"), 1, table)
			require.Len(t, lines(table, dom, "yes", dollars(price)), 1, table)

			// The server judges --years: 0 is not the default.
			c.fails(cli.ExitAPIError, "Years must be between 1 and 10", "domain", "register", dom, "--years", "0")

			// No funds yet: exit 1, and the message says how much to add.
			c.fails(cli.ExitAPIError, "Add "+dollars(2*price)+" to continue", "domain", "register", dom, "--years", "2")

			var dep sdk.Deposit
			c.json(&dep, "wallet", "deposit", "30", "--method", "credit_card")
			require.Equal(t, 30.0, dep.Wallet.Balance)
			require.Equal(t, "credit_card", dep.Transaction.PaymentMethod)
			table = c.ok("wallet", "deposit", "$20")
			require.Len(t, lines(table, "completed", "$20.00", "credit_card", "$50.00"), 1, table)

			var reg sdk.Registration
			c.json(&reg, "domain", "register", dom, "--years", "2")
			require.Equal(t, dom, reg.Domain.Domain)
			require.True(t, reg.Domain.AutoRenew)
			balance := 50 - 2*price
			require.Equal(t, dollars(balance), dollars(reg.Wallet.Balance))

			table = c.ok("domain", "register", "cli-other.inf.nz", "--no-auto-renew", "--nameserver", "ns1.example.net",
				"--nameserver", "ns2.example.net", "--idempotency-key", "order-1")
			balance -= price
			require.Len(t, lines(table, "DOMAIN", "AUTO-RENEW", "CHARGED", "BALANCE"), 1, table)
			require.Len(t, lines(table, "cli-other.inf.nz", "no", "ns1.example.net,ns2.example.net", dollars(price), dollars(balance)), 1, table)
			again := c.ok("domain", "register", "cli-other.inf.nz", "--no-auto-renew", "--nameserver", "ns1.example.net",
				"--nameserver", "ns2.example.net", "--idempotency-key", "order-1")
			require.Equal(t, table, again, "the same key: the first answer, charged once")
			c.fails(cli.ExitAPIError, "", "domain", "register", dom)

			// DNS. upsert prints the set it wrote, not the domain's other
			// records (the MX set here).
			c.ok("dns", "upsert", dom, "--type", "MX", "--name", "@", "--content", "mail.example.net", "--priority", "10")
			table = c.ok("dns", "upsert", dom, "--type", "a", "--name", "www", "--content", "192.0.2.10", "--content", "192.0.2.11", "--ttl", "300")
			require.Len(t, lines(table, "NAME", "TYPE", "TTL", "CONTENT"), 1, table)
			require.Len(t, lines(table, "www", "A", "300", "192.0.2.1"), 2, table)
			require.NotContains(t, table, "mail.example.net", table)
			var set []sdk.Record
			c.json(&set, "dns", "upsert", dom, "--type", "A", "--name", "www", "--content", "192.0.2.10", "--content", "192.0.2.11", "--ttl", "300")
			require.Len(t, set, 2, "%+v", set)
			c.ok("dns", "upsert", dom, "--type", "TXT", "--name", "@", "--content", "v=spf1 mx, -all")
			var records []sdk.Record
			c.json(&records, "dns", "list", dom)
			var contents []string
			for _, r := range records {
				switch {
				case r.Name == "www" && r.Type == "A":
					contents = append(contents, r.Content)
					require.Equal(t, 300, r.TTL)
				case r.Type == "MX":
					require.Equal(t, 10, *r.Priority)
				case r.Type == "TXT" && r.Name == "@":
					require.Equal(t, "v=spf1 mx, -all", r.Content, "a comma stays inside one --content")
				}
			}
			require.ElementsMatch(t, []string{"192.0.2.10", "192.0.2.11"}, contents)
			table = c.ok("dns", "list", dom)
			require.Len(t, lines(table, "@", "MX", "10", "mail.example.net"), 1, table)
			c.fails(cli.ExitAPIError, "", "dns", "upsert", dom, "--type", "A", "--name", "www", "--content", "not-an-ip")
			require.Contains(t, c.ok("dns", "delete", dom, "--type", "A", "--name", "www"), "Deleted")
			c.json(&records, "dns", "list", dom)
			for _, r := range records {
				require.False(t, r.Name == "www" && r.Type == "A", "deleted: %+v", r)
			}

			// MX and SRV contents each with their own priority: one record
			// per priority, even for the same host.
			table = c.ok("dns", "upsert", dom, "--type", "MX", "--name", "@", "--content", "10 mx1.example.net",
				"--content", "20 mx2.example.net", "--content", "30 mx1.example.net")
			require.Len(t, lines(table, "@", "MX", "10", "mx1.example.net"), 1, table)
			require.Len(t, lines(table, "@", "MX", "20", "mx2.example.net"), 1, table)
			require.Len(t, lines(table, "@", "MX", "30", "mx1.example.net"), 1, table)
			require.NotContains(t, table, "mail.example.net", "the set replaced")
			c.json(&set, "dns", "upsert", dom, "--type", "SRV", "--name", "_sip._tcp", "--content", "10 5 5060 sip1.example.net",
				"--content", "20 5 5061 sip2.example.net")
			require.Len(t, set, 2, "%+v", set)
			require.Equal(t, []int{10, 20}, []int{*set[0].Priority, *set[1].Priority})
			require.Equal(t, []string{"5 5060 sip1.example.net", "5 5061 sip2.example.net"}, []string{set[0].Content, set[1].Content})
			c.fails(cli.ExitAPIError, `The value "10 mx1.example.net" has priority 10, but the set's priority is 20`,
				"dns", "upsert", dom, "--type", "MX", "--name", "@", "--content", "10 mx1.example.net", "--priority", "20")
			c.fails(cli.ExitAPIError, "", "dns", "delete", dom, "--type", "A", "--name", "www")
			c.fails(cli.ExitAPIError, "", "dns", "list", "someone-elses.inf.nz")

			// Wallet and lists.
			var w sdk.Wallet
			c.json(&w, "wallet", "balance")
			require.Equal(t, dollars(balance), dollars(w.Balance))
			table = c.ok("wallet", "balance")
			require.Len(t, lines(table, "BALANCE", "CURRENCY"), 1, table)
			require.Len(t, lines(table, dollars(balance), "USD"), 1, table)

			var domains []sdk.Domain
			c.json(&domains, "domain", "list")
			require.Len(t, domains, 2)
			require.Equal(t, dom, domains[0].Domain)
			require.Equal(t, "cli-other.inf.nz", domains[1].Domain)
			table = c.ok("domain", "list")
			require.Len(t, lines(table, "DOMAIN", "EXPIRES", "AUTO-RENEW"), 1, table)
			require.Len(t, lines(table, dom, "yes", dollars(price), "Nameport DNS"), 1, table)
			require.Len(t, lines(table, "cli-other.inf.nz", "no"), 1, table)

			var one sdk.Domain
			c.json(&one, "domain", "get", dom)
			require.Equal(t, domains[0].ID, one.ID)
			c.fails(cli.ExitAPIError, "", "domain", "get", "nobody.inf.nz")

			var txs []sdk.Transaction
			c.json(&txs, "wallet", "transactions")
			require.Len(t, txs, 4, "two deposits, two purchases")
			require.Equal(t, "domain_purchase", txs[0].Type)
			c.json(&txs, "wallet", "transactions", "--limit", "1")
			require.Len(t, txs, 1)
			table = c.ok("wallet", "transactions")
			require.Len(t, lines(table, "domain purchase", "-"+dollars(price), "cli-other.inf.nz"), 1, table)
			require.Len(t, lines(table, "domain purchase", "-"+dollars(2*price), "cli-site.inf.nz"), 1, table)

			// The key as a flag; a wrong key; no key.
			flagged := &ctl{t: t, url: srv.URL, home: c.home}
			flagged.json(&w, "wallet", "balance", "--api-key", c.key)
			require.Equal(t, dollars(balance), dollars(w.Balance))
			flagged.fails(cli.ExitAPIError, "", "wallet", "balance", "--api-key", "np_wrong")
			flagged.fails(cli.ExitUsage, "NAMEPORT_API_KEY", "wallet", "balance")
		})
	}
}

func TestCLIConfigFile(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, db.SQLite, nil)
	home := t.TempDir()
	dir := filepath.Join(home, "nameport")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	cfg := fmt.Sprintf("url: %s\napi-key: %s\noutput: json\n", srv.URL, registrarKey(t, srv.URL, "configured"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600))
	c := &ctl{t: t, home: home}
	var w sdk.Wallet
	require.NoError(t, json.Unmarshal([]byte(c.ok("wallet", "balance")), &w))
	require.Equal(t, "USD", w.Currency)
}

func TestCLIUsageErrors(t *testing.T) {
	t.Parallel()
	// No server: every one of these fails before a request.
	c := &ctl{t: t, url: "http://127.0.0.1:1", key: "np_unused", home: t.TempDir()}
	for _, tc := range []struct {
		msg  string
		args []string
	}{
		{"missing NAME.EXT", []string{"domain", "check"}},
		{`unexpected argument "b.inf.nz"`, []string{"domain", "check", "a.inf.nz", "b.inf.nz"}},
		{`invalid argument "two"`, []string{"domain", "register", "a.inf.nz", "--years", "two"}},
		{`required flag(s) "content", "name" not set`, []string{"dns", "upsert", "a.inf.nz", "--type", "A"}},
		{`required flag(s) "name" not set`, []string{"dns", "delete", "a.inf.nz", "--type", "A"}},
		{"missing DOMAIN", []string{"dns", "list"}},
		{"AMOUNT must be a number", []string{"wallet", "deposit", "lots"}},
		{"missing AMOUNT", []string{"wallet", "deposit"}},
		{`unexpected argument "x"`, []string{"wallet", "balance", "x"}},
		{"--output must be table or json", []string{"wallet", "balance", "--output", "yaml"}},
		{`unknown command "frob"`, []string{"domain", "frob"}},
		{`unknown command "frob"`, []string{"frob"}},
		{"unknown flag: --colour", []string{"domain", "list", "--colour"}},
	} {
		c.fails(cli.ExitUsage, tc.msg, tc.args...)
	}
	badURL := &ctl{t: t, url: "127.0.0.1:8080", key: "np_unused", home: t.TempDir()}
	badURL.fails(cli.ExitUsage, "--url must be an http:// or https:// address", "wallet", "balance")
	noKey := &ctl{t: t, url: "http://127.0.0.1:1", home: t.TempDir()}
	noKey.fails(cli.ExitUsage, "no API key: pass --api-key or set NAMEPORT_API_KEY", "domain", "list")

	// Nothing listens there: a network error, exit 1.
	c.fails(cli.ExitAPIError, "cannot reach the Nameport server at http://127.0.0.1:1", "wallet", "balance")
}

func TestCLIHelpAndCompletion(t *testing.T) {
	t.Parallel()
	c := &ctl{t: t, home: t.TempDir()}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		out := c.ok("completion", shell)
		require.Contains(t, out, "nameportctl", shell)
	}
	require.Contains(t, c.ok("completion", "bash"), "__start_nameportctl")
	require.Equal(t, "nameportctl dev\n", c.ok("version"))

	for _, args := range [][]string{
		{}, {"domain"}, {"domain", "check"}, {"domain", "register"}, {"domain", "list"}, {"domain", "get"},
		{"dns"}, {"dns", "list"}, {"dns", "upsert"}, {"dns", "delete"},
		{"wallet"}, {"wallet", "balance"}, {"wallet", "deposit"}, {"wallet", "transactions"},
		{"completion"}, {"version"},
	} {
		out := c.ok(append(args, "--help")...)
		require.Contains(t, out, "Examples:\n", args)
		require.Contains(t, out, "Usage:", args)
	}
}
