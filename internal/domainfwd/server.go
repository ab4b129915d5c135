package domainfwd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/zone"
)

// DefaultPollInterval is how often a forwarding server looks for rules
// changed by other processes: one small query (the zone version), so a
// change on another node is served within seconds. Changes made in the
// same process are served at once (Options.Changed → Server.Poke).
const DefaultPollInterval = 2 * time.Second

// ServerOptions configure the forwarding role's servers.
type ServerOptions struct {
	// HTTPAddr is where the HTTP server listens (--forward-http-addr);
	// required. Port 0 picks a free port (see HTTPAddr).
	HTTPAddr string
	// HTTPSAddr is where the HTTPS server listens (--forward-https-addr);
	// "" serves no HTTPS and obtains no certificates.
	HTTPSAddr string
	// ACME configures the certificates of the HTTPS server.
	ACME ACMEOptions
	// PollInterval: DefaultPollInterval when 0.
	PollInterval time.Duration
	Logger       *slog.Logger
}

// Server is the forwarding role: an HTTP and an HTTPS server that answer
// every request for a forwarded name with its rule's redirect, and the
// certificates of those names.
type Server struct {
	db    *db.DB
	opts  ServerOptions
	log   *slog.Logger
	redir *redirector
	certs *certificates // nil without HTTPS

	httpLn, httpsLn net.Listener
	http, https     *http.Server
	poke            chan struct{}
	stop            context.CancelFunc
	done            sync.WaitGroup
	nextExpiry      time.Time // when a domain with rules expires next (watch's own)
}

// NewServer returns a forwarding server over d; Start runs it.
func NewServer(d *db.DB, opts ServerOptions) *Server {
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Server{db: d, opts: opts, log: opts.Logger, redir: newRedirector(), poke: make(chan struct{}, 1)}
}

// Start loads the rules, listens and serves in the background, until
// Shutdown. It returns once the servers listen.
func (s *Server) Start(ctx context.Context) (err error) {
	if s.opts.HTTPAddr == "" {
		return errors.New("domainfwd: the forwarding role needs an HTTP address")
	}
	defer func() {
		if err != nil {
			s.closeListeners()
		}
	}()
	if s.httpLn, err = net.Listen("tcp", s.opts.HTTPAddr); err != nil {
		return fmt.Errorf("domainfwd: listen %s: %w", s.opts.HTTPAddr, err)
	}
	if s.opts.HTTPSAddr != "" {
		if s.httpsLn, err = net.Listen("tcp", s.opts.HTTPSAddr); err != nil {
			return fmt.Errorf("domainfwd: listen %s: %w", s.opts.HTTPSAddr, err)
		}
		s.certs, err = newCertificates(s.db, s.opts.ACME, s.httpLn.Addr(), s.httpsLn.Addr(), s.allowed, s.log)
		if err != nil {
			return err
		}
	}
	if err := s.reload(ctx); err != nil {
		if s.certs != nil {
			s.certs.stop()
		}
		return err
	}

	var handler http.Handler = s.redir
	if s.certs != nil {
		handler = s.certs.issuer.HTTPChallengeHandler(s.redir)
	}
	errorLog := slog.NewLogLogger(s.log.Handler(), slog.LevelDebug) // scanners' bad handshakes are no news
	s.http = newHTTPServer(handler, errorLog)
	s.serve(func() error { return s.http.Serve(s.httpLn) })
	if s.certs != nil {
		s.https = newHTTPServer(s.redir, errorLog)
		s.https.TLSConfig = s.certs.tlsConfig()
		s.serve(func() error { return s.https.ServeTLS(s.httpsLn, "", "") })
	}

	watchCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.done.Go(func() { s.watch(watchCtx) })
	s.log.Info("forwarding listening", "http", s.HTTPAddr(), "https", s.HTTPSAddr())
	return nil
}

func newHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10, ErrorLog: errorLog}
}

func (s *Server) serve(run func() error) {
	s.done.Go(func() {
		if err := run(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("forwarding server stopped", "err", err)
		}
	})
}

func (s *Server) closeListeners() {
	for _, l := range []net.Listener{s.httpLn, s.httpsLn} {
		if l != nil {
			_ = l.Close()
		}
	}
}

// HTTPAddr is where the HTTP server listens (after Start).
func (s *Server) HTTPAddr() string { return s.httpLn.Addr().String() }

// HTTPSAddr is where the HTTPS server listens (after Start), "" without one.
func (s *Server) HTTPSAddr() string {
	if s.httpsLn == nil {
		return ""
	}
	return s.httpsLn.Addr().String()
}

// Handler answers requests as the HTTP server does (the ACME http-01
// challenge aside): a rule's redirect, or 404. For benchmarks and for
// mounting elsewhere.
func (s *Server) Handler() http.Handler { return s.redir }

// Poke makes the server look for rule changes now rather than at its next
// poll; the rules service calls it after a change in this process.
func (s *Server) Poke() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// allowed tells whether name has a rule: only such names get certificates.
func (s *Server) allowed(name string) bool { return s.redir.table.Load().has(name) }

// watch reloads the rules whenever the zone version moves (every rule
// change moves it: see table) or a domain with rules expires, checking
// every PollInterval and whenever poked, until ctx ends.
func (s *Server) watch(ctx context.Context) {
	if s.certs != nil {
		s.certs.manage(ctx, s.redir.table.Load().routes)
	}
	t := time.NewTicker(s.opts.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.poke:
		}
		if err := s.check(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("forwarding: check for rule changes", "err", err)
		}
	}
}

func (s *Server) check(ctx context.Context) error {
	if s.nextExpiry.IsZero() || time.Now().Before(s.nextExpiry) {
		v, err := zone.ReadVersions(ctx, s.db.Bun)
		if err != nil {
			return err
		}
		if v.Zone == s.redir.table.Load().version {
			return nil
		}
	}
	if err := s.reload(ctx); err != nil {
		return err
	}
	if s.certs != nil {
		s.certs.manage(ctx, s.redir.table.Load().routes)
	}
	return nil
}

// reload reads the rules and serves them.
func (s *Server) reload(ctx context.Context) error {
	t, skipped, err := loadTable(ctx, s.db, time.Now())
	if err != nil {
		return err
	}
	for _, err := range skipped {
		s.log.Warn("forwarding: rule left out", "err", err)
	}
	s.redir.table.Store(t)
	s.nextExpiry = t.nextExpiry
	s.log.Debug("forwarding rules loaded", "rules", len(t.routes), "version", t.version)
	return nil
}

// Shutdown stops the servers, waiting for requests in flight to end, and
// the certificate work.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.stop != nil {
		s.stop()
	}
	var errs []error
	for _, srv := range []*http.Server{s.http, s.https} {
		if srv != nil {
			errs = append(errs, srv.Shutdown(ctx))
		}
	}
	s.done.Wait()
	if s.certs != nil {
		s.certs.stop()
	}
	return errors.Join(errs...)
}
