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

	"github.com/miekg/dns"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Roles a nameport process can run.
const (
	RoleAPI     = "api"
	RoleDNS     = "dns"
	RoleWorker  = "worker"
	RoleMail    = "mail"
	RoleForward = "forward"
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
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed: the client is the right-most address there that is not one
	// of them.
	TrustedProxies []netip.Prefix
	// PasswordHashConcurrency bounds the password hashes running at once
	// (0: the number of CPUs); SignUpLimit is the sign-ups one client
	// network may make in an hour.
	PasswordHashConcurrency int
	SignUpLimit             int
	// PasswordHashWait is how long a request waits for a place in the hash
	// pool (0: 2 seconds). Tests lengthen it; no flag.
	PasswordHashWait time.Duration
	// DNSTransferAllow are the clients allowed to transfer zones (AXFR)
	// unsigned; DNSTransferKeys the TSIG keys (names) whose signed transfer
	// requests are allowed from anywhere.
	DNSTransferAllow []netip.Prefix
	DNSTransferKeys  []string
	// DNSNotify are the secondaries told (NOTIFY) when zones change.
	DNSNotify []NotifyTarget
	// DNSTSIGKeys are the TSIG keys (RFC 8945) shared with secondaries.
	DNSTSIGKeys []TSIGKey
	// DNSCatalogZone names the catalog zone (RFC 9432) that lists every
	// extension's zone, lower case and fully qualified; "" (the zero
	// Config of tests) serves none.
	DNSCatalogZone string
	// DNS response rate limiting over UDP: responses per second per client
	// network of each kind (negative, error, large: DNSRRLRate; positive:
	// DNSRRLPositiveRate; 0: that budget is off), the slip (every Nth
	// held-back response is sent truncated), and clients never limited.
	DNSRRLRate         int
	DNSRRLPositiveRate int
	DNSRRLSlip         int
	DNSRRLExempt       []netip.Prefix
	// MetricsAllow are the TCP peers /metrics answers; nil means loopback
	// only (DefaultMetricsAllow).
	MetricsAllow []netip.Prefix
	// Connection budgets of the HTTP server and of DNS over TCP: open
	// connections in all and per client (IPv4 address, IPv6 /64); 0 means
	// no limit (the zero Config of tests). The idle timeouts close a
	// connection that has sent nothing for that long; 0 means the default.
	HTTPMaxConns            int
	HTTPMaxConnsPerClient   int
	HTTPMaxConnsExempt      []netip.Prefix // no per-client budget: reverse proxies
	HTTPIdleTimeout         time.Duration
	DNSTCPMaxConns          int
	DNSTCPMaxConnsPerClient int
	DNSTCPIdleTimeout       time.Duration
	// DNSPollInterval is how often a DNS server checks the database for
	// changes made by other processes (its own are applied at once).
	DNSPollInterval time.Duration
	// DNSHistory is how many changes a DNS server keeps for IXFR.
	DNSHistory int
	// NoDNSSEC serves the zones unsigned (--dnssec=false); the zero
	// Config signs them. DNSSECAlgorithm is the algorithm of keys made
	// from now on: "ecdsap256sha256" (the default when empty) or "ed25519".
	NoDNSSEC        bool
	DNSSECAlgorithm string
	// DNSSECSignatureValidity is how long a signature is valid;
	// DNSSECSignatureRefresh how old it is when it is made anew.
	DNSSECSignatureValidity, DNSSECSignatureRefresh time.Duration
	// DNSSECZSKLifetime is how long a zone's data signing key signs before
	// a ZSK rollover replaces it; 0: never.
	DNSSECZSKLifetime time.Duration

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
	// Email forwarding (the mail role): where its SMTP server listens, its
	// certificate for STARTTLS (both or neither), the largest message, its
	// host name ("" is mx. plus each extension's zone) and the rules a
	// domain may have (end users, registrars).
	MailListen            string
	MailTLSCert           string
	MailTLSKey            string
	MailMaxSize           int
	MailHost              string
	MailMaxRules          int
	MailMaxRulesRegistrar int
	// MailRateClient and MailRateDomain are messages a minute per client
	// network and per forwarding domain (0: no limit).
	MailRateClient int
	MailRateDomain int
	// MailAddrs are the mail role's public addresses (--mail-ipv4,
	// --mail-ipv6): the DNS role answers mx.<zone> with them when
	// MailHost is empty.
	MailAddrs []netip.Addr
	// Domain forwarding (the forward role): its HTTP and HTTPS servers,
	// the addresses forwarded hosts' A/AAAA records point at, and the ACME
	// CA its certificates come from.
	ForwardHTTPAddr  string
	ForwardHTTPSAddr string
	ForwardIPv4      []string
	ForwardIPv6      []string
	ACMEDirectory    string
	ACMEEmail        string
	ACMECARoot       string
	// WebhooksAllowPrivateTargets lets webhook endpoints be http:// URLs
	// and reach loopback and private addresses: for tests and
	// development only.
	WebhooksAllowPrivateTargets bool
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
	// NoV1RequestLog stops recording /v1 requests in the registrar's
	// request log (--v1-request-log=false), so that a benchmark can measure
	// what recording costs.
	NoV1RequestLog bool
}

// DefaultMetricsAllow is who may read /metrics unless told otherwise.
var DefaultMetricsAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

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
	{"roles", "api,dns,worker,mail,forward", "roles this process runs: api, dns, worker, mail (email forwarding's SMTP server), forward (domain forwarding's HTTP and HTTPS servers)"},
	{"demo", false, "load demo data (demo accounts and catalog) at start; implies --demo-payments unless that is set"},
	{"demo-payments", false, "deposits complete at once without payment for methods without a provider (never in production); without it deposits need Stripe or an admin-enabled bank transfer"},
	{"migrate", true, "apply database migrations at start"},
	{"secret", "", "server secret, 64 hex characters; default: read or create DATA_DIR/secret.key"},
	{"session-ttl", 7 * 24 * time.Hour, "how long a login session lasts without use"},
	{"trusted-proxies", "", "addresses or prefixes of reverse proxies whose X-Forwarded-For is believed, comma separated, e.g. 127.0.0.1,10.0.0.0/8; the client is the right-most address in it that is not one of them; empty: the client is always the TCP peer"},
	{"password-hash-concurrency", 0, "how many password hashes (argon2id, 19 MiB each) run at once; others wait up to 2 seconds, then get 503 with Retry-After; 0: the number of CPUs"},
	{"signup-limit", 10, "sign-ups one client network (IPv4 address, IPv6 /64) may make in an hour"},
	{"dns-transfer-allow", "", "who may transfer zones (AXFR), comma separated: addresses or prefixes (unsigned transfers from there), and key:NAME (transfers signed with TSIG key NAME, from anywhere), e.g. 127.0.0.1,10.0.0.0/8,key:xfr.example"},
	{"dns-notify", "", "secondaries to NOTIFY on zone changes, comma separated host:port, or key:NAME@host:port to sign the NOTIFY with TSIG key NAME"},
	{"dns-tsig-key", "", "TSIG keys (RFC 8945) for zone transfers and NOTIFY, comma separated name:algorithm:secret; algorithm hmac-sha256, hmac-sha384 or hmac-sha512; secret base64, at least 16 bytes (tsig-keygen makes one)"},
	{"dns-catalog-zone", "catalog.nameport.invalid.", "name of the catalog zone (RFC 9432, version 2) that lists every extension's zone, so that secondaries (Knot, BIND, NSD 4.9+) set up new extensions by themselves; a name outside every extension"},
	{"dns-rrl-rate", 20, "DNS response rate limit over UDP: responses per second per client network (IPv4 /24, IPv6 /56) of each of the kinds negative answers, errors, answers over 512 bytes; 0 turns it off for them"},
	{"dns-rrl-slip", 2, "over the DNS rate limit, every Nth response is sent empty and truncated (TC) so that real clients retry over TCP, the others are dropped; 0 drops all, 1 truncates all"},
	{"dns-rrl-exempt", "127.0.0.0/8,::1", "clients never DNS rate limited, comma separated addresses or prefixes (loopback cannot be spoofed from outside)"},
	{"dns-rrl-positive-rate", 200, "DNS response rate limit over UDP for positive answers (small answers and referrals): responses per second per client network; 0 turns it off for them"},
	{"http-max-conns", 4096, "most HTTP connections open at once; more are closed at accept; 0: no limit (lowered at start to fit the file-descriptor limit)"},
	{"http-max-conns-per-client", 128, "most HTTP connections open at once from one client (IPv4 address, IPv6 /64); 0: no limit"},
	{"http-max-conns-exempt", "127.0.0.0/8,::1", "clients with no per-client HTTP connection limit (their connections still count in --http-max-conns): reverse proxies, comma separated addresses or prefixes"},
	{"http-idle-timeout", 30 * time.Second, "an HTTP keep-alive connection is closed after this long without a request"},
	{"dns-tcp-max-conns", 1024, "most DNS-over-TCP connections open at once; more are closed at accept; 0: no limit (lowered at start to fit the file-descriptor limit)"},
	{"dns-tcp-max-conns-per-client", 16, "most DNS-over-TCP connections open at once from one client (IPv4 address, IPv6 /64); 0: no limit"},
	{"dns-tcp-idle-timeout", 5 * time.Second, "a DNS-over-TCP connection is closed after this long without a query (RFC 7766: a few seconds)"},
	{"dns-poll-interval", 250 * time.Millisecond, "how often the DNS server checks the database for changes made by other processes (changes made in its own process are applied at once)"},
	{"dnssec", true, "sign the zones (DNSSEC, online signing: answers to queries with the DO bit carry signatures, names that do not exist are denied with compact denial); keys are made at the first start and kept sealed in the database"},
	{"dnssec-algorithm", "ecdsap256sha256", "algorithm of the DNSSEC keys made from now on: ecdsap256sha256 (13) or ed25519 (15); a zone keeps the key it has"},
	{"dnssec-signature-validity", 7 * 24 * time.Hour, "how long a DNSSEC signature is valid (from an hour back, for clocks running late)"},
	{"dnssec-signature-refresh", 24 * time.Hour, "how old a DNSSEC signature is when it is made anew; what is left of its validity (validity minus refresh) must be at least two days: a secondary's copy is transferred again within a day, and a resolver caches an answer a day at most"},
	{"dnssec-zsk-lifetime", 90 * 24 * time.Hour, "how long a zone's DNSSEC data signing key signs before a ZSK rollover (pre-publish) replaces it; a zone signed by its first key (a CSK) gets a ZSK, the CSK staying as its KSK; 0: never (at least 15 days: a rollover takes eight)"},
	{"dns-ixfr-history", 1000, "how many changes the DNS server keeps to answer IXFR; a secondary further behind gets the whole zone (0: always the whole zone)"},
	{"metrics-allow", "127.0.0.0/8,::1", "clients allowed to read /metrics (by TCP peer address, never X-Forwarded-For), comma separated addresses or prefixes; others get 403"},
	{"stripe-secret-key", "", "Stripe secret key (sk_test_... or sk_live_...); empty: no card payments (simulated with --demo-payments)"},
	{"stripe-publishable-key", "", "Stripe publishable key (pk_...) for Stripe.js in the web app"},
	{"stripe-webhook-secret", "", "signing secret (whsec_...) of the Stripe webhook endpoint /api/webhooks/stripe"},
	{"stripe-api-url", "", "Stripe API base URL override, e.g. a stripe-mock address; empty: api.stripe.com"},
	{"smtp-url", "", "mail server, smtp://user:pass@host:port (STARTTLS when offered) or smtps://... (TLS); empty: mail is only kept in the outbox"},
	{"mail-from", "Nameport <no-reply@nameport.localhost>", "sender of outgoing mail"},
	{"mail-listen", "127.0.0.1:2525", "address of the mail role's SMTP server, which takes mail for forwarding domains (port 25 in production)"},
	{"mail-tls-cert", "", "certificate (PEM file) for STARTTLS on the mail role's SMTP server; with --mail-tls-key"},
	{"mail-tls-key", "", "private key (PEM file) of --mail-tls-cert"},
	{"mail-max-size", 25 << 20, "largest message the mail role takes, in bytes"},
	{"mail-host", "", "host name of the mail role's server (greeting, Received headers, rewritten senders); empty: mx. plus each extension's zone, e.g. mx.inf.nz"},
	{"mail-max-rules", 20, "email forwarding rules a domain of an end user may have"},
	{"mail-max-rules-registrar", 100, "email forwarding rules a domain of a registrar may have"},
	{"mail-ipv4", "", "public IPv4 addresses of the mail role, comma separated: the DNS role answers mx.<zone> of every zone with them (when --mail-host is empty; a --mail-host of your own needs its addresses published where its zone is)"},
	{"mail-ipv6", "", "public IPv6 addresses of the mail role, comma separated, as --mail-ipv4"},
	{"mail-rate-client", 60, "messages a minute one client network (IPv4 address, IPv6 /64) may send to the mail role; more are deferred with 451 4.7.1; 0: no limit"},
	{"mail-rate-domain", 600, "messages a minute one forwarding domain may receive (counted per recipient); more are deferred with 451 4.7.1; 0: no limit"},
	{"forward-http-addr", "127.0.0.1:8081", "address of the forward role's HTTP server, which redirects forwarded hosts and answers ACME HTTP challenges (port 80 in production)"},
	{"forward-https-addr", "127.0.0.1:8443", "address of the forward role's HTTPS server, with certificates issued on demand for forwarded hosts (port 443 in production)"},
	{"forward-ipv4", "", "public IPv4 addresses of the forward role, comma separated: a forwarded host's A records; default: the address of --forward-http-addr when it is one IPv4 address"},
	{"forward-ipv6", "", "public IPv6 addresses of the forward role, comma separated: a forwarded host's AAAA records; default: the address of --forward-http-addr when it is one IPv6 address"},
	{"acme-directory", "https://acme-v02.api.letsencrypt.org/directory", "ACME directory the forward role gets its certificates from (Let's Encrypt by default; setting one agrees to its CA's terms)"},
	{"acme-email", "", "contact address of the ACME account, where the CA writes about expiring certificates"},
	{"acme-ca-root", "", "PEM file of root certificates to trust for the ACME directory's own HTTPS (a test CA such as pebble); empty: the system's roots"},
	{"public-url", "", "address users reach the web app at, for links in mail; default: http:// plus --http-addr"},
	{"webhooks-allow-private-targets", false, "let webhook endpoints be http:// URLs and reach loopback, private and link-local addresses (tests and development only; never in production)"},
	{"renew-interval", time.Hour, "how often the domain lifecycle scan runs (renewals, expiry warnings, releases)"},
	{"renew-ahead", 30 * 24 * time.Hour, "auto-renewing domains are renewed this long before they expire"},
	{"api-rate-limits", true, "enforce the rate limits of /api and /v1 (per account: 100 checks, 20 registrations, 50 DNS changes a minute; per visitor network: 60 checks a minute); turn off only to benchmark the API"},
	{"v1-request-log", true, "record every /v1 request made with a valid API key in the registrar's request log (kept 30 days, written in batches off the request path); false only to measure what recording costs"},
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
	c.WebhooksAllowPrivateTargets = v.GetBool("webhooks-allow-private-targets")
	c.NoV1RequestLog = !v.GetBool("v1-request-log")
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
	c.MailListen, c.MailHost = v.GetString("mail-listen"), strings.TrimSuffix(v.GetString("mail-host"), ".")
	c.MailTLSCert, c.MailTLSKey = v.GetString("mail-tls-cert"), v.GetString("mail-tls-key")
	c.MailMaxSize, c.MailMaxRules, c.MailMaxRulesRegistrar = v.GetInt("mail-max-size"), v.GetInt("mail-max-rules"), v.GetInt("mail-max-rules-registrar")
	c.MailRateClient, c.MailRateDomain = v.GetInt("mail-rate-client"), v.GetInt("mail-rate-domain")
	if c.MailMaxSize < 1024 || c.MailMaxRules < 1 || c.MailMaxRulesRegistrar < 1 || c.MailRateClient < 0 || c.MailRateDomain < 0 {
		return Config{}, errors.New("config: --mail-max-size must be at least 1024 bytes; --mail-max-rules and --mail-max-rules-registrar at least 1; --mail-rate-client and --mail-rate-domain at least 0")
	}
	for flag, want4 := range map[string]bool{"mail-ipv4": true, "mail-ipv6": false} {
		for _, a := range splitList(v.GetString(flag)) {
			addr, err := netip.ParseAddr(a)
			if err != nil || addr.Is4() != want4 || addr.Zone() != "" {
				return Config{}, fmt.Errorf("config: --%s %q: not an IPv%s address", flag, a, map[bool]string{true: "4", false: "6"}[want4])
			}
			c.MailAddrs = append(c.MailAddrs, addr)
		}
	}
	slices.SortFunc(c.MailAddrs, func(a, b netip.Addr) int { return a.Compare(b) })
	c.ForwardHTTPAddr, c.ForwardHTTPSAddr = v.GetString("forward-http-addr"), v.GetString("forward-https-addr")
	c.ACMEDirectory, c.ACMEEmail, c.ACMECARoot = v.GetString("acme-directory"), v.GetString("acme-email"), v.GetString("acme-ca-root")
	for flag, want4 := range map[string]bool{"forward-ipv4": true, "forward-ipv6": false} {
		for _, a := range splitList(v.GetString(flag)) {
			addr, err := netip.ParseAddr(a)
			if err != nil || addr.Is4() != want4 || addr.Zone() != "" {
				return Config{}, fmt.Errorf("config: --%s %q: not an IPv%s address", flag, a, map[bool]string{true: "4", false: "6"}[want4])
			}
			if want4 {
				c.ForwardIPv4 = append(c.ForwardIPv4, addr.String())
			} else {
				c.ForwardIPv6 = append(c.ForwardIPv6, addr.String())
			}
		}
	}
	if len(c.ForwardIPv4)+len(c.ForwardIPv6) == 0 {
		// Where the HTTP server listens on one address, that is where
		// forwarded hosts point (127.0.0.1 on a development machine).
		if host, _, err := net.SplitHostPort(c.ForwardHTTPAddr); err == nil {
			if addr, err := netip.ParseAddr(host); err == nil && !addr.IsUnspecified() && addr.Zone() == "" {
				if addr.Is4() {
					c.ForwardIPv4 = []string{addr.String()}
				} else {
					c.ForwardIPv6 = []string{addr.String()}
				}
			}
		}
	}
	if (c.MailTLSCert == "") != (c.MailTLSKey == "") {
		return Config{}, errors.New("config: --mail-tls-cert and --mail-tls-key go together")
	}
	hashes, hashErr := strconv.Atoi(strings.TrimSpace(v.GetString("password-hash-concurrency")))
	signUps, signUpErr := strconv.Atoi(strings.TrimSpace(v.GetString("signup-limit")))
	if hashErr != nil || signUpErr != nil || hashes < 0 || signUps < 1 {
		return Config{}, errors.New("config: --password-hash-concurrency must be a whole number, at least 0; --signup-limit at least 1")
	}
	c.PasswordHashConcurrency, c.SignUpLimit = hashes, signUps
	for _, a := range splitList(v.GetString("trusted-proxies")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --trusted-proxies %q: %w", a, err)
		}
		c.TrustedProxies = append(c.TrustedProxies, p.Masked())
	}
	if err := c.loadTSIG(v); err != nil {
		return Config{}, err
	}
	catalog := strings.TrimSpace(v.GetString("dns-catalog-zone"))
	if _, ok := dns.IsDomainName(catalog); !ok || dns.CountLabel(catalog) == 0 || strings.ContainsAny(catalog, " \t") {
		return Config{}, fmt.Errorf("config: --dns-catalog-zone %q: want a domain name below the root, e.g. catalog.example.net", catalog)
	}
	c.DNSCatalogZone = dns.CanonicalName(catalog)
	// Parsed here rather than by viper's GetInt, which reads a typo as 0:
	// rate limiting off.
	rate, rateErr := strconv.Atoi(strings.TrimSpace(v.GetString("dns-rrl-rate")))
	positive, positiveErr := strconv.Atoi(strings.TrimSpace(v.GetString("dns-rrl-positive-rate")))
	slip, slipErr := strconv.Atoi(strings.TrimSpace(v.GetString("dns-rrl-slip")))
	if rateErr != nil || positiveErr != nil || slipErr != nil || rate < 0 || positive < 0 || slip < 0 || slip > 10 {
		return Config{}, errors.New("config: --dns-rrl-rate and --dns-rrl-positive-rate must be whole numbers, at least 0; --dns-rrl-slip 0 to 10")
	}
	c.DNSRRLRate, c.DNSRRLPositiveRate, c.DNSRRLSlip = rate, positive, slip
	for _, a := range splitList(v.GetString("dns-rrl-exempt")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --dns-rrl-exempt %q: %w", a, err)
		}
		c.DNSRRLExempt = append(c.DNSRRLExempt, p)
	}
	for _, n := range []struct {
		flag string
		to   *int
	}{{"http-max-conns", &c.HTTPMaxConns}, {"http-max-conns-per-client", &c.HTTPMaxConnsPerClient},
		{"dns-tcp-max-conns", &c.DNSTCPMaxConns}, {"dns-tcp-max-conns-per-client", &c.DNSTCPMaxConnsPerClient}} {
		// Not GetInt, which reads a typo as 0: no limit.
		i, err := strconv.Atoi(strings.TrimSpace(v.GetString(n.flag)))
		if err != nil || i < 0 {
			return Config{}, fmt.Errorf("config: --%s must be a whole number, at least 0", n.flag)
		}
		*n.to = i
	}
	c.HTTPIdleTimeout, c.DNSTCPIdleTimeout = v.GetDuration("http-idle-timeout"), v.GetDuration("dns-tcp-idle-timeout")
	c.DNSPollInterval, c.DNSHistory = v.GetDuration("dns-poll-interval"), v.GetInt("dns-ixfr-history")
	if c.DNSPollInterval < 10*time.Millisecond || c.DNSPollInterval > time.Minute {
		return Config{}, errors.New("config: --dns-poll-interval must be between 10ms and 1m")
	}
	if c.DNSHistory < 0 || c.DNSHistory > 100000 {
		return Config{}, errors.New("config: --dns-ixfr-history must be between 0 and 100000")
	}
	c.NoDNSSEC, c.DNSSECAlgorithm = !v.GetBool("dnssec"), strings.ToLower(strings.TrimSpace(v.GetString("dnssec-algorithm")))
	if c.DNSSECAlgorithm != "ecdsap256sha256" && c.DNSSECAlgorithm != "ed25519" {
		return Config{}, fmt.Errorf("config: --dnssec-algorithm %q: not ecdsap256sha256 or ed25519", c.DNSSECAlgorithm)
	}
	c.DNSSECSignatureValidity, c.DNSSECSignatureRefresh = v.GetDuration("dnssec-signature-validity"), v.GetDuration("dnssec-signature-refresh")
	// A signature about to be made anew still has validity-refresh left:
	// enough for a secondary's copy (transferred again within a day,
	// zone.ResignAfter) and then a resolver's cache (a TTL, a day at most).
	if c.DNSSECSignatureRefresh < time.Hour || c.DNSSECSignatureValidity-c.DNSSECSignatureRefresh < 48*time.Hour ||
		c.DNSSECSignatureValidity > 90*24*time.Hour {
		return Config{}, errors.New("config: --dnssec-signature-refresh must be at least 1h, and --dnssec-signature-validity at most 90 days and at least two days longer than the refresh")
	}
	// A rollover publishes the new key for two hours and keeps the old one
	// a week and an hour (dnssec.PublishWait, RetireWait): a lifetime
	// shorter than twice that would roll over again and again.
	if c.DNSSECZSKLifetime = v.GetDuration("dnssec-zsk-lifetime"); c.DNSSECZSKLifetime != 0 && c.DNSSECZSKLifetime < 15*24*time.Hour {
		return Config{}, errors.New("config: --dnssec-zsk-lifetime must be 0 (never) or at least 15 days (360h)")
	}
	if c.HTTPIdleTimeout <= 0 || c.DNSTCPIdleTimeout <= 0 {
		return Config{}, errors.New("config: --http-idle-timeout and --dns-tcp-idle-timeout must be positive")
	}
	for _, a := range splitList(v.GetString("http-max-conns-exempt")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --http-max-conns-exempt %q: %w", a, err)
		}
		c.HTTPMaxConnsExempt = append(c.HTTPMaxConnsExempt, p)
	}
	for _, a := range splitList(v.GetString("metrics-allow")) {
		p, err := parsePrefix(a)
		if err != nil {
			return Config{}, fmt.Errorf("config: --metrics-allow %q: %w", a, err)
		}
		c.MetricsAllow = append(c.MetricsAllow, p)
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
		if r != RoleAPI && r != RoleDNS && r != RoleWorker && r != RoleMail && r != RoleForward {
			return fmt.Errorf("config: unknown role %q (want api, dns, worker, mail or forward)", r)
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
