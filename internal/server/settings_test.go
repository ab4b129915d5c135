package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func settingsList(t *testing.T, b *browser) map[string]map[string]any {
	t.Helper()
	r := b.do("GET", "/api/site-settings", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	out := map[string]map[string]any{}
	for _, s := range r.body["data"].([]any) {
		m := s.(map[string]any)
		out[m["key"].(string)] = m
	}
	return out
}

// rawSetting reads a setting's value straight from the database.
func rawSetting(t *testing.T, ts *testServer, key string) string {
	t.Helper()
	d, err := db.Open(context.Background(), ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	var value string
	require.NoError(t, d.Bun.NewSelect().Table("site_settings").Column("value").Where("key = ?", key).
		Scan(context.Background(), &value))
	return value
}

func TestSiteSettingsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			user := signedUp(t, ts, "alice", "user")
			guest := newBrowser(t, ts)

			// Create: defaults (branding, public), and the spec's messages.
			r := admin.do("POST", "/api/site-settings", map[string]any{"key": "site_name", "value": "Nameport"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			name := data(t, r)
			require.Equal(t, "branding", name["category"])
			require.Equal(t, true, name["isPublic"])
			id := int64(name["id"].(float64))

			hidden := data(t, admin.do("POST", "/api/site-settings", map[string]any{"key": "support_phone",
				"value": "+64 9 000 0000", "category": "contact", "description": "Desk line", "isPublic": false}))
			require.Equal(t, false, hidden["isPublic"])
			require.Equal(t, "Desk line", hidden["description"])

			for _, tc := range []struct {
				body map[string]any
				want string
			}{
				{map[string]any{"value": "x"}, "Setting key is required"},
				{map[string]any{"key": "  ", "value": "x"}, "Setting key is required"},
				{map[string]any{"key": "k"}, "Setting value is required"},
				{map[string]any{"key": "k", "value": ""}, "Setting value is required"},
				{map[string]any{"key": "k", "value": "v", "category": "weather"}, "Category must be one of"},
			} {
				r := admin.do("POST", "/api/site-settings", tc.body)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, false, r.body["success"])
				require.Contains(t, r.body["error"], tc.want)
			}
			r = admin.do("POST", "/api/site-settings", map[string]any{"key": "site_name", "value": "Again"})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "Setting site_name already exists", r.body["error"])

			// Permissions: anonymous 401, others 403, on every write.
			for _, op := range []struct{ method, path string }{
				{"POST", "/api/site-settings"},
				{"PATCH", fmt.Sprintf("/api/site-settings/%d", id)},
				{"DELETE", fmt.Sprintf("/api/site-settings/%d", id)},
			} {
				body := map[string]any{"key": "x", "value": "y"}
				require.Equal(t, http.StatusUnauthorized, guest.do(op.method, op.path, body).status, op)
				require.Equal(t, http.StatusForbidden, user.do(op.method, op.path, body).status, op)
			}

			// Everyone reads the public ones; admins read all.
			require.Contains(t, settingsList(t, guest), "site_name")
			require.NotContains(t, settingsList(t, guest), "support_phone")
			require.NotContains(t, settingsList(t, user), "support_phone")
			require.Contains(t, settingsList(t, admin), "support_phone")

			// Update: the fields sent; validation; conflicts; not found.
			up := data(t, admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": "Nameport NZ"}))
			require.Equal(t, "Nameport NZ", up["value"])
			require.Equal(t, "site_name", up["key"])
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": " "})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Setting value is required", r.body["error"])
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"key": ""})
			require.Equal(t, "Setting key is required", r.body["error"])
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"key": "support_phone"})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, http.StatusNotFound, admin.do("PATCH", "/api/site-settings/999999", map[string]any{"value": "v"}).status)
			data(t, admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"isPublic": false}))
			require.NotContains(t, settingsList(t, guest), "site_name")

			// Delete.
			r = admin.do("DELETE", fmt.Sprintf("/api/site-settings/%d", id), nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.NotContains(t, settingsList(t, admin), "site_name")
			require.Equal(t, http.StatusNotFound, admin.do("DELETE", fmt.Sprintf("/api/site-settings/%d", id), nil).status)
		})
	}
}

func gatewaysValue(t *testing.T, list []map[string]any) string {
	t.Helper()
	b, err := json.Marshal(list)
	require.NoError(t, err)
	return string(b)
}

func readGateways(t *testing.T, s map[string]any) []map[string]any {
	t.Helper()
	var list []map[string]any
	require.NoError(t, json.Unmarshal([]byte(s["value"].(string)), &list))
	return list
}

func TestPaymentGatewaySecretsAreSealedAndMasked(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			guest := newBrowser(t, ts)
			user := signedUp(t, ts, "bob", "user")

			paypal := map[string]any{"id": "paypal", "name": "PayPal", "active": false, "testMode": true, "displayOrder": 1,
				"settings": map[string]any{"client_id": "cid-public", "client_secret": "pp-secret-4321", "allow_guest_checkout": true}}
			mobile := map[string]any{"id": "mobile_payment", "name": "Mobile Payment", "active": false, "testMode": true, "displayOrder": 2,
				"settings": map[string]any{"provider": "Apple Pay", "merchant_id": "merchant-1"}}

			// Even asked to be public, payment_gateways is private, in category payment.
			r := admin.do("POST", "/api/site-settings", map[string]any{"key": "payment_gateways",
				"value": gatewaysValue(t, []map[string]any{paypal, mobile}), "category": "branding", "isPublic": true})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			created := data(t, r)
			require.Equal(t, "payment", created["category"])
			require.Equal(t, false, created["isPublic"])
			id := int64(created["id"].(float64))
			require.NotContains(t, r.raw, "pp-secret-4321")

			// Nobody but admins sees it; admins see masks only.
			require.NotContains(t, settingsList(t, guest), "payment_gateways")
			require.NotContains(t, settingsList(t, user), "payment_gateways")
			list := readGateways(t, settingsList(t, admin)["payment_gateways"])
			require.Len(t, list, 2)
			st := list[0]["settings"].(map[string]any)
			require.Equal(t, "••••4321", st["client_secret"])
			require.Equal(t, "cid-public", st["client_id"], "only secrets are masked")
			require.Equal(t, true, st["allow_guest_checkout"])
			require.Equal(t, "merchant-1", list[1]["settings"].(map[string]any)["merchant_id"])

			// At rest: sealed, never in plain text.
			raw := rawSetting(t, ts, "payment_gateways")
			for _, leak := range []string{"pp-secret-4321", "••••"} {
				require.NotContains(t, raw, leak)
			}
			require.Contains(t, raw, "cid-public")
			sealedOf := func(raw string) any {
				var stored []map[string]any
				require.NoError(t, json.Unmarshal([]byte(raw), &stored))
				return stored[0]["settings"].(map[string]any)["client_secret"]
			}

			// Saving the masked list back (with another change) keeps the
			// secret; a new value replaces it. (PayPal itself cannot be
			// enabled until it has a provider.)
			list[0]["description"] = "PayPal, some day"
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": gatewaysValue(t, list)})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			rawAfter := rawSetting(t, ts, "payment_gateways")
			require.NotContains(t, rawAfter, "••••")
			require.Equal(t, sealedOf(raw), sealedOf(rawAfter), "the masked client_secret keeps the sealed secret as it was")
			list[0]["settings"].(map[string]any)["client_secret"] = "pp-new-secret-8765"
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": gatewaysValue(t, list)})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.NotContains(t, rawSetting(t, ts, "payment_gateways"), "pp-new-secret-8765")
			again := readGateways(t, settingsList(t, admin)["payment_gateways"])
			require.Equal(t, "PayPal, some day", again[0]["description"])
			require.Equal(t, "••••8765", again[0]["settings"].(map[string]any)["client_secret"])

			// A Stripe entry stored before the flags owned Stripe reads as absent.
			dbtest.MustExec(t, dbtest.Connect(t, ts.dbURL), "UPDATE site_settings SET value = ? WHERE key = 'payment_gateways'",
				`[{"id":"stripe","settings":{"api_key":"sk_test_old"}},{"id":"cryptocurrency","settings":{"wallet_address":"w"}}]`)
			old := readGateways(t, settingsList(t, admin)["payment_gateways"])
			require.Len(t, old, 1)
			require.Equal(t, "cryptocurrency", old[0]["id"])

			// Bad lists are refused; the key cannot be renamed away.
			for _, tc := range []struct{ value, want string }{
				{"not json", "Payment gateways must be a JSON list"},
				{`[{"id":"barter"}]`, "Unknown payment gateway type barter"},
				{`[{"name":"x"}]`, "Please select a payment gateway type"},
				{`[{"id":"paypal"},{"id":"paypal"}]`, "Payment gateway paypal is listed twice"},
				{`[{"id":"paypal","settings":{"client_secret":5}}]`, "Setting client_secret of payment gateway paypal must be text"},
				// Stripe's keys are the server's flags: nothing would read them here.
				{`[{"id":"stripe","settings":{"api_key":"sk_test_1"}}]`, "Stripe is configured on the server (--stripe-secret-key, " +
					"--stripe-publishable-key, --stripe-webhook-secret), not as a payment gateway"},
				// Enabled only with what it needs; disabled, it may wait for it.
				{`[{"id":"paypal","active":true,"settings":{"client_id":"cid","client_secret":" "}}]`,
					"Please fill in the following required fields: Client Secret"},
				{`[{"id":"bank_transfer","active":true}]`,
					"Please fill in the following required fields: Account Name, Account Number, Bank Name, Routing Number"},
			} {
				r := admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": tc.value})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, tc.want, r.body["error"])
			}
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"key": "gateways"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)

			// Removing every gateway is an empty list.
			r = admin.do("PATCH", fmt.Sprintf("/api/site-settings/%d", id), map[string]any{"value": "[]"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Empty(t, readGateways(t, settingsList(t, admin)["payment_gateways"]))
		})
	}
}
