package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/passkeytest"
)

// seedPasskey gives username a passkey row (not one that signs in: the
// authorization matrix only needs it to exist) and returns its id.
func seedPasskey(t *testing.T, ts *testServer, username string) string {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	var userID, id int64
	require.NoError(t, d.Bun.NewRaw("SELECT id FROM users WHERE username = ?", username).Scan(ctx, &userID))
	require.NoError(t, d.Bun.NewRaw(`INSERT INTO passkeys (user_id, credential_id, name, credential, created_at)
		VALUES (?, ?, 'Seeded', '{}', ?) RETURNING id`, userID, "seeded-"+username, time.Now().UTC()).Scan(ctx, &id))
	return strconv.FormatInt(id, 10)
}

// startPasskeys runs a server whose public address can be a relying party.
func startPasskeys(t *testing.T, engine db.Engine) (*testServer, string) {
	const origin = "http://localhost:8080"
	ts := startWith(t, engine, func(c *config.Config) { c.PublicURL = origin })
	return ts, origin
}

func TestPasskeysOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts, origin := startPasskeys(t, engine)
			web := signedUp(t, ts, "passkeyuser", "user")
			auth := passkeytest.New(origin)

			// Add one.
			r := web.do("POST", "/api/account/passkeys/options", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			opts := data(t, r)
			answer, err := auth.Create(opts["options"].(map[string]any))
			require.NoError(t, err)
			r = web.do("POST", "/api/account/passkeys", map[string]any{"ceremonyToken": opts["ceremonyToken"], "name": "Laptop", "credential": answer})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			id := idOf(t, data(t, r)["id"])
			// The same answer again: the ceremony was used.
			r = web.do("POST", "/api/account/passkeys", map[string]any{"ceremonyToken": opts["ceremonyToken"], "name": "Laptop", "credential": answer})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			// Garbage answers: clear 422s.
			for _, bad := range []any{map[string]any{"id": 5}, map[string]any{"response": "x"}, map[string]any{"type": "public-key", "rawId": "!!"}} {
				r = web.do("POST", "/api/account/passkeys/options", nil)
				tok := data(t, r)["ceremonyToken"]
				r = web.do("POST", "/api/account/passkeys", map[string]any{"ceremonyToken": tok, "credential": bad})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%v: %s", bad, r.raw)
			}

			// Sign in with it alone, from another browser.
			other := newBrowser(t, ts)
			r = other.do("POST", "/api/auth/passkey/options", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			opts = data(t, r)
			answer, err = auth.Get(opts["options"].(map[string]any), auth.Credentials()[0])
			require.NoError(t, err)
			r = other.do("POST", "/api/auth/passkey", map[string]any{"ceremonyToken": opts["ceremonyToken"], "credential": answer})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "passkeyuser", data(t, r)["username"])
			cookies := strings.Join(r.header.Values("Set-Cookie"), "\n")
			require.Contains(t, cookies, "nameport_session=")
			require.Contains(t, cookies, "nameport_device=")
			require.Equal(t, http.StatusOK, other.do("GET", "/api/auth/me", nil).status)
			// Replayed: refused.
			r = newBrowser(t, ts).do("POST", "/api/auth/passkey", map[string]any{"ceremonyToken": opts["ceremonyToken"], "credential": answer})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)

			// The password now asks for the passkey.
			third := newBrowser(t, ts)
			r = third.do("POST", "/api/auth/login", map[string]any{"username": "passkeyuser", "password": "secret1"})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "two_factor_required", r.body["code"])
			require.Equal(t, []any{"passkey"}, r.body["methods"])
			pending := r.body["pendingToken"]
			r = third.do("POST", "/api/auth/login/two-factor/passkey-options", map[string]any{"pendingToken": pending})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			answer, err = auth.Get(data(t, r)["options"].(map[string]any), auth.Credentials()[0])
			require.NoError(t, err)
			r = third.do("POST", "/api/auth/login/two-factor", map[string]any{"pendingToken": pending, "method": "passkey", "credential": answer})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// List, rename; another account's is 404.
			r = web.do("GET", "/api/account/passkeys", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Len(t, r.body["data"], 1)
			r = web.do("PATCH", "/api/account/passkeys/"+id, map[string]any{"name": "Work laptop"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "Work laptop", data(t, r)["name"])
			stranger := signedUp(t, ts, "passkeystranger", "user")
			r = stranger.do("PATCH", "/api/account/passkeys/"+id, map[string]any{"name": "Mine"})
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			r = stranger.do("DELETE", "/api/account/passkeys/"+id, map[string]any{"password": "secret1"})
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			// Removing asks for the password again.
			r = web.do("DELETE", "/api/account/passkeys/"+id, nil)
			require.Equal(t, http.StatusBadRequest, r.status, r.raw)
			r = web.do("DELETE", "/api/account/passkeys/"+id, map[string]any{})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Enter your password", r.body["error"])
			r = web.do("DELETE", "/api/account/passkeys/"+id, map[string]any{"password": "wrong99"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Password is incorrect", r.body["error"])
			require.Len(t, web.do("GET", "/api/account/passkeys", nil).body["data"], 1)
			r = web.do("DELETE", "/api/account/passkeys/"+id, map[string]any{"password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = web.do("GET", "/api/account/passkeys", nil)
			require.Empty(t, r.body["data"])
		})
	}
}

func TestNewAdminsAreHeldUntilTwoFactor(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts, origin := startPasskeys(t, engine)
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			accounts, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("x", 32))})
			require.NoError(t, err)
			_, err = accounts.CreateAdmin(context.Background(), "freshadmin", "fresh@example.com", "hunter22")
			require.NoError(t, err)
			admin := newBrowser(t, ts)
			r := admin.do("POST", "/api/auth/login", map[string]any{"username": "freshadmin", "password": "hunter22"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = admin.do("GET", "/api/admin/users", nil)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "two_factor_setup_required", r.body["code"])
			r = admin.do("GET", "/api/account/two-factor", nil)
			require.Equal(t, true, data(t, r)["setupEnforced"], r.raw)

			// A passkey lifts it.
			auth := passkeytest.New(origin)
			opts := data(t, admin.do("POST", "/api/account/passkeys/options", nil))
			answer, err := auth.Create(opts["options"].(map[string]any))
			require.NoError(t, err)
			r = admin.do("POST", "/api/account/passkeys", map[string]any{"ceremonyToken": opts["ceremonyToken"], "credential": answer})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = admin.do("GET", "/api/admin/users", nil)
			require.Equal(t, http.StatusOK, r.status, fmt.Sprint(r.raw))
		})
	}
}

// TestPasskeyOperationsRefuseBadInput: every passkey operation answers bad
// input with a 4xx and a message, never a 5xx, with passkeys on.
func TestPasskeyOperationsRefuseBadInput(t *testing.T) {
	t.Parallel()
	ts, _ := startPasskeys(t, db.SQLite)
	user := signedUp(t, ts, "passkeybadinput", "user")
	visitor := newBrowser(t, ts)
	hostile := []any{"' OR 1=1 --", "<script>alert(1)</script>", "a\x00b", strings.Repeat("x", 300), 12345, nil,
		map[string]any{"nested": true}, []any{1, 2}}
	calls := []struct {
		b            *browser
		method, path string
		fields       []string
	}{
		{user, "POST", "/api/account/passkeys", []string{"ceremonyToken", "name", "credential"}},
		{user, "PATCH", "/api/account/passkeys/1", []string{"name"}},
		{visitor, "POST", "/api/auth/passkey", []string{"ceremonyToken", "credential"}},
		{visitor, "POST", "/api/auth/login/two-factor/passkey-options", []string{"pendingToken"}},
		{visitor, "POST", "/api/auth/login/two-factor", []string{"pendingToken", "credential"}},
	}
	for _, c := range calls {
		for _, field := range c.fields {
			for _, v := range hostile {
				body := map[string]any{"pendingToken": "x", "method": "passkey", "ceremonyToken": "x", "name": "Key",
					"credential": map[string]any{"id": "AAAA", "rawId": "AAAA", "type": "public-key",
						"response": map[string]any{"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"}}}
				body[field] = v
				r := c.b.do(c.method, c.path, body)
				require.True(t, r.status >= 400 && r.status < 500, "%s %s %s=%v: %d %s", c.method, c.path, field, v, r.status, r.raw)
				require.NotEmpty(t, r.body["error"], "%s %s %s=%v: %s", c.method, c.path, field, v, r.raw)
			}
		}
		for _, raw := range []string{`{"a":`, `[1]`, `nul`} {
			r := c.b.do(c.method, c.path, raw)
			require.True(t, r.status >= 400 && r.status < 500, "%s %s %s: %d %s", c.method, c.path, raw, r.status, r.raw)
		}
	}
	for _, path := range []string{"/api/account/passkeys/not-an-id", "/api/account/passkeys/-1", "/api/account/passkeys/99999999999999999999"} {
		r := user.do("DELETE", path, nil)
		require.True(t, r.status >= 400 && r.status < 500, "%s: %d %s", path, r.status, r.raw)
	}
}
