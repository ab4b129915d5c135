package config_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
)

func flags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	config.Register(fs)
	require.NoError(t, fs.Parse(args))
	return fs
}

func TestDefaults(t *testing.T) {
	cfg, err := config.Load(flags(t), filepath.Join(t.TempDir(), "none.yaml"))
	require.Error(t, err, "an explicit config file must exist")

	t.Chdir(t.TempDir())
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", cfg.HTTPAddr)
	require.Equal(t, "127.0.0.1:5353", cfg.DNSAddr)
	require.Equal(t, "sqlite://./data/nameport.db", cfg.DatabaseURL)
	require.Equal(t, "./data", cfg.DataDir)
	require.Equal(t, []string{"api", "dns", "worker", "mail", "forward"}, cfg.Roles)
	require.False(t, cfg.Demo)
	require.True(t, cfg.Migrate)
	require.Equal(t, 7*24*time.Hour, cfg.SessionTTL)
}

func TestFlagsBeatEnvBeatFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nameport.yaml"),
		[]byte("http-addr: 127.0.0.1:7000\ndns-addr: 127.0.0.1:7053\nroles: api\ndemo: true\n"), 0o600))
	t.Setenv("NAMEPORT_DNS_ADDR", "127.0.0.1:8053")
	t.Setenv("NAMEPORT_DATABASE_URL", "postgres://db/nameport")

	cfg, err := config.Load(flags(t, "--roles", "api,worker"), "")
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:7000", cfg.HTTPAddr, "file beats default")
	require.Equal(t, "127.0.0.1:8053", cfg.DNSAddr, "env beats file")
	require.Equal(t, "postgres://db/nameport", cfg.DatabaseURL)
	require.Equal(t, []string{"api", "worker"}, cfg.Roles, "flag beats file")
	require.True(t, cfg.Demo)
}

func TestInvalidSettings(t *testing.T) {
	t.Chdir(t.TempDir())
	_, err := config.Load(flags(t, "--roles", "api,smtp"), "")
	require.ErrorContains(t, err, `unknown role "smtp"`)
	cfg, err := config.Load(flags(t, "--roles", "api,mail"), "")
	require.NoError(t, err)
	require.True(t, cfg.HasRole(config.RoleMail))
	_, err = config.Load(flags(t, "--mail-tls-cert", "cert.pem"), "")
	require.ErrorContains(t, err, "--mail-tls-cert and --mail-tls-key go together")
	_, err = config.Load(flags(t, "--mail-max-size", "10"), "")
	require.ErrorContains(t, err, "--mail-max-size")
	_, err = config.Load(flags(t, "--mail-max-rules", "0"), "")
	require.ErrorContains(t, err, "--mail-max-rules")
	_, err = config.Load(flags(t, "--log-format", "xml"), "")
	require.ErrorContains(t, err, "log-format")
	_, err = config.Load(flags(t, "--trusted-proxies", "10.0.0.0/8,proxy.example"), "")
	require.ErrorContains(t, err, `--trusted-proxies "proxy.example"`)
}

func TestTrustedProxies(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Empty(t, cfg.TrustedProxies, "no proxy is trusted by default")
	cfg, err = config.Load(flags(t, "--trusted-proxies", " 127.0.0.1, 10.1.2.3/8 ,2001:db8::/32"), "")
	require.NoError(t, err)
	require.Equal(t, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("2001:db8::/32")}, cfg.TrustedProxies)
}

func TestAbuseLimits(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Zero(t, cfg.PasswordHashConcurrency, "0: the number of CPUs")
	require.Equal(t, 10, cfg.SignUpLimit)
	t.Setenv("NAMEPORT_SIGNUP_LIMIT", "25")
	cfg, err = config.Load(flags(t, "--password-hash-concurrency", "4"), "")
	require.NoError(t, err)
	require.Equal(t, 4, cfg.PasswordHashConcurrency)
	require.Equal(t, 25, cfg.SignUpLimit)
	for _, bad := range [][]string{{"--signup-limit", "0"}, {"--password-hash-concurrency", "-1"}} {
		_, err = config.Load(flags(t, bad...), "")
		require.ErrorContains(t, err, "--signup-limit at least 1", bad)
	}
	t.Setenv("NAMEPORT_SIGNUP_LIMIT", "ten")
	_, err = config.Load(flags(t), "")
	require.Error(t, err, "a typo is refused, not read as 0")
}

func TestConnectionSettings(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 4096, cfg.HTTPMaxConns)
	require.Equal(t, 128, cfg.HTTPMaxConnsPerClient)
	require.Equal(t, 30*time.Second, cfg.HTTPIdleTimeout)
	require.Equal(t, 1024, cfg.DNSTCPMaxConns)
	require.Equal(t, 16, cfg.DNSTCPMaxConnsPerClient)
	require.Equal(t, 5*time.Second, cfg.DNSTCPIdleTimeout)
	require.Equal(t, config.DefaultMetricsAllow, cfg.MetricsAllow)
	require.Equal(t, 200, cfg.DNSRRLPositiveRate)
	require.Equal(t, config.DefaultMetricsAllow, cfg.HTTPMaxConnsExempt, "loopback: a proxy on this host")
	require.Equal(t, 20, cfg.DNSRRLRate)

	cfg, err = config.Load(flags(t, "--http-max-conns-per-client", "0", "--metrics-allow", "10.0.0.0/8,192.0.2.7"), "")
	require.NoError(t, err)
	require.Zero(t, cfg.HTTPMaxConnsPerClient, "0: no limit")
	require.Len(t, cfg.MetricsAllow, 2)

	// Through the environment, where no flag parser stands guard.
	for env, bad := range map[string]string{"HTTP_MAX_CONNS": "lots", "DNS_TCP_MAX_CONNS_PER_CLIENT": "-1",
		"HTTP_IDLE_TIMEOUT": "0s", "METRICS_ALLOW": "everyone", "DNS_RRL_POSITIVE_RATE": "many", "HTTP_MAX_CONNS_EXEMPT": "proxy"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("NAMEPORT_"+env, bad)
			_, err := config.Load(flags(t), "")
			require.ErrorContains(t, err, strings.ToLower(strings.ReplaceAll(env, "_", "-")))
		})
	}
}

// TestDemoPayments: only --demo or --demo-payments make deposits free; a
// server without either takes real payments.
func TestDemoPayments(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tt := range []struct {
		args []string
		env  string
		want bool
	}{
		{nil, "", false},
		{[]string{"--demo"}, "", true},
		{[]string{"--demo-payments"}, "", true},
		{[]string{"--demo", "--demo-payments=false"}, "", false},
		{[]string{"--demo"}, "false", false},
		{nil, "true", true},
	} {
		if tt.env != "" {
			t.Setenv("NAMEPORT_DEMO_PAYMENTS", tt.env)
		} else {
			os.Unsetenv("NAMEPORT_DEMO_PAYMENTS")
		}
		cfg, err := config.Load(flags(t, tt.args...), "")
		require.NoError(t, err)
		require.Equal(t, tt.want, cfg.DemoPayments, "%v env %q", tt.args, tt.env)
	}
}

// TestTSIGKeys: --dns-tsig-key entries and the key:NAME entries of
// --dns-transfer-allow and --dns-notify that name them; a bad entry is
// refused at start, naming the key and never printing the secret.
func TestTSIGKeys(t *testing.T) {
	t.Chdir(t.TempDir())
	secret := "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes
	cfg, err := config.Load(flags(t, "--dns-tsig-key", "Xfr.Example:hmac-sha256:"+secret+", other.:HMAC-SHA512.:"+secret,
		"--dns-transfer-allow", "10.0.0.0/8, key:xfr.example", "--dns-notify", "192.0.2.1:53,key:other@[2001:db8::1]:5353"), "")
	require.NoError(t, err)
	require.Len(t, cfg.DNSTSIGKeys, 2)
	require.Equal(t, "xfr.example.", cfg.DNSTSIGKeys[0].Name)
	require.Equal(t, "hmac-sha256.", cfg.DNSTSIGKeys[0].Algorithm)
	require.Equal(t, []byte("0123456789abcdef0123456789abcdef"), cfg.DNSTSIGKeys[0].Secret)
	require.Equal(t, "hmac-sha512.", cfg.DNSTSIGKeys[1].Algorithm)
	require.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, cfg.DNSTransferAllow)
	require.Equal(t, []string{"xfr.example."}, cfg.DNSTransferKeys)
	require.Equal(t, []config.NotifyTarget{{Addr: "192.0.2.1:53"}, {Addr: "[2001:db8::1]:5353", Key: "other."}}, cfg.DNSNotify)

	t.Setenv("NAMEPORT_DNS_TSIG_KEY", "env.example:hmac-sha384:"+secret)
	cfg, err = config.Load(flags(t, "--dns-transfer-allow", "key:env.example"), "")
	require.NoError(t, err, "from the environment")
	require.Equal(t, []string{"env.example."}, cfg.DNSTransferKeys)
	os.Unsetenv("NAMEPORT_DNS_TSIG_KEY")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--dns-tsig-key", "xfr.example:hmac-sha256"}, "--dns-tsig-key entry 1: want name:algorithm:secret"},
		{[]string{"--dns-tsig-key", ":hmac-sha256:" + secret}, "want name:algorithm:secret"},
		{[]string{"--dns-tsig-key", "bad..name:hmac-sha256:" + secret}, `key name "bad..name" is not a domain name`},
		{[]string{"--dns-tsig-key", "xfr.example:hmac-sha1:" + secret}, `algorithm "hmac-sha1": want hmac-sha256`},
		{[]string{"--dns-tsig-key", "xfr.example:hmac-md5:" + secret}, "refused as weak"},
		{[]string{"--dns-tsig-key", "xfr.example:hmac-sha256:not*base64" + secret}, `"xfr.example.": the secret is not base64`},
		{[]string{"--dns-tsig-key", "xfr.example:hmac-sha256:c2hvcnQ="}, "the secret is 5 bytes; want at least 16"},
		{[]string{"--dns-tsig-key", "a.:hmac-sha256:" + secret + ",A:hmac-sha512:" + secret}, `"a." is given twice`},
		{[]string{"--dns-transfer-allow", "key:nokey.example"}, "--dns-transfer-allow key:nokey.example: no such key in --dns-tsig-key"},
		{[]string{"--dns-tsig-key", "a:hmac-sha256:" + secret, "--dns-transfer-allow", "key:b"}, "key:b: no such key"},
		{[]string{"--dns-transfer-allow", "secondary.example"}, `--dns-transfer-allow "secondary.example": want an address, a prefix or key:NAME`},
		{[]string{"--dns-tsig-key", "a:hmac-sha256:" + secret, "--dns-notify", "key:b@192.0.2.1:53"}, "--dns-notify key:b: no such key"},
		{[]string{"--dns-tsig-key", "a:hmac-sha256:" + secret, "--dns-notify", "key:a"}, `--dns-notify "key:a": want key:NAME@host:port`},
		{[]string{"--dns-tsig-key", "a:hmac-sha256:" + secret, "--dns-notify", "key:a@192.0.2.1"}, "want host:port or key:NAME@host:port"},
	} {
		_, err := config.Load(flags(t, tt.args...), "")
		require.ErrorContains(t, err, tt.want, tt.args)
		require.NotContains(t, err.Error(), secret, "the secret is never printed")
		require.NotContains(t, err.Error(), "c2hvcnQ=")
	}
}

func TestDNSCatalogZone(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, "catalog.nameport.invalid.", cfg.DNSCatalogZone)

	cfg, err = config.Load(flags(t, "--dns-catalog-zone", "Catalog.Example.NET"), "")
	require.NoError(t, err)
	require.Equal(t, "catalog.example.net.", cfg.DNSCatalogZone, "lower case, fully qualified")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nameport.yaml"), []byte("dns-catalog-zone: cat.from-file.example\n"), 0o600))
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, "cat.from-file.example.", cfg.DNSCatalogZone)
	t.Setenv("NAMEPORT_DNS_CATALOG_ZONE", "cat.from-env.example.")
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, "cat.from-env.example.", cfg.DNSCatalogZone, "the environment beats the file")

	for _, bad := range []string{"", ".", "bad..name", "two words.example"} {
		_, err := config.Load(flags(t, "--dns-catalog-zone", bad), "")
		require.ErrorContains(t, err, "--dns-catalog-zone", bad)
	}
}

func TestDNSPollIntervalAndHistory(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 250*time.Millisecond, cfg.DNSPollInterval)
	require.Equal(t, 1000, cfg.DNSHistory)

	cfg, err = config.Load(flags(t, "--dns-poll-interval", "50ms", "--dns-ixfr-history", "0"), "")
	require.NoError(t, err)
	require.Equal(t, 50*time.Millisecond, cfg.DNSPollInterval)
	require.Equal(t, 0, cfg.DNSHistory, "0: IXFR always answered with the whole zone")
	t.Setenv("NAMEPORT_DNS_IXFR_HISTORY", "20")
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 20, cfg.DNSHistory)

	for _, bad := range [][]string{{"--dns-poll-interval", "0s"}, {"--dns-poll-interval", "2m"}, {"--dns-ixfr-history", "-1"}} {
		_, err := config.Load(flags(t, bad...), "")
		require.ErrorContains(t, err, bad[0])
	}
}

func TestForwardAddressesDefaultToWhereTheHTTPServerListens(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		ipv4     []string
		ipv6     []string
		errorHas string
	}{
		{args: nil, ipv4: []string{"127.0.0.1"}},
		{args: []string{"--forward-http-addr", "[::1]:8081"}, ipv6: []string{"::1"}},
		{args: []string{"--forward-http-addr", ":80"}},
		{args: []string{"--forward-http-addr", ":80", "--forward-ipv4", "192.0.2.10, 192.0.2.11", "--forward-ipv6", "2001:db8::10"},
			ipv4: []string{"192.0.2.10", "192.0.2.11"}, ipv6: []string{"2001:db8::10"}},
		{args: []string{"--forward-ipv4", "2001:db8::10"}, errorHas: "--forward-ipv4"},
		{args: []string{"--forward-ipv6", "not-an-address"}, errorHas: "--forward-ipv6"},
	} {
		t.Chdir(t.TempDir())
		cfg, err := config.Load(flags(t, tc.args...), "")
		if tc.errorHas != "" {
			require.ErrorContains(t, err, tc.errorHas)
			continue
		}
		require.NoError(t, err, tc.args)
		require.Equal(t, tc.ipv4, cfg.ForwardIPv4, tc.args)
		require.Equal(t, tc.ipv6, cfg.ForwardIPv6, tc.args)
	}
}
