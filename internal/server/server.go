// Package server wires Nameport's roles (api, dns, worker) into one process:
// it opens the database, builds the services, starts the HTTP server, the
// DNS server and the job workers, and shuts them down gracefully.
package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"time"

	"github.com/riverqueue/river"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/billing"
	"github.com/nameport/nameport/internal/bulk"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/contact"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/domainfwd"
	"github.com/nameport/nameport/internal/idempotency"
	"github.com/nameport/nameport/internal/mailfwd"
	"github.com/nameport/nameport/internal/notify"
	pagesvc "github.com/nameport/nameport/internal/pages" // server has its own pages (spa_routes.go)
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/reports"
	"github.com/nameport/nameport/internal/requestlog"
	"github.com/nameport/nameport/internal/sealer"
	"github.com/nameport/nameport/internal/settings"
	"github.com/nameport/nameport/internal/stats"
	"github.com/nameport/nameport/internal/updatekey"
	"github.com/nameport/nameport/internal/webhook"
	"github.com/nameport/nameport/internal/zone"
)

// shutdownGrace bounds how long in-flight requests and jobs may take to finish
// after SIGTERM.
const shutdownGrace = 25 * time.Second

// namesPollInterval is how often an API process reads the journal of names
// other processes registered or released (registration.Names).
const namesPollInterval = 250 * time.Millisecond

// defaultHTTPIdleTimeout closes keep-alive connections unless configured.
const defaultHTTPIdleTimeout = 30 * time.Second

// Services builds the capability services over d.
type Services struct {
	Accounts *account.Service
	Domains  *registration.Service
	Wallets  *billing.Service
	Catalog  *catalog.Service
	Records  *zone.Service
	Requests *idempotency.Store
	Mail     *notify.Service
	Audit    *audit.Service
	Stats    *stats.Service
	// Reports are the figures of a registrar's Reports tab.
	Reports  *reports.Service
	Settings *settings.Service
	// Forwarding owns the email forwarding rules; Forwarder forwards what
	// the mail role accepts (the worker role's jobs).
	Forwarding *mailfwd.Service
	Forwarder  *mailfwd.Forwarder
	// WebForwarding owns domain forwarding's rules; nil when no forwarding
	// address is configured (--forward-ipv4/--forward-ipv6).
	WebForwarding *domainfwd.Service
	// Bulk runs registrars' bulk checks and jobs.
	Bulk *bulk.Service
	// RequestLogs is the registrar's log of /v1 requests.
	RequestLogs *requestlog.Service
	// Webhooks owns registrars' webhook endpoints and delivers the events
	// the other services emit.
	Webhooks *webhook.Service
	// webForwardingChanged pokes the forward role of this process after
	// a rule changes (Run sets it).
	webForwardingChanged *func()
	acmeSealer           *sealer.Sealer
	// dnssecKeys are the zones' DNSSEC keys (nil: --dnssec=false).
	dnssecKeys *dnssec.Store
	// UpdateKeys are domains' TSIG keys for RFC 2136 dynamic updates.
	UpdateKeys *updatekey.Service
	// Contact keeps the contact form's messages for the admins' Inbox.
	Contact *contact.Service
	// Pages are the pages admins publish (the legal pages and others).
	Pages *pagesvc.Service
}

// NewServices builds every capability service from the configuration.
// zoneChanged, when not nil, runs after every committed DNS record change.
func NewServices(d *db.DB, cfg config.Config, zoneChanged func()) (Services, error) {
	secret, err := loadSecret(cfg.Secret, cfg.DataDir)
	if err != nil {
		return Services{}, err
	}
	siteSettings, err := settings.NewService(d, settings.Options{Secret: secret})
	if err != nil {
		return Services{}, err
	}
	accounts, err := account.NewService(d, account.Options{Secret: secret, SessionTTL: cfg.SessionTTL,
		PublicURL: cfg.PublicURL, HashConcurrency: cfg.PasswordHashConcurrency,
		HashWait: cfg.PasswordHashWait, SignUpLimit: cfg.SignUpLimit,
		TwoFactorPolicy: func(ctx context.Context) (account.TwoFactorPolicy, error) {
			p, err := siteSettings.TwoFactorPolicy(ctx)
			return account.TwoFactorPolicy{AllAdmins: p.Admins, Registrars: p.Registrars}, err
		}})
	if err != nil {
		return Services{}, err
	}
	names := registration.NewNames(d, nil)
	cat, err := catalog.NewService(d, names, catalog.Options{Secret: secret})
	if err != nil {
		return Services{}, err
	}
	// Webhook events are emitted by the service that owns each change,
	// inside its transaction.
	webhooks, err := webhook.NewService(d, webhook.Options{Secret: secret, AllowPrivateTargets: cfg.WebhooksAllowPrivateTargets})
	if err != nil {
		return Services{}, err
	}
	records := zone.NewService(d, zone.Options{Changed: zoneChanged,
		Events: func(ctx context.Context, tx *db.Tx, dom zone.Domain, names []string) error {
			owner, err := registration.OwnerOf(ctx, tx, dom.ID)
			if err != nil {
				return err
			}
			return webhooks.Emit(ctx, tx, owner, webhook.DNSChanged, map[string]any{"domain": dom.String(),
				"domainId": dom.ID, "names": names})
		}})
	forwarding := mailfwd.NewService(d, mailfwd.Options{Notify: notify.Enqueue, Records: records, MailHost: cfg.MailHost,
		Allowed: cat.CheckEmailForwarding, MaxRules: cfg.MailMaxRules, MaxRulesRegistrar: cfg.MailMaxRulesRegistrar})
	secrets := accounts.MailSecrets()
	secrets[notify.KindVerifyForwarding] = forwarding.VerificationLink(cfg.PublicURL)
	mail, err := notify.NewService(d, notify.Options{SMTPURL: cfg.SMTPURL, From: cfg.MailFrom, PublicURL: cfg.PublicURL,
		Secrets: secrets})
	if err != nil {
		return Services{}, err
	}
	// The SRS key is the server secret's, for this purpose alone: every
	// node rewrites and reverses alike.
	srsKey, err := sealer.New(secret, "mail-srs")
	if err != nil {
		return Services{}, err
	}
	srs, err := mailfwd.NewSRS([]byte(srsKey.Hash("srs")), 0, nil)
	if err != nil {
		return Services{}, err
	}
	forwarder := mailfwd.NewForwarder(d, mailfwd.ForwarderOptions{Relay: mail, SRS: srs, MailHost: cfg.MailHost,
		Allowed: cat.CheckEmailForwarding})
	webChanged := func() {}
	// Certificates and ACME keys are sealed with a key of their own.
	acmeSealer, err := sealer.New(secret, "acme")
	if err != nil {
		return Services{}, err
	}
	// So are the secrets of dynamic update keys.
	updateSealer, err := sealer.New(secret, "dns-update-keys")
	if err != nil {
		return Services{}, err
	}
	var dnssecKeys *dnssec.Store
	if !cfg.NoDNSSEC {
		algorithm := uint8(dnssec.ECDSAP256SHA256)
		if cfg.DNSSECAlgorithm == "ed25519" {
			algorithm = dnssec.ED25519
		}
		if dnssecKeys, err = dnssec.NewStore(d, secret, algorithm); err != nil {
			return Services{}, err
		}
		dnssecKeys.WithZSKLifetime(cfg.DNSSECZSKLifetime)
	}
	var webForwarding *domainfwd.Service
	if len(cfg.ForwardIPv4)+len(cfg.ForwardIPv6) > 0 {
		webForwarding, err = domainfwd.NewService(d, domainfwd.Options{Records: records, IPv4: cfg.ForwardIPv4, IPv6: cfg.ForwardIPv6,
			OwnHosts: ownHosts(cfg), Changed: func() { webChanged() }})
		if err != nil {
			return Services{}, err
		}
	}
	wallets := billing.NewService(d, billing.Options{DemoPayments: cfg.DemoPayments,
		Stripe: billing.NewStripe(billing.StripeConfig{
			SecretKey: cfg.StripeSecretKey, PublishableKey: cfg.StripePublishableKey,
			WebhookSecret: cfg.StripeWebhookSecret, APIURL: cfg.StripeAPIURL}),
		BankTransfer: func(ctx context.Context) (bool, error) {
			bank, err := siteSettings.BankTransfer(ctx)
			return bank != nil, err
		}})
	// Mail leaves in the transaction of what it reports.
	wallets.Notify = notify.Enqueue
	wallets.Events = webhooks.Emit
	domains := registration.NewService(d, cat, wallets, nil)
	domains.Notify = notify.Enqueue
	domains.Events = webhooks.Emit
	domains.Names = names
	domains.ZoneChanged = zoneChanged
	domains.Buyers = func(ctx context.Context, userID int64) (catalog.Buyer, error) {
		u, err := accounts.ByID(ctx, userID)
		if err != nil || !u.IsRegistrar() {
			return catalog.Buyer{}, err
		}
		return catalog.Buyer{Tier: u.Tier}, nil
	}
	return Services{Accounts: accounts, Domains: domains, Wallets: wallets,
		Catalog: cat, Records: records, Bulk: bulk.NewService(d, domains, cat, records, nil),
		Requests: idempotency.NewStore(d, nil), Mail: mail,
		Audit: audit.NewService(d), Stats: stats.NewService(d), Reports: reports.NewService(d, domains, wallets, nil),
		Settings: siteSettings, Forwarding: forwarding, Forwarder: forwarder,
		WebForwarding: webForwarding, webForwardingChanged: &webChanged, acmeSealer: acmeSealer, Webhooks: webhooks, dnssecKeys: dnssecKeys,
		UpdateKeys:  updatekey.NewService(d, updateSealer, updatekey.Options{}),
		Contact:     contact.NewService(d, contact.Options{}),
		Pages:       pagesvc.NewService(d, pagesvc.Options{}),
		RequestLogs: requestlog.NewService(d, requestlog.Options{Off: cfg.NoV1RequestLog})}, nil
}

// startForwarding starts the forward role: redirects over HTTP and HTTPS,
// with certificates from the ACME CA for the forwarded names (HTTPS off
// when --forward-https-addr is empty).
func startForwarding(ctx context.Context, d *db.DB, cfg config.Config, seal *sealer.Sealer, logger *slog.Logger) (*domainfwd.Server, error) {
	opts := domainfwd.ServerOptions{HTTPAddr: cfg.ForwardHTTPAddr, HTTPSAddr: cfg.ForwardHTTPSAddr, Logger: logger,
		ACME: domainfwd.ACMEOptions{Directory: cfg.ACMEDirectory, Email: cfg.ACMEEmail, Sealer: seal}}
	if cfg.ACMECARoot != "" {
		pem, err := os.ReadFile(cfg.ACMECARoot)
		if err != nil {
			return nil, fmt.Errorf("server: --acme-ca-root: %w", err)
		}
		opts.ACME.CARoots = x509.NewCertPool()
		if !opts.ACME.CARoots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("server: --acme-ca-root %s: no PEM certificate in it", cfg.ACMECARoot)
		}
	}
	srv := domainfwd.NewServer(d, opts)
	if err := srv.Start(ctx); err != nil {
		return nil, err
	}
	logger.Info("forwarding listening", "http", srv.HTTPAddr(), "https", srv.HTTPSAddr(), "acme", cfg.ACMEDirectory)
	return srv, nil
}

// ownHosts are the platform's own host names, which no forwarding may
// target: a redirect there would lead into the platform or loop.
func ownHosts(cfg config.Config) []string {
	var out []string
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		out = append(out, u.Hostname())
	}
	if cfg.MailHost != "" {
		out = append(out, cfg.MailHost)
	}
	return out
}

// dnsGCPercent is the garbage collector's target (GOGC) in a process that
// serves DNS, and dnsLoadMemoryLimit the most heap the zones' load at start
// may use before the collector, off meanwhile, runs (see Run).
const (
	dnsGCPercent       = 50
	dnsLoadMemoryLimit = 1 << 30
)

// Run serves until ctx is cancelled, then shuts down gracefully. ready, when
// not nil, receives the HTTP address once every role is up.
func Run(ctx context.Context, cfg config.Config, logger *slog.Logger, ready func(httpAddr string)) error {
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	if cfg.Migrate {
		if err := d.Migrate(ctx); err != nil {
			return err
		}
	}
	// A record change made here is answered by this process's DNS server at
	// once; other processes see it at their next poll.
	var dnsSrv *dnsserver.Server
	svc, err := NewServices(d, cfg, func() {
		if dnsSrv != nil {
			dnsSrv.Poke()
		}
	})
	if err != nil {
		return err
	}
	if err := svc.Catalog.Load(ctx); err != nil {
		return err
	}
	// The last use of API keys is written off the request path; what is
	// queued is written before the database closes.
	keyUsesCtx, stopKeyUses := context.WithCancel(context.WithoutCancel(ctx))
	keyUsesDone := make(chan struct{})
	go func() {
		defer close(keyUsesDone)
		svc.Accounts.RecordKeyUses(keyUsesCtx, logger.With("component", "api-keys"))
	}()
	defer func() {
		stopKeyUses()
		<-keyUsesDone
	}()
	// /v1 requests are logged off the request path; the recorder stops
	// after the HTTP server (below), so the last requests' entries are
	// written before the database closes.
	requestLogCtx, stopRequestLog := context.WithCancel(context.WithoutCancel(ctx))
	requestLogDone := make(chan struct{})
	go func() {
		defer close(requestLogDone)
		svc.RequestLogs.Run(requestLogCtx, logger.With("component", "request-log"))
	}()
	defer func() {
		stopRequestLog()
		<-requestLogDone
	}()
	// Admin changes on other nodes reach this one within a second.
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	go svc.Catalog.Watch(watchCtx, time.Second, logger.With("component", "catalog"))
	if cfg.HasRole(config.RoleAPI) {
		// Availability checks answer from memory; other nodes'
		// registrations reach this one within a poll interval.
		go svc.Domains.Names.Watch(watchCtx, namesPollInterval, logger.With("component", "names"))
	}

	// Jobs: every role enqueues; only the worker role works them.
	jobsCfg := db.JobsConfig{Logger: logger.With("component", "river")}
	if cfg.HasRole(config.RoleWorker) {
		jobsCfg.Workers = river.NewWorkers()
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Accounts.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Mail.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Requests.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.RequestLogs.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs,
			svc.Domains.AddWorkers(jobsCfg.Workers, cfg.RenewInterval, cfg.RenewAhead)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Wallets.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Webhooks.AddWorkers(jobsCfg.Workers)...)
		jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Forwarder.AddWorkers(jobsCfg.Workers)...)
		if !cfg.NoDNSSEC {
			// Signed zones' serials move daily, so that secondaries
			// transfer fresh signatures (zone.BumpSigned).
			jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.Records.AddWorkers(jobsCfg.Workers)...)
			// Key rollovers take their steps when due (dnssec.Advance).
			jobsCfg.PeriodicJobs = append(jobsCfg.PeriodicJobs, svc.dnssecKeys.AddWorkers(jobsCfg.Workers)...)
		}
		svc.Bulk.AddWorkers(jobsCfg.Workers)
		jobsCfg.Queues = map[string]int{mailfwd.Queue: mailfwd.QueueWorkers, webhook.Queue: webhook.QueueWorkers}
	}
	if err := d.SetupJobs(jobsCfg); err != nil {
		return err
	}
	// Demo accounts are made once jobs can be queued (sign-up mails).
	if cfg.Demo {
		if err := seedDemo(ctx, svc, logger); err != nil {
			return fmt.Errorf("server: demo data: %w", err)
		}
	}
	if err := logPaymentMode(ctx, svc.Wallets, logger); err != nil {
		return err
	}
	if cfg.HasRole(config.RoleWorker) {
		if err := d.StartJobs(ctx); err != nil {
			return fmt.Errorf("server: start workers: %w", err)
		}
		logger.Info("workers running")
	}

	httpLimits, dnsLimits := connBudgets(cfg, logger)
	if cfg.HasRole(config.RoleDNS) {
		dnsOpts := []dnsserver.Option{dnsserver.WithTransfer(cfg.DNSTransferAllow...), dnsserver.WithTransferKeys(cfg.DNSTransferKeys...), dnsserver.WithCatalogZone(cfg.DNSCatalogZone)}
		for _, k := range cfg.DNSTSIGKeys {
			dnsOpts = append(dnsOpts, dnsserver.WithTSIGKeys(dnsserver.TSIGKey{Name: k.Name, Algorithm: k.Algorithm, Secret: k.Secret}))
		}
		for _, n := range cfg.DNSNotify {
			dnsOpts = append(dnsOpts, dnsserver.WithSignedNotify(n.Key, n.Addr))
		}
		if svc.dnssecKeys != nil {
			dnsOpts = append(dnsOpts, dnsserver.WithDNSSEC(svc.dnssecKeys.Keys),
				dnsserver.WithSignatureTimes(cfg.DNSSECSignatureValidity, cfg.DNSSECSignatureRefresh))
		}
		// RFC 2136 updates signed with domains' update keys; a key
		// revoked here is forgotten at once.
		updateKeys := updatekey.NewKeyring(svc.UpdateKeys, svc.Records, svc.Catalog.CheckDNSManagement)
		svc.UpdateKeys.OnChange(updateKeys.Forget)
		dnsOpts = append(dnsOpts, dnsserver.WithUpdates(updateKeys))
		if cfg.MailHost == "" {
			// The MX records of forwarding domains name mx.<zone>.
			dnsOpts = append(dnsOpts, dnsserver.WithZoneHost(mailfwd.MailHostLabel, cfg.MailAddrs...))
		}
		srv := dnsserver.New(cfg.DNSAddr, logger.With("component", "dns"), append(dnsOpts,
			dnsserver.WithTCPLimits(dnsLimits), dnsserver.WithTCPIdleTimeout(cfg.DNSTCPIdleTimeout), dnsserver.WithHistory(cfg.DNSHistory),
			dnsserver.WithRateLimit(dnsserver.RateLimit{Rate: cfg.DNSRRLRate, PositiveRate: cfg.DNSRRLPositiveRate,
				Slip: cfg.DNSRRLSlip, Exempt: cfg.DNSRRLExempt}),
			// A cache of the zones to start from (see dnsserver/snapfile.go).
			dnsserver.WithSnapshotFile(dnsserver.SnapshotFilePath(cfg.DataDir)))...)
		// Loading makes garbage at a steady rate while what it keeps only
		// grows, so the collector at its default target ran a fifth of the
		// start's CPU for nothing (100,000 domains: 1.75 s to ready at
		// GOGC=100, 1.45 s at 400, 0.15 s less again with it off). Do not
		// collect until the zones are in, unless the heap reaches
		// dnsLoadMemoryLimit (or GOMEMLIMIT when set): a bound, so that a
		// far larger zone set costs collections rather than all the
		// memory there is (the 100,000-domain load peaks at 630 MB from
		// the database, 280 MB from the snapshot file). FreeOSMemory below
		// returns what that cost in memory.
		gcDefault := os.Getenv("GOGC") == ""
		memoryLimit := debug.SetMemoryLimit(-1) // reads it
		if gcDefault {
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(dnsLoadMemoryLimit)
			}
			debug.SetGCPercent(-1)
		}
		if err := srv.Reload(ctx, d); err != nil {
			return err
		}
		if err := srv.Start(); err != nil {
			return err
		}
		go srv.Watch(watchCtx, d, cfg.DNSPollInterval)
		dnsSrv = srv
		// Loading the zones allocates several times what the snapshot keeps
		// (700 MB for 500,000 records, most of it rows and slices that are
		// garbage once the snapshot is built); the runtime would hand that
		// back to the system only over minutes. Hand it back now, once.
		debug.FreeOSMemory()
		// A DNS server holds its zones for good and makes garbage at every
		// change (and the API beside it at every request): at the runtime's
		// default (GOGC=100) the heap may grow to twice the zones before a
		// collection, measured 400 MB of RSS at 100,000 domains after
		// 1,000 changes against 270 MB at 50 (NSD holds the zone in 245 MB).
		// Collect at half the live heap instead, unless GOGC says otherwise.
		if gcDefault {
			debug.SetGCPercent(dnsGCPercent)
			debug.SetMemoryLimit(memoryLimit)
		}
	}

	var jobsUI http.Handler
	if cfg.HasRole(config.RoleAPI) {
		if jobsUI, err = d.RiverUI(watchCtx, logger.With("component", "riverui"), riverUIPrefix); err != nil {
			return err
		}
	}

	var mailSrv *mailfwd.Server
	if cfg.HasRole(config.RoleMail) {
		opts := mailfwd.ServerOptions{Addr: cfg.MailListen, MaxSize: int64(cfg.MailMaxSize), Hostname: cfg.MailHost,
			ClientRate: cfg.MailRateClient, DomainRate: cfg.MailRateDomain, Logger: logger.With("component", "mail")}
		if cfg.MailTLSCert != "" {
			cert, err := tls.LoadX509KeyPair(cfg.MailTLSCert, cfg.MailTLSKey)
			if err != nil {
				return fmt.Errorf("server: --mail-tls-cert: %w", err)
			}
			opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		mailSrv = mailfwd.NewServer(svc.Forwarder, opts)
		if err := mailSrv.Start(); err != nil {
			return err
		}
		logger.Info("smtp listening", "addr", mailSrv.Addr(), "starttls", opts.TLS != nil)
	}

	var fwdSrv *domainfwd.Server
	if cfg.HasRole(config.RoleForward) {
		if svc.WebForwarding == nil {
			logger.Warn("forward role: no forwarding address (--forward-ipv4 or --forward-ipv6), so domain forwarding is off")
		} else {
			if fwdSrv, err = startForwarding(ctx, d, cfg, svc.acmeSealer, logger.With("component", "forward")); err != nil {
				return err
			}
			*svc.webForwardingChanged = fwdSrv.Poke
		}
	}

	// Every process serves HTTP: health and metrics always, the API and the
	// web app with the api role.
	tcpListener, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("server: listen %s: %w", cfg.HTTPAddr, err)
	}
	listener := connlimit.Wrap(tcpListener, httpLimits)
	idle := cfg.HTTPIdleTimeout
	if idle <= 0 {
		idle = defaultHTTPIdleTimeout
	}
	httpSrv := &http.Server{
		Handler: newRouter(cfg, logger, d, svc, dnsSrv, jobsUI, listener),
		// A client has this long to send its headers, and its whole request
		// (the largest bodies, zone imports, are 1 MiB); a keep-alive
		// connection without a request is closed after idle.
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ConnContext:       withPeer,
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- httpSrv.Serve(listener) }()
	logger.Info("http listening", "addr", listener.Addr().String(), "roles", cfg.Roles)
	if ready != nil {
		ready(listener.Addr().String())
	}

	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case err := <-serveErr:
		logger.Error("http server stopped", "err", err)
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	var errs []error
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		errs = append(errs, fmt.Errorf("server: http shutdown: %w", err))
	}
	if mailSrv != nil {
		if err := mailSrv.Shutdown(shutdownCtx); err != nil {
			errs = append(errs, fmt.Errorf("server: smtp shutdown: %w", err))
		}
	}
	if fwdSrv != nil {
		if err := fwdSrv.Shutdown(shutdownCtx); err != nil {
			errs = append(errs, fmt.Errorf("server: forward shutdown: %w", err))
		}
	}
	if dnsSrv != nil {
		if err := dnsSrv.Shutdown(shutdownCtx); err != nil {
			errs = append(errs, fmt.Errorf("server: dns shutdown: %w", err))
		}
	}
	if err := d.StopJobs(shutdownCtx); err != nil {
		errs = append(errs, fmt.Errorf("server: stop workers: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// logPaymentMode says at start how this server takes money, loudly when it
// takes none for real.
func logPaymentMode(ctx context.Context, wallets *billing.Service, logger *slog.Logger) error {
	o, err := wallets.DepositOptions(ctx)
	if err != nil {
		return err
	}
	switch o.Mode {
	case billing.DepositModeDemo:
		logger.Warn("payments: demo mode, deposits complete at once without payment", "mode", o.Mode,
			"methods", o.Methods, "instant", o.Instant)
	case billing.DepositModeNone:
		logger.Warn("payments: no payment method is configured, deposits are refused "+
			"(set --stripe-secret-key or enable the bank transfer gateway)", "mode", o.Mode)
	default:
		logger.Info("payments", "mode", o.Mode, "methods", o.Methods)
	}
	return nil
}
