package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// Two-factor sign-in over HTTP: the password step answers 401
// two_factor_required with a pending token (no session), the second step
// starts the session; turning it on signs out the other sessions.
func TestTwoFactorLoginOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice := signedUp(t, ts, "alice", "user")
			elsewhere := newBrowser(t, ts)
			r := elsewhere.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = alice.do("GET", "/api/account/sessions", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Len(t, r.body["data"], 2)

			r = alice.do("POST", "/api/account/two-factor/totp", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			setup := data(t, r)
			secret := setup["secret"].(string)
			require.Regexp(t, `^data:image/png;base64,`, setup["qrCode"])
			code := func(at time.Time) string {
				c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
				require.NoError(t, err)
				return c
			}
			r = alice.do("POST", "/api/account/two-factor/totp/confirm", map[string]any{"code": "12a456"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Enter the 6-digit code from your authenticator app", r.body["error"])
			r = alice.do("POST", "/api/account/two-factor/totp/confirm", map[string]any{"code": code(time.Now())})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			recovery := data(t, r)["recoveryCodes"].([]any)
			require.Len(t, recovery, 10)
			require.Equal(t, http.StatusUnauthorized, elsewhere.do("GET", "/api/auth/me", nil).status, "signed out by turning 2FA on")
			r = alice.do("GET", "/api/account/two-factor", nil)
			require.Equal(t, true, data(t, r)["totpEnabled"], r.raw)

			// The password alone: no session, a pending token.
			phone := newBrowser(t, ts)
			r = phone.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "two_factor_required", r.body["code"], r.raw)
			require.Equal(t, []any{"totp", "recovery"}, r.body["methods"])
			pending := r.body["pendingToken"].(string)
			require.Equal(t, http.StatusUnauthorized, phone.do("GET", "/api/auth/me", nil).status)

			r = phone.do("POST", "/api/auth/login/two-factor", map[string]any{"pendingToken": "bogus", "method": "totp", "code": "123456"})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "This sign-in has expired. Please log in again.", r.body["error"])
			r = phone.do("POST", "/api/auth/login/two-factor", map[string]any{"pendingToken": pending, "method": "totp", "code": "12345"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			// One step ahead: the confirming code's step is used up.
			r = phone.do("POST", "/api/auth/login/two-factor", map[string]any{"pendingToken": pending, "method": "totp",
				"code": code(time.Now().Add(30 * time.Second))})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "alice", data(t, r)["username"])
			require.Equal(t, http.StatusOK, phone.do("GET", "/api/auth/me", nil).status)

			// A recovery code, once.
			for i, want := range []int{http.StatusOK, http.StatusUnauthorized} {
				b := newBrowser(t, ts)
				r = b.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
				require.Equal(t, "two_factor_required", r.body["code"], r.raw)
				r = b.do("POST", "/api/auth/login/two-factor", map[string]any{"pendingToken": r.body["pendingToken"],
					"method": "recovery", "code": recovery[0]})
				require.Equal(t, want, r.status, "use %d: %s", i+1, r.raw)
			}

			// Sessions: phone's is listed and alice ends it.
			r = alice.do("GET", "/api/account/sessions", nil)
			var phoneID string
			for _, s := range r.body["data"].([]any) {
				if s := s.(map[string]any); s["current"] != true && phoneID == "" {
					phoneID = s["id"].(string)
				}
			}
			require.NotEmpty(t, phoneID, r.raw)
			r = alice.do("POST", "/api/account/sessions/end-others", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, http.StatusUnauthorized, phone.do("GET", "/api/auth/me", nil).status)
			r = alice.do("DELETE", "/api/account/sessions/"+phoneID, nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)

			r = alice.do("POST", "/api/account/two-factor/disable", map[string]any{"password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = newBrowser(t, ts).do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
		})
	}
}

// The two-factor policy: admins are always asked to set up a second
// factor; registrars when an admin turns the site setting on, and then held
// from registrar tools until they do; end users never.
func TestTwoFactorPolicy(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts) // makes the admin account
			admin := loginAdmin2(t, ts)
			reseller, key := registrar(t, ts, "reseller")
			user := signedUp(t, ts, "carol", "user")
			enforced := func(b *browser) any {
				r := b.do("GET", "/api/account/two-factor", nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				return data(t, r)["setupEnforced"]
			}
			required := func(b *browser) any {
				r := b.do("GET", "/api/account/two-factor", nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				return data(t, r)["setupRequired"]
			}
			require.Equal(t, true, required(admin))
			require.Equal(t, false, required(reseller))
			require.Equal(t, false, required(user))

			r := admin.do("POST", "/api/site-settings", map[string]any{"key": "require_two_factor_registrars", "value": "true",
				"category": "general", "isPublic": false})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, true, required(reseller))
			require.Equal(t, false, required(user))

			// Required: the registrar's tools are closed until it sets up a
			// second factor; its own account, Account Settings and its API
			// key (/v1) still work.
			require.Equal(t, true, enforced(reseller))
			r = reseller.do("GET", "/api/registrar/allowance", nil)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "two_factor_setup_required", r.body["code"])
			require.Equal(t, "Set up two-factor sign-in (an authenticator app or a passkey) in Account Settings before using registrar tools", r.body["error"])
			require.Equal(t, http.StatusOK, reseller.do("GET", "/api/domains", nil).status)
			require.Equal(t, http.StatusOK, v1(t, ts, key, "GET", "/v1/domains", nil).status)
			r = reseller.do("POST", "/api/account/two-factor/totp", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			code, err := totp.GenerateCodeCustom(data(t, r)["secret"].(string), time.Now(),
				totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
			require.NoError(t, err)
			r = reseller.do("POST", "/api/account/two-factor/totp/confirm", map[string]any{"code": code})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, enforced(reseller))
			require.Equal(t, false, required(reseller))
			require.Equal(t, http.StatusOK, reseller.do("GET", "/api/registrar/allowance", nil).status)
			// End users are never held.
			require.Equal(t, false, enforced(user))

			// Admins from before two-factor sign-in came are asked, not held,
			// until an admin requires it of every admin: then this one is
			// held too (the policy itself included) until it sets one up.
			require.Equal(t, false, enforced(admin))
			r = admin.do("GET", "/api/admin/two-factor-policy", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"requireAdmins": false, "requireRegistrars": true}, data(t, r))
			r = admin.do("PUT", "/api/admin/two-factor-policy", map[string]any{"requireAdmins": true, "requireRegistrars": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"requireAdmins": true, "requireRegistrars": true}, data(t, r))
			require.Equal(t, true, enforced(admin))
			r = admin.do("GET", "/api/admin/users", nil)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "Set up two-factor sign-in (an authenticator app or a passkey) in Account Settings before using admin tools", r.body["error"])
			r = admin.do("PUT", "/api/admin/two-factor-policy", map[string]any{"requireAdmins": false, "requireRegistrars": false})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "two_factor_setup_required", r.body["code"])

			// Set up: asked no more.
			r = admin.do("POST", "/api/account/two-factor/totp", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			code, err = totp.GenerateCodeCustom(data(t, r)["secret"].(string), time.Now(),
				totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
			require.NoError(t, err)
			r = admin.do("POST", "/api/account/two-factor/totp/confirm", map[string]any{"code": code})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, required(admin))
			require.Equal(t, false, enforced(admin))
			require.Equal(t, http.StatusOK, admin.do("GET", "/api/admin/users", nil).status)

			// The policy is stored as private settings, each change audited.
			r = admin.do("PUT", "/api/admin/two-factor-policy", map[string]any{"requireAdmins": true, "requireRegistrars": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"requireAdmins": true, "requireRegistrars": false}, data(t, r))
			require.Equal(t, false, required(reseller), "registrars are asked no more")
			require.Equal(t, 1, countRows(t, ts.dbURL, "SELECT count(*) FROM site_settings WHERE key = 'require_two_factor_admins' AND value = 'true' AND NOT is_public"))
			require.Equal(t, 1, countRows(t, ts.dbURL, "SELECT count(*) FROM site_settings WHERE key = 'require_two_factor_registrars' AND value = 'false'"))
			require.Equal(t, 3, countRows(t, ts.dbURL, "SELECT count(*) FROM audit_log WHERE target_type = 'site_setting'"))
			r = user.do("PUT", "/api/admin/two-factor-policy", map[string]any{"requireAdmins": false, "requireRegistrars": false})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
		})
	}
}
