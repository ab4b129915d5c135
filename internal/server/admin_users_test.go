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

func adminUsers(t *testing.T, b *browser, query string) (users []map[string]any, total float64) {
	t.Helper()
	d := data(t, b.do("GET", "/api/admin/users"+query, nil))
	for _, u := range d["users"].([]any) {
		users = append(users, u.(map[string]any))
	}
	return users, d["total"].(float64)
}

func userNamed(t *testing.T, admin *browser, username string) map[string]any {
	t.Helper()
	users, _ := adminUsers(t, admin, "?search="+username)
	for _, u := range users {
		if u["username"] == username {
			return u
		}
	}
	t.Fatalf("no account %s", username)
	return nil
}

func auditEntries(t *testing.T, admin *browser, query string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range data(t, admin.do("GET", "/api/admin/audit-log"+query, nil))["entries"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

func TestAdminUsersAreAdminOnly(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			loginAdmin(t, ts)
			user := signedUp(t, ts, "ursula", "user")
			reseller, _ := registrar(t, ts, "reseller")
			anon := newBrowser(t, ts)
			for _, op := range []struct{ method, path string }{
				{"GET", "/api/admin/users"}, {"PATCH", "/api/admin/users/1"},
				{"GET", "/api/admin/audit-log"}, {"GET", "/api/admin/stats"},
			} {
				var body any
				if op.method == "PATCH" {
					body = map[string]any{"disabled": true}
				}
				require.Equal(t, http.StatusUnauthorized, anon.do(op.method, op.path, body).status, op.path)
				for _, b := range []*browser{user, reseller} {
					r := b.do(op.method, op.path, body)
					require.Equal(t, http.StatusForbidden, r.status, op.path)
					require.Equal(t, "Admin access required", r.body["error"], r.raw)
				}
			}
			// Nobody was disabled by the refused calls.
			require.Equal(t, http.StatusOK, user.do("GET", "/api/auth/me", nil).status)
		})
	}
}

func TestAdminUsersOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			reseller, key := registrar(t, ts, "reseller")
			signedUp(t, ts, "ursula", "user")
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 25}).status)

			// The list: newest first, with type, tier, domains and balance.
			users, total := adminUsers(t, admin, "")
			require.Equal(t, 3.0, total)
			require.Equal(t, []any{"ursula", "reseller", "root"}, []any{users[0]["username"], users[1]["username"], users[2]["username"]})
			r0 := users[1]
			require.Equal(t, "registrar", r0["userType"])
			require.Equal(t, "basic", r0["tier"])
			require.Equal(t, 0.0, r0["domainCount"])
			require.Equal(t, 25.0, r0["walletBalance"])
			require.Equal(t, false, r0["disabled"])
			require.NotEmpty(t, r0["createdAt"])
			require.NotContains(t, r0, "apiKey")
			resellerID := int64(r0["id"].(float64))
			adminID := int64(users[2]["id"].(float64))

			// Search, filter by type, and pages.
			users, total = adminUsers(t, admin, "?search=SELL")
			require.Equal(t, 1.0, total)
			require.Equal(t, "reseller", users[0]["username"])
			users, total = adminUsers(t, admin, "?search=ursula%40example")
			require.Equal(t, 1.0, total)
			users, total = adminUsers(t, admin, "?search=%25")
			require.Equal(t, 0.0, total, "LIKE wildcards are matched literally")
			users, _ = adminUsers(t, admin, "?type=admin")
			require.Len(t, users, 1)
			require.Equal(t, "root", users[0]["username"])
			users, total = adminUsers(t, admin, "?page=2&pageSize=2")
			require.Equal(t, 3.0, total)
			require.Len(t, users, 1)
			require.Equal(t, "root", users[0]["username"])
			require.Equal(t, http.StatusUnprocessableEntity, admin.do("GET", "/api/admin/users?type=robot", nil).status)

			// Tiers: registrars only, known tiers only.
			path := fmt.Sprintf("/api/admin/users/%d", resellerID)
			d := data(t, admin.do("PATCH", path, map[string]any{"tier": "enterprise"}))
			require.Equal(t, "enterprise", d["tier"])
			require.Equal(t, "enterprise", data(t, reseller.do("GET", "/api/auth/me", nil))["tier"])
			require.Equal(t, http.StatusUnprocessableEntity, admin.do("PATCH", path, map[string]any{"tier": "gold"}).status)
			ursula := userNamed(t, admin, "ursula")
			r := admin.do("PATCH", fmt.Sprintf("/api/admin/users/%v", ursula["id"]), map[string]any{"tier": "premium"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Only registrars have a tier", r.body["error"])
			require.Equal(t, http.StatusNotFound, admin.do("PATCH", "/api/admin/users/999999", map[string]any{"disabled": true}).status)

			// Admins cannot disable themselves.
			r = admin.do("PATCH", fmt.Sprintf("/api/admin/users/%d", adminID), map[string]any{"disabled": true})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "You cannot disable your own account", r.body["error"])

			// Disabling ends the sessions, stops the API key and refuses logins.
			d = data(t, admin.do("PATCH", path, map[string]any{"disabled": true}))
			require.Equal(t, true, d["disabled"])
			require.NotNil(t, d["disabledAt"])
			require.Equal(t, http.StatusUnauthorized, reseller.do("GET", "/api/auth/me", nil).status)
			require.Equal(t, http.StatusUnauthorized, v1(t, ts, key, "GET", "/v1/wallet", nil).status)
			login := map[string]any{"username": "reseller", "password": "secret1"}
			r = newBrowser(t, ts).do("POST", "/api/auth/login", login)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Equal(t, "This account is disabled", r.body["error"])
			require.Equal(t, true, userNamed(t, admin, "reseller")["disabled"])
			// Disabling again changes nothing and records nothing.
			require.Equal(t, true, data(t, admin.do("PATCH", path, map[string]any{"disabled": true}))["disabled"])

			// Enabling lets the account back in with the same key.
			require.Equal(t, false, data(t, admin.do("PATCH", path, map[string]any{"disabled": false}))["disabled"])
			require.Equal(t, http.StatusOK, newBrowser(t, ts).do("POST", "/api/auth/login", login).status)
			require.Equal(t, 25.0, balanceOf(t, ts, key))

			// The audit log, newest first, says who did what.
			entries := auditEntries(t, admin, "")
			require.Len(t, entries, 3)
			require.Equal(t, []any{"user.enable", "user.disable", "user.tier"},
				[]any{entries[0]["action"], entries[1]["action"], entries[2]["action"]})
			for _, e := range entries {
				require.Equal(t, "root", e["actor"])
				require.Equal(t, float64(adminID), e["actorId"])
				require.Equal(t, "user", e["targetType"])
				require.Equal(t, fmt.Sprint(resellerID), e["targetId"])
				require.NotEmpty(t, e["createdAt"])
			}
			require.Equal(t, "basic", entries[2]["before"].(map[string]any)["tier"])
			require.Equal(t, "enterprise", entries[2]["after"].(map[string]any)["tier"])
			require.Equal(t, false, entries[1]["before"].(map[string]any)["disabled"])
			require.Equal(t, true, entries[1]["after"].(map[string]any)["disabled"])

			// Pages of the audit log.
			page := data(t, admin.do("GET", "/api/admin/audit-log?limit=2", nil))
			require.Len(t, page["entries"], 2)
			next := page["nextCursor"].(float64)
			rest := auditEntries(t, admin, fmt.Sprintf("?limit=2&before=%d", int64(next)))
			require.Len(t, rest, 1)
			require.Equal(t, "user.tier", rest[0]["action"])
		})
	}
}

func TestCatalogChangesAreAudited(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			ext := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
			extPath := fmt.Sprintf("/api/domain-extensions/%v", ext["id"])
			require.Equal(t, 12.0, data(t, admin.do("PATCH", extPath, map[string]any{"basePrice": 12}))["basePrice"])
			p1 := data(t, admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "cloud", "extension": ".inf.nz", "price": 500}))
			p2 := data(t, admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "sky", "extension": ".inf.nz", "price": 300}))
			p1Path := fmt.Sprintf("/api/admin/premium-domains/%v", p1["id"])
			data(t, admin.do("PUT", p1Path, map[string]any{"featured": true}))
			r := admin.do("POST", "/api/admin/premium-domains/bulk", map[string]any{"action": "makeUnavailable", "ids": []any{p1["id"], p2["id"]}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, http.StatusOK, admin.do("DELETE", p1Path, nil).status)
			require.Equal(t, http.StatusOK, admin.do("DELETE", fmt.Sprintf("/api/admin/premium-domains/%v", p2["id"]), nil).status)
			require.Equal(t, http.StatusOK, admin.do("DELETE", extPath, nil).status)
			// A refused change is not recorded.
			require.Equal(t, http.StatusNotFound, admin.do("DELETE", extPath, nil).status)

			entries := auditEntries(t, admin, "")
			var actions []any
			for _, e := range entries {
				actions = append(actions, e["action"])
				require.Equal(t, "root", e["actor"])
			}
			require.Equal(t, []any{"extension.delete", "premium.delete", "premium.delete", "premium.bulk", "premium.update",
				"premium.create", "premium.create", "extension.update", "extension.create"}, actions)
			byAction := func(i int) (before, after map[string]any) {
				before, _ = entries[i]["before"].(map[string]any)
				after, _ = entries[i]["after"].(map[string]any)
				return
			}
			before, after := byAction(8) // extension.create
			require.Nil(t, before)
			require.Equal(t, ".inf.nz", after["extension"])
			require.Equal(t, fmt.Sprint(ext["id"]), entries[8]["targetId"])
			before, after = byAction(7) // extension.update
			require.Equal(t, 8.0, before["basePrice"])
			require.Equal(t, 12.0, after["basePrice"])
			before, after = byAction(4) // premium.update
			require.Equal(t, false, before["featured"])
			require.Equal(t, true, after["featured"])
			require.Equal(t, "premium_domain", entries[4]["targetType"])
			before, after = byAction(3) // premium.bulk
			require.Len(t, entries[3]["before"], 2)
			require.Equal(t, "makeUnavailable", after["action"])
			require.Equal(t, 2.0, after["changed"])
			for _, p := range after["domains"].([]any) {
				require.Equal(t, false, p.(map[string]any)["isAvailable"])
			}
			before, after = byAction(2) // premium.delete of cloud
			require.Equal(t, "cloud", before["name"])
			require.Nil(t, after)
			before, _ = byAction(0) // extension.delete
			require.Equal(t, 12.0, before["basePrice"])
		})
	}
}

func TestAdminStatsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			admin := loginAdmin2(t, ts)

			// An empty platform has zeros and a full series of days.
			s := data(t, admin.do("GET", "/api/admin/stats", nil))
			require.Equal(t, 0.0, s["totalDomains"])
			require.Equal(t, 30.0, s["periodDays"])
			require.Len(t, s["daily"], 30)
			require.Equal(t, []any{}, s["domainsPerExtension"])

			// Today: a deposit, a registration and a premium sale.
			_, key := registrar(t, ts, "reseller")
			signedUp(t, ts, "ursula", "user")
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 100}).status)
			r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "flow.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			regular := -r.body["transaction"].(map[string]any)["amount"].(float64)
			r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "cloud.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			premium := -r.body["transaction"].(map[string]any)["amount"].(float64)
			require.Equal(t, true, r.body["domain"].(map[string]any)["isPremium"], r.raw)

			// Earlier days, written straight into the database: one five days
			// ago (in the period) and one forty days ago (outside it).
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			reseller := userNamed(t, admin, "reseller")
			now := time.Now().UTC()
			for _, old := range []struct {
				name, ext string
				at        time.Time
			}{{"recent", ".biz.ee", now.AddDate(0, 0, -5)}, {"ancient", ".inf.nz", now.AddDate(0, 0, -40)}} {
				dbtest.MustExec(t, d, `INSERT INTO domains (user_id, name, extension, is_premium, price_cents, auto_renew,
					registered_at, expires_at, created_at, updated_at) VALUES (?, ?, ?, FALSE, 800, TRUE, ?, ?, ?, ?)`,
					int64(reseller["id"].(float64)), old.name, old.ext, old.at, old.at.AddDate(1, 0, 0), old.at, old.at)
			}

			s = data(t, admin.do("GET", "/api/admin/stats", nil))
			require.Equal(t, 4.0, s["totalDomains"])
			require.Equal(t, 3.0, s["totalAccounts"])
			require.Equal(t, 1.0, s["activeRegistrars"])
			require.Equal(t, 3.0, s["registrations"])
			require.InDelta(t, regular+premium, s["revenue"].(float64), 0.001)
			require.Equal(t, 1.0, s["depositCount"])
			require.Equal(t, 100.0, s["deposits"])
			require.Equal(t, 1.0, s["premiumSales"])
			require.Greater(t, s["premiumRevenue"].(float64), 0.0)
			require.Equal(t, []any{
				map[string]any{"extension": ".inf.nz", "domains": 3.0, "premium": 1.0},
				map[string]any{"extension": ".biz.ee", "domains": 1.0, "premium": 0.0},
			}, s["domainsPerExtension"])
			daily := s["daily"].([]any)
			require.Len(t, daily, 30)
			today := daily[29].(map[string]any)
			require.Equal(t, now.Format("2006-01-02"), today["date"])
			require.Equal(t, 2.0, today["registrations"])
			require.InDelta(t, regular+premium, today["revenue"].(float64), 0.001)
			require.Equal(t, 100.0, today["deposits"])
			fiveDaysAgo := daily[24].(map[string]any)
			require.Equal(t, now.AddDate(0, 0, -5).Format("2006-01-02"), fiveDaysAgo["date"])
			require.Equal(t, 1.0, fiveDaysAgo["registrations"])

			// A disabled registrar is not active.
			path := fmt.Sprintf("/api/admin/users/%v", reseller["id"])
			data(t, admin.do("PATCH", path, map[string]any{"disabled": true}))
			require.Equal(t, 0.0, data(t, admin.do("GET", "/api/admin/stats", nil))["activeRegistrars"])
		})
	}
}

func TestSiteSettingChangesAreAudited(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			s := data(t, admin.do("POST", "/api/site-settings", map[string]any{"key": "site_name", "value": "Nameport"}))
			path := fmt.Sprintf("/api/site-settings/%v", s["id"])
			data(t, admin.do("PATCH", path, map[string]any{"value": "Nameport Ltd"}))
			require.Equal(t, http.StatusOK, admin.do("DELETE", path, nil).status)

			entries := auditEntries(t, admin, "")
			require.Len(t, entries, 3)
			require.Equal(t, []any{"setting.delete", "setting.update", "setting.create"},
				[]any{entries[0]["action"], entries[1]["action"], entries[2]["action"]})
			require.Equal(t, "Nameport", entries[1]["before"].(map[string]any)["value"])
			require.Equal(t, "Nameport Ltd", entries[1]["after"].(map[string]any)["value"])
			require.Equal(t, "Nameport Ltd", entries[0]["before"].(map[string]any)["value"])
			require.Nil(t, entries[0]["after"])
			require.Equal(t, "site_setting", entries[0]["targetType"])
		})
	}
}
