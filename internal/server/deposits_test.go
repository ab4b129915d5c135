package server_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/servertest"
)

// production is a server without demo payments, Stripe or bank transfers,
// as a fresh `nameport serve` without --demo runs.
func production(c *config.Config) { c.DemoPayments = false }

// TestProductionRefusesDeposits: without a payment provider and without
// --demo, a deposit is refused, records nothing and credits nothing
// (finding 7: a fresh production server credited $10,000 at once); the
// server says so at start.
func TestProductionRefusesDeposits(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			srv := servertest.Start(t, engine, production)
			ts := &testServer{url: srv.URL, dbURL: srv.DatabaseURL, dnsAddr: srv.DNSAddr, stop: srv.Stop}
			require.Contains(t, srv.Logs(), "payments: no payment method is configured, deposits are refused")
			require.Contains(t, srv.Logs(), "mode=none")

			alice := signedUp(t, ts, "alice", "user")
			r := alice.do("GET", "/api/wallet/deposit-options", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"mode": "none", "methods": []any{}, "instant": []any{}, "bankTransfer": nil,
				"availableGateways": []any{"bank_transfer"},
				"configuredBy": "No payment method is configured: set --stripe-secret-key on the server, " +
					"or enable the Bank Transfer payment gateway."}, data(t, r))
			for _, method := range []string{"", "credit_card", "paypal", "bank_transfer", "upi"} {
				r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 10000, "paymentMethod": method})
				require.Equal(t, http.StatusServiceUnavailable, r.status, r.raw)
				require.Equal(t, false, r.body["success"])
				require.Contains(t, r.body["error"], "Deposits are unavailable")
			}
			_, key := registrar(t, ts, "reseller")
			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 10000}, "Idempotency-Key", "prod-1")
			require.Equal(t, http.StatusServiceUnavailable, r.status, r.raw)
			require.Equal(t, "unavailable", problemCode(t, r))
			r = alice.do("POST", "/api/create-payment-intent", map[string]any{"amount": 10})
			require.Equal(t, http.StatusServiceUnavailable, r.status, r.raw)

			require.Equal(t, 0, countRows(t, ts.dbURL, "SELECT count(*) FROM transactions"))
			require.Equal(t, 0, countRows(t, ts.dbURL, "SELECT count(*) FROM wallets WHERE balance_cents <> 0"))
		})
	}
}

// TestDemoFixturesSayDemo: the shared fixtures run demo payments, and the
// server says so.
func TestDemoFixturesSayDemo(t *testing.T) {
	t.Parallel()
	srv := servertest.Start(t, db.SQLite, nil)
	require.Contains(t, srv.Logs(), "payments: demo mode, deposits complete at once without payment")
}

// enableBankTransfer makes the admin enable the bank transfer gateway.
func enableBankTransfer(t *testing.T, admin *browser) {
	t.Helper()
	gateways, err := json.Marshal([]map[string]any{{"id": "bank_transfer", "name": "Bank Transfer", "active": true,
		"testMode": false, "settings": map[string]any{"account_name": "Nameport Ltd", "account_number": "12-3456-7890123-00",
			"bank_name": "Kiwi Bank", "routing_number": "123456", "instructions": "Put your username in the reference."}}})
	require.NoError(t, err)
	r := admin.do("POST", "/api/site-settings", map[string]any{"key": "payment_gateways", "value": string(gateways),
		"category": "payment", "isPublic": false})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
}

// TestManualDepositsWaitForAnAdmin: with only the bank transfer gateway
// enabled, a deposit stays pending until an admin confirms it; racing
// confirmations credit it once, with one audit entry and one receipt; a
// rejected one credits nothing.
func TestManualDepositsWaitForAnAdmin(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, production)
			admin := loginAdmin(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			r := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50, "paymentMethod": "bank_transfer"})
			require.Equal(t, http.StatusServiceUnavailable, r.status, "not before the admin enables it: %s", r.raw)

			enableBankTransfer(t, admin)
			r = alice.do("GET", "/api/wallet/deposit-options", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			opts := data(t, r)
			require.Equal(t, "manual", opts["mode"])
			require.Equal(t, "Bank transfers are enabled by the Bank Transfer payment gateway.", opts["configuredBy"])
			require.Equal(t, []any{"bank_transfer"}, opts["methods"])
			require.Equal(t, "Kiwi Bank", opts["bankTransfer"].(map[string]any)["bankName"])

			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50, "paymentMethod": "credit_card"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Deposits by credit card are not available. Please choose bank transfer.", r.body["error"])
			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50, "paymentMethod": "bank_transfer"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			first := data(t, r)["transaction"].(map[string]any)
			require.Equal(t, "pending", first["status"])
			require.EqualValues(t, 0, data(t, r)["wallet"].(map[string]any)["balance"])
			r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20, "paymentMethod": "bank_transfer"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			second := data(t, r)["transaction"].(map[string]any)
			firstID := strconv.FormatInt(int64(first["id"].(float64)), 10)
			secondID := strconv.FormatInt(int64(second["id"].(float64)), 10)

			// Alice cannot confirm her own deposit.
			r = alice.do("POST", "/api/admin/deposits/"+firstID+"/confirm", nil)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)

			r = admin.do("GET", "/api/admin/deposits", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			pending := r.body["data"].([]any)
			require.Len(t, pending, 2)
			require.Equal(t, "alice", pending[0].(map[string]any)["username"])
			require.EqualValues(t, 50, pending[0].(map[string]any)["amount"])

			// Confirmations racing each other credit once.
			statuses := make(chan int, 6)
			done := make(chan struct{})
			for range 6 {
				go func() {
					defer func() { done <- struct{}{} }()
					statuses <- admin.do("POST", "/api/admin/deposits/"+firstID+"/confirm", nil).status
				}()
			}
			for range 6 {
				<-done
			}
			close(statuses)
			for s := range statuses {
				require.Equal(t, http.StatusOK, s)
			}
			r = admin.do("POST", "/api/admin/deposits/"+secondID+"/reject", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "failed", data(t, r)["status"])
			r = admin.do("POST", "/api/admin/deposits/"+firstID+"/reject", nil)
			require.Equal(t, http.StatusConflict, r.status, r.raw)

			r = alice.do("GET", "/api/wallet", nil)
			require.EqualValues(t, 50, data(t, r)["balance"])
			r = admin.do("GET", "/api/admin/deposits", nil)
			require.Empty(t, r.body["data"])
			require.Equal(t, 1, countRows(t, ts.dbURL, "SELECT count(*) FROM audit_log WHERE action = 'deposit.confirm'"))
			require.Equal(t, 1, countRows(t, ts.dbURL, "SELECT count(*) FROM audit_log WHERE action = 'deposit.reject'"))
			require.Eventually(t, func() bool {
				mails, _ := outboxMails(t, admin, "?limit=100")
				n := 0
				for _, m := range mails {
					if m["kind"] == "deposit_receipt" && m["to"] == "alice@example.com" {
						n++
					}
				}
				require.LessOrEqual(t, n, 1, "one receipt")
				return n == 1
			}, 10*time.Second, 20*time.Millisecond)
		})
	}
}
