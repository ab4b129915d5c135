package server_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// seedCatalog adds .inf.nz and one premium name through the admin API.
func seedCatalog(t *testing.T, ts *testServer) {
	t.Helper()
	admin := loginAdmin(t, ts)
	r := admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	r = admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "cloud", "extension": ".inf.nz", "price": 30})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
}

func TestRegisterAndPayOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			bob := signedUp(t, ts, "bob", "user")

			// Visitors can neither deposit nor register.
			visitor := newBrowser(t, ts)
			require.Equal(t, http.StatusUnauthorized, visitor.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50}).status)
			require.Equal(t, http.StatusUnauthorized, visitor.do("POST", "/api/domains", map[string]any{"name": "x", "extension": ".inf.nz"}).status)

			// Deposits.
			for _, tc := range []struct {
				body map[string]any
				msg  string
			}{
				{map[string]any{"amount": 0}, "Amount must be greater than 0"},
				{map[string]any{"amount": 0.5}, "The minimum deposit is $1.00"},
				{map[string]any{"amount": 10.005}, "Amount must have at most 2 decimals"},
				{map[string]any{"amount": 50, "paymentMethod": "cash"}, "Payment method must be one of credit_card, paypal, bank_transfer, upi"},
			} {
				r := alice.do("POST", "/api/wallet/deposit", tc.body)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, tc.msg, r.body["error"])
			}
			r := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50, "paymentMethod": "credit_card"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			dep := data(t, r)
			require.Equal(t, map[string]any{"balance": 50.0, "currency": "USD"}, dep["wallet"])
			require.Equal(t, "completed", dep["transaction"].(map[string]any)["status"])

			// Registration.
			r = alice.do("POST", "/api/domains", map[string]any{"name": "My-Site", "extension": ".inf.nz"}, "Idempotency-Key", "abc-1")
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			reg := data(t, r)
			dom := reg["domain"].(map[string]any)
			require.Equal(t, "my-site", dom["name"])
			require.Equal(t, 8.0, dom["price"])
			require.Equal(t, -8.0, reg["transaction"].(map[string]any)["amount"])
			require.Equal(t, dom["id"], reg["transaction"].(map[string]any)["domainId"])
			require.Equal(t, 42.0, reg["wallet"].(map[string]any)["balance"])

			replay := alice.do("POST", "/api/domains", map[string]any{"name": "My-Site", "extension": ".inf.nz"}, "Idempotency-Key", "abc-1")
			require.Equal(t, http.StatusCreated, replay.status, replay.raw)
			require.Equal(t, dom["id"], data(t, replay)["domain"].(map[string]any)["id"])
			require.Equal(t, 42.0, data(t, alice.do("GET", "/api/wallet", nil))["balance"], "a replay charges nothing")

			r = bob.do("POST", "/api/domains", map[string]any{"name": "my-site", "extension": ".inf.nz"})
			require.Equal(t, http.StatusConflict, r.status)
			require.Equal(t, "my-site.inf.nz is no longer available", r.body["error"])
			r = bob.do("POST", "/api/domains", map[string]any{"name": "bobs", "extension": ".inf.nz", "years": 2})
			require.Equal(t, http.StatusPaymentRequired, r.status)
			require.Equal(t, "Insufficient funds: this registration costs $16.00 and your balance is $0.00. Add $16.00 to continue.", r.body["error"])
			require.Equal(t, "insufficient_funds", r.body["code"], "the shortfall is structured too")
			require.Equal(t, 16.0, r.body["needed"])
			require.Equal(t, 0.0, r.body["balance"])
			r = bob.do("POST", "/api/domains", map[string]any{"name": "bobs", "extension": ".inf.nz", "years": 20})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "Years must be between 1 and 10", r.body["error"])
			r = bob.do("POST", "/api/domains", map[string]any{"name": "bobs", "extension": ".inf.nz", "price": 0.01})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, "a price from the client is refused, never trusted")

			// The premium name: bought, then gone from the list.
			r = alice.do("POST", "/api/domains", map[string]any{"name": "cloud", "extension": ".inf.nz", "autoRenew": false})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, true, data(t, r)["domain"].(map[string]any)["isPremium"])
			require.Equal(t, []any{}, visitor.do("GET", "/api/premium-domains", nil).body["data"])

			// Auto-renew, owner only.
			id := dom["id"]
			r = bob.do("PATCH", fmt.Sprintf("/api/domains/%v", id), map[string]any{"autoRenew": false})
			require.Equal(t, http.StatusNotFound, r.status)
			r = alice.do("PATCH", fmt.Sprintf("/api/domains/%v", id), map[string]any{"autoRenew": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, data(t, r)["autoRenew"])

			list := alice.do("GET", "/api/domains", nil).body["data"].([]any)
			require.Len(t, list, 2)
			txs := alice.do("GET", "/api/transactions", nil).body["data"].([]any)
			require.Len(t, txs, 3)
			require.Equal(t, 12.0, data(t, alice.do("GET", "/api/wallet", nil))["balance"])
			require.Equal(t, []any{}, bob.do("GET", "/api/transactions", nil).body["data"])
		})
	}
}

func TestConcurrentRegistrationsOverHTTP(t *testing.T) {
	t.Parallel()
	ts := start(t, "sqlite")
	seedCatalog(t, ts)
	alice := signedUp(t, ts, "alice", "user")
	require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 40}).status)
	var wg sync.WaitGroup
	statuses := make([]int, 30)
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = alice.do("POST", "/api/domains", map[string]any{"name": fmt.Sprintf("site-%d", i), "extension": ".inf.nz"}).status
		})
	}
	wg.Wait()
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	// 20 registrations a minute per account pass the rate limit; money for
	// five of them.
	require.Equal(t, map[int]int{http.StatusCreated: 5, http.StatusPaymentRequired: 15, http.StatusTooManyRequests: 10}, counts)
	require.Equal(t, 0.0, data(t, alice.do("GET", "/api/wallet", nil))["balance"])
}

func TestChangePasswordOverHTTP(t *testing.T) {
	t.Parallel()
	ts := start(t, "sqlite")
	here := signedUp(t, ts, "carol", "user")
	elsewhere := newBrowser(t, ts)
	require.Equal(t, http.StatusOK, elsewhere.do("POST", "/api/auth/login", map[string]any{"username": "carol", "password": "secret1"}).status)

	r := here.do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "nope12", "newPassword": "better1", "confirmPassword": "better1"})
	require.Equal(t, http.StatusUnprocessableEntity, r.status)
	require.Equal(t, "Current password is incorrect", r.body["error"])
	r = here.do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "secret1", "newPassword": "better1", "confirmPassword": "better1"})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	require.Equal(t, http.StatusOK, here.do("GET", "/api/auth/me", nil).status)
	require.Equal(t, http.StatusUnauthorized, elsewhere.do("GET", "/api/auth/me", nil).status)
	require.Equal(t, http.StatusUnauthorized, newBrowser(t, ts).do("POST", "/api/auth/change-password", map[string]any{}).status)
}

// A deposit retried with its Idempotency-Key (the web app sends one per
// attempt) adds the money once; keys belong to one account.
func TestDepositIdempotencyOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice := signedUp(t, ts, "alice", "user")
			bob := signedUp(t, ts, "bob", "user")

			first := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, first.status, first.raw)
			again := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, again.status, again.raw)
			require.Equal(t, data(t, first)["transaction"], data(t, again)["transaction"])
			require.Equal(t, 20.0, data(t, again)["wallet"].(map[string]any)["balance"])

			other := alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 30}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusUnprocessableEntity, other.status, other.raw)

			bobDep := bob.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, bobDep.status, bobDep.raw)
			require.Equal(t, 20.0, data(t, bobDep)["wallet"].(map[string]any)["balance"])

			// Without a key every request is its own deposit.
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 5}).status)
			require.Equal(t, 25.0, data(t, alice.do("GET", "/api/wallet", nil))["balance"])
		})
	}
}
