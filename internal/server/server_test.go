package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
)

// testServer is a real `nameport serve` (all roles) running in-process.
type testServer struct {
	url     string
	dbURL   string
	dnsAddr string
	// forwardAddr is the forward role's HTTP address, when it runs.
	forwardAddr string
	stop        func() error
}

func start(t *testing.T, engine db.Engine) *testServer {
	t.Helper()
	return startWith(t, engine, nil)
}

// startWith is start with changes to the configuration.
func startWith(t *testing.T, engine db.Engine, edit func(*config.Config)) *testServer {
	t.Helper()
	s := servertest.Start(t, engine, edit)
	return &testServer{url: s.URL, dbURL: s.DatabaseURL, dnsAddr: s.DNSAddr, forwardAddr: s.ForwardAddr, stop: s.Stop}
}

func freeDNSAddr(t *testing.T) string { return servertest.FreeDNSAddr(t) }

// verifyEmail follows the verification link mailed to email (see
// servertest.VerifyEmail): sign-up helpers call it so the accounts they
// make may register names and add funds.
func verifyEmail(t *testing.T, ts *testServer, email string) {
	t.Helper()
	servertest.VerifyEmail(t, ts.url, email)
}

// browser is an HTTP client with a cookie jar, like a browser tab.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

func newBrowser(t *testing.T, ts *testServer) *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &browser{t: t, base: ts.url, client: &http.Client{Jar: jar}}
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (b *browser) do(method, path string, body any, headers ...string) reply {
	b.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		buf, err := json.Marshal(v)
		require.NoError(b.t, err)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, b.base+path, rd)
	require.NoError(b.t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.client.Do(req)
	require.NoError(b.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(b.t, err)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

func signUp(username, userType string) map[string]any {
	return map[string]any{"username": username, "email": username + "@example.com", "password": "secret1",
		"confirmPassword": "secret1", "fullName": "Test Person", "userType": userType}
}

func data(t *testing.T, r reply) map[string]any {
	t.Helper()
	require.Equal(t, true, r.body["success"], r.raw)
	d, ok := r.body["data"].(map[string]any)
	require.True(t, ok, r.raw)
	return d
}

func sessionCookie(t *testing.T, r reply) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == "nameport_session" {
			return c
		}
	}
	t.Fatalf("no session cookie in %v", r.header)
	return nil
}

func TestAccountsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice := newBrowser(t, ts)

			// A visitor is not logged in.
			r := alice.do("GET", "/api/auth/me", nil)
			require.Equal(t, http.StatusUnauthorized, r.status)
			require.Equal(t, map[string]any{"success": false, "error": "Not authenticated", "code": "unauthenticated"}, r.body)

			// Sign-up logs in with a hardened cookie.
			r = alice.do("POST", "/api/auth/register", signUp("alice", "user"))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			c := sessionCookie(t, r)
			require.True(t, c.HttpOnly)
			require.Equal(t, http.SameSiteLaxMode, c.SameSite)
			require.False(t, c.Secure, "plain HTTP in tests")
			me := data(t, alice.do("GET", "/api/auth/me", nil))
			require.Equal(t, "alice", me["username"])
			require.Equal(t, "user", me["userType"])
			require.NotContains(t, me, "apiKey")
			require.NotContains(t, me, "password")
			require.Equal(t, "alice", data(t, alice.do("GET", "/api/me", nil))["username"])

			// Duplicates are conflicts, whatever the case.
			bob := newBrowser(t, ts)
			dup := signUp("ALICE", "user")
			dup["email"] = "x@example.com"
			r = bob.do("POST", "/api/auth/register", dup)
			require.Equal(t, http.StatusConflict, r.status)
			require.Equal(t, "Username is already taken", r.body["error"])

			// Validation uses the spec's messages.
			bad := signUp("bob", "user")
			bad["confirmPassword"] = "other1"
			r = bob.do("POST", "/api/auth/register", bad)
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "Passwords do not match", r.body["error"])

			// Logout ends the session; the old cookie is worthless.
			r = alice.do("POST", "/api/auth/logout", nil)
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, true, r.body["success"])
			require.Equal(t, http.StatusUnauthorized, alice.do("GET", "/api/auth/me", nil).status)
			stale := newBrowser(t, ts)
			r = stale.do("GET", "/api/auth/me", nil, "Cookie", "nameport_session="+c.Value)
			require.Equal(t, http.StatusUnauthorized, r.status)

			// Login: a new session id each time.
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "user", data(t, r)["userType"])
			first := sessionCookie(t, r).Value
			require.NotEqual(t, c.Value, first)
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			second := sessionCookie(t, r).Value
			require.NotEqual(t, first, second)
			r = stale.do("GET", "/api/auth/me", nil, "Cookie", "nameport_session="+first)
			require.Equal(t, http.StatusUnauthorized, r.status, "the previous session ended at login")
		})
	}
}

func TestRegistrarSignUpShowsAPIKeyToItsOwnerOnly(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	reseller := newBrowser(t, ts)
	in := signUp("reseller", "registrar")
	in["tier"] = "enterprise"
	r := reseller.do("POST", "/api/auth/register", in)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	created := data(t, r)
	require.Equal(t, "registrar", created["userType"])
	require.Equal(t, "basic", created["tier"], "enterprise is applied for, not taken")
	key, _ := created["apiKey"].(string)
	require.True(t, strings.HasPrefix(key, "np_"), "sign-up shows the new key once")
	require.Equal(t, key, data(t, reseller.do("GET", "/api/registrar/api-key", nil))["apiKey"], "the owner sees it again")

	// Finding 9: the key came back in every login answer (and every /me).
	r = reseller.do("POST", "/api/auth/login", map[string]any{"username": "reseller", "password": "secret1"})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	require.NotContains(t, data(t, r), "apiKey")
	require.NotContains(t, r.raw, key)
	require.NotContains(t, reseller.body(t, "/api/auth/me"), key)
	require.NotContains(t, reseller.body(t, "/api/me"), key)

	other := newBrowser(t, ts)
	require.Equal(t, http.StatusCreated, other.do("POST", "/api/auth/register", signUp("someone", "user")).status)
	require.NotContains(t, other.body(t, "/api/auth/me"), key)
	r = other.do("GET", "/api/registrar/api-key", nil)
	require.Equal(t, http.StatusForbidden, r.status)
	require.Equal(t, "Only registrar accounts have an API key", r.body["error"])
	require.NotContains(t, r.raw, key)
	require.Equal(t, http.StatusUnauthorized, newBrowser(t, ts).do("GET", "/api/registrar/api-key", nil).status)

	// Nobody signs up as admin.
	r = newBrowser(t, ts).do("POST", "/api/auth/register", signUp("sneaky", "admin"))
	require.Equal(t, http.StatusUnprocessableEntity, r.status)
}

func (b *browser) body(t *testing.T, path string) string {
	t.Helper()
	return b.do("GET", path, nil).raw
}

func TestLoginThrottleAnswers429(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	b := newBrowser(t, ts)
	require.Equal(t, http.StatusCreated, b.do("POST", "/api/auth/register", signUp("carol", "user")).status)
	wrong := map[string]any{"username": "carol", "password": "not-it"}
	for range 5 {
		r := b.do("POST", "/api/auth/login", wrong)
		require.Equal(t, http.StatusUnauthorized, r.status)
		require.Equal(t, "Invalid username or password", r.body["error"])
	}
	r := b.do("POST", "/api/auth/login", map[string]any{"username": "carol", "password": "secret1"})
	require.Equal(t, http.StatusTooManyRequests, r.status)
	require.Contains(t, r.body["error"], "Too many failed login attempts")
	require.NotEmpty(t, r.header.Get("Retry-After"))
}

func TestCrossSiteWritesAreRefused(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	b := newBrowser(t, ts)
	r := b.do("POST", "/api/auth/register", signUp("dave", "user"), "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	require.Equal(t, http.StatusForbidden, r.status)
	require.Equal(t, "Cross-site request refused", r.body["error"])
	r = b.do("POST", "/api/auth/register", signUp("dave", "user"), "Origin", "https://evil.example")
	require.Equal(t, http.StatusForbidden, r.status, "Origin alone is checked against Host")
	// Nothing was created: the same sign-up from the site itself works.
	r = b.do("POST", "/api/auth/register", signUp("dave", "user"), "Sec-Fetch-Site", "same-origin", "Origin", ts.url)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	// Reads are never blocked.
	r = b.do("GET", "/api/auth/me", nil, "Sec-Fetch-Site", "cross-site")
	require.Equal(t, http.StatusOK, r.status)
}

func TestBadInputGetsClearErrors(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	b := newBrowser(t, ts)
	cases := []struct {
		name, body string
		status     int
		message    string
	}{
		{"malformed", `{"username":`, http.StatusBadRequest, "unexpected end of JSON input"},
		{"wrong type", `{"username":123}`, http.StatusUnprocessableEntity, "username: expected string"},
		{"unknown field", `{"username":"x","isAdmin":true}`, http.StatusUnprocessableEntity, "isAdmin"},
		{"empty", `{}`, http.StatusUnprocessableEntity, "Full name is required"},
		{"not an object", `[]`, http.StatusUnprocessableEntity, "expected object"},
	}
	for _, tc := range cases {
		r := b.do("POST", "/api/auth/register", tc.body)
		require.Equal(t, tc.status, r.status, tc.name+": "+r.raw)
		require.Equal(t, false, r.body["success"], tc.name)
		require.Contains(t, r.body["error"], tc.message, tc.name)
	}
	big := `{"username":"` + strings.Repeat("a", 2<<20) + `"}`
	r := b.do("POST", "/api/auth/register", big)
	require.Equal(t, http.StatusRequestEntityTooLarge, r.status)
	r = b.do("POST", "/api/auth/login", map[string]any{"username": "someone", "password": strings.Repeat("p", 10_000)})
	require.Equal(t, http.StatusUnprocessableEntity, r.status)
	require.Equal(t, "Password must be at most 128 characters", r.body["error"])
}

func TestOperationalEndpoints(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	b := newBrowser(t, ts)
	require.Equal(t, http.StatusOK, b.do("GET", "/healthz", nil).status)
	r := b.do("GET", "/readyz", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, map[string]any{"database": "ok", "dns": "ok"}, r.body)

	r = b.do("GET", "/openapi.json", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "3.1.0", r.body["openapi"])
	require.Contains(t, r.raw, `"/api/auth/login"`)
	// The API reference: Redoc, from this binary, on the whole document
	// and on the registrar API's alone, under the site's name.
	r = b.do("GET", "/docs", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, r.raw, "<title>API Reference · Nameport</title>")
	require.Contains(t, r.raw, `data-spec-url="/openapi.json"`)
	require.Contains(t, r.raw, `<script src="/docs/redoc.standalone.js"></script>`)
	require.NotContains(t, r.raw, "://", "the reference loads nothing from elsewhere")
	r = b.do("GET", "/docs/v1", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, r.raw, `data-spec-url="/v1/openapi.json"`)
	r = b.do("GET", "/v1/openapi.json", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "3.1.0", r.body["openapi"])
	require.Contains(t, r.raw, `"/v1/domains/check"`)
	require.NotContains(t, r.raw, `"/api/`)

	b.do("GET", "/api/auth/me", nil)
	r = b.do("GET", "/metrics", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.Contains(t, r.raw, `nameport_http_requests_total{code="401",method="GET",route="/api/auth/me"}`)

	// Unknown API paths are JSON 404s, never the web app.
	for _, p := range []string{"/api/nope", "/api/"} {
		r = b.do("GET", p, nil)
		require.Equal(t, http.StatusNotFound, r.status, p)
		require.Equal(t, "application/json", r.header.Get("Content-Type"), p)
		require.Equal(t, false, r.body["success"], p)
	}
	for _, p := range []string{"/v1", "/v1/nope/zzz"} {
		r = b.do("GET", p, nil)
		require.Equal(t, http.StatusNotFound, r.status, p)
		require.Equal(t, "application/problem+json", r.header.Get("Content-Type"), p)
		require.Equal(t, "not_found", r.body["code"], p)
	}
	r = b.do("GET", "/api/auth/login", nil)
	require.Equal(t, http.StatusMethodNotAllowed, r.status)

	require.NotEmpty(t, r.header.Get("X-Request-Id"))
	r = b.do("GET", "/healthz", nil, "X-Request-Id", "trace-123")
	require.Equal(t, "trace-123", r.header.Get("X-Request-Id"))
	require.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
}

func TestSecureCookieBehindTLS(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	r := newBrowser(t, ts).do("POST", "/api/auth/register", signUp("erin", "user"), "X-Forwarded-Proto", "https")
	require.Equal(t, http.StatusCreated, r.status)
	require.True(t, sessionCookie(t, r).Secure)
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	require.Equal(t, http.StatusOK, newBrowser(t, ts).do("GET", "/readyz", nil).status)
	require.NoError(t, ts.stop())
	_, err := http.Get(ts.url + "/healthz")
	require.Error(t, err, "the listener is closed after shutdown")
}
