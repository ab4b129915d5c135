package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/nameport/nameport/internal/api"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/web"
)

// newRouter builds the HTTP handler of a process.
// jobsUI, when not nil, is River's UI, served to admins under /admin/river/.
func newRouter(cfg config.Config, logger *slog.Logger, d *db.DB, svc Services, dnsSrv *dnsserver.Server,
	jobsUI http.Handler) http.Handler {
	m := newMetrics()
	r := chi.NewRouter()
	r.Use(api.RequestContext(logger), accessLog, recoverer, m.middleware, securityHeaders, crossOriginProtection(),
		middleware.Compress(5, "text/html", "text/css", "text/javascript", "application/javascript",
			"application/json", "image/svg+xml"))

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"database": "ok"}
		status := http.StatusOK
		if err := d.Ping(ctx); err != nil {
			checks["database"], status = "unavailable", http.StatusServiceUnavailable
		}
		if dnsSrv != nil {
			checks["dns"] = "ok"
			if !dnsSrv.Ready() {
				checks["dns"], status = "loading", http.StatusServiceUnavailable
			}
		}
		writeJSON(w, status, checks)
	})
	r.Handle("/metrics", m.handler())

	if cfg.HasRole(config.RoleAPI) {
		limits := api.DefaultRateLimits
		if cfg.RateLimitWindow > 0 {
			limits.Window = cfg.RateLimitWindow
		}
		api.New(r, api.Services{Accounts: svc.Accounts, Domains: svc.Domains, Wallets: svc.Wallets, Catalog: svc.Catalog,
			Records: svc.Records, Requests: svc.Requests, Jobs: svc.Jobs, Mail: svc.Mail, Settings: svc.Settings,
			Audit: svc.Audit, Stats: svc.Stats, RateLimits: limits})
		if jobsUI != nil {
			admins := r.With(api.RequireAdminPage(svc.Accounts))
			admins.Handle(riverUIPrefix, jobsUI)
			admins.Handle(riverUIPrefix+"/*", jobsUI)
		}
		r.NotFound(notFound(spaHandler(web.Dist())))
	} else {
		r.NotFound(notFound(http.NotFound))
	}
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		api.WriteError(w, r, http.StatusMethodNotAllowed, "Method not allowed")
	})
	return r
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

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		next.ServeHTTP(w, r)
	})
}

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
