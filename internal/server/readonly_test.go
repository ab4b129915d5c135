package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// idempotencyRows counts the rows of both idempotency tables.
func idempotencyRows(t *testing.T, ts *testServer) int {
	t.Helper()
	d, err := db.Open(context.Background(), ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	total := 0
	for _, table := range []string{"idempotency_keys", "idempotent_requests"} {
		n, err := d.Bun.NewSelect().Table(table).Count(context.Background())
		require.NoError(t, err)
		total += int(n)
	}
	return total
}

// A check stores nothing, even sent with an Idempotency-Key (directly or
// through the SDK); a registration and a deposit with a key are still saved
// and replayed.
func TestReadOnlyCheckStoresNothing(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			ctx := context.Background()
			_, key := registrar(t, ts, "reggie")
			before := idempotencyRows(t, ts)

			for range 2 {
				r := v1(t, ts, key, "POST", "/v1/domains/check", map[string]any{"domain": "quiet.inf.nz"}, "Idempotency-Key", "check-1")
				require.Equal(t, http.StatusOK, r.status, r.raw)
				require.Empty(t, r.header.Get("Idempotent-Replayed"))
			}
			// A key that would be refused on a call with an effect is not
			// even looked at.
			r := v1(t, ts, key, "POST", "/v1/domains/check", map[string]any{"domain": "quiet.inf.nz"}, "Idempotency-Key", "has space")
			require.Equal(t, http.StatusOK, r.status, r.raw)
			c := sdkClient(ts.url, key)
			_, err := c.Domains.Check(sdk.WithIdempotencyKey(ctx, "check-2"), "quiet.inf.nz")
			require.NoError(t, err)
			_, err = c.Domains.Check(ctx, "quiet.inf.nz")
			require.NoError(t, err)
			require.Equal(t, before, idempotencyRows(t, ts), "a check stores no idempotency row")

			// Effects still replay.
			dep := v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 20}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, dep.status, dep.raw)
			again := v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 20}, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, again.status, again.raw)
			require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
			require.Equal(t, dep.raw, again.raw)
			reg := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "quiet.inf.nz"}, "Idempotency-Key", "reg-1")
			require.Equal(t, http.StatusCreated, reg.status, reg.raw)
			again = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "quiet.inf.nz"}, "Idempotency-Key", "reg-1")
			require.Equal(t, http.StatusCreated, again.status, again.raw)
			require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
			require.Equal(t, 20-reg.body["transaction"].(map[string]any)["amount"].(float64)*-1, balanceOf(t, ts, key), "charged once")
			require.Greater(t, idempotencyRows(t, ts), before)
		})
	}
}
