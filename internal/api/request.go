package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"

	"github.com/nameport/nameport/internal/account"
)

// SessionCookie names the cookie that carries the login session token.
const SessionCookie = "nameport_session"

type requestKey struct{}

// request holds what handlers need to know about the HTTP request beyond
// their inputs.
type request struct {
	id           string
	client       account.Client
	sessionToken string
	tls          bool
	logger       *slog.Logger
}

// RequestContext returns middleware that gives each request an id (the
// client's X-Request-Id when sane, else a new one, echoed in the response),
// a logger (base) carrying it, the client's address and the session cookie.
func RequestContext(base *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler { return requestContext(base, next) }
}

func requestContext(base *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !saneRequestID(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		ip, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			ip = r.RemoteAddr
		}
		req := &request{
			id:     id,
			client: account.Client{IP: ip, UserAgent: r.UserAgent()},
			// Behind a TLS-terminating proxy the header says so; trusting it
			// can only make the cookie stricter.
			tls:    r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
			logger: base.With("request_id", id),
		}
		if c, err := r.Cookie(SessionCookie); err == nil {
			req.sessionToken = c.Value
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, req)))
	})
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func requestOf(ctx context.Context) *request {
	if r, ok := ctx.Value(requestKey{}).(*request); ok {
		return r
	}
	return &request{logger: slog.Default()}
}

// RequestID returns the id of the request ctx belongs to.
func RequestID(ctx context.Context) string { return requestOf(ctx).id }

func logger(ctx context.Context) *slog.Logger { return requestOf(ctx).logger }

// Logger returns the logger of the request ctx belongs to: it carries the
// request id.
func Logger(ctx context.Context) *slog.Logger { return logger(ctx) }
