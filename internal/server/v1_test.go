package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/idempotency"
)

// registrar signs up a registrar and returns its browser and API key.
func registrar(t *testing.T, ts *testServer, username string) (*browser, string) {
	t.Helper()
	b := newBrowser(t, ts)
	r := b.do("POST", "/api/auth/register", signUp(username, "registrar"))
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	verifyEmail(t, ts, username+"@example.com")
	return b, data(t, r)["apiKey"].(string)
}

// v1 calls /v1 with an API key and no cookies, as a program does.
func v1(t *testing.T, ts *testServer, key, method, path string, body any, headers ...string) reply {
	t.Helper()
	b := &browser{t: t, base: ts.url, client: http.DefaultClient}
	return b.do(method, path, body, append([]string{"X-API-Key", key}, headers...)...)
}

func problemCode(t *testing.T, r reply) string {
	t.Helper()
	require.Equal(t, "application/problem+json", r.header.Get("Content-Type"), r.raw)
	require.Equal(t, float64(r.status), r.body["status"], r.raw)
	require.NotEmpty(t, r.body["detail"], r.raw)
	require.Equal(t, r.header.Get("X-Request-Id"), r.body["requestId"])
	code, _ := r.body["code"].(string)
	return code
}

func balanceOf(t *testing.T, ts *testServer, key string) float64 {
	t.Helper()
	r := v1(t, ts, key, "GET", "/v1/wallet", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	return r.body["balance"].(float64)
}

func TestV1RegistrarFlow(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			web, key := registrar(t, ts, "reseller")

			// Wholesale prices are the same in the web app and the API.
			r := web.do("GET", "/api/domains/check?name=flow&extension=.inf.nz", nil)
			require.Equal(t, 6.0, data(t, r)["price"], r.raw)
			r = v1(t, ts, key, "POST", "/v1/domains/check", map[string]any{"domain": "Flow.inf.nz"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"domain": "flow.inf.nz", "name": "flow", "extension": ".inf.nz",
				"available": true, "isPremium": false, "price": 6.0, "currency": "USD"}, r.body, "basic tier: $6 wholesale")
			require.Equal(t, "100", r.header.Get("RateLimit-Limit"))
			require.Equal(t, "98", r.header.Get("RateLimit-Remaining"), "the web app's check counted too")

			// Not enough money: 402 says how much is missing; nothing changes.
			reg := map[string]any{"domain": "flow.inf.nz", "nameservers": []string{"ns1.example.com", "NS2.example.com."}}
			r = v1(t, ts, key, "POST", "/v1/domains/register", reg)
			require.Equal(t, http.StatusPaymentRequired, r.status, r.raw)
			require.Equal(t, "insufficient_funds", problemCode(t, r))
			require.Contains(t, r.body["detail"], "Add $6.00 to continue")
			require.Equal(t, 6.0, r.body["needed"], "the shortfall as problem extension members")
			require.Equal(t, 0.0, r.body["balance"])

			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 20})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, 20.0, r.body["wallet"].(map[string]any)["balance"])

			r = v1(t, ts, key, "POST", "/v1/domains/register", reg, "Authorization", "Bearer "+key)
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			dom := r.body["domain"].(map[string]any)
			require.Equal(t, "flow.inf.nz", dom["domain"])
			require.Equal(t, []any{"ns1.example.com", "ns2.example.com"}, dom["nameservers"])
			require.Equal(t, -6.0, r.body["transaction"].(map[string]any)["amount"])
			require.Equal(t, 14.0, r.body["wallet"].(map[string]any)["balance"])

			// The name servers delegate the domain in DNS at once.
			require.Eventually(t, func() bool {
				resp := query(t, ts.dnsAddr, "www.flow.inf.nz", dns.TypeA)
				return resp.Rcode == dns.RcodeSuccess && !resp.Authoritative && len(resp.Ns) == 2
			}, 3*time.Second, 50*time.Millisecond, "a referral to the registrar's name servers")

			r = v1(t, ts, key, "GET", "/v1/domains/flow.inf.nz", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, dom["id"], r.body["id"])

			// Record sets: replace, keep ids of values that stay, delete.
			r = v1(t, ts, key, "PUT", "/v1/domains/flow.inf.nz/records",
				map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.1", "192.0.2.2"}, "ttl": 600})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Len(t, r.body["records"], 2)
			kept := r.body["records"].([]any)[1].(map[string]any)["id"]
			r = v1(t, ts, key, "PUT", "/v1/domains/flow.inf.nz/records",
				map[string]any{"name": "www", "type": "A", "values": []string{"192.0.2.2", "192.0.2.3"}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			recs := r.body["records"].([]any)
			require.Len(t, recs, 2)
			require.Equal(t, kept, recs[0].(map[string]any)["id"])
			require.Equal(t, 3600.0, recs[0].(map[string]any)["ttl"])
			r = v1(t, ts, key, "PUT", "/v1/domains/flow.inf.nz/records",
				map[string]any{"name": "www", "type": "CNAME", "values": []string{"elsewhere.example.com"}})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "A CNAME record cannot share its name with other records: www already has A records", r.body["detail"])
			r = v1(t, ts, key, "PUT", "/v1/domains/flow.inf.nz/records",
				map[string]any{"name": "mail", "type": "MX", "values": []string{"mx.example.com"}})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "invalid", problemCode(t, r))

			r = v1(t, ts, key, "GET", "/v1/domains/flow.inf.nz/records", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Len(t, r.body["records"], 4, "two NS and two A")

			r = v1(t, ts, key, "DELETE", "/v1/domains/flow.inf.nz/records/A/www", nil)
			require.Equal(t, http.StatusNoContent, r.status, r.raw)
			r = v1(t, ts, key, "DELETE", "/v1/domains/flow.inf.nz/records/A/www", nil)
			require.Equal(t, http.StatusNotFound, r.status)
			require.Equal(t, "not_found", problemCode(t, r))

			// The ledger, newest first, a page at a time.
			r = v1(t, ts, key, "GET", "/v1/transactions?limit=1", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "domain_purchase", r.body["transactions"].([]any)[0].(map[string]any)["type"])
			next := r.body["nextCursor"].(string)
			r = v1(t, ts, key, "GET", "/v1/transactions?limit=1&cursor="+next, nil)
			require.Equal(t, "deposit", r.body["transactions"].([]any)[0].(map[string]any)["type"])
			require.NotContains(t, r.body, "nextCursor", "the last page")
		})
	}
}

func TestV1DomainListPages(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	seedCatalog(t, ts)
	_, key := registrar(t, ts, "reseller")
	require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 100}).status)
	for i := range 7 {
		r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": fmt.Sprintf("page%d.inf.nz", i)})
		require.Equal(t, http.StatusCreated, r.status, r.raw)
	}
	var names []string
	cursor := ""
	for pages := 1; ; pages++ {
		r := v1(t, ts, key, "GET", "/v1/domains?limit=3&cursor="+cursor, nil)
		require.Equal(t, http.StatusOK, r.status, r.raw)
		for _, d := range r.body["domains"].([]any) {
			names = append(names, d.(map[string]any)["name"].(string))
		}
		next, _ := r.body["nextCursor"].(string)
		if next == "" {
			require.Equal(t, 3, pages)
			break
		}
		cursor = next
	}
	require.Equal(t, []string{"page0", "page1", "page2", "page3", "page4", "page5", "page6"}, names)

	for _, bad := range []string{"?limit=0", "?limit=101", "?limit=x", "?cursor=bogus", "?cursor=c-5"} {
		r := v1(t, ts, key, "GET", "/v1/domains"+bad, nil)
		require.Equal(t, http.StatusUnprocessableEntity, r.status, bad+": "+r.raw)
		require.Equal(t, "invalid", problemCode(t, r))
	}
}

func TestV1Authentication(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	seedCatalog(t, ts)
	owner, key := registrar(t, ts, "reseller")
	_, otherKey := registrar(t, ts, "rival")
	require.NotEqual(t, key, otherKey)
	require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 10}).status)
	require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "mine.inf.nz"}).status)

	// No key, a wrong key: 401 problems.
	anon := &browser{t: t, base: ts.url, client: http.DefaultClient}
	r := anon.do("GET", "/v1/wallet", nil)
	require.Equal(t, http.StatusUnauthorized, r.status)
	require.Equal(t, "unauthenticated", problemCode(t, r))
	r = v1(t, ts, "np_not-a-key", "GET", "/v1/wallet", nil)
	require.Equal(t, http.StatusUnauthorized, r.status)
	require.Equal(t, "Invalid API key", r.body["detail"])

	// A logged-in session is not an API key: end users and registrars alike.
	user := signedUp(t, ts, "enduser", "user")
	require.Equal(t, http.StatusUnauthorized, user.do("GET", "/v1/wallet", nil).status)
	require.Equal(t, http.StatusUnauthorized, owner.do("GET", "/v1/wallet", nil).status)

	// Another registrar's key finds nothing of the owner's and changes nothing.
	for _, op := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/domains/mine.inf.nz", nil},
		{"GET", "/v1/domains/mine.inf.nz/records", nil},
		{"PUT", "/v1/domains/mine.inf.nz/records", map[string]any{"name": "@", "type": "A", "values": []string{"192.0.2.66"}}},
		{"DELETE", "/v1/domains/mine.inf.nz/records/NS/@", nil},
	} {
		r := v1(t, ts, otherKey, op.method, op.path, op.body)
		require.Equal(t, http.StatusNotFound, r.status, "%s %s: %s", op.method, op.path, r.raw)
		require.Equal(t, "not_found", problemCode(t, r))
	}
	r = v1(t, ts, otherKey, "POST", "/v1/domains/register", map[string]any{"domain": "mine.inf.nz"})
	require.Equal(t, http.StatusConflict, r.status)
	r = v1(t, ts, otherKey, "GET", "/v1/domains", nil)
	require.Empty(t, r.body["domains"])
	r = v1(t, ts, key, "GET", "/v1/domains/mine.inf.nz/records", nil)
	require.Empty(t, r.body["records"], "the rival's PUT changed nothing")

	// Rotation: the old key stops working at once, the new one works.
	r = owner.do("POST", "/api/registrar/api-key", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	newKey := data(t, r)["apiKey"].(string)
	require.NotEqual(t, key, newKey)
	require.Equal(t, newKey, data(t, owner.do("GET", "/api/registrar/api-key", nil))["apiKey"])
	require.Equal(t, http.StatusUnauthorized, v1(t, ts, key, "GET", "/v1/wallet", nil).status)
	require.Equal(t, 4.0, balanceOf(t, ts, newKey))
	require.Equal(t, http.StatusForbidden, user.do("POST", "/api/registrar/api-key", nil).status, "end users have no key")
	require.Equal(t, http.StatusUnauthorized, anon.do("POST", "/api/registrar/api-key", nil).status)

	// A disabled account's key stops working at once (on this node; on
	// others within a second, see account.keyCache).
	owned := data(t, owner.do("GET", "/api/auth/me", nil))
	r = loginAdmin2(t, ts).do("PATCH", fmt.Sprintf("/api/admin/users/%.0f", owned["id"].(float64)), map[string]any{"disabled": true})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	require.Equal(t, http.StatusUnauthorized, v1(t, ts, newKey, "GET", "/v1/wallet", nil).status)

	// Unknown /v1 paths and methods answer in problem details too.
	r = v1(t, ts, otherKey, "GET", "/v1/nothing", nil)
	require.Equal(t, http.StatusNotFound, r.status)
	require.Equal(t, "not_found", problemCode(t, r))
	r = v1(t, ts, otherKey, "PATCH", "/v1/wallet", nil)
	require.Equal(t, http.StatusMethodNotAllowed, r.status)
	problemCode(t, r)
}

func TestV1IdempotencyKeys(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			_, key := registrar(t, ts, "reseller")

			// A replayed deposit adds money once and answers the same bytes.
			dep := map[string]any{"amount": 30}
			first := v1(t, ts, key, "POST", "/v1/wallet/deposits", dep, "Idempotency-Key", "deposit-1")
			require.Equal(t, http.StatusCreated, first.status, first.raw)
			again := v1(t, ts, key, "POST", "/v1/wallet/deposits", dep, "Idempotency-Key", "deposit-1")
			require.Equal(t, http.StatusCreated, again.status)
			require.Equal(t, first.raw, again.raw)
			require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
			require.Equal(t, 30.0, balanceOf(t, ts, key))

			// The same key with another body is refused and changes nothing.
			r := v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 31}, "Idempotency-Key", "deposit-1")
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "idempotency_key_reused", problemCode(t, r))
			r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "x.inf.nz"}, "Idempotency-Key", "deposit-1")
			require.Equal(t, "idempotency_key_reused", problemCode(t, r), "nor on another operation")
			require.Equal(t, 30.0, balanceOf(t, ts, key))

			// A failure is not remembered: after a refusal for lack of
			// funds the same key registers once there is money.
			big := map[string]any{"domain": "retry.inf.nz", "years": 10}
			r = v1(t, ts, key, "POST", "/v1/domains/register", big, "Idempotency-Key", "reg-1")
			require.Equal(t, http.StatusPaymentRequired, r.status)
			require.Equal(t, http.StatusCreated, v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 30}).status)

			// Ten concurrent retries of one registration: one domain, one charge,
			// and every answer is that registration (or "still in progress").
			var wg sync.WaitGroup
			replies := make([]reply, 10)
			for i := range replies {
				wg.Add(1)
				go func() {
					defer wg.Done()
					replies[i] = v1(t, ts, key, "POST", "/v1/domains/register", big, "Idempotency-Key", "reg-1")
				}()
			}
			wg.Wait()
			var created []string
			for _, r := range replies {
				switch r.status {
				case http.StatusCreated:
					created = append(created, r.raw)
				case http.StatusConflict:
					require.Equal(t, "idempotency_in_progress", problemCode(t, r))
					require.Equal(t, "1", r.header.Get("Retry-After"))
				default:
					t.Fatalf("unexpected answer %d: %s", r.status, r.raw)
				}
			}
			require.NotEmpty(t, created)
			var reg struct {
				Domain struct{ ID int64 } `json:"domain"`
			}
			for _, raw := range created {
				require.NoError(t, json.Unmarshal([]byte(raw), &reg))
			}
			require.Equal(t, 0.0, balanceOf(t, ts, key), "$60 deposited, $60 charged once for 10 years")
			r = v1(t, ts, key, "GET", "/v1/domains", nil)
			require.Len(t, r.body["domains"], 1)
			r = v1(t, ts, key, "POST", "/v1/domains/register", big, "Idempotency-Key", "reg-1")
			require.Equal(t, http.StatusCreated, r.status)
			require.Equal(t, "true", r.header.Get("Idempotent-Replayed"))
			require.Equal(t, strconv.FormatInt(reg.Domain.ID, 10),
				strconv.FormatFloat(r.body["domain"].(map[string]any)["id"].(float64), 'f', 0, 64))

			// A process that died after the registration committed but before
			// its answer was saved: the retry takes the stale claim over and
			// the registration service finds its own key, so it answers with
			// that domain and charges nothing more.
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			_, err = d.Bun.NewUpdate().Table("idempotent_requests").Set("status = 0").Set("body = ''").
				Set("claimed_at = ?", time.Now().UTC().Add(-10*time.Minute)).Where("idem_key = ?", "reg-1").Exec(context.Background())
			require.NoError(t, err)
			r = v1(t, ts, key, "POST", "/v1/domains/register", big, "Idempotency-Key", "reg-1")
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, float64(reg.Domain.ID), r.body["domain"].(map[string]any)["id"])
			require.Equal(t, 0.0, balanceOf(t, ts, key))

			// Keys are bounded.
			long := make([]byte, 256)
			for i := range long {
				long[i] = 'k'
			}
			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", map[string]any{"amount": 5}, "Idempotency-Key", string(long))
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, 0.0, balanceOf(t, ts, key))
		})
	}
}

func TestV1RateLimits(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	seedCatalog(t, ts)
	_, key := registrar(t, ts, "reseller")
	_, other := registrar(t, ts, "rival")
	check := map[string]any{"domain": "busy.inf.nz"}
	for i := range 100 {
		r := v1(t, ts, key, "POST", "/v1/domains/check", check)
		require.Equal(t, http.StatusOK, r.status, "check %d: %s", i+1, r.raw)
	}
	r := v1(t, ts, key, "POST", "/v1/domains/check", check)
	require.Equal(t, http.StatusTooManyRequests, r.status, "the 101st check inside a minute")
	require.Equal(t, "too_many_requests", problemCode(t, r))
	wait, err := strconv.Atoi(r.header.Get("Retry-After"))
	require.NoError(t, err)
	require.True(t, wait >= 1 && wait <= 60, "Retry-After %d", wait)
	require.Equal(t, "100", r.header.Get("RateLimit-Limit"))
	require.Equal(t, "0", r.header.Get("RateLimit-Remaining"))
	require.Contains(t, r.body["detail"], "100 availability checks per minute")

	// Limits are per key and per kind of operation.
	require.Equal(t, http.StatusOK, v1(t, ts, other, "POST", "/v1/domains/check", check).status)
	r = v1(t, ts, key, "GET", "/v1/domains/busy.inf.nz/records", nil)
	require.Equal(t, http.StatusNotFound, r.status, "DNS operations count apart")
	require.Equal(t, "50", r.header.Get("RateLimit-Limit"))
}

// With a short window the same limits recover: a refused client that waits
// Retry-After is served.
func TestV1RateLimitRecovers(t *testing.T) {
	t.Parallel()
	ts := startWith(t, db.SQLite, func(c *config.Config) { c.RateLimitWindow = 2 * time.Second })
	seedCatalog(t, ts)
	_, key := registrar(t, ts, "reseller")
	for range 20 {
		v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "x"})
	}
	r := v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "x"})
	require.Equal(t, http.StatusTooManyRequests, r.status, "the 21st registration")
	wait, err := strconv.Atoi(r.header.Get("Retry-After"))
	require.NoError(t, err)
	time.Sleep(time.Duration(wait) * time.Second)
	r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": "x"})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, "served again (and told the name is incomplete)")
}

// TestV1CrashedRequestFreesItsKey: after a crash, a /v1 request that was in
// flight blocks its Idempotency-Key only until its claim runs out (15 s),
// and Retry-After says how long (finding 9: blocked for 2 minutes while
// saying Retry-After: 1).
func TestV1CrashedRequestFreesItsKey(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			_, key := registrar(t, ts, "reseller")
			deposit := map[string]any{"amount": 25}
			r := v1(t, ts, key, "POST", "/v1/wallet/deposits", deposit, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			crashed := func(ago time.Duration) {
				// As if the process died mid-request, ago before now.
				_, err := d.Bun.NewUpdate().Table("idempotent_requests").Set("status = 0").Set("body = ''").
					Set("claimed_at = ?", time.Now().UTC().Add(-ago)).Where("idem_key = ?", "dep-1").Exec(context.Background())
				require.NoError(t, err)
			}
			crashed(8 * time.Second)
			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", deposit, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "idempotency_in_progress", problemCode(t, r))
			wait, err := strconv.Atoi(r.header.Get("Retry-After"))
			require.NoError(t, err)
			require.True(t, wait >= 6 && wait <= 7, "Retry-After %d: the claim runs out 15 s after it was last renewed", wait)

			crashed(idempotency.Lease + time.Second)
			r = v1(t, ts, key, "POST", "/v1/wallet/deposits", deposit, "Idempotency-Key", "dep-1")
			require.Equal(t, http.StatusCreated, r.status, "the claim ran out: the retry runs: %s", r.raw)
			require.Equal(t, 25.0, balanceOf(t, ts, key), "and deposits once")
		})
	}
}
