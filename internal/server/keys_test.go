package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// newKey makes an API key through the dashboard's /api and returns its id
// and secret.
func newKey(t *testing.T, web *browser, body map[string]any) (string, string) {
	t.Helper()
	r := web.do("POST", "/api/registrar/keys", body)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	d := data(t, r)
	return idOf(t, d["key"].(map[string]any)["id"]), d["secret"].(string)
}

// v1Scopes reads the scopes each /v1 operation of the document needs, by
// "METHOD path".
func v1Scopes(t *testing.T, ts *testServer) map[string][]string {
	t.Helper()
	r := newBrowser(t, ts).do("GET", "/openapi.json", nil)
	require.Equal(t, http.StatusOK, r.status)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.raw), &doc))
	out := map[string][]string{}
	for path, item := range doc.Paths {
		if !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for method, raw := range item {
			var op struct {
				Security []map[string][]string `json:"security"`
			}
			if json.Unmarshal(raw, &op) != nil || op.Security == nil {
				continue // parameters, summary…
			}
			require.Len(t, op.Security, 2, "%s %s", method, path)
			require.Equal(t, op.Security[0]["apiKey"], op.Security[1]["bearer"], "%s %s: both ways need the same scopes", method, path)
			out[strings.ToUpper(method)+" "+path] = op.Security[0]["apiKey"]
		}
	}
	return out
}

// wantScopes is the rule of scopes, stated again: every read needs read;
// record and forwarding changes dns; checks and registrations register;
// deposits wallet; managing keys every scope.
func wantScopes(key string) []string {
	method, path, _ := strings.Cut(key, " ")
	switch {
	case strings.HasPrefix(path, "/v1/keys"), strings.HasPrefix(path, "/v1/webhooks"):
		return []string{"read", "dns", "register", "wallet"}
	case method == "GET":
		return []string{"read"}
	case path == "/v1/domains/check" || path == "/v1/domains/register" || strings.HasSuffix(path, "/renew"),
		path == "/v1/bulk/check" || path == "/v1/bulk/register" || path == "/v1/bulk/auto-renew":
		return []string{"register"}
	case strings.HasPrefix(path, "/v1/wallet"):
		return []string{"wallet"}
	case path == "/v1/bulk/dns-template" || strings.HasPrefix(path, "/v1/dns-templates"):
		return []string{"dns"}
	case strings.Contains(path, "/records") || strings.Contains(path, "/email-forwarding") ||
		strings.Contains(path, "/domain-forwarding") || strings.Contains(path, "/ds") ||
		strings.Contains(path, "/update-keys"):
		return []string{"dns"}
	}
	return nil
}

// Each scope allows its operations and only those: every /v1 operation of
// the document is called with a key of each scope; one outside the key's
// scopes is a 403 naming the scope it lacks, before the request is read.
func TestAPIKeyScopes(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) { c.NoRateLimits = true })
			seedCatalog(t, ts)
			web, full := registrar(t, ts, "scoped")
			require.Equal(t, http.StatusCreated, v1(t, ts, full, "POST", "/v1/wallet/deposits", map[string]any{"amount": 100}).status)
			require.Equal(t, http.StatusCreated, v1(t, ts, full, "POST", "/v1/domains/register", map[string]any{"domain": "scoped.inf.nz"}).status)

			// The document says what each operation needs, by the rule.
			scopes := v1Scopes(t, ts)
			require.GreaterOrEqual(t, len(scopes), 20)
			for op, got := range scopes {
				want := wantScopes(op)
				require.NotNil(t, want, "%s: which scope should it need? Extend wantScopes", op)
				require.Equal(t, want, got, op)
			}

			keys := map[string]string{}
			for _, s := range []string{"read", "dns", "register", "wallet"} {
				_, keys[s] = newKey(t, web, map[string]any{"name": s + " only", "scopes": []string{s}})
			}
			_, keys["read+dns"] = newKey(t, web, map[string]any{"name": "read and dns", "scopes": []string{"dns", "read"}})

			// Real work within each scope.
			r := v1(t, ts, keys["read"], "GET", "/v1/domains", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = v1(t, ts, keys["dns"], "PUT", "/v1/domains/scoped.inf.nz/records", map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.10"}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = v1(t, ts, keys["register"], "POST", "/v1/domains/check", map[string]any{"domain": "free.inf.nz"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = v1(t, ts, keys["register"], "POST", "/v1/domains/register", map[string]any{"domain": "bykey.inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = v1(t, ts, keys["wallet"], "POST", "/v1/wallet/deposits", map[string]any{"amount": 5})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = v1(t, ts, keys["read+dns"], "GET", "/v1/domains/scoped.inf.nz/records", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// Every operation with every key. Allowed calls may still be
			// refused for what they sent (an empty body, an id that does
			// not exist), never for the key.
			params := strings.NewReplacer("{domain}", "scoped.inf.nz", "{type}", "A", "{name}", "nothing",
				"{ruleId}", "999999", "{host}", "nothing", "{id}", "999999")
			for op, need := range scopes {
				method, path, _ := strings.Cut(op, " ")
				path = params.Replace(path)
				var body any
				if method == "POST" || method == "PUT" {
					body = map[string]any{}
				}
				for name, key := range keys {
					has := strings.Split(strings.ReplaceAll(name, " only", ""), "+")
					var missing []string
					for _, s := range need {
						if !slices.Contains(has, s) {
							missing = append(missing, s)
						}
					}
					r := v1(t, ts, key, method, path, body)
					if len(missing) == 0 {
						require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, r.status, "%s with %s: %s", op, name, r.raw)
						require.Less(t, r.status, 500, "%s with %s: %s", op, name, r.raw)
						continue
					}
					require.Equal(t, http.StatusForbidden, r.status, "%s with %s: %s", op, name, r.raw)
					require.Equal(t, "forbidden", problemCode(t, r))
					detail := r.body["detail"].(string)
					require.True(t, strings.HasPrefix(detail, "This API key lacks the "), detail)
					for _, s := range missing {
						require.Contains(t, detail, s, "%s with %s names what it lacks", op, name)
					}
				}
			}
			r = v1(t, ts, keys["read"], "PUT", "/v1/domains/scoped.inf.nz/records", map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.99"}})
			require.Equal(t, "This API key lacks the dns scope", r.body["detail"])
			r = v1(t, ts, keys["read+dns"], "GET", "/v1/keys", nil)
			require.Equal(t, "This API key lacks the register and wallet scopes: managing API keys takes a key with every scope", r.body["detail"])
			r = v1(t, ts, keys["dns"], "GET", "/v1/domains", nil)
			require.Equal(t, "This API key lacks the read scope", r.body["detail"])

			// Nothing the refused calls sent changed anything.
			r = v1(t, ts, full, "GET", "/v1/domains/scoped.inf.nz/records", nil)
			require.Contains(t, r.raw, "192.0.2.10")
			require.NotContains(t, r.raw, "192.0.2.99")
		})
	}
}

// A key with allowed addresses works from those only, the client being
// the address the server sees: the TCP peer, or, behind a trusted proxy,
// the right-most address of X-Forwarded-For that is not a trusted proxy.
func TestAPIKeyAllowedAddresses(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, nil)
			web, _ := registrar(t, ts, "fenced")
			_, key := newKey(t, web, map[string]any{"name": "office", "scopes": []string{"read"},
				"allowedAddresses": []string{"203.0.113.0/24", "2001:db8::/32", "198.51.100.7", "::ffff:192.0.2.0/120"}})
			for client, want := range map[string]int{
				"203.0.113.9":         http.StatusOK,
				"203.0.113.255":       http.StatusOK,
				"203.0.114.1":         http.StatusForbidden,
				"198.51.100.7":        http.StatusOK,
				"198.51.100.8":        http.StatusForbidden,
				"2001:db8::5":         http.StatusOK,
				"[2001:db8:ffff::1]":  http.StatusOK,
				"2001:db9::1":         http.StatusForbidden,
				"192.0.2.44":          http.StatusOK, // allowed as IPv4 given as IPv6
				"::ffff:203.0.113.10": http.StatusOK, // an IPv4 client given as IPv6
				// A client cannot forge its way in: the hop the proxy saw
				// is the client.
				"203.0.113.9, 198.51.100.20": http.StatusForbidden,
			} {
				r := v1(t, ts, key, "GET", "/v1/wallet", nil, "X-Forwarded-For", client)
				require.Equal(t, want, r.status, "%s: %s", client, r.raw)
				if want == http.StatusForbidden {
					require.Equal(t, "forbidden", problemCode(t, r))
					require.Contains(t, r.body["detail"], "This API key may not be used from ")
				}
			}
			r := v1(t, ts, key, "GET", "/v1/wallet", nil, "X-Forwarded-For", "198.51.100.8")
			require.Equal(t, "This API key may not be used from 198.51.100.8", r.body["detail"])
			// Without X-Forwarded-For the client is the proxy itself.
			r = v1(t, ts, key, "GET", "/v1/wallet", nil)
			require.Equal(t, "This API key may not be used from 127.0.0.1", r.body["detail"])

			// A key without a list works from anywhere.
			_, anywhere := newKey(t, web, map[string]any{"name": "anywhere", "scopes": []string{"read"}})
			require.Equal(t, http.StatusOK, v1(t, ts, anywhere, "GET", "/v1/wallet", nil, "X-Forwarded-For", "198.51.100.8").status)
		})
	}

	// Without trusted proxies X-Forwarded-For is nobody's word: the client
	// is the TCP peer.
	ts := start(t, db.SQLite)
	web, _ := registrar(t, ts, "direct")
	_, remote := newKey(t, web, map[string]any{"name": "remote", "scopes": []string{"read"}, "allowedAddresses": []string{"203.0.113.0/24"}})
	r := v1(t, ts, remote, "GET", "/v1/wallet", nil, "X-Forwarded-For", "203.0.113.9")
	require.Equal(t, http.StatusForbidden, r.status, r.raw)
	require.Equal(t, "This API key may not be used from 127.0.0.1", r.body["detail"])
	_, local := newKey(t, web, map[string]any{"name": "local", "scopes": []string{"read"}, "allowedAddresses": []string{"127.0.0.0/8", "::1"}})
	require.Equal(t, http.StatusOK, v1(t, ts, local, "GET", "/v1/wallet", nil).status)
}

// Keys managed through /v1 with a key of every scope: made, listed
// without secrets, used, rotated (the old secret stops at once, though the
// server has it cached), revoked; an expired key is a 401; the first key
// cannot be revoked; last use shows.
func TestAPIKeyLifecycle(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, engine, func(c *config.Config) { c.NoRateLimits = true })
			web, first := registrar(t, ts, "lifecycle")

			r := v1(t, ts, first, "POST", "/v1/keys", map[string]any{"name": "deploys", "scopes": []string{"read", "dns"},
				"allowedAddresses": []string{"127.0.0.1"}, "expiresAt": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			created := r.body["key"].(map[string]any)
			id, secret := idOf(t, created["id"]), r.body["secret"].(string)
			require.True(t, strings.HasPrefix(secret, "np_"))
			require.Equal(t, "deploys", created["name"])
			require.Equal(t, []any{"read", "dns"}, created["scopes"])
			require.Equal(t, []any{"127.0.0.1"}, created["allowedAddresses"])
			require.Equal(t, false, created["primary"])
			require.NotContains(t, created, "lastUsedAt")
			r = v1(t, ts, first, "POST", "/v1/keys", map[string]any{"name": "past", "scopes": []string{"read"}, "expiresAt": "2020-01-01T00:00:00Z"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Expiry must be in the future", r.body["detail"])

			// The list: both keys, no secret anywhere; the dashboard's the same.
			r = v1(t, ts, first, "GET", "/v1/keys", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			list := r.body["keys"].([]any)
			require.Len(t, list, 2)
			require.Equal(t, "Default", list[0].(map[string]any)["name"])
			require.Equal(t, true, list[0].(map[string]any)["primary"])
			require.Equal(t, []any{"read", "dns", "register", "wallet"}, list[0].(map[string]any)["scopes"])
			require.NotContains(t, r.raw, secret)
			require.NotContains(t, r.raw, first)
			dash := web.do("GET", "/api/registrar/keys", nil)
			require.Equal(t, http.StatusOK, dash.status, dash.raw)
			require.Len(t, dash.body["data"], 2)
			require.NotContains(t, dash.raw, secret)
			require.NotContains(t, dash.raw, first)

			// Used, its last use shows (written off the request path, to
			// the minute).
			require.Equal(t, http.StatusOK, v1(t, ts, secret, "GET", "/v1/domains", nil).status)
			lastUsed := func() any {
				for _, k := range data2(t, web.do("GET", "/api/registrar/keys", nil)) {
					if idOf(t, k["id"]) == id {
						return k["lastUsedAt"]
					}
				}
				return nil
			}
			eventually(t, func() bool { return lastUsed() != nil }, "the key's last use is recorded")

			// Rotated: the old secret stops at once, the new one works, the
			// key keeps its settings.
			r = v1(t, ts, first, "POST", "/v1/keys/"+id+"/rotate", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			rotated := r.body["secret"].(string)
			require.NotEqual(t, secret, rotated)
			require.Equal(t, "deploys", r.body["key"].(map[string]any)["name"])
			r = v1(t, ts, secret, "GET", "/v1/domains", nil)
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "Invalid API key", r.body["detail"])
			require.Equal(t, http.StatusOK, v1(t, ts, rotated, "GET", "/v1/domains", nil).status)

			// Revoked: refused at once, as revoked; gone from the list.
			require.Equal(t, http.StatusOK, v1(t, ts, rotated, "GET", "/v1/domains", nil).status)
			r = v1(t, ts, first, "DELETE", "/v1/keys/"+id, nil)
			require.Equal(t, http.StatusNoContent, r.status, r.raw)
			r = v1(t, ts, rotated, "GET", "/v1/domains", nil)
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "unauthenticated", problemCode(t, r))
			require.Equal(t, "This API key was revoked", r.body["detail"])
			require.Equal(t, http.StatusNotFound, v1(t, ts, first, "DELETE", "/v1/keys/"+id, nil).status)
			require.Equal(t, http.StatusNotFound, v1(t, ts, first, "POST", "/v1/keys/"+id+"/rotate", nil).status)
			require.Len(t, v1(t, ts, first, "GET", "/v1/keys", nil).body["keys"], 1)

			// The first key: rotated, never revoked; the tab shows the new one.
			firstID := idOf(t, v1(t, ts, first, "GET", "/v1/keys", nil).body["keys"].([]any)[0].(map[string]any)["id"])
			r = v1(t, ts, first, "DELETE", "/v1/keys/"+firstID, nil)
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "The Default key is the one the API Access tab shows: rotate it instead of revoking it", r.body["detail"])
			r = web.do("POST", "/api/registrar/keys/"+firstID+"/rotate", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			newFirst := data(t, r)["secret"].(string)
			require.Equal(t, newFirst, data(t, web.do("GET", "/api/registrar/api-key", nil))["apiKey"])
			require.Equal(t, http.StatusUnauthorized, v1(t, ts, first, "GET", "/v1/wallet", nil).status)
			require.Equal(t, http.StatusOK, v1(t, ts, newFirst, "GET", "/v1/wallet", nil).status)

			// Expired: a 401 that says so.
			expiring, expiringSecret := newKey(t, web, map[string]any{"name": "soon", "scopes": []string{"read"},
				"expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
			d := dbtest.Connect(t, ts.dbURL)
			_, err := d.Bun.NewUpdate().Table("api_keys").Set("expires_at = ?", time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)).
				Where("id = ?", expiring).Exec(context.Background())
			require.NoError(t, err)
			r = v1(t, ts, expiringSecret, "GET", "/v1/wallet", nil)
			require.Equal(t, http.StatusUnauthorized, r.status, r.raw)
			require.Equal(t, "This API key expired on 2026-01-02 03:04 UTC", r.body["detail"])

			// Another registrar's keys are not found; a user has none.
			rival, rivalKey := registrar(t, ts, "rival")
			r = v1(t, ts, rivalKey, "POST", "/v1/keys/"+firstID+"/rotate", nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, http.StatusNotFound, rival.do("DELETE", "/api/registrar/keys/"+expiring, nil).status)
			user := signedUp(t, ts, "plainuser", "user")
			require.Equal(t, http.StatusForbidden, user.do("GET", "/api/registrar/keys", nil).status)
			require.Equal(t, http.StatusOK, v1(t, ts, newFirst, "GET", "/v1/wallet", nil).status, "the rival changed nothing")

			// Every key change is in the audit log, by the account, never
			// with a secret: deploys made, rotated, revoked; the first key
			// rotated; soon made. The rival's attempts left nothing.
			type entry struct {
				Action string `bun:"action"`
				After  string `bun:"after"`
				Before string `bun:"before"`
			}
			var entries []entry
			require.NoError(t, d.Bun.NewSelect().Table("audit_log").Column("action", "before", "after").
				Where("action LIKE 'account.api_key_%'").OrderExpr("id").Scan(context.Background(), &entries))
			actions := []string{}
			for _, e := range entries {
				actions = append(actions, e.Action)
				for _, secretText := range []string{secret, rotated, first, newFirst, expiringSecret} {
					require.NotContains(t, e.Before+e.After, secretText)
				}
			}
			require.Equal(t, []string{"account.api_key_create", "account.api_key_rotate", "account.api_key_revoke",
				"account.api_key_rotate", "account.api_key_create"}, actions)
			revoked := strings.ReplaceAll(entries[2].Before, " ", "") // PostgreSQL's jsonb spaces it
			require.Contains(t, revoked, `"apiKey":"deploys"`)
			require.Contains(t, revoked, `"username":"lifecycle"`)
		})
	}
}

// data2 is the data of an /api answer that is a list of objects.
func data2(t *testing.T, r reply) []map[string]any {
	t.Helper()
	require.Equal(t, true, r.body["success"], r.raw)
	items, ok := r.body["data"].([]any)
	require.True(t, ok, r.raw)
	out := make([]map[string]any, len(items))
	for i, item := range items {
		out[i] = item.(map[string]any)
	}
	return out
}
