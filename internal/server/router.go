package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"golang.org/x/sync/singleflight"

	"github.com/nameport/nameport/internal/api"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/ratelimit"
	"github.com/nameport/nameport/web"
)

// newRouter builds the HTTP handler of a process.
// jobsUI, when not nil, is River's UI, served to admins under /admin/river/.
func newRouter(cfg config.Config, logger *slog.Logger, d *db.DB, svc Services, dnsSrv *dnsserver.Server,
	jobsUI http.Handler, httpConns *connlimit.Listener) http.Handler {
	sources := []connSource{{"http", httpConns.Stats}}
	if dnsSrv != nil {
		sources = append(sources, connSource{"dns_tcp", dnsSrv.TCPConns})
	}
	m := newMetrics(sources...)
	if svc.Accounts != nil {
		m.registry.MustRegister(hashPoolCollector{svc.Accounts})
	}
	if svc.RequestLogs != nil {
		m.registry.MustRegister(requestLogCollector{svc.RequestLogs})
	}
	r := chi.NewRouter()
	r.Use(api.RequestContext(logger, api.TrustProxies(cfg.TrustedProxies...)), accessLog, recoverer, m.middleware, securityHeaders, crossOriginProtection(),
		middleware.Compress(5, "text/html", "text/css", "text/javascript", "application/javascript",
			"application/json", "image/svg+xml"))

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	probe := newWriteProbe(d, logger)
	r.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"database": "ok"}
		status := http.StatusOK
		if err := d.Ping(ctx); err != nil {
			checks["database"], status = "unavailable", http.StatusServiceUnavailable
		} else if err := probe.check(ctx); err != nil {
			checks["database"], status = "not writable", http.StatusServiceUnavailable
		}
		if dnsSrv != nil {
			checks["dns"] = "ok"
			if !dnsSrv.Ready() {
				checks["dns"], status = "loading", http.StatusServiceUnavailable
			}
		}
		writeJSON(w, status, checks)
	})
	r.Handle("/metrics", onlyFrom(cfg.MetricsAllow, m.handler()))

	if cfg.HasRole(config.RoleAPI) {
		limits := ratelimit.DefaultLimits
		if cfg.RateLimitWindow > 0 {
			limits.Window = cfg.RateLimitWindow
		}
		if cfg.NoRateLimits {
			limits = limits.Unlimited()
		}
		api.New(r, api.Services{Accounts: svc.Accounts, Domains: svc.Domains, Wallets: svc.Wallets, Catalog: svc.Catalog,
			Records: svc.Records, Requests: svc.Requests, Mail: svc.Mail, Settings: svc.Settings,
			Audit: svc.Audit, Stats: svc.Stats, Reports: svc.Reports, Forwarding: svc.Forwarding, WebForwarding: svc.WebForwarding, RateLimits: ratelimit.NewPolicy(limits, nil),
			RequestLogs: svc.RequestLogs, Webhooks: svc.Webhooks, Bulk: svc.Bulk, DNSSEC: svc.dnssecKeys,
			UpdateKeys: svc.UpdateKeys, Contact: svc.Contact, Pages: svc.Pages})
		if jobsUI != nil {
			// River's UI reads its own bodies; bound them as huma bounds ours.
			admins := r.With(api.RequireAdminPage(svc.Accounts), middleware.RequestSize(1<<20))
			admins.Handle(riverUIPrefix, jobsUI)
			admins.Handle(riverUIPrefix+"/*", jobsUI)
		}
		r.NotFound(notFound(spaHandler(sitePages{web.Dist(), svc.Settings.Site}, publishedPage(svc.Pages, svc.Settings.Site))))
	} else {
		r.NotFound(notFound(http.NotFound))
	}
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		api.WriteError(w, r, http.StatusMethodNotAllowed, "Method not allowed")
	})
	return r
}

// peerKey is the context key of the connection's TCP peer address.
type peerKey struct{}

// withPeer is the HTTP server's ConnContext: it keeps the TCP peer address
// of the connection, which no header and no middleware can change.
func withPeer(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, c.RemoteAddr())
}

// peerAddr is the TCP peer of the request's connection.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	a, ok := r.Context().Value(peerKey{}).(net.Addr)
	if !ok {
		return netip.Addr{}, false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap(), true
}

// onlyFrom answers only clients inside allow (nil: loopback), others get
// 403. The client is the TCP peer of the connection, never X-Forwarded-For
// (even from a trusted proxy) nor anything middleware made of RemoteAddr:
// a header is good enough to throttle by, not to grant access. A reverse
// proxy on this host connects from loopback, so it must not forward
// /metrics (README says so).
func onlyFrom(allow []netip.Prefix, next http.Handler) http.Handler {
	if allow == nil {
		allow = config.DefaultMetricsAllow
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, ok := peerAddr(r)
		if ok && slices.ContainsFunc(allow, func(p netip.Prefix) bool { return p.Contains(peer) }) {
			next.ServeHTTP(w, r)
			return
		}
		api.WriteError(w, r, http.StatusForbidden, "Forbidden")
	})
}

// writeProbe proves that the database can write, for /readyz: probes
// asked for while one runs share its result, so that a flood of /readyz
// costs at most one write at a time.
type writeProbe struct {
	d      *db.DB
	node   string
	logger *slog.Logger
	group  singleflight.Group
}

func newWriteProbe(d *db.DB, logger *slog.Logger) *writeProbe {
	node, err := os.Hostname()
	if err != nil || node == "" {
		node = "unknown"
	}
	return &writeProbe{d: d, node: node, logger: logger}
}

func (p *writeProbe) check(ctx context.Context) error {
	ch := p.group.DoChan("probe", func() (any, error) {
		// Not the caller's context: the probe it shares may outlive it.
		pctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err := p.d.ProbeWrite(pctx, p.node)
		if err != nil {
			p.logger.Warn("readyz: the database cannot write", "err", err)
		}
		return nil, err
	})
	select {
	case res := <-ch:
		return res.Err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// riverUIPrefix is where admins find River's own UI.
const riverUIPrefix = "/admin/river"

// crossOriginProtection refuses state-changing requests from other sites
// (Sec-Fetch-Site, else Origin against Host). Tools that send neither header
// pass, which is right for API-key clients; cookies alone never authorise a
// cross-site write. /v1 is exempt: it ignores cookies and authenticates
// every request by the API key in its headers, which another site cannot
// make a browser send.
func crossOriginProtection() func(http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.AddInsecureBypassPattern("/v1/")
	// Stripe's webhooks come from Stripe's servers, carry no session and are
	// authenticated by their signature.
	cop.AddInsecureBypassPattern("POST /api/webhooks/stripe")
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.WriteError(w, r, http.StatusForbidden, "Cross-site request refused")
	}))
	return cop.Handler
}

// notFound answers unknown /api and /v1 paths with JSON and hands everything
// else to the web app, whose router shows its own not-found page.
func notFound(app http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/api" || strings.HasPrefix(p, "/api/") || api.IsV1Path(p) {
			api.WriteError(w, r, http.StatusNotFound, "Not found")
			return
		}
		app(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// Content security policies. None of them lets a page run inline script or
// script from elsewhere (Stripe.js aside); each route gets the narrowest
// policy its pages need.
const (
	// appCSP is the web app's policy, and the default of every response.
	// Styles may be inline: Tremor's charts and Radix's dialogs set style
	// attributes and add <style> elements at run time. Stripe.js must be
	// loaded from js.stripe.com (the payment page does so only when a
	// Stripe key is configured); its Payment Element runs in Stripe's frames
	// and talks to api.stripe.com.
	appCSP = "default-src 'self'; script-src 'self' https://js.stripe.com; " +
		"style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
		"connect-src 'self' https://api.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	// riverUICSP is River's UI: its own scripts and stylesheet (which holds
	// data: images), inline styles from its React components, no Stripe.
	// Its bundled zod probes for eval (new Function) to compile validators;
	// River's page offers no hook to turn that off, so its policy allows eval
	// for its own scripts, still with no inline or foreign script.
	riverUICSP = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	// dataCSP is for responses that are data, not pages (the APIs, the
	// OpenAPI document, metrics): were one opened as a page, it could load
	// nothing.
	dataCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

// contentSecurityPolicy returns the policy of a path.
func contentSecurityPolicy(path string) []string {
	switch {
	case api.IsDocsPath(path):
		return docsCSPValue
	case path == riverUIPrefix || strings.HasPrefix(path, riverUIPrefix+"/"):
		return riverCSPValue
	case path == "/api" || strings.HasPrefix(path, "/api/") || api.IsV1Path(path),
		path == "/openapi.json", path == "/metrics", path == "/healthz", path == "/readyz":
		return dataCSPValue
	default:
		return appCSPValue
	}
}

// securityHeaders sets the headers that make browsers strict with every
// response, error pages included.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The values are shared, read-only slices of one element with keys
		// already canonical: set on every response, they cost no
		// allocation. (A later Add appends to a copy, as cap is 1.)
		h := w.Header()
		h["Content-Security-Policy"] = contentSecurityPolicy(r.URL.Path)
		h["X-Content-Type-Options"] = nosniff
		h["X-Frame-Options"] = frameDeny // for browsers that predate frame-ancestors
		h["Referrer-Policy"] = referrerPolicy
		// Only over HTTPS, which a TLS-terminating proxy reports as
		// api.RequestContext trusts it to; browsers ignore the header on
		// plain HTTP anyway. Not includeSubDomains: other hosts under the
		// same domain are not ours to commit to HTTPS.
		if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
			h["Strict-Transport-Security"] = hsts
		}
		next.ServeHTTP(w, r)
	})
}

// The values of securityHeaders.
var (
	nosniff        = []string{"nosniff"}
	frameDeny      = []string{"DENY"}
	referrerPolicy = []string{"strict-origin-when-cross-origin"}
	hsts           = []string{"max-age=63072000"}
	docsCSPValue   = []string{api.DocsContentSecurityPolicy}
	riverCSPValue  = []string{riverUICSP}
	dataCSPValue   = []string{dataCSP}
	appCSPValue    = []string{appCSP}
)

// accessLog logs one line per request with its id, status and duration.
func accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		level := slog.LevelInfo
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" || r.URL.Path == "/metrics" {
			level = slog.LevelDebug
		}
		if !api.LogEnabled(r.Context(), level) {
			return
		}
		api.Logger(r.Context()).Log(r.Context(), level, "http request",
			"method", r.Method, "path", r.URL.Path, "status", ww.Status(), "bytes", ww.BytesWritten(),
			"duration_ms", float64(time.Since(start).Microseconds())/1000)
	})
}

// recoverer turns a panic into a logged 500 in the shape of its API.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				api.Logger(r.Context()).Error("panic", "panic", v, "stack", string(debug.Stack()))
				api.WriteError(w, r, http.StatusInternalServerError, "An unexpected error occurred")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
