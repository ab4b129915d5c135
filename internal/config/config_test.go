package config_test

import (
	"os"
	"path/filepath"
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
	require.Equal(t, []string{"api", "dns", "worker"}, cfg.Roles)
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
	_, err := config.Load(flags(t, "--roles", "api,mail"), "")
	require.ErrorContains(t, err, `unknown role "mail"`)
	_, err = config.Load(flags(t, "--log-format", "xml"), "")
	require.ErrorContains(t, err, "log-format")
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
