package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// An explicit number is honoured: years 0 (or less) and ttl 0 are invalid,
// not the default; leaving them out still means 1 year and 3600 seconds.
// Through /api, /v1 and the SDK; nothing is registered or charged for an
// invalid request.
func TestExplicitZeroIsNotTheDefault(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			ctx := context.Background()
			const msg = "Years must be between 1 and 10"

			// /api
			alice := signedUp(t, ts, "alice", "user")
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": 50}).status)
			for _, years := range []int{0, -1, 11} {
				r := alice.do("POST", "/api/domains", map[string]any{"name": "zero", "extension": ".inf.nz", "years": years})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, msg, r.body["error"], "years %d", years)
			}
			require.Equal(t, 50.0, data(t, alice.do("GET", "/api/wallet", nil))["balance"], "nothing charged")
			r := alice.do("POST", "/api/domains", map[string]any{"name": "zero", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			requireYears(t, data(t, r)["domain"].(map[string]any), 1)
			domID := data(t, r)["domain"].(map[string]any)["id"]
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", domID), map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": 0})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "TTL must be at least 300 seconds", r.body["error"])
			r = alice.do("POST", fmt.Sprintf("/api/domains/%v/dns", domID), map[string]any{"type": "A", "name": "www", "content": "192.0.2.1"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, 3600.0, data(t, r)["ttl"])

			// A page size of 0 is not the default either.
			admin := loginAdmin2(t, ts) // seedCatalog created it
			require.Equal(t, http.StatusUnprocessableEntity, admin.do("GET", "/api/admin/audit-log?limit=0", nil).status)
			require.Equal(t, http.StatusOK, admin.do("GET", "/api/admin/audit-log", nil).status)

			// /v1
			_, key := registrar(t, ts, "reggie")
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 50}).status)
			for _, years := range []int{0, -3} {
				r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "nought.inf.nz", "years": years})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, "invalid", problemCode(t, r))
				require.Equal(t, msg, r.body["detail"])
			}
			require.Equal(t, 50.0, balanceOf(t, ts, key), "nothing charged")
			r = v1(t, ts, key, "PUT", "/v1/domains/nought.inf.nz/records", map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.1"}, "ttl": 0})
			require.Equal(t, http.StatusNotFound, r.status, "not registered yet: %s", r.raw)

			// The SDK sends years and ttl when they are set, and only then.
			c := sdkClient(ts.url, key)
			_, err := c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "nought.inf.nz", Years: sdk.Int(0)})
			var apiErr *sdk.Error
			require.True(t, errors.As(err, &apiErr), "%v", err)
			require.Equal(t, sdk.CodeInvalid, apiErr.Code)
			require.Equal(t, msg, apiErr.Message)
			reg, err := c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "nought.inf.nz"})
			require.NoError(t, err)
			require.Equal(t, reg.Domain.RegisteredAt.AddDate(1, 0, 0).Unix(), reg.Domain.ExpiresAt.Unix())
			reg, err = c.Domains.Register(ctx, sdk.RegisterRequest{Domain: "twice.inf.nz", Years: sdk.Int(2)})
			require.NoError(t, err)
			require.Equal(t, reg.Domain.RegisteredAt.AddDate(2, 0, 0).Unix(), reg.Domain.ExpiresAt.Unix())

			_, err = c.DNS.Upsert(ctx, "nought.inf.nz", sdk.RecordSet{Name: "www", Type: "A", Values: []string{"192.0.2.1"}, TTL: sdk.Int(0)})
			require.True(t, errors.As(err, &apiErr), "%v", err)
			require.Equal(t, sdk.CodeInvalid, apiErr.Code)
			require.Equal(t, "TTL must be at least 300 seconds", apiErr.Message)
			set, err := c.DNS.Upsert(ctx, "nought.inf.nz", sdk.RecordSet{Name: "www", Type: "A", Values: []string{"192.0.2.1"}})
			require.NoError(t, err)
			require.Len(t, set, 1)
			require.Equal(t, 3600, set[0].TTL)
		})
	}
}

// requireYears checks that domain d runs for years from its registration.
func requireYears(t *testing.T, d map[string]any, years int) {
	t.Helper()
	reg, err := time.Parse(time.RFC3339, d["registeredAt"].(string))
	require.NoError(t, err)
	exp, err := time.Parse(time.RFC3339, d["expiresAt"].(string))
	require.NoError(t, err)
	require.Equal(t, reg.AddDate(years, 0, 0).Unix(), exp.Unix(), "%v", d)
}
