package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// loginAdmin creates an admin in the server's database (as `nameport admin
// create` does) and returns a browser logged in as it.
func loginAdmin(t *testing.T, ts *testServer) *browser {
	t.Helper()
	d, err := db.Open(context.Background(), ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	accounts, err := account.NewService(d, account.Options{Secret: []byte(strings.Repeat("x", 32))})
	require.NoError(t, err)
	_, err = accounts.CreateDemoAdmin(context.Background(), "root", "root@example.com", "hunter22")
	require.NoError(t, err)
	b := newBrowser(t, ts)
	r := b.do("POST", "/api/auth/login", map[string]any{"username": "root", "password": "hunter22"})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	return b
}

// loginAdmin2 logs in the admin that loginAdmin created earlier.
func loginAdmin2(t *testing.T, ts *testServer) *browser {
	t.Helper()
	b := newBrowser(t, ts)
	r := b.do("POST", "/api/auth/login", map[string]any{"username": "root", "password": "hunter22"})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	return b
}

// signedUp signs username up and verifies its email address through the
// mailed link, so the account may register names and add funds.
func signedUp(t *testing.T, ts *testServer, username, userType string) *browser {
	t.Helper()
	b := newBrowser(t, ts)
	r := b.do("POST", "/api/auth/register", signUp(username, userType))
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	verifyEmail(t, ts, username+"@example.com")
	return b
}

func TestCatalogAdminOperationsAreAdminOnly(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	admin := loginAdmin(t, ts)
	ext := data(t, admin.do("POST", "/api/domain-extensions", map[string]any{"extension": ".inf.nz", "description": "Information sites"}))
	prem := data(t, admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "cloud", "extension": ".inf.nz", "price": 500}))
	extID, premID := int64(ext["id"].(float64)), int64(prem["id"].(float64))

	ops := []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/domain-extensions", map[string]any{"extension": ".new.nz", "description": "A new one"}},
		{"PATCH", fmt.Sprintf("/api/domain-extensions/%d", extID), map[string]any{"active": false}},
		{"DELETE", fmt.Sprintf("/api/domain-extensions/%d", extID), nil},
		{"POST", "/api/admin/premium-domains", map[string]any{"name": "apps", "extension": ".inf.nz", "price": 50}},
		{"PUT", fmt.Sprintf("/api/admin/premium-domains/%d", premID), map[string]any{"featured": true}},
		{"DELETE", fmt.Sprintf("/api/admin/premium-domains/%d", premID), nil},
		{"POST", "/api/admin/premium-domains/bulk", map[string]any{"action": "delete", "ids": []int64{premID}}},
	}
	visitor := newBrowser(t, ts)
	user := signedUp(t, ts, "enduser", "user")
	registrar := signedUp(t, ts, "reseller", "registrar")
	for _, op := range ops {
		r := visitor.do(op.method, op.path, op.body)
		require.Equal(t, http.StatusUnauthorized, r.status, "visitor %s %s", op.method, op.path)
		for _, who := range []*browser{user, registrar} {
			r = who.do(op.method, op.path, op.body)
			require.Equal(t, http.StatusForbidden, r.status, "%s %s", op.method, op.path)
			require.Equal(t, "Admin access required", r.body["error"])
		}
	}
	// Nothing changed.
	exts := admin.do("GET", "/api/domain-extensions", nil).body["data"].([]any)
	require.Len(t, exts, 1)
	require.Equal(t, true, exts[0].(map[string]any)["active"])
	prems := admin.do("GET", "/api/premium-domains", nil).body["data"].([]any)
	require.Len(t, prems, 1)
	require.Equal(t, false, prems[0].(map[string]any)["featured"])

	// The admin can do each of them.
	for _, op := range ops[:2] {
		r := admin.do(op.method, op.path, op.body)
		require.Less(t, r.status, 300, "%s %s: %s", op.method, op.path, r.raw)
	}
}

func TestCatalogOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)

			r := admin.do("POST", "/api/domain-extensions", map[string]any{
				"extension": "inf.nz", "basePrice": 8, "description": "Information sites", "adminEmail": "ops@example.com",
				"dnsProvider": "cloudflare", "dnsApiKey": "cf-secret-key",
				"lengthBasedPricing": []map[string]any{{"minLength": 1, "maxLength": 3, "price": 25, "registrarPrice": 20}},
			})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			ext := data(t, r)
			require.Equal(t, ".inf.nz", ext["extension"])
			require.Equal(t, true, ext["hasDnsApiKey"])
			require.NotContains(t, r.raw, "cf-secret-key", "secrets are never sent back")

			// Spec messages and statuses for bad input; nothing is stored.
			bad := []struct {
				body   map[string]any
				status int
				msg    string
			}{
				{map[string]any{"extension": ".inf.nz", "description": "Duplicate"}, http.StatusConflict, "Extension .inf.nz already exists"},
				{map[string]any{"extension": "com", "description": "Single label"}, http.StatusUnprocessableEntity, "Extension must be in format like '.example.com'"},
				{map[string]any{"extension": ".x.nz", "description": "Cheap", "basePrice": 0.5}, http.StatusUnprocessableEntity, "Base price must be at least 1"},
				{map[string]any{"extension": ".x.nz", "description": "Odd", "basePrice": 8.125}, http.StatusUnprocessableEntity, "Base price must be an amount in dollars with at most 2 decimals"},
				{map[string]any{"extension": ".x.nz", "description": "Rules", "lengthBasedPricing": []map[string]any{
					{"minLength": 1, "maxLength": 5, "price": 20}, {"minLength": 4, "maxLength": 63, "price": 10}}},
					http.StatusUnprocessableEntity, "There is an overlap with an existing rule. Each domain length must be covered by only one rule."},
				{map[string]any{"extension": ".x.nz", "description": "Promo", "lengthBasedPricing": []map[string]any{
					{"minLength": 1, "maxLength": 5, "price": 20, "isPromotion": true, "promotionEndDate": "next week"}}},
					http.StatusUnprocessableEntity, "Promotion end date must be a date like 2026-12-31"},
				{map[string]any{"extension": ".x.nz", "description": 5}, http.StatusUnprocessableEntity, "description: expected string"},
			}
			for _, tc := range bad {
				r := admin.do("POST", "/api/domain-extensions", tc.body)
				require.Equal(t, tc.status, r.status, r.raw)
				require.Contains(t, r.body["error"], tc.msg)
			}
			require.Len(t, admin.do("GET", "/api/domain-extensions", nil).body["data"].([]any), 1)

			// The public sees prices, not configuration.
			visitor := newBrowser(t, ts)
			pub := visitor.do("GET", "/api/domain-extensions", nil)
			require.Equal(t, http.StatusOK, pub.status)
			require.NotContains(t, pub.raw, "ops@example.com")
			require.NotContains(t, pub.raw, "hasDnsApiKey")
			require.Contains(t, pub.raw, `"lengthBasedPricing":[{"minLength":1,"maxLength":3,"price":25,"registrarPrice":20`)

			// Premium names.
			r = admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "Shop", "extension": ".inf.nz", "price": 350,
				"discountPercentage": 20, "discountValidUntil": "2099-12-31", "category": "business", "keywords": []string{"store"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "shop", "extension": ".inf.nz", "price": 350})
			require.Equal(t, http.StatusConflict, r.status)
			r = admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "cheap", "extension": ".inf.nz", "price": 9})
			require.Equal(t, "Premium domain price must be at least 10", r.body["error"])
			held := data(t, admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": "held", "extension": ".inf.nz", "price": 100, "isAvailable": false}))

			list := visitor.do("GET", "/api/premium-domains", nil).body["data"].([]any)
			require.Len(t, list, 1, "Reserved names are not listed")
			shop := list[0].(map[string]any)
			require.Equal(t, 350.0, shop["price"])
			require.Equal(t, 280.0, shop["currentPrice"])
			require.Equal(t, 20.0, shop["discountPercentage"])
			require.Equal(t, "2099-12-31T00:00:00Z", shop["discountValidUntil"])
			require.Len(t, admin.do("GET", "/api/premium-domains", nil).body["data"].([]any), 2)

			// Prices for each kind of buyer.
			enterprise := newBrowser(t, ts)
			in := signUp("bigreseller", "registrar")
			in["tier"] = "enterprise"
			require.Equal(t, http.StatusCreated, enterprise.do("POST", "/api/auth/register", in).status)
			approveTier(t, admin, "bigreseller")
			basic := signedUp(t, ts, "smallreseller", "registrar")
			check := func(b *browser, q string) map[string]any {
				t.Helper()
				r := b.do("GET", "/api/domains/check?"+q, nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				return data(t, r)
			}
			require.Equal(t, 8.0, check(visitor, "name=example&extension=.inf.nz")["price"])
			require.Equal(t, 6.0, check(basic, "name=example&extension=.inf.nz")["price"])
			require.Equal(t, 4.0, check(enterprise, "name=example&extension=.inf.nz")["price"])
			require.Equal(t, 25.0, check(visitor, "name=abc&extension=.inf.nz")["price"])
			require.Equal(t, 20.0, check(basic, "name=abc&extension=.inf.nz")["price"])
			c := check(visitor, "name=SHOP&extension=.inf.nz")
			require.Equal(t, map[string]any{"domain": "shop", "extension": ".inf.nz", "available": true, "isPremium": true, "price": 280.0, "renewalPrice": 350.0}, c)
			require.Equal(t, 224.0, check(enterprise, "name=shop&extension=.inf.nz")["price"])
			require.Equal(t, 224.0, enterprise.do("GET", "/api/premium-domains", nil).body["data"].([]any)[0].(map[string]any)["currentPrice"])
			c = check(visitor, "name=held&extension=.inf.nz")
			require.Equal(t, false, c["available"])
			require.Equal(t, "premium_reserved", c["reason"])
			require.Equal(t, "reserved", check(visitor, "name=www&extension=.inf.nz")["reason"])

			r = visitor.do("GET", "/api/domains/check?name=-bad-&extension=.inf.nz", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.", r.body["error"])
			r = visitor.do("GET", "/api/domains/check?name=fine&extension=.com", nil)
			require.Equal(t, "Extension must be one of .inf.nz", r.body["error"])

			// Bulk and delete.
			r = admin.do("POST", "/api/admin/premium-domains/bulk", map[string]any{"action": "feature", "ids": []int64{}})
			require.Equal(t, "Please select at least one domain first", r.body["error"])
			r = admin.do("POST", "/api/admin/premium-domains/bulk", map[string]any{"action": "makeAvailable", "ids": []any{held["id"]}})
			require.Equal(t, 1.0, data(t, r)["changed"])
			require.Len(t, visitor.do("GET", "/api/premium-domains", nil).body["data"].([]any), 2)
			r = admin.do("DELETE", fmt.Sprintf("/api/admin/premium-domains/%v", held["id"]), nil)
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, http.StatusNotFound, admin.do("DELETE", fmt.Sprintf("/api/admin/premium-domains/%v", held["id"]), nil).status)

			// Deactivating the extension takes it out of search.
			r = admin.do("PATCH", fmt.Sprintf("/api/domain-extensions/%v", ext["id"]), map[string]any{"active": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, []any{}, visitor.do("GET", "/api/domain-extensions", nil).body["data"])
			r = visitor.do("GET", "/api/domains/check?name=fine&extension=.inf.nz", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
		})
	}
}

// The DNS credentials of an extension are sealed at rest and never sent back
// in full, not even to admins: only their last 4 characters show. Sending the
// masked value back (a form saved without retyping) keeps the stored secret.
func TestCatalogDNSCredentialsAreMasked(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			r := admin.do("POST", "/api/domain-extensions", map[string]any{
				"extension": ".inf.nz", "description": "Information sites", "dnsProvider": "cloudflare",
				"dnsApiKey": "cf-key-ABCD1234", "dnsApiSecret": "cf-secret-WXYZ9876",
			})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			ext := data(t, r)
			require.Equal(t, "••••1234", ext["dnsApiKey"])
			require.Equal(t, "••••9876", ext["dnsApiSecret"])
			require.NotContains(t, r.raw, "cf-key-ABCD")
			require.NotContains(t, r.raw, "cf-secret-WXYZ")
			path := fmt.Sprintf("/api/domain-extensions/%v", ext["id"])
			sealedKey := storedDNSKey(t, ts, ".inf.nz")
			require.NotEmpty(t, sealedKey)
			require.NotContains(t, sealedKey, "ABCD1234", "sealed at rest")

			list := admin.do("GET", "/api/domain-extensions", nil)
			require.NotContains(t, list.raw, "cf-key-ABCD")
			require.NotContains(t, list.raw, "cf-secret-WXYZ")
			got := list.body["data"].([]any)[0].(map[string]any)
			require.Equal(t, "••••1234", got["dnsApiKey"])
			pub := newBrowser(t, ts).do("GET", "/api/domain-extensions", nil)
			require.NotContains(t, pub.raw, "dnsApiKey")
			require.NotContains(t, pub.raw, "••••")

			// Saving the form with the masked values keeps both secrets.
			r = admin.do("PATCH", path, map[string]any{"description": "Info sites", "dnsApiKey": "••••1234", "dnsApiSecret": "••••9876"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "••••1234", data(t, r)["dnsApiKey"])
			require.Equal(t, "••••9876", data(t, r)["dnsApiSecret"])
			require.Equal(t, sealedKey, storedDNSKey(t, ts, ".inf.nz"), "the stored key is unchanged")

			// A new value replaces it; a short one shows no character at all.
			r = admin.do("PATCH", path, map[string]any{"dnsApiKey": "new-key-00005678", "dnsApiSecret": "short"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "••••5678", data(t, r)["dnsApiKey"])
			require.Equal(t, "••••", data(t, r)["dnsApiSecret"])
			require.NotContains(t, r.raw, "short")
			require.NotEqual(t, sealedKey, storedDNSKey(t, ts, ".inf.nz"))

			// An empty string removes it.
			r = admin.do("PATCH", path, map[string]any{"dnsApiKey": ""})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, data(t, r)["hasDnsApiKey"])
			require.Nil(t, data(t, r)["dnsApiKey"])
		})
	}
}

// storedDNSKey is the sealed DNS API key of an extension as the database holds it.
func storedDNSKey(t *testing.T, ts *testServer, extension string) string {
	t.Helper()
	d, err := db.Open(context.Background(), ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	var sealed string
	require.NoError(t, d.Bun.NewRaw("SELECT dns_api_key_sealed FROM extensions WHERE extension = ?", extension).Scan(context.Background(), &sealed))
	return sealed
}
