package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"

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
	// newDevice: the browser had no device cookie; a new session sets the
	// one client.Device names.
	newDevice bool
	tls       bool
	// base is the process's logger; logger is it with the request's id and
	// client, made on first use: most requests log nothing.
	base       *slog.Logger
	loggerOnce sync.Once
	logger     *slog.Logger
}

// requestLogger is the request's logger, carrying its id and client.
func (r *request) requestLogger() *slog.Logger {
	r.loggerOnce.Do(func() {
		if r.logger == nil {
			r.logger = r.base.With("request_id", r.id, "client", r.client.IP)
		}
	})
	return r.logger
}

// RequestOption changes how RequestContext reads requests.
type RequestOption func(*requestOptions)

type requestOptions struct {
	trustedProxies []netip.Prefix
}

// TrustProxies names the reverse proxies whose X-Forwarded-For is believed
// (--trusted-proxies). Without any, the client is always the TCP peer.
func TrustProxies(prefixes ...netip.Prefix) RequestOption {
	return func(o *requestOptions) { o.trustedProxies = append(o.trustedProxies, prefixes...) }
}

// RequestContext returns middleware that gives each request an id (the
// client's X-Request-Id when sane, else a new one, echoed in the response),
// a logger (base) carrying it and the client's address, the client's address
// (see ClientAddr) and the session cookie.
func RequestContext(base *slog.Logger, opts ...RequestOption) func(http.Handler) http.Handler {
	var o requestOptions
	for _, opt := range opts {
		opt(&o)
	}
	return func(next http.Handler) http.Handler { return requestContext(base, o, next) }
}

func requestContext(base *slog.Logger, o requestOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !saneRequestID(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header()["X-Request-Id"] = []string{id} // canonical already
		ip := ClientAddr(r, o.trustedProxies)
		req := &request{
			id:     id,
			client: account.Client{IP: ip, UserAgent: r.UserAgent()},
			// Behind a TLS-terminating proxy the header says so; trusting it
			// can only make the cookie stricter.
			tls:  r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
			base: base,
		}
		if c, err := r.Cookie(SessionCookie); err == nil {
			req.sessionToken = c.Value
		}
		req.client.Device, req.newDevice = deviceOf(r)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, req)))
	})
}

// ClientAddr returns the address of the client that sent r. It is the TCP
// peer, unless the peer is one of the trusted proxies: then it is the
// right-most address in X-Forwarded-For that is not a trusted proxy (each
// proxy appends the address it got the request from, so everything left of
// the first untrusted hop may be forged by the client). When every hop is
// trusted it is the left-most one; when a trusted hop handed on something
// that is not an address, it is that hop. IPv4-mapped IPv6 addresses are
// given as IPv4.
func ClientAddr(r *http.Request, trusted []netip.Prefix) string {
	peer, ok := parseHop(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !isTrusted(peer, trusted) {
		return peer.String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(strings.TrimSpace(hops[i]))
		if !ok {
			break
		}
		client = hop
		if !isTrusted(hop, trusted) {
			break
		}
	}
	return client.String()
}

// parseHop reads an address as RemoteAddr or X-Forwarded-For give it: with
// or without a port, IPv6 with or without brackets.
func parseHop(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap(), true
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
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

// ClientIP returns the client address of the request ctx belongs to (see
// ClientAddr): what throttles, rate limits, sessions and logs key on.
func ClientIP(ctx context.Context) string { return requestOf(ctx).client.IP }

// RequestID returns the id of the request ctx belongs to.
func RequestID(ctx context.Context) string { return requestOf(ctx).id }

func logger(ctx context.Context) *slog.Logger { return requestOf(ctx).requestLogger() }

// LogEnabled tells whether the request's logger would log at level, without
// making it.
func LogEnabled(ctx context.Context, level slog.Level) bool {
	r := requestOf(ctx)
	if r.base != nil {
		return r.base.Enabled(ctx, level)
	}
	return r.logger.Enabled(ctx, level)
}

// Logger returns the logger of the request ctx belongs to: it carries the
// request id.
func Logger(ctx context.Context) *slog.Logger { return logger(ctx) }
