package server_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
)

// csp splits a Content-Security-Policy into its directives.
func csp(t *testing.T, policy string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for d := range strings.SplitSeq(policy, ";") {
		fields := strings.Fields(d)
		if len(fields) == 0 {
			continue
		}
		require.NotContains(t, out, fields[0], "directive %s given twice in %q", fields[0], policy)
		out[fields[0]] = fields[1:]
	}
	return out
}

// requireSecurityHeaders checks what every response carries and returns its
// policy's directives.
func requireSecurityHeaders(t *testing.T, r reply, what string) map[string][]string {
	t.Helper()
	policy := r.header.Get("Content-Security-Policy")
	require.NotEmpty(t, policy, what)
	d := csp(t, policy)
	require.Equal(t, []string{"'none'"}, d["frame-ancestors"], what)
	scripts, ok := d["script-src"]
	if !ok {
		scripts = d["default-src"]
	}
	require.NotEmpty(t, scripts, "%s: scripts are restricted", what)
	for _, weak := range []string{"'unsafe-inline'", "'unsafe-hashes'", "*", "data:", "http:", "https:"} {
		require.NotContains(t, scripts, weak, "%s: %s", what, policy)
	}
	if objects, ok := d["object-src"]; ok {
		require.Equal(t, []string{"'none'"}, objects, what)
	} else {
		require.Equal(t, []string{"'none'"}, d["default-src"], what)
	}
	require.Contains(t, d, "base-uri", what)
	require.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"), what)
	require.Equal(t, "DENY", r.header.Get("X-Frame-Options"), what)
	require.Equal(t, "strict-origin-when-cross-origin", r.header.Get("Referrer-Policy"), what)
	return d
}

var (
	appAsset   = regexp.MustCompile(`src="(/assets/[^"]+\.js)"`)
	riverAsset = regexp.MustCompile(`src="(/admin/river/assets/[^"]+\.js)"`)
	docsScript = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)
)

func TestSecurityHeadersOnEveryKindOfResponse(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			visitor := newBrowser(t, ts)
			user := signedUp(t, ts, "someone", "user")

			type sample struct {
				name   string
				b      *browser
				method string
				path   string
				status int // 0: any
				// page: the response is a page with scripts of its own,
				// whose policy may allow them from here but not inline.
				page bool
			}
			samples := []sample{
				{"api json", admin, "GET", "/api/auth/me", http.StatusOK, false},
				{"api 401", visitor, "GET", "/api/auth/me", http.StatusUnauthorized, false},
				{"api 403", user, "GET", "/api/admin/outbox", http.StatusForbidden, false},
				{"api 404", visitor, "GET", "/api/no-such-thing", http.StatusNotFound, false},
				{"api 405", visitor, "DELETE", "/api/auth/me", http.StatusMethodNotAllowed, false},
				{"api 422", visitor, "POST", "/api/auth/login", http.StatusUnprocessableEntity, false},
				{"api cross-site 403", user, "POST", "/api/auth/logout", http.StatusForbidden, false},
				{"v1 problem", visitor, "GET", "/v1/wallet", http.StatusUnauthorized, false},
				{"openapi", visitor, "GET", "/openapi.json", http.StatusOK, false},
				{"metrics", visitor, "GET", "/metrics", http.StatusOK, false},
				{"healthz", visitor, "GET", "/healthz", http.StatusOK, false},
				{"spa index", visitor, "GET", "/", 0, true},
				{"spa deep link", visitor, "GET", "/admin-dashboard", 0, true},
				{"spa asset", visitor, "GET", "/favicon.svg", 0, true},
				{"missing asset", visitor, "GET", "/assets/missing.js", http.StatusNotFound, true},
				{"spa 405", visitor, "POST", "/dashboard", http.StatusMethodNotAllowed, true},
				{"docs", visitor, "GET", "/docs", http.StatusOK, true},
				{"docs v1", visitor, "GET", "/docs/v1", http.StatusOK, true},
				{"openapi v1", visitor, "GET", "/v1/openapi.json", http.StatusOK, false},
				{"river ui", admin, "GET", "/admin/river/", http.StatusOK, true},
				{"river ui api", admin, "GET", "/admin/river/api/jobs?state=completed", http.StatusOK, true},
				{"river ui 401", visitor, "GET", "/admin/river/", http.StatusUnauthorized, true},
				{"river ui 403", user, "GET", "/admin/river/", http.StatusForbidden, true},
			}
			// The built assets, when the web app is built into this binary.
			if m := appAsset.FindStringSubmatch(visitor.body(t, "/")); m != nil {
				samples = append(samples, sample{"spa script", visitor, "GET", m[1], http.StatusOK, true})
			}
			m := riverAsset.FindStringSubmatch(admin.body(t, "/admin/river/"))
			require.NotNil(t, m, "River's page loads its script from under its prefix")
			samples = append(samples, sample{"river script", admin, "GET", m[1], http.StatusOK, true})

			for _, s := range samples {
				what := s.name + ": " + s.method + " " + s.path
				var body any
				headers := []string{}
				if s.method == "POST" {
					body = map[string]any{}
				}
				if s.name == "api cross-site 403" {
					headers = append(headers, "Sec-Fetch-Site", "cross-site")
				}
				r := s.b.do(s.method, s.path, body, headers...)
				if s.status != 0 {
					require.Equal(t, s.status, r.status, "%s: %s", what, r.raw)
				}
				d := requireSecurityHeaders(t, r, what)
				require.Empty(t, r.header.Get("Strict-Transport-Security"), "%s: not over TLS", what)
				if !s.page {
					require.Equal(t, []string{"'none'"}, d["default-src"], "%s: data loads nothing", what)
				}
			}

			// The web app's scripts come from here, never inline or eval'd.
			app := csp(t, visitor.do("GET", "/", nil).header.Get("Content-Security-Policy"))
			require.Contains(t, app["script-src"], "'self'")
			require.NotContains(t, app["script-src"], "'unsafe-eval'")

			// The API reference (Redoc) runs only its scripts from this
			// origin, none inline, and loads nothing from another origin: its
			// document comes from here, its search worker from a blob: URL,
			// and the inline styles it adds are all it is allowed besides.
			for _, path := range []string{"/docs", "/docs/v1"} {
				r := visitor.do("GET", path, nil)
				d := csp(t, r.header.Get("Content-Security-Policy"))
				require.Equal(t, map[string][]string{
					"default-src": {"'none'"}, "script-src": {"'self'"}, "style-src": {"'unsafe-inline'"},
					"img-src": {"'self'", "data:"}, "connect-src": {"'self'"}, "worker-src": {"blob:"},
					"base-uri": {"'none'"}, "form-action": {"'none'"}, "frame-ancestors": {"'none'"},
				}, d, path)
				for _, m := range docsScript.FindAllStringSubmatch(r.raw, -1) {
					require.True(t, strings.HasPrefix(m[1], ` src="/docs/`) && m[2] == "", "%s: %s", path, m[0])
				}
				require.Len(t, docsScript.FindAllString(r.raw, -1), 2, path)
			}

			// HSTS only over HTTPS, as a TLS-terminating proxy reports it.
			for _, path := range []string{"/", "/api/auth/me", "/docs", "/openapi.json"} {
				r := visitor.do("GET", path, nil, "X-Forwarded-Proto", "https")
				requireSecurityHeaders(t, r, path)
				hsts := r.header.Get("Strict-Transport-Security")
				require.True(t, strings.HasPrefix(hsts, "max-age="), "%s over https: %q", path, hsts)
			}
			r := admin.do("GET", "/admin/river/", nil, "X-Forwarded-Proto", "https")
			require.NotEmpty(t, r.header.Get("Strict-Transport-Security"))
			require.Empty(t, visitor.do("GET", "/", nil, "X-Forwarded-Proto", "http").header.Get("Strict-Transport-Security"))
		})
	}
}

func TestSecurityCrossSiteRequestsAreRefused(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			web, key := registrar(t, ts, "reseller")
			apiKey := func() string { return data(t, web.do("GET", "/api/registrar/api-key", nil))["apiKey"].(string) }
			require.Equal(t, key, apiKey())

			// A page on another site makes the browser send the cookie; the
			// browser also says where the request comes from.
			for _, from := range [][]string{
				{"Sec-Fetch-Site", "cross-site"},
				{"Sec-Fetch-Site", "same-site"},
				{"Origin", "https://evil.example"},
				{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"},
			} {
				r := web.do("POST", "/api/registrar/api-key", nil, from...)
				require.Equal(t, http.StatusForbidden, r.status, "%v: %s", from, r.raw)
				require.Equal(t, map[string]any{"success": false, "error": "Cross-site request refused"}, r.body)
				r = web.do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "secret1",
					"newPassword": "taken-over", "confirmPassword": "taken-over"}, from...)
				require.Equal(t, http.StatusForbidden, r.status, "%v: %s", from, r.raw)
				r = web.do("POST", "/api/auth/logout", nil, from...)
				require.Equal(t, http.StatusForbidden, r.status, "%v: %s", from, r.raw)
			}
			// Nothing changed: same key, same password, still logged in.
			require.Equal(t, key, apiKey())
			other := newBrowser(t, ts)
			r := other.do("POST", "/api/auth/login", map[string]any{"username": "reseller", "password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// Reading is not a write: a cross-site GET is answered as usual.
			r = web.do("GET", "/api/auth/me", nil, "Sec-Fetch-Site", "cross-site")
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// The app itself (same origin) writes.
			r = web.do("POST", "/api/registrar/api-key", nil, "Sec-Fetch-Site", "same-origin", "Origin", ts.url)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			newKey := data(t, r)["apiKey"].(string)
			require.NotEqual(t, key, newKey)
			r = web.do("POST", "/api/registrar/api-key", nil, "Origin", ts.url)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			newKey = data(t, r)["apiKey"].(string)
			require.Equal(t, newKey, apiKey())

			// /v1 authenticates by its key alone, wherever the call comes from.
			r = v1(t, ts, newKey, "POST", "/v1/wallet/deposits", map[string]any{"amount": 20},
				"Sec-Fetch-Site", "cross-site", "Origin", "https://elsewhere.example")
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, 20.0, balanceOf(t, ts, newKey))
			// ...and a cookie is no key.
			r = web.do("POST", "/v1/wallet/deposits", map[string]any{"amount": 20})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
		})
	}
}

func TestSecurityLoginFailureDoesNotTellWhichPartWasWrong(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			signedUp(t, ts, "carol", "user")
			unknown := newBrowser(t, ts).do("POST", "/api/auth/login", map[string]any{"username": "nobody", "password": "secret1"})
			wrong := newBrowser(t, ts).do("POST", "/api/auth/login", map[string]any{"username": "carol", "password": "not-it"})
			require.Equal(t, http.StatusUnauthorized, unknown.status, unknown.raw)
			require.Equal(t, unknown.status, wrong.status)
			require.Equal(t, map[string]any{"success": false, "error": "Invalid username or password", "code": "unauthenticated"}, unknown.body)
			require.Equal(t, unknown.body, wrong.body)
			require.Empty(t, unknown.header.Values("Set-Cookie"))
			require.Empty(t, wrong.header.Values("Set-Cookie"))
		})
	}
}

func TestSecuritySecretsStayOutOfLogs(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, nil)
			ts := &testServer{url: srv.URL, dbURL: srv.DatabaseURL, dnsAddr: srv.DNSAddr, stop: srv.Stop}
			var secrets []string
			keep := func(s ...string) {
				for _, v := range s {
					require.NotEmpty(t, v)
					secrets = append(secrets, v)
				}
			}
			keep("hunter22") // loginAdmin's password
			admin := loginAdmin(t, ts)

			// Sign-up, login, password change.
			alice := newBrowser(t, ts)
			in := signUp("alice", "registrar")
			in["password"], in["confirmPassword"] = "Pw-signup-4f1c", "Pw-signup-4f1c"
			r := alice.do("POST", "/api/auth/register", in)
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			keep("Pw-signup-4f1c", sessionCookie(t, r).Value, data(t, r)["apiKey"].(string))
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "Pw-signup-4f1c"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keep(sessionCookie(t, r).Value)
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "Pw-typo-8e2a"})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			keep("Pw-typo-8e2a")
			r = alice.do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "Pw-signup-4f1c",
				"newPassword": "Pw-changed-93bd", "confirmPassword": "Pw-changed-93bd"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keep("Pw-changed-93bd")
			r = alice.do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "Pw-wrong-71aa",
				"newPassword": "Pw-never-5c0e", "confirmPassword": "Pw-never-5c0e"})
			require.NotEqual(t, http.StatusOK, r.status, r.raw)
			keep("Pw-wrong-71aa", "Pw-never-5c0e")

			// Password reset by mail.
			visitor := newBrowser(t, ts)
			r = visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "alice@example.com"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			token := waitForResetMail(t, admin, "alice@example.com", 1)
			// The link opens the web app with the token in its query string.
			visitor.do("GET", "/reset-password?token="+token, nil)
			r = visitor.do("POST", "/api/auth/reset-password", map[string]any{"token": token,
				"newPassword": "Pw-reset-2b7d", "confirmPassword": "Pw-reset-2b7d"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keep(token, "Pw-reset-2b7d")
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "Pw-reset-2b7d"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keep(sessionCookie(t, r).Value)

			// API key rotation and use, by header and by bearer token.
			r = alice.do("POST", "/api/registrar/api-key", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			key := data(t, r)["apiKey"].(string)
			keep(key)
			require.Equal(t, http.StatusOK, v1(t, ts, key, "GET", "/v1/wallet", nil).status)
			b := &browser{t: t, base: ts.url, client: http.DefaultClient}
			require.Equal(t, http.StatusOK, b.do("GET", "/v1/domains", nil, "Authorization", "Bearer "+key).status)
			require.Equal(t, http.StatusUnauthorized, v1(t, ts, "np_not-a-real-key-61f0", "GET", "/v1/wallet", nil).status)
			keep("np_not-a-real-key-61f0")

			// Payment gateway secrets, set and then replaced.
			paypal := map[string]any{"id": "paypal", "name": "PayPal", "active": false, "testMode": true, "displayOrder": 1,
				"settings": map[string]any{"client_id": "cid", "client_secret": "pp_logcheck7788"}}
			r = admin.do("POST", "/api/site-settings", map[string]any{"key": "payment_gateways",
				"value": gatewaysValue(t, []map[string]any{paypal})})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			id := int64(data(t, r)["id"].(float64))
			paypal["settings"].(map[string]any)["client_secret"] = "pp_replaced5511"
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": gatewaysValue(t, []map[string]any{paypal})})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			keep("pp_logcheck7788", "pp_replaced5511")
			// A malformed value must not be echoed into the log either.
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": `[{"id":"paypal","settings":{"client_secret":"sk_test_broken9090"`})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			keep("sk_test_broken9090")

			// Whatever was logged along the way: no secret in it.
			logs := srv.Logs()
			require.Contains(t, logs, "/api/auth/login", "the log was captured")
			for _, s := range secrets {
				require.NotContains(t, logs, s)
			}
		})
	}
}
