package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// TestOnlyWorkingPaymentMethodsAreOffered (issue 26, item 4): a demo server
// offers cards (paid at once) and nothing it cannot take: a PayPal or UPI
// deposit is refused on /api and /v1 with a message naming what works, and
// records nothing; PayPal, which has no provider, cannot be enabled; an
// enabled bank transfer is offered with its instructions and waits for an
// admin.
func TestOnlyWorkingPaymentMethodsAreOffered(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			alice := signedUp(t, ts, "alice", "user")

			opts := data(t, alice.do("GET", "/api/wallet/deposit-options", nil))
			require.Equal(t, "demo", opts["mode"])
			require.Equal(t, []any{"credit_card"}, opts["methods"])
			require.Equal(t, []any{"bank_transfer"}, opts["availableGateways"])

			for _, m := range []string{"paypal", "upi", "bank_transfer"} {
				r := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": m})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Contains(t, r.body["error"], "are not available. Please choose credit card.")
			}
			_, key := registrar(t, ts, "reseller")
			r := v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 25, "paymentMethod": "paypal"},
				"Idempotency-Key", "pp-1")
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, 0, countRows(t, ts.dbURL, "SELECT count(*) FROM transactions"))

			// PayPal cannot be switched on, even fully configured.
			paypal, err := json.Marshal([]map[string]any{{"id": "paypal", "name": "PayPal", "active": true,
				"settings": map[string]any{"client_id": "cid", "client_secret": "secret-1234"}}})
			require.NoError(t, err)
			r = admin.do("POST", "/api/site-settings", map[string]any{"key": "payment_gateways", "value": string(paypal),
				"category": "payment", "isPublic": false})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "PayPal cannot be enabled: payments by PayPal are not available yet. Customers pay by card "+
				"through Stripe (configured on the server) or by bank transfer.", r.body["error"])

			enableBankTransfer(t, admin)
			opts = data(t, alice.do("GET", "/api/wallet/deposit-options", nil))
			require.Equal(t, []any{"credit_card", "bank_transfer"}, opts["methods"])
			require.Equal(t, []any{"credit_card"}, opts["instant"])
			require.Equal(t, "Put your username in the reference.", opts["bankTransfer"].(map[string]any)["instructions"])
			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": "bank_transfer"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, "pending", data(t, r)["transaction"].(map[string]any)["status"])
			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": "credit_card"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, "completed", data(t, r)["transaction"].(map[string]any)["status"])
		})
	}
}
