package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// A basic registrar's 100 new registrations a month, as the dashboard
// (/api) and programs (/v1 through the SDK) see and meet them. The
// boundary, the month and races are proven in package registration.
func TestRegistrarAllowanceOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) { c.Demo = true })
			web, key := registrar(t, ts, "quota")
			client := sdkClient(ts.url, key)
			ctx := context.Background()
			sdkDeposit(t, client, 200)

			now := time.Now().UTC()
			periodStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
			resetsAt := periodStart.AddDate(0, 1, 0)
			r := web.do("GET", "/api/registrar/allowance", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"tier": "basic", "limit": 100.0, "used": 0.0, "remaining": 100.0,
				"periodStart": periodStart.Format(time.RFC3339), "resetsAt": resetsAt.Format(time.RFC3339)}, data(t, r))

			// 98 registrations earlier this month, their domains since released.
			d := dbtest.Connect(t, ts.dbURL)
			for range 98 {
				dbtest.MustExec(t, d, `INSERT INTO transactions (user_id, type, amount_cents, status, payment_method, description, created_at)
					SELECT id, 'domain_purchase', -100, 'completed', 'wallet', 'Registration of gone.inf.nz for 1 year', ? FROM users WHERE username = 'quota'`, now)
			}
			dbtest.MustExec(t, d, "UPDATE wallets SET balance_cents = balance_cents - 9800 WHERE user_id = (SELECT id FROM users WHERE username = 'quota')")

			// The 99th from the web app, the 100th through the SDK.
			r = web.do("POST", "/api/domains", map[string]any{"name": "ninety-nine", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			sdkRegister(t, client, "hundredth.inf.nz")

			a, err := client.Domains.Allowance(ctx)
			require.NoError(t, err)
			require.Equal(t, sdk.Allowance{Tier: "basic", Limit: new(100), Used: 100, Remaining: new(0),
				PeriodStart: periodStart, ResetsAt: resetsAt}, *a)

			// The 101st is refused in both, saying the limit and when it resets.
			balance := balanceOf(t, ts, key)
			want := "Your Basic tier allows 100 new registrations a month; you have used them all. The allowance resets on " +
				resetsAt.Format("January 2, 2006") + " (UTC)."
			_, err = client.Domains.Register(ctx, sdk.RegisterRequest{Domain: "one-more.inf.nz"})
			apiErr := sdkAPIError(t, err, http.StatusForbidden, sdk.CodeAllowanceExhausted)
			require.Equal(t, want, apiErr.Message)
			r = web.do("POST", "/api/domains", map[string]any{"name": "one-more", "extension": ".inf.nz"})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, map[string]any{"success": false, "code": "allowance_exhausted", "error": want}, r.body)
			require.Equal(t, balance, balanceOf(t, ts, key), "nothing charged")
			_, err = client.Domains.Get(ctx, "one-more.inf.nz")
			require.True(t, sdk.IsNotFound(err), "nothing registered: %v", err)

			r = web.do("GET", "/api/registrar/allowance", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, 100.0, data(t, r)["used"])
			require.Equal(t, 0.0, data(t, r)["remaining"])
		})
	}
}
