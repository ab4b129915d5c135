package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/stripemock"
)

const testWebhookSecret = "whsec_http_test"

func paymentEvent(t *testing.T, id, typ, intentID string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion, "type": typ,
		"created": time.Now().Unix(), "data": map[string]any{"object": map[string]any{
			"id": intentID, "object": "payment_intent", "amount": 2500, "currency": "usd"}}})
	require.NoError(t, err)
	return b
}

// stripeSign returns the Stripe-Signature header of payload.
func stripeSign(payload []byte, secret string) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret}).Header
}

func countRows(t *testing.T, dbURL, query string, args ...any) int {
	t.Helper()
	d, err := db.Open(context.Background(), dbURL)
	require.NoError(t, err)
	defer d.Close() // called in polling loops: one connection at a time
	return dbtest.Count(t, d, query, args...)
}

func balance(t *testing.T, b *browser) float64 {
	t.Helper()
	return data(t, b.do("GET", "/api/wallet", nil))["balance"].(float64)
}

func TestDemoPaymentsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			visitor := newBrowser(t, ts)
			cfg := data(t, visitor.do("GET", "/api/payments/config", nil))
			require.Equal(t, map[string]any{"mode": "demo", "publishableKey": "", "testMode": true}, cfg)
			r := visitor.do("POST", "/api/create-payment-intent", map[string]any{"amount": 10, "productName": "Demo"})
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)

			alice := signedUp(t, ts, "alice", "user")
			r = alice.do("POST", "/api/create-payment-intent", map[string]any{"amount": 0.25})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "The minimum payment is $0.50", r.body["error"])

			intent := data(t, alice.do("POST", "/api/create-payment-intent", map[string]any{"amount": 10,
				"productName": "Payment demo", "metadata": map[string]any{"demo": true, "source": "test"}}))
			require.Equal(t, "demo", intent["mode"])
			require.Regexp(t, `^pi_demo_\w+_secret_\w+$`, intent["clientSecret"])

			r = alice.do("POST", "/api/payments/confirm-test", map[string]any{"clientSecret": intent["clientSecret"],
				"cardNumber": "4000 0000 0000 0002"})
			require.Equal(t, map[string]any{"status": "failed", "message": "Your card was declined."}, data(t, r))
			r = alice.do("POST", "/api/payments/confirm-test", map[string]any{"paymentIntentId": intent["paymentIntentId"],
				"cardNumber": "4242424242424242"})
			require.Equal(t, "succeeded", data(t, r)["status"])
			r = alice.do("POST", "/api/payments/confirm-test", map[string]any{"paymentIntentId": intent["paymentIntentId"],
				"cardNumber": "4242424242424242"})
			require.Equal(t, http.StatusConflict, r.status, r.raw)

			bob := signedUp(t, ts, "bob", "user")
			r = bob.do("POST", "/api/payments/confirm-test", map[string]any{"clientSecret": intent["clientSecret"],
				"cardNumber": "4242424242424242"})
			require.Equal(t, http.StatusNotFound, r.status, r.raw)

			// Without Stripe, webhooks are not configured.
			r = visitor.do("POST", "/api/webhooks/stripe", `{"id":"evt_1"}`, "Stripe-Signature", "t=1,v1=00")
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
		})
	}
}

func TestStripePaymentsOverHTTP(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) {
				c.StripeSecretKey, c.StripePublishableKey = "sk_test_http", "pk_test_http"
				c.StripeWebhookSecret, c.StripeAPIURL = testWebhookSecret, mock
			})
			visitor := newBrowser(t, ts)
			cfg := data(t, visitor.do("GET", "/api/payments/config", nil))
			require.Equal(t, map[string]any{"mode": "stripe", "publishableKey": "pk_test_http", "testMode": true}, cfg)

			alice := signedUp(t, ts, "alice", "user")
			intent := data(t, alice.do("POST", "/api/create-payment-intent", map[string]any{"amount": 10,
				"productName": "Payment demo"}))
			require.Equal(t, "stripe", intent["mode"])
			require.Equal(t, "pk_test_http", intent["publishableKey"])
			require.Regexp(t, `^pi_`, intent["paymentIntentId"])
			require.Contains(t, intent["clientSecret"], "_secret_")

			// A card deposit waits for Stripe.
			dep := data(t, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": "credit_card"}))
			require.Contains(t, dep["clientSecret"], "_secret_")
			txn := dep["transaction"].(map[string]any)
			require.Equal(t, "pending", txn["status"])
			require.Zero(t, balance(t, alice))
			var ref string
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			require.NoError(t, d.Bun.NewRaw("SELECT provider_ref FROM transactions WHERE id = ?", int64(txn["id"].(float64))).
				Scan(context.Background(), &ref))
			d.Close()
			require.Regexp(t, `^pi_`, ref)

			// Badly signed: 400 and nothing stored.
			ok := paymentEvent(t, "evt_http_1", "payment_intent.succeeded", ref)
			stripeServer := newBrowser(t, ts) // no session, like Stripe
			for _, sig := range []string{"", "garbage", stripeSign(ok, "whsec_wrong")} {
				r := stripeServer.do("POST", "/api/webhooks/stripe", string(ok), "Stripe-Signature", sig)
				require.Equal(t, http.StatusBadRequest, r.status, r.raw)
				require.Equal(t, false, r.body["success"])
			}
			require.Zero(t, countRows(t, ts.dbURL, "SELECT COUNT(*) FROM payment_events"))

			// Signed, sent twice at once and once more later (Stripe retries):
			// the deposit completes once. Cross-site headers do not stop it.
			var wg sync.WaitGroup
			statuses := make(chan int, 2)
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req, _ := http.NewRequest("POST", ts.url+"/api/webhooks/stripe", bytes.NewReader(ok))
					req.Header.Set("Stripe-Signature", stripeSign(ok, testWebhookSecret))
					req.Header.Set("Sec-Fetch-Site", "cross-site")
					req.Header.Set("Origin", "https://stripe.com")
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						statuses <- 0
						return
					}
					resp.Body.Close()
					statuses <- resp.StatusCode
				}()
			}
			wg.Wait()
			close(statuses)
			for st := range statuses {
				require.Equal(t, http.StatusOK, st)
			}
			second := paymentEvent(t, "evt_http_2", "payment_intent.succeeded", ref)
			r := stripeServer.do("POST", "/api/webhooks/stripe", string(second), "Stripe-Signature", stripeSign(second, testWebhookSecret))
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Eventually(t, func() bool {
				return countRows(t, ts.dbURL, "SELECT COUNT(*) FROM payment_events WHERE processed_at IS NOT NULL") == 2
			}, 15*time.Second, 50*time.Millisecond, "the worker processes both events")
			require.Equal(t, 25.0, balance(t, alice))
			r = stripeServer.do("POST", "/api/webhooks/stripe", string(ok), "Stripe-Signature", stripeSign(ok, testWebhookSecret))
			require.Equal(t, true, r.body["duplicate"], r.raw)
			txs := alice.do("GET", "/api/transactions", nil).body["data"].([]any)
			require.Equal(t, "completed", txs[0].(map[string]any)["status"])

			// A failed payment marks its deposit failed.
			dep = data(t, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 30, "paymentMethod": "credit_card"}))
			txn = dep["transaction"].(map[string]any)
			d, err = db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			require.NoError(t, d.Bun.NewRaw("SELECT provider_ref FROM transactions WHERE id = ?", int64(txn["id"].(float64))).
				Scan(context.Background(), &ref))
			d.Close()
			failed := paymentEvent(t, "evt_http_3", "payment_intent.payment_failed", ref)
			r = stripeServer.do("POST", "/api/webhooks/stripe", string(failed), "Stripe-Signature", stripeSign(failed, testWebhookSecret))
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Eventually(t, func() bool {
				return countRows(t, ts.dbURL, "SELECT COUNT(*) FROM transactions WHERE status = 'failed'") == 1
			}, 15*time.Second, 50*time.Millisecond)
			require.Equal(t, 25.0, balance(t, alice))
			require.Zero(t, countRows(t, ts.dbURL, `SELECT COUNT(*) FROM wallets w WHERE w.balance_cents <>
				(SELECT COALESCE(SUM(amount_cents), 0) FROM transactions t WHERE t.user_id = w.user_id AND t.status = 'completed')`))
		})
	}
}

func TestLiveStripeKeyRefusesTestPayments(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.StripeSecretKey, c.StripeAPIURL = "sk_live_http", mock
	})
	alice := signedUp(t, ts, "alice", "user")
	// (stripe-mock accepts only test keys, so no intent is created here; the
	// refusal comes first.)
	r := alice.do("POST", "/api/payments/confirm-test", map[string]any{"paymentIntentId": "pi_123",
		"cardNumber": "4242424242424242"})
	require.Equal(t, http.StatusForbidden, r.status, r.raw)
	require.Equal(t, false, data(t, alice.do("GET", "/api/payments/config", nil))["testMode"])
}

// When Stripe refuses the server (a wrong key here), a card deposit fails
// with 503 and a message the user can act on; nothing is credited, and the
// deposit is recorded as failed.
func TestCardDepositWhenStripeIsUnavailable(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		// stripe-mock accepts only keys that look like sk_test_ plus letters and digits.
		c.StripeSecretKey, c.StripePublishableKey, c.StripeAPIURL = "sk_test_not_valid", "pk_test_x", mock
	})
	alice := signedUp(t, ts, "alice", "user")
	r := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": "credit_card"})
	require.Equal(t, http.StatusServiceUnavailable, r.status, r.raw)
	require.Equal(t, "Card payments are unavailable right now and nothing was charged. Please try again later "+
		"or choose another payment method.", r.body["error"])
	require.Zero(t, balance(t, alice))
	txs := alice.do("GET", "/api/transactions", nil).body["data"].([]any)
	require.Len(t, txs, 1)
	require.Equal(t, "failed", txs[0].(map[string]any)["status"])

	// PayPal has no provider: refused, whatever happens to Stripe.
	r = alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 25, "paymentMethod": "paypal"})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	require.Equal(t, "Deposits by PayPal are not available. Please choose credit card.", r.body["error"])
}

// On /v1 a card deposit through Stripe answers with the PaymentIntent to pay,
// again for a retry with the same Idempotency-Key, and completes on Stripe's
// webhook.
func TestV1CardDepositThroughStripe(t *testing.T) {
	t.Parallel()
	mock := stripemock.Start(t)
	ts := startWith(t, db.SQLite, func(c *config.Config) {
		c.StripeSecretKey, c.StripePublishableKey = "sk_test_v1", "pk_test_v1"
		c.StripeWebhookSecret, c.StripeAPIURL = testWebhookSecret, mock
	})
	_, key := registrar(t, ts, "cardreseller")
	body := map[string]any{"amount": 30, "paymentMethod": "credit_card"}
	r := v1(t, ts, key, "POST", "/v1/wallet/deposits", body, "Idempotency-Key", "card-1")
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	require.Equal(t, "pending", r.body["transaction"].(map[string]any)["status"])
	require.Contains(t, r.body["clientSecret"], "_secret_")
	pi, _ := r.body["paymentIntentId"].(string)
	require.Regexp(t, `^pi_`, pi)

	again := v1(t, ts, key, "POST", "/v1/wallet/deposits", body, "Idempotency-Key", "card-1")
	require.Equal(t, http.StatusCreated, again.status, again.raw)
	require.Equal(t, pi, again.body["paymentIntentId"])
	require.Zero(t, balanceOf(t, ts, key))

	ev := paymentEvent(t, "evt_v1_card", "payment_intent.succeeded", pi)
	stripeServer := newBrowser(t, ts)
	require.Equal(t, http.StatusOK, stripeServer.do("POST", "/api/webhooks/stripe", string(ev), "Stripe-Signature",
		stripeSign(ev, testWebhookSecret)).status)
	require.Eventually(t, func() bool { return balanceOf(t, ts, key) == 30 }, 10*time.Second, 50*time.Millisecond)
}
