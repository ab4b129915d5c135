package server_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// race sends n calls at once and counts the answers by status; it checks
// each 429 with check.
func race(t *testing.T, n int, call func(i int) reply, check func(r reply)) map[int]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[int]int{}
	var limited []reply
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := call(i)
			mu.Lock()
			defer mu.Unlock()
			counts[r.status]++
			if r.status == http.StatusTooManyRequests {
				limited = append(limited, r)
			}
		})
	}
	wg.Wait()
	for _, r := range limited {
		check(r)
	}
	return counts
}

// apiLimited checks an /api refusal: the envelope and Retry-After.
func apiLimited(t *testing.T) func(r reply) {
	return func(r reply) {
		require.Equal(t, false, r.body["success"], r.raw)
		require.Contains(t, r.body["error"], "Rate limit reached", r.raw)
		wait, err := strconv.Atoi(r.header.Get("Retry-After"))
		require.NoError(t, err, r.raw)
		require.Positive(t, wait)
	}
}

// v1Limited checks a /v1 refusal: problem JSON and Retry-After.
func v1Limited(t *testing.T) func(r reply) {
	return func(r reply) {
		require.Equal(t, "too_many_requests", problemCode(t, r), r.raw)
		require.NotEmpty(t, r.header.Get("Retry-After"))
	}
}

// TestOneRateLimitPolicyAcrossAPIAndV1: an account's registrations and DNS
// changes count together whether they come through the web app's /api or
// /v1 (finding 8: 30 registrations in a minute through /api while /v1
// allows 20), with real parallel requests.
func TestOneRateLimitPolicyAcrossAPIAndV1(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			web, key := registrar(t, ts, "reseller")
			r := web.do("POST", "/api/wallet/deposit", map[string]any{"amount": 1000})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = web.do("POST", "/api/domains", map[string]any{"name": "first", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			domainID := strconv.FormatInt(int64(data(t, r)["domain"].(map[string]any)["id"].(float64)), 10)

			// 19 registrations left this minute, 30 asked for at once on both surfaces.
			var apiLimits, v1Limits int
			counts := race(t, 30, func(i int) reply {
				if i%2 == 0 {
					return web.do("POST", "/api/domains", map[string]any{"name": fmt.Sprintf("web%d", i), "extension": ".inf.nz"})
				}
				return v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": fmt.Sprintf("api%d.inf.nz", i)})
			}, func(r reply) {
				if r.header.Get("Content-Type") == "application/problem+json" {
					v1Limits++
					v1Limited(t)(r)
				} else {
					apiLimits++
					apiLimited(t)(r)
				}
			})
			require.Equal(t, map[int]int{http.StatusCreated: 19, http.StatusTooManyRequests: 11}, counts)
			require.Positive(t, apiLimits+v1Limits)
			require.Equal(t, 20, countRows(t, ts.dbURL, "SELECT count(*) FROM domains"))

			// DNS changes: 50 a minute, together.
			counts = race(t, 60, func(i int) reply {
				if i%2 == 0 {
					return web.do("POST", "/api/domains/"+domainID+"/dns", map[string]any{"type": "A",
						"name": fmt.Sprintf("web%d", i), "content": "192.0.2.1"})
				}
				return v1(t, ts, key, "PUT", "/v1/domains/first.inf.nz/records", map[string]any{"type": "A",
					"name": fmt.Sprintf("api%d", i), "values": []string{"192.0.2.2"}})
			}, func(r reply) {
				if r.header.Get("Content-Type") == "application/problem+json" {
					v1Limited(t)(r)
				} else {
					apiLimited(t)(r)
				}
			})
			require.Equal(t, 10, counts[http.StatusTooManyRequests], counts)
			require.Equal(t, 50, counts[http.StatusCreated]+counts[http.StatusOK], counts)
		})
	}
}

// TestAnonymousChecksAreLimited: visitors' availability checks count per
// client network (finding 8: anonymous /api/domains/check had no limit);
// --api-rate-limits=false lifts the limit for benchmarks.
func TestAnonymousChecksAreLimited(t *testing.T) {
	t.Parallel()
	check := func(ts *testServer) func(int) reply {
		visitor := newBrowser(t, ts)
		return func(i int) reply {
			return visitor.do("GET", fmt.Sprintf("/api/domains/check?name=free%d&extension=.inf.nz", i), nil)
		}
	}
	ts := start(t, db.SQLite)
	seedCatalog(t, ts)
	counts := race(t, 75, check(ts), apiLimited(t))
	require.Equal(t, map[int]int{http.StatusOK: 60, http.StatusTooManyRequests: 15}, counts)

	// A logged-in account counts against its own limit, not the address's.
	alice := signedUp(t, ts, "alice", "user")
	r := alice.do("GET", "/api/domains/check?name=mine&extension=.inf.nz", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)

	free := startWith(t, db.SQLite, func(c *config.Config) { c.NoRateLimits = true })
	seedCatalog(t, free)
	counts = race(t, 75, check(free), apiLimited(t))
	require.Equal(t, map[int]int{http.StatusOK: 75}, counts)
}

// TestPasskeySignInsAreLimited: the public steps of a passkey sign-in
// store a ceremony each, so a client network gets 30 a minute, counted
// before the body is read (a malformed finish counts too).
func TestPasskeySignInsAreLimited(t *testing.T) {
	t.Parallel()
	ts, _ := startPasskeys(t, db.SQLite)
	visitor := newBrowser(t, ts)
	counts := race(t, 35, func(i int) reply {
		if i%2 == 0 {
			return visitor.do("POST", "/api/auth/passkey/options", nil)
		}
		return visitor.do("POST", "/api/auth/passkey", map[string]any{"ceremonyToken": "x", "credential": map[string]any{}})
	}, apiLimited(t))
	require.Equal(t, 30, counts[http.StatusOK]+counts[http.StatusUnprocessableEntity], counts)
	require.Equal(t, 5, counts[http.StatusTooManyRequests], counts)
	require.LessOrEqual(t, countRows(t, ts.dbURL, "SELECT count(*) FROM webauthn_ceremonies"), 18)

	free := startWith(t, db.SQLite, func(c *config.Config) { c.PublicURL, c.NoRateLimits = "http://localhost:8080", true })
	counts = race(t, 35, func(int) reply { return newBrowser(t, free).do("POST", "/api/auth/passkey/options", nil) }, apiLimited(t))
	require.Equal(t, map[int]int{http.StatusOK: 35}, counts)
}

// TestAPIRateLimitsComeBeforeValidation: /api counts a request against its
// limit in the middleware, before huma reads it, as /v1 does: once the
// limit is reached a malformed request gets 429 with Retry-After, not 422,
// and the malformed requests before it counted.
func TestAPIRateLimitsComeBeforeValidation(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			web, _ := registrar(t, ts, "hasty")
			malformed := `{"name": 7, "years": "ten"}`
			for i := range 20 { // the account's 20 registrations a minute
				r := web.do("POST", "/api/domains", malformed)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "request %d: %s", i, r.raw)
				require.Equal(t, strconv.Itoa(19-i), r.header.Get("RateLimit-Remaining"), r.raw)
			}
			r := web.do("POST", "/api/domains", malformed)
			require.Equal(t, http.StatusTooManyRequests, r.status, r.raw)
			apiLimited(t)(r)
			require.Equal(t, 0, countRows(t, ts.dbURL, "SELECT count(*) FROM domains"))

			// A visitor's checks, per client network: 60 a minute, the
			// invalid ones (a label of 64 characters) included.
			visitor := newBrowser(t, ts)
			tooLong := "/api/domains/check?extension=.inf.nz&name=" + strings.Repeat("a", 64)
			for i := range 60 {
				r := visitor.do("GET", tooLong, nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "check %d: %s", i, r.raw)
			}
			r = visitor.do("GET", tooLong, nil)
			require.Equal(t, http.StatusTooManyRequests, r.status, r.raw)
			apiLimited(t)(r)
		})
	}
}
