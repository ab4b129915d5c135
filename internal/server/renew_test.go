package server_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

func TestRenewOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 20}).status)
			r := alice.do("POST", "/api/domains", map[string]any{"name": "keep", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			dom := data(t, r)["domain"].(map[string]any)
			require.Equal(t, "active", dom["status"])
			require.Equal(t, 8.0, dom["renewalPrice"])
			require.Equal(t, 365.0, dom["renewalPeriodDays"])
			expires, err := time.Parse(time.RFC3339, dom["expiresAt"].(string))
			require.NoError(t, err)
			grace, err := time.Parse(time.RFC3339, dom["graceEndsAt"].(string))
			require.NoError(t, err)
			require.Equal(t, expires.AddDate(0, 0, 30), grace)
			id := int64(dom["id"].(float64))
			path := "/api/domains/" + itoa(id) + "/renew"

			// Another account's domain is not found and nobody pays.
			bob := signedUp(t, ts, "bob", "user")
			require.Equal(t, http.StatusNotFound, bob.do("POST", path, nil).status)
			require.Equal(t, http.StatusUnauthorized, newBrowser(t, ts).do("POST", path, nil).status)

			r = alice.do("POST", path, map[string]any{}, "Idempotency-Key", "renew-1")
			require.Equal(t, http.StatusOK, r.status, r.raw)
			renewed := data(t, r)
			require.Equal(t, expires.AddDate(1, 0, 0).Format(time.RFC3339Nano),
				mustTime(t, renewed["domain"].(map[string]any)["expiresAt"]).Format(time.RFC3339Nano))
			require.Equal(t, "domain_renewal", renewed["transaction"].(map[string]any)["type"])
			require.Equal(t, 4.0, renewed["wallet"].(map[string]any)["balance"])
			again := alice.do("POST", path, nil, "Idempotency-Key", "renew-1")
			require.Equal(t, http.StatusOK, again.status, again.raw)
			require.Equal(t, 4.0, data(t, again)["wallet"].(map[string]any)["balance"], "a retry charges nothing")

			// Receipts for the deposit, the registration and the renewal reach
			// alice's mailbox (the outbox: no SMTP in tests).
			admin := loginAdmin2(t, ts) // seedCatalog made it
			require.Eventually(t, func() bool {
				kinds := map[string]bool{}
				for _, m := range data(t, admin.do("GET", "/api/admin/outbox", nil))["messages"].([]any) {
					msg := m.(map[string]any)
					if msg["to"] == "alice@example.com" {
						kinds[msg["kind"].(string)] = true
					}
				}
				return kinds["deposit_receipt"] && kinds["registration_receipt"] && kinds["renewal_succeeded"]
			}, 10*time.Second, 100*time.Millisecond)

			r = alice.do("POST", path, nil)
			require.Equal(t, http.StatusPaymentRequired, r.status)
			require.Equal(t, "Insufficient funds: renewing keep.inf.nz costs $8.00 and your balance is $4.00. Add $4.00 to continue.", r.body["error"])
			require.Equal(t, "insufficient_funds", r.body["code"])
			require.Equal(t, 4.0, r.body["needed"])
			require.Equal(t, 4.0, r.body["balance"])
		})
	}
}

func mustTime(t *testing.T, v any) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, v.(string))
	require.NoError(t, err)
	return tm.UTC()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
