package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

const mustVerify = "Verify your email address before registering names or adding funds."

// Finding 9 (email verification): an account whose address is not verified
// signs in but cannot register names or add funds, on /api or /v1, until
// it follows the mailed link.
func TestUnverifiedAccountsCannotTransact(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			admin := loginAdmin2(t, ts)

			alice := newBrowser(t, ts)
			r := alice.do("POST", "/api/auth/register", signUp("alice", "user"))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			reseller := newBrowser(t, ts)
			r = reseller.do("POST", "/api/auth/register", signUp("reseller", "registrar"))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			key := data(t, r)["apiKey"].(string)
			require.Equal(t, map[string]any{"email": "alice@example.com", "verified": false},
				data(t, alice.do("GET", "/api/auth/email-verification", nil)))

			// Signed in, yet no money and no names, however asked.
			for _, call := range []struct {
				method, path string
				body         any
			}{
				{"POST", "/api/wallet/deposit", map[string]any{"amount": 50}},
				{"POST", "/api/domains", map[string]any{"name": "alice-site", "extension": ".inf.nz"}},
				{"POST", "/api/create-payment-intent", map[string]any{"amount": 10}},
			} {
				r = alice.do(call.method, call.path, call.body)
				require.Equal(t, http.StatusForbidden, r.status, "%s %s: %s", call.method, call.path, r.raw)
				require.Equal(t, mustVerify, r.body["error"])
			}
			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 50})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "forbidden", problemCode(t, r))
			r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "resell.inf.nz"})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, http.StatusOK, v1(t, ts, key, "GET", "/v1/wallet", nil).status, "reading is allowed")
			require.Equal(t, map[string]any{"balance": 0.0, "currency": "USD"}, data(t, alice.do("GET", "/api/wallet", nil)))
			require.Equal(t, []any{}, alice.do("GET", "/api/domains", nil).body["data"])

			// Resend: a few, then 429.
			for range 3 {
				r = alice.do("POST", "/api/auth/email-verification/resend", nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
			}
			r = alice.do("POST", "/api/auth/email-verification/resend", nil)
			require.Equal(t, http.StatusTooManyRequests, r.status, r.raw)
			require.NotEmpty(t, r.header.Get("Retry-After"))

			// The mailed link (the newest) verifies; then money and names work.
			verifyEmail(t, ts, "alice@example.com")
			verifyEmail(t, ts, "reseller@example.com")
			require.Equal(t, true, data(t, alice.do("GET", "/api/auth/email-verification", nil))["verified"])
			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = alice.do("POST", "/api/domains", map[string]any{"name": "alice-site", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 50}).status)
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "resell.inf.nz"}).status)
			r = alice.do("POST", "/api/auth/email-verification/resend", nil)
			require.Equal(t, http.StatusConflict, r.status, r.raw)

			// A used link does not work again; a made-up one never did.
			r = newBrowser(t, ts).do("POST", "/api/auth/verify-email", map[string]any{"token": "not-a-token"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "This verification link is invalid or has expired. Ask for a new one.", r.body["error"])

			// Admins made by operators are verified; their mail says nothing.
			require.Equal(t, true, data(t, admin.do("GET", "/api/auth/email-verification", nil))["verified"])
		})
	}
}
