package server_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// A registrar's reports over HTTP: /api (the dashboard) and /v1 (programs,
// the SDK) answer the same numbers from one service call; the CSV exports
// carry them; other accounts see none of them. The figures themselves are
// proven in package reports, over a year of a moving clock.
func TestReportsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ts := start(t, engine)
			seedCatalog(t, ts)
			web, key := registrar(t, ts, "reporter")
			_, rivalKey := registrar(t, ts, "rivalreporter")
			user := signedUp(t, ts, "reportuser", "user")

			// A new registrar's report: twelve empty months, nothing due.
			fresh := data(t, web.do("GET", "/api/registrar/reports", nil))
			require.Len(t, fresh["months"], 12)
			require.Empty(t, fresh["extensions"])
			require.Empty(t, fresh["renewals"])
			require.Len(t, fresh["renewalWindows"], 3)

			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 100}).status)
			for _, name := range []string{"alpha.inf.nz", "bravo.inf.nz", "cloud.inf.nz"} {
				r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": name})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
			}
			require.Equal(t, http.StatusCreated, v1(t, ts, rivalKey, "POST", "/v1/wallet/deposits", map[string]any{"amount": 50}).status)
			r := v1(t, ts, rivalKey, "POST", "/v1/domains/register", map[string]any{"domain": "rival.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			// Renewal windows need expiries that are near: the server runs
			// on the real clock, so they are moved in the database (package
			// reports proves the windows on a moving clock instead).
			d, err := db.Open(ctx, ts.dbURL)
			require.NoError(t, err)
			now := time.Now().UTC()
			dbtest.MustExec(t, d, "UPDATE domains SET expires_at = ? WHERE name = 'alpha'", now.Add(10*24*time.Hour))
			dbtest.MustExec(t, d, "UPDATE domains SET expires_at = ? WHERE name = 'cloud'", now.Add(45*24*time.Hour))
			require.NoError(t, d.Close())

			// /api and /v1: the same numbers.
			api := data(t, web.do("GET", "/api/registrar/reports", nil))
			r = v1(t, ts, key, "GET", "/v1/reports", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			v1Report := r.body
			delete(api, "generatedAt")
			delete(v1Report, "generatedAt")
			require.Equal(t, api, v1Report)

			var rep sdk.Report
			raw, err := json.Marshal(api)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &rep))
			spent := 100 - rep.Balance
			this := rep.Months[11]
			require.Equal(t, time.Now().UTC().Format("2006-01"), this.Month)
			require.Equal(t, 3, this.Registrations)
			require.Equal(t, spent, this.RegistrationSpend)
			require.Equal(t, spent, this.TotalSpend)
			require.Equal(t, []sdk.ReportExtension{{Extension: ".inf.nz", Domains: 3, Active: 3}}, rep.Extensions)
			require.Len(t, rep.Renewals, 2)
			require.Equal(t, "alpha.inf.nz", rep.Renewals[0].Domain)
			require.Equal(t, 30, rep.Renewals[0].WindowDays)
			require.Equal(t, "expiring_soon", rep.Renewals[0].Status)
			require.Equal(t, "cloud.inf.nz", rep.Renewals[1].Domain)
			require.True(t, rep.Renewals[1].Premium)
			require.Equal(t, 60, rep.Renewals[1].WindowDays)
			require.Equal(t, 30.0, rep.Renewals[1].Price, "the premium list price; basic has no premium discount")
			total := rep.Renewals[0].Price + rep.Renewals[1].Price
			require.Equal(t, []sdk.RenewalWindow{
				{Days: 30, Domains: 1, Total: rep.Renewals[0].Price, AutoRenewTotal: rep.Renewals[0].Price},
				{Days: 60, Domains: 2, Total: total, AutoRenewTotal: total, BalanceNeeded: max(0, total-rep.Balance)},
				{Days: 90, Domains: 2, Total: total, AutoRenewTotal: total, BalanceNeeded: max(0, total-rep.Balance)},
			}, rep.RenewalWindows)
			require.Equal(t, 3, rep.Allowance.Used)
			require.Equal(t, 100, *rep.Allowance.Limit)

			// The rival sees only its own.
			r = v1(t, ts, rivalKey, "GET", "/v1/reports", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Empty(t, r.body["renewals"])
			require.Equal(t, []any{map[string]any{"extension": ".inf.nz", "domains": 1.0, "active": 1.0, "expired": 0.0}},
				r.body["extensions"])

			// CSV: an attachment with the same figures, alike in /api and /v1.
			r = web.do("GET", "/api/registrar/reports/renewals.csv", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "text/csv; charset=utf-8", r.header.Get("Content-Type"))
			require.Equal(t, `attachment; filename="nameport-renewals-`+time.Now().UTC().Format("2006-01-02")+`.csv"`,
				r.header.Get("Content-Disposition"))
			rows, err := csv.NewReader(strings.NewReader(r.raw)).ReadAll()
			require.NoError(t, err)
			require.Len(t, rows, 3)
			require.Equal(t, "alpha.inf.nz", rows[1][0])
			require.Equal(t, "30", rows[1][3])
			require.Equal(t, []string{"cloud.inf.nz", "60", "30.00", "true", "true"}, []string{rows[2][0], rows[2][3], rows[2][4], rows[2][5], rows[2][6]})
			webCSV := r.raw
			r = v1(t, ts, key, "GET", "/v1/reports/renewals.csv", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, webCSV, r.raw)

			// The SDK reads the same.
			client := sdkClient(ts.url, key)
			got, err := client.Reports.Get(ctx)
			require.NoError(t, err)
			require.Equal(t, rep.Months, got.Months)
			require.Equal(t, rep.RenewalWindows, got.RenewalWindows)
			activity, err := client.Reports.CSV(ctx, sdk.ReportActivity)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(string(activity), "month,registrations,renewals\n"), string(activity))
			require.Contains(t, string(activity), "\n"+this.Month+",3,0\n")
			_, err = client.Reports.CSV(ctx, "nonsense")
			var apiErr *sdk.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusUnprocessableEntity, apiErr.StatusCode)

			// Who may not: users, visitors, sessions on /v1.
			for _, path := range []string{"/api/registrar/reports", "/api/registrar/reports/spend.csv"} {
				r = user.do("GET", path, nil)
				require.Equal(t, http.StatusForbidden, r.status, r.raw)
				require.Equal(t, "Only registrar accounts have reports", r.body["error"])
				r = newBrowser(t, ts).do("GET", path, nil)
				require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			}
			for _, path := range []string{"/v1/reports", "/v1/reports/spend.csv"} {
				r = web.do("GET", path, nil)
				require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			}

			// Bad input: a clear refusal, never the SPA or a 500.
			r = web.do("GET", "/api/registrar/reports/nonsense.csv", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, false, r.body["success"], r.raw)
			require.Contains(t, r.body["error"], "activity")
			r = v1(t, ts, key, "GET", "/v1/reports/%00.csv", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "invalid", problemCode(t, r))
			r = web.do("GET", "/api/registrar/reports/spend.txt", nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, false, r.body["success"], r.raw)
		})
	}
}
