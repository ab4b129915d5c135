package server_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// Registration and deposits arrive in later issues; until then the test
// writes the rows they will write.
func seedDomainAndDeposit(t *testing.T, dbURL string, username string) (domainID int64) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, dbURL)
	require.NoError(t, err)
	defer d.Close()
	var userID int64
	require.NoError(t, d.Bun.NewRaw("SELECT id FROM users WHERE username = ?", username).Scan(ctx, &userID))
	now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	require.NoError(t, d.Bun.NewRaw(`INSERT INTO domains (user_id, name, extension, is_premium, price_cents, auto_renew,
		registered_at, expires_at, created_at, updated_at) VALUES (?, ?, '.inf.nz', FALSE, 850, TRUE, ?, ?, ?, ?) RETURNING id`,
		userID, username+"-site", now, now.AddDate(1, 0, 0), now, now).Scan(ctx, &domainID))
	dbtest.MustExec(t, d, `INSERT INTO wallets (user_id, balance_cents, currency, updated_at) VALUES (?, 4150, 'USD', ?)`, userID, now)
	dbtest.MustExec(t, d, `INSERT INTO transactions (user_id, type, amount_cents, status, payment_method, created_at)
		VALUES (?, 'deposit', 5000, 'completed', 'credit_card', ?)`, userID, now)
	dbtest.MustExec(t, d, `INSERT INTO transactions (user_id, type, amount_cents, status, domain_id, created_at)
		VALUES (?, 'domain_purchase', -850, 'completed', ?, ?)`, userID, domainID, now.Add(time.Minute))
	return domainID
}

func TestDashboardReadsAreOwnDataOnly(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice, bob, visitor := newBrowser(t, ts), newBrowser(t, ts), newBrowser(t, ts)
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/auth/register", signUp("alice", "user")).status)
			require.Equal(t, http.StatusCreated, bob.do("POST", "/api/auth/register", signUp("bob", "registrar")).status)
			verifyEmail(t, ts, "alice@example.com")
			verifyEmail(t, ts, "bob@example.com")

			// New accounts: nothing yet, honestly empty.
			r := bob.do("GET", "/api/domains", nil)
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, []any{}, r.body["data"])
			require.Equal(t, map[string]any{"balance": 0.0, "currency": "USD"}, data(t, bob.do("GET", "/api/wallet", nil)))
			require.Equal(t, []any{}, bob.do("GET", "/api/transactions", nil).body["data"])

			id := seedDomainAndDeposit(t, ts.dbURL, "alice")

			list := alice.do("GET", "/api/domains", nil).body["data"].([]any)
			require.Len(t, list, 1)
			dom := list[0].(map[string]any)
			require.Equal(t, "alice-site", dom["name"])
			require.Equal(t, ".inf.nz", dom["extension"])
			require.Equal(t, 8.5, dom["price"])
			require.Equal(t, true, dom["autoRenew"])
			require.Equal(t, false, dom["isPremium"])
			require.Equal(t, "2026-11-01T10:00:00Z", dom["registeredAt"])
			require.Equal(t, "2027-11-01T10:00:00Z", dom["expiresAt"])
			require.Equal(t, "alice-site", data(t, alice.do("GET", fmt.Sprintf("/api/domains/%d", id), nil))["name"])
			require.Equal(t, 41.5, data(t, alice.do("GET", "/api/wallet", nil))["balance"])
			txs := alice.do("GET", "/api/transactions", nil).body["data"].([]any)
			require.Len(t, txs, 2)
			require.Equal(t, -8.5, txs[0].(map[string]any)["amount"], "newest first, debits negative")
			require.Equal(t, "domain_purchase", txs[0].(map[string]any)["type"])

			// Bob sees none of it; another account's id is simply not found.
			require.Equal(t, []any{}, bob.do("GET", "/api/domains", nil).body["data"])
			r = bob.do("GET", fmt.Sprintf("/api/domains/%d", id), nil)
			require.Equal(t, http.StatusNotFound, r.status)
			require.Equal(t, "Domain not found", r.body["error"])
			require.Equal(t, 0.0, data(t, bob.do("GET", "/api/wallet", nil))["balance"])

			// Visitors get nothing.
			for _, p := range []string{"/api/domains", fmt.Sprintf("/api/domains/%d", id), "/api/wallet", "/api/transactions"} {
				require.Equal(t, http.StatusUnauthorized, visitor.do("GET", p, nil).status, p)
			}
			r = alice.do("GET", "/api/domains/not-a-number", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, http.StatusNotFound, alice.do("GET", "/api/domains/999999", nil).status)
		})
	}
}
