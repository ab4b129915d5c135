// Package config defines the server's configuration and loads it with viper:
// command-line flags win over NAMEPORT_* environment variables, which win over
// an optional nameport.yaml, which wins over the defaults below.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Roles a nameport process can run.
const (
	RoleAPI    = "api"
	RoleDNS    = "dns"
	RoleWorker = "worker"
)

// Config is everything `nameport serve` needs.
type Config struct {
	HTTPAddr    string
	DNSAddr     string
	DatabaseURL string
	DataDir     string
	Roles       []string
	Demo        bool
	// DemoPayments makes deposits complete at once without any payment, for
	// methods with no provider configured (--demo-payments; --demo sets
	// it). Without it a deposit needs Stripe or an admin-enabled bank
	// transfer. Kept apart from Demo so that tests can run demo payments
	// without the demo catalog and accounts.
	DemoPayments bool
	// Migrate applies pending migrations at start.
	Migrate bool
	// Secret is the server secret (hex, 32 bytes) that encrypts API keys at
	// rest. Empty means: read or create DataDir/secret.key.
	Secret     string
	SessionTTL time.Duration
	// DNSTransferAllow are the clients allowed to transfer zones (AXFR).
	DNSTransferAllow []netip.Prefix
	// DNSNotify are the secondaries told (NOTIFY) when zones change.
	DNSNotify []string
	// DNS response rate limiting over UDP: responses per second per client
	// network and kind (0: off), the slip (every Nth held-back response is
	// sent truncated), and clients never limited.
	DNSRRLRate   int
	DNSRRLSlip   int
	DNSRRLExempt []netip.Prefix

	LogFormat string
	LogLevel  string
	// Stripe: the card payment provider. Without a secret key, card
	// payments are simulated with DemoPayments and refused otherwise.
	StripeSecretKey      string
	StripePublishableKey string
	StripeWebhookSecret  string
	// StripeAPIURL overrides Stripe's API address (stripe-mock in tests).
	StripeAPIURL string
	// Mail: SMTPURL (smtp:// or smtps://; empty logs messages to the outbox
	// only), the sender, and the web app's address for links in messages.
	SMTPURL   string
	MailFrom  string
	PublicURL string
	// RenewInterval is how often the lifecycle scan runs; RenewAhead how
	// long before expiry auto-renewing domains are renewed.
	RenewInterval time.Duration
	RenewAhead    time.Duration
	// RateLimitWindow is the span the rate limits count over: a minute
	// (the spec's limits are per minute). Tests shorten it; no flag.
	RateLimitWindow time.Duration
	// NoRateLimits lifts the /api and /v1 limits (--api-rate-limits=false), so a
	// benchmark measures the handlers rather than 429s.
	NoRateLimits bool
}

// HasRole reports whether the process runs role.
func (c Config) HasRole(role string) bool { return slices.Contains(c.Roles, role) }

// Flag describes one setting: its flag name (the env var is NAMEPORT_ plus the
// name upper-cased with dashes as underscores), default and help text.
type Flag struct {
	Name    string
	Default any
	Usage   string
}

// Flags lists every setting of `nameport serve`; README's configuration table
// mirrors it.
var Flags = []Flag{
	{"http-addr", "127.0.0.1:8080", "address of the HTTP server (web app, /api, /v1)"},
	{"dns-addr", "127.0.0.1:5353", "address of the authoritative DNS server (UDP and TCP)"},
	{"database-url", "sqlite://./data/nameport.db", "sqlite://PATH or postgres://USER@HOST:PORT/DB"},
	{"data-dir", "./data", "directory for the SQLite file and the generated server secret"},
	{"roles", "api,dns,worker", "roles this process runs: api, dns, worker"},
	{"demo", false, "load demo data (demo accounts and catalog) at start; implies --demo-payments unless that is set"},
	{"demo-payments", false, "deposits complete at once without payment for methods without a provider (never in production); without it deposits need Stripe or an admin-enabled bank transfer"},
	{"migrate", true, "apply database migrations at start"},
	{"secret", "", "server secret, 64 hex characters; default: read or create DATA_DIR/secret.key"},
	{"session-ttl", 7 * 24 * time.Hour, "how long a login session lasts without use"},
	{"dns-transfer-allow", "", "addresses or prefixes allowed to transfer zones (AXFR), comma separated, e.g. 127.0.0.1,10.0.0.0/8"},
	{"dns-notify", "", "secondaries to NOTIFY on zone changes, comma separated host:port"},
	{"dns-rrl-rate", 20, "DNS response rate limit over UDP: responses per second per client network (IPv4 /24, IPv6 /56) of each limited kind (negative answers, errors, answers over 512 bytes); 0 turns it off"},
	{"dns-rrl-slip", 2, "over the DNS rate limit, every Nth response is sent empty and truncated (TC) so that real clients retry over TCP, the others are dropped; 0 drops all, 1 truncates all"},
	{"dns-rrl-exempt", "127.0.0.0/8,::1", "clients never DNS rate limited, comma separated addresses or prefixes (loopback cannot be spoofed from outside)"},
	{"stripe-secret-key", "", "Stripe secret key (sk_test_... or sk_live_...); empty: no card payments (simulated with --demo-payments)"},
	{"stripe-publishable-key", "", "Stripe publishable key (pk_...) for Stripe.js in the web app"},
	{"stripe-webhook-secret", "", "signing secret (whsec_...) of the Stripe webhook endpoint /api/webhooks/stripe"},
	{"stripe-api-url", "", "Stripe API base URL override, e.g. a stripe-mock address; empty: api.stripe.com"},
	{"smtp-url", "", "mail server, smtp://user:pass@host:port (STARTTLS when offered) or smtps://... (TLS); empty: mail is only kept in the outbox"},
	{"mail-from", "Nameport <no-reply@nameport.localhost>", "sender of outgoing mail"},
	{"public-url", "", "address users reach the web app at, for links in mail; default: http:// plus --http-addr"},
	{"renew-interval", time.Hour, "how often the domain lifecycle scan runs (renewals, expiry warnings, releases)"},
	{"renew-ahead", 30 * 24 * time.Hour, "auto-renewing domains are renewed this long before they expire"},
	{"api-rate-limits", true, "enforce the rate limits of /api and /v1 (per account: 100 checks, 20 registrations, 50 DNS changes a minute; per visitor network: 60 checks a minute); turn off only to benchmark the API"},
	{"log-format", "text", "log format: text or json"},
	{"log-level", "info", "log level: debug, info, warn, error"},
}

// DatabaseFlags are the settings that commands other than serve share.
var DatabaseFlags = []string{"database-url", "data-dir", "log-format", "log-level"}

// Register adds the named settings (all when names is empty) as flags.
func Register(fs *pflag.FlagSet, names ...string) {
	for _, f := range Flags {
		if len(names) > 0 && !slices.Contains(names, f.Name) {
			continue
		}
		switch d := f.Default.(type) {
		case string:
			fs.String(f.Name, d, f.Usage)
		case bool:
			fs.Bool(f.Name, d, f.Usage)
		case int:
			fs.Int(f.Name, d, f.Usage)
		case time.Duration:
			fs.Duration(f.Name, d, f.Usage)
		}
	}
}

// Load resolves the configuration from flags, environment, the config file
// (--config, or nameport.yaml in the working directory when present) and
// defaults.
func Load(fs *pflag.FlagSet, configFile string) (Config, error) {
	v := viper.New()
	v.SetEnvPrefix("NAMEPORT")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	for _, f := range Flags {
		v.SetDefault(f.Name, f.Default)
	}
	if err := v.BindPFlags(fs); err != nil {
		return Config{}, fmt.Errorf("config: bind flags: %w", err)
	}
	if configFile != "" {
		v.SetConfigFile(configFile)
	} else {
		v.SetConfigName("nameport")
		v.SetConfigType("yaml")
		v.AddConfigPath(".")
	}
	if err := v.ReadInConfig(); err != nil {
		var notFound viper.ConfigFileNotFoundError
		if configFile != "" || !errors.As(err, &notFound) {
			return Config{}, fmt.Errorf("config: read %s: %w", v.ConfigFileUsed(), err)
		}
	}

	c := Config{
		HTTPAddr:    v.GetString("http-addr"),
		DNSAddr:     v.GetString("dns-addr"),
		DatabaseURL: v.GetString("database-url"),
		DataDir:     v.GetString("data-dir"),
		Demo:        v.GetBool("demo"),
		Migrate:     v.GetBool("migrate"),
		Secret:      v.GetString("secret"),
		SessionTTL:  v.GetDuration("session-ttl"),
		LogFormat:   v.GetString("log-format"),
		LogLevel:    v.GetString("log-level"),
	}
	c.RenewInterval, c.RenewAhead = v.GetDuration("renew-interval"), v.GetDuration("renew-ahead")
	c.NoRateLimits = !v.GetBool("api-rate-limits")
	// --demo implies demo payments unless --demo-payments says otherwise
	// (a demo catalog with real payment rules, as the end-to-end tests of
	// the other payment modes run).
	c.DemoPayments = c.Demo
	if explicitlySet(v, fs, "demo-payments") {
		c.DemoPayments = v.GetBool("demo-payments")
	}
	if c.RenewInterval <= 0 || c.RenewAhead <= 0 {
		return Config{}, errors.New("config: --renew-interval and --renew-ahead must be positive")
	}
	c.StripeSecretKey, c.StripePublishableKey = v.GetString("stripe-secret-key"), v.GetString("stripe-publishable-key")
	c.StripeWebhookSecret, c.StripeAPIURL = v.GetString("stripe-webhook-secret"), v.GetString("stripe-api-url")
	c.SMTPURL, c.MailFrom, c.PublicURL = v.GetString("smtp-url"), v.GetString("mail-from"), v.GetString("public-url")
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.HTTPAddr
	}
	for _, a := range splitList(v.GetString("dns-transfer-allow")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --dns-transfer-allow %q: %w", a, err)
		}
		c.DNSTransferAllow = append(c.DNSTransferAllow, p)
	}
	// Parsed here rather than by viper's GetInt, which reads a typo as 0:
	// rate limiting off.
	rate, rateErr := strconv.Atoi(strings.TrimSpace(v.GetString("dns-rrl-rate")))
	slip, slipErr := strconv.Atoi(strings.TrimSpace(v.GetString("dns-rrl-slip")))
	if rateErr != nil || slipErr != nil || rate < 0 || slip < 0 || slip > 10 {
		return Config{}, errors.New("config: --dns-rrl-rate must be a whole number, at least 0; --dns-rrl-slip 0 to 10")
	}
	c.DNSRRLRate, c.DNSRRLSlip = rate, slip
	for _, a := range splitList(v.GetString("dns-rrl-exempt")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --dns-rrl-exempt %q: %w", a, err)
		}
		c.DNSRRLExempt = append(c.DNSRRLExempt, p)
	}
	for _, t := range splitList(v.GetString("dns-notify")) {
		if _, _, err := net.SplitHostPort(t); err != nil {
			return Config{}, fmt.Errorf("config: --dns-notify %q: want host:port", t)
		}
		c.DNSNotify = append(c.DNSNotify, t)
	}
	for _, r := range strings.Split(v.GetString("roles"), ",") {
		if r = strings.TrimSpace(r); r != "" {
			c.Roles = append(c.Roles, r)
		}
	}
	return c, c.validate()
}

// explicitlySet reports whether name was given as a flag, an environment
// variable or in the config file, rather than left at its default (viper's
// IsSet counts defaults).
func explicitlySet(v *viper.Viper, fs *pflag.FlagSet, name string) bool {
	if fs != nil && fs.Lookup(name) != nil && fs.Changed(name) {
		return true
	}
	if _, ok := os.LookupEnv("NAMEPORT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))); ok {
		return true
	}
	return v.InConfig(name)
}

func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parsePrefix accepts a prefix ("10.0.0.0/8") or a single address.
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		return netip.ParsePrefix(s)
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func (c Config) validate() error {
	if len(c.Roles) == 0 {
		return errors.New("config: --roles names no role")
	}
	for _, r := range c.Roles {
		if r != RoleAPI && r != RoleDNS && r != RoleWorker {
			return fmt.Errorf("config: unknown role %q (want api, dns or worker)", r)
		}
	}
	if c.SessionTTL < time.Minute {
		return errors.New("config: --session-ttl must be at least 1m")
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("config: --log-format %q: want text or json", c.LogFormat)
	}
	return nil
}
