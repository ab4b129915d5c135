package domainfwd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/caddyserver/certmagic"
	"github.com/mholt/acmez/v3"
	"github.com/mholt/acmez/v3/acme"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/sealer"
)

// ACMEOptions configure how the forwarding role obtains certificates.
type ACMEOptions struct {
	// Directory is the ACME directory URL (--acme-directory); Let's
	// Encrypt's production directory when "".
	Directory string
	// Email is the ACME account's contact address (--acme-email), where
	// the CA writes about expiring or revoked certificates; may be "".
	// Configuring a directory is taken as agreeing to its CA's terms.
	Email string
	// CARoots, when set, are the only roots trusted for the ACME server's
	// own HTTPS (--acme-ca-root, for a test CA such as pebble); the
	// system's roots otherwise.
	CARoots *x509.CertPool
	// Sealer seals what the storage keeps: sealer.New(secret, "acme").
	Sealer *sealer.Sealer
	// RenewalWindowRatio is the share of a certificate's lifetime still
	// left when it is renewed; certmagic's default (1/3) when 0. A test
	// with short-lived certificates raises it to see a renewal soon.
	RenewalWindowRatio float64
	// RenewCheckInterval is how often certificates are checked for
	// renewal; certmagic's default (10 minutes) when 0.
	RenewCheckInterval time.Duration
	// DisableHTTPChallenge and DisableTLSALPNChallenge leave out a
	// challenge type: by default the CA may validate a name over HTTP
	// (http-01, on the HTTP server) or TLS (tls-alpn-01, on the HTTPS one).
	DisableHTTPChallenge, DisableTLSALPNChallenge bool
}

// certificates obtains, renews and serves the certificates of forwarded
// names through certmagic, and records their state on the rules.
//
// It holds two certmagic configs over one cache: onDemand serves
// handshakes, and obtains a certificate during the first handshake of a
// name that has a rule and none yet (and only then: its DecisionFunc asks
// the rules); managed is the one the cache's background maintenance uses
// for every certificate, so that certificates are renewed ahead of expiry
// whether or not anyone visits (certmagic renews on-demand certificates only
// during handshakes). Names are also managed as soon as their rule appears
// (manage), so that a new rule has its certificate within seconds.
type certificates struct {
	db       *db.DB
	storage  *Storage
	cache    *certmagic.Cache
	onDemand *certmagic.Config
	managed  *certmagic.Config
	issuer   *certmagic.ACMEIssuer // managed's: serves http-01 challenges
	logger   *slog.Logger

	// names are the names being managed, each with the cancel of its
	// management (an obtain retrying in the background).
	names map[string]context.CancelFunc
	// failing are the names whose first certificate this node failed to
	// obtain: their management retries with a growing pause, holding the
	// name's lock meanwhile, and a handshake that asked too would wait for
	// it. It is refused at once instead.
	failing sync.Map
}

// handshakeObtainTimeout bounds how long a handshake waits for a
// certificate obtained or renewed for it (certmagic allows three minutes):
// a visitor is better served by a quick failure, and management goes on
// in the background.
const handshakeObtainTimeout = 15 * time.Second

// newCertificates sets certmagic up. httpAddr and httpsAddr are where the
// servers listen, for the challenge solvers to know (the CA connects to the
// standard ports; a test CA to these). allowed tells whether a name has a
// rule.
func newCertificates(d *db.DB, opts ACMEOptions, httpAddr, httpsAddr net.Addr, allowed func(string) bool, logger *slog.Logger) (*certificates, error) {
	if opts.Sealer == nil {
		return nil, errors.New("domainfwd: ACME needs a sealer for the certificates it stores")
	}
	if opts.Directory == "" {
		opts.Directory = certmagic.LetsEncryptProductionCA
	}
	c := &certificates{db: d, storage: NewStorage(d, opts.Sealer, logger), logger: logger, names: map[string]context.CancelFunc{}}
	zlog := zap.New(slogCore{logger: logger})
	c.cache = certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert:   func(certmagic.Certificate) (*certmagic.Config, error) { return c.managed, nil },
		RenewCheckInterval: opts.RenewCheckInterval,
		Logger:             zlog,
	})
	template := certmagic.ACMEIssuer{
		CA:                      opts.Directory,
		Email:                   opts.Email,
		Agreed:                  true,
		TrustedRoots:            opts.CARoots,
		DisableHTTPChallenge:    opts.DisableHTTPChallenge,
		DisableTLSALPNChallenge: opts.DisableTLSALPNChallenge,
		Logger:                  zlog,
	}
	// The solvers try to listen where the challenge comes; finding our own
	// servers there, they leave the answering to them. ListenHost makes
	// that attempt meet our listener rather than a wildcard address.
	httpHost, httpPort := hostPort(httpAddr)
	tlsHost, tlsPort := hostPort(httpsAddr)
	template.AltHTTPPort, template.AltTLSALPNPort = httpPort, tlsPort
	if httpHost == tlsHost {
		template.ListenHost = httpHost
	}
	config := func(onDemand *certmagic.OnDemandConfig) *certmagic.Config {
		cfg := certmagic.New(c.cache, certmagic.Config{
			RenewalWindowRatio: opts.RenewalWindowRatio,
			OnDemand:           onDemand,
			Storage:            c.storage,
			Logger:             zlog,
			OnEvent:            c.onEvent,
			ShouldEmitFunc:     func(event string) bool { return slices.Contains(recordedEvents, event) },
		})
		issuer := certmagic.NewACMEIssuer(cfg, template)
		cfg.Issuers = []certmagic.Issuer{issuer}
		if onDemand == nil {
			c.issuer = issuer
		}
		return cfg
	}
	c.managed = config(nil)
	c.onDemand = config(&certmagic.OnDemandConfig{DecisionFunc: func(_ context.Context, name string) error {
		if !allowed(name) {
			return fmt.Errorf("no forwarding rule for %s", name)
		}
		if _, failing := c.failing.Load(name); failing {
			return fmt.Errorf("the last attempt to obtain a certificate for %s failed; it is retried in the background", name)
		}
		return nil
	}})
	return c, nil
}

func hostPort(a net.Addr) (string, int) {
	host, port, _ := net.SplitHostPort(a.String())
	n, _ := strconv.Atoi(port)
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = ""
	}
	return host, n
}

// tlsConfig is the HTTPS server's: certificates by SNI, and the
// tls-alpn-01 challenge.
func (c *certificates) tlsConfig() *tls.Config {
	return &tls.Config{
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			ctx, cancel := context.WithTimeout(hello.Context(), handshakeObtainTimeout)
			defer cancel()
			return c.onDemand.GetCertificateWithContext(ctx, hello)
		},
		NextProtos: []string{"h2", "http/1.1", acmez.ACMETLS1Protocol},
		MinVersion: tls.VersionTLS12,
	}
}

// manage makes names the names with certificates: each new one is
// obtained (or loaded from storage) in the background and renewed from
// then on; one whose rule is gone is dropped from memory and no longer
// renewed.
func (c *certificates) manage(ctx context.Context, names map[string]*route) {
	for name, cancel := range c.names {
		if names[name] == nil {
			cancel()
			delete(c.names, name)
			c.failing.Delete(name)
			c.cache.RemoveManaged([]certmagic.SubjectIssuer{{Subject: name}})
		}
	}
	for name := range names {
		if c.names[name] != nil {
			continue
		}
		nameCtx, cancel := context.WithCancel(ctx)
		c.names[name] = cancel
		if err := c.managed.ManageAsync(nameCtx, []string{name}); err != nil {
			c.logger.Warn("domainfwd: manage a certificate", "name", name, "err", err)
		}
	}
}

func (c *certificates) stop() {
	for _, cancel := range c.names {
		cancel()
	}
	c.cache.Stop()
}

// recordedEvents are the certmagic events onEvent handles; the others
// (one per handshake among them) are not emitted at all.
var recordedEvents = []string{"cert_obtained", "cert_failed"}

// onEvent records a certificate's state on its rule, logs each issuance
// and failure, and counts them.
func (c *certificates) onEvent(ctx context.Context, event string, data map[string]any) error {
	name, _ := data["identifier"].(string)
	renewal, _ := data["renewal"].(bool)
	// Events are synchronous, and may come from an obtain being cancelled:
	// the record is written regardless, briefly.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := time.Now().UTC().Truncate(time.Microsecond)
	switch event {
	case "cert_obtained":
		c.failing.Delete(name)
		counters.issued.Add(1)
		if renewal {
			counters.renewed.Add(1)
		}
		path, _ := data["certificate_path"].(string)
		notAfter, err := c.notAfter(ctx, path)
		if err != nil {
			c.logger.Error("domainfwd: read an obtained certificate", "name", name, "err", err)
			return nil
		}
		c.logger.Info("domainfwd: certificate issued", "name", name, "renewal", renewal,
			"not_after", notAfter, "issuer", data["issuer"])
		_, err = c.db.Bun.NewUpdate().Table("forward_rules").
			Set("cert_state = ?, cert_not_after = ?, cert_error = '', cert_updated_at = ?", CertIssued, notAfter, now).
			Where("name = ?", name).Exec(ctx)
		if err != nil {
			c.logger.Error("domainfwd: record a certificate", "name", name, "err", err)
		}
	case "cert_failed":
		if !renewal {
			c.failing.Store(name, true)
		}
		counters.failures.Add(1)
		err, _ := data["error"].(error)
		message := caMessage(err)
		c.logger.Warn("domainfwd: certificate not issued", "name", name, "renewal", renewal, "err", message)
		// A failed renewal leaves the certificate issued while it lasts;
		// the message says what went wrong all the same.
		_, err = c.db.Bun.NewUpdate().Table("forward_rules").
			Set("cert_error = ?, cert_updated_at = ?", clipMessage(message), now).
			Set("cert_state = CASE WHEN cert_not_after IS NOT NULL AND cert_not_after > ? THEN cert_state ELSE ? END", now, CertFailed).
			Where("name = ?", name).Exec(ctx)
		if err != nil {
			c.logger.Error("domainfwd: record a certificate failure", "name", name, "err", err)
		}
	}
	return nil
}

// notAfter reads the expiry of the certificate stored at path.
func (c *certificates) notAfter(ctx context.Context, path string) (time.Time, error) {
	data, err := c.storage.Load(ctx, path)
	if err != nil {
		return time.Time{}, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return time.Time{}, fmt.Errorf("no PEM certificate at %s", path)
	}
	leaf, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return time.Time{}, err
	}
	return leaf.NotAfter.UTC(), nil
}

// caMessage is what the CA said about a failure (the ACME problem's
// detail), or the error itself when it said nothing.
func caMessage(err error) string {
	if err == nil {
		return "unknown error"
	}
	var problem acme.Problem
	if errors.As(err, &problem) {
		msg := problem.Detail
		for _, sub := range problem.Subproblems {
			msg += "; " + sub.Detail
		}
		if msg != "" {
			return msg
		}
		return problem.Type
	}
	return err.Error()
}

func clipMessage(s string) string {
	if r := []rune(s); len(r) > 500 {
		return string(r[:500]) + "…"
	}
	return s
}

// slogCore hands certmagic's zap logs to slog. certmagic's Info lines
// (locks taken, challenges presented) become Debug: they are many, and
// each issuance is logged by onEvent.
type slogCore struct {
	logger *slog.Logger
	fields []zapcore.Field
}

func slogLevel(l zapcore.Level) slog.Level {
	switch {
	case l >= zapcore.ErrorLevel:
		return slog.LevelError
	case l == zapcore.WarnLevel:
		return slog.LevelWarn
	default:
		return slog.LevelDebug
	}
}

func (c slogCore) Enabled(l zapcore.Level) bool {
	return c.logger.Enabled(context.Background(), slogLevel(l))
}

func (c slogCore) With(fields []zapcore.Field) zapcore.Core {
	return slogCore{logger: c.logger, fields: append(slices.Clip(c.fields), fields...)}
}

func (c slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c slogCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	enc := zapcore.NewMapObjectEncoder()
	for _, f := range c.fields {
		f.AddTo(enc)
	}
	for _, f := range fields {
		f.AddTo(enc)
	}
	keys := make([]string, 0, len(enc.Fields))
	for k := range enc.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	attrs := make([]slog.Attr, 0, len(keys)+1)
	if e.LoggerName != "" {
		attrs = append(attrs, slog.String("logger", e.LoggerName))
	}
	for _, k := range keys {
		attrs = append(attrs, slog.Any(k, enc.Fields[k]))
	}
	c.logger.LogAttrs(context.Background(), slogLevel(e.Level), "certmagic: "+e.Message, attrs...)
	return nil
}

func (c slogCore) Sync() error { return nil }
