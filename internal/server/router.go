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
func newRouter(cfg config.Config, d *db.DB, svc Services, dnsSrv *dnsserver.Server) http.Handler {
	m := newMetrics()
	r := chi.NewRouter()
	r.Use(api.RequestContext, accessLog, recoverer, m.middleware, securityHeaders, crossOriginProtection(),
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
		api.New(r, api.Services{Accounts: svc.Accounts, Domains: svc.Domains, Wallets: svc.Wallets, Catalog: svc.Catalog, Records: svc.Records})
		r.NotFound(notFound(spaHandler(web.Dist())))
	} else {
		r.NotFound(notFound(http.NotFound))
	}
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"success": false, "error": "Method not allowed"})
	})
	return r
}

// crossOriginProtection refuses state-changing requests from other sites
// (Sec-Fetch-Site, else Origin against Host). Tools that send neither header
// pass, which is right for API-key clients; cookies alone never authorise a
// cross-site write.
func crossOriginProtection() func(http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusForbidden, map[string]any{"success": false, "error": "Cross-site request refused"})
	}))
	return cop.Handler
}

// notFound answers unknown /api and /v1 paths with JSON and hands everything
// else to the web app, whose router shows its own not-found page.
func notFound(app http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/api" || p == "/v1" || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/v1/") {
			writeJSON(w, http.StatusNotFound, map[string]any{"success": false, "error": "Not found"})
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
		slog.Log(r.Context(), level, "http request", "request_id", api.RequestID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "status", ww.Status(), "bytes", ww.BytesWritten(),
			"duration_ms", float64(time.Since(start).Microseconds())/1000)
	})
}

// recoverer turns a panic into a logged 500 in the /api envelope.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.Error("panic", "request_id", api.RequestID(r.Context()), "panic", v, "stack", string(debug.Stack()))
				writeJSON(w, http.StatusInternalServerError, map[string]any{"success": false, "error": "An unexpected error occurred"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}
