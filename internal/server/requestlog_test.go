package server_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// logEntries reads a page of the request log through web's session,
// waiting until it holds want entries: entries are written in batches a
// moment after their requests.
func logEntries(t *testing.T, web *browser, query string, want int) []map[string]any {
	t.Helper()
	var list []any
	require.Eventually(t, func() bool {
		r := web.do("GET", "/api/registrar/logs"+query, nil)
		require.Equal(t, http.StatusOK, r.status, r.raw)
		list = data(t, r)["logs"].([]any)
		return len(list) >= want
	}, 30*time.Second, 20*time.Millisecond)
	require.Len(t, list, want)
	out := make([]map[string]any, len(list))
	for i, e := range list {
		out[i] = e.(map[string]any)
	}
	return out
}

// Every /v1 request made with a valid key is logged for its registrar, with
// the status it got (scope refusals and 404s too), without its query, body
// or key; requests without a valid key are nobody's and are not logged.
// Another registrar never sees them, not even by naming the key.
func TestRequestLogRecordsWhatKeysDo(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			alice, aliceDefault := registrar(t, ts, "logalice")
			bob, bobDefault := registrar(t, ts, "logbob")
			readerID, reader := newKey(t, alice, map[string]any{"name": "reader", "scopes": []string{"read"}})

			r := v1(t, ts, reader, "GET", "/v1/transactions?limit=5", nil, "X-Request-Id", "trace-transactions-1")
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = v1(t, ts, reader, "POST", "/v1/wallet/deposits", map[string]any{"amount": 5, "method": "body-text-never-kept"},
				"Idempotency-Key", "=idem-1")
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			refusedID := r.header.Get("X-Request-Id")
			r = v1(t, ts, reader, "GET", "/v1/domains/nope.inf.nz", nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			// Without a valid key: nobody's request.
			require.Equal(t, http.StatusUnauthorized, v1(t, ts, "np_not-a-key", "GET", "/v1/wallet", nil).status)
			noKey := &browser{t: t, base: ts.url, client: http.DefaultClient}
			require.Equal(t, http.StatusUnauthorized, noKey.do("GET", "/v1/wallet", nil).status)
			require.Equal(t, http.StatusOK, v1(t, ts, bobDefault, "GET", "/v1/wallet", nil).status)

			entries := logEntries(t, alice, "", 3)
			require.Equal(t, "/v1/domains/nope.inf.nz", entries[0]["path"], "newest first")
			require.EqualValues(t, 404, entries[0]["status"])
			refused := entries[1]
			require.Equal(t, "POST", refused["method"])
			require.Equal(t, "/v1/wallet/deposits", refused["path"])
			require.EqualValues(t, 403, refused["status"])
			require.Equal(t, "=idem-1", refused["idempotencyKey"])
			require.Equal(t, refusedID, refused["requestId"])
			require.Equal(t, "reader", refused["keyName"])
			require.Equal(t, readerID, idOf(t, refused["keyId"]))
			listed := entries[2]
			require.Equal(t, "/v1/transactions", listed["path"], "the query is not kept")
			require.EqualValues(t, 200, listed["status"])
			require.Equal(t, "trace-transactions-1", listed["requestId"])
			require.GreaterOrEqual(t, listed["latencyMs"].(float64), 0.0)
			_, hasIdem := listed["idempotencyKey"]
			require.False(t, hasIdem)

			raw := alice.do("GET", "/api/registrar/logs", nil).raw
			for _, never := range []string{reader, aliceDefault, bobDefault, "np_not-a-key", "body-text-never-kept", "limit=5", "logbob"} {
				require.NotContains(t, raw, never)
			}

			// Bob sees his own request only, also when naming alice's key.
			require.Equal(t, "/v1/wallet", logEntries(t, bob, "", 1)[0]["path"])
			require.Empty(t, data(t, bob.do("GET", "/api/registrar/logs?key="+readerID, nil))["logs"])
			r = v1(t, ts, bobDefault, "GET", "/v1/logs?key="+readerID, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Empty(t, r.body["logs"])
			r = v1(t, ts, bobDefault, "GET", "/v1/logs.csv?key="+readerID, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "time,key_id,key,method,path,status,latency_ms,idempotency_key,request_id\n", r.raw)

			// Filters and pages, through /v1 with alice's other key.
			r = v1(t, ts, aliceDefault, "GET", "/v1/logs?status=4xx&key="+readerID, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Len(t, r.body["logs"], 2)
			r = v1(t, ts, aliceDefault, "GET", "/v1/logs?path=transactions", nil)
			require.Len(t, r.body["logs"], 1, r.raw)
			future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
			r = v1(t, ts, aliceDefault, "GET", "/v1/logs?since="+future, nil)
			require.Empty(t, r.body["logs"], r.raw)
			var paths []any
			cursor := ""
			for range 5 {
				r = v1(t, ts, aliceDefault, "GET", "/v1/logs?limit=1&key="+readerID+"&cursor="+cursor, nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				for _, e := range r.body["logs"].([]any) {
					paths = append(paths, e.(map[string]any)["path"])
				}
				next, _ := r.body["nextCursor"].(string)
				if next == "" {
					break
				}
				cursor = next
			}
			require.Equal(t, []any{"/v1/domains/nope.inf.nz", "/v1/wallet/deposits", "/v1/transactions"}, paths)

			// The CSV export, with the same filters; client text that a
			// spreadsheet would run is defused.
			r = alice.do("GET", "/api/registrar/logs.csv?key="+readerID, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "text/csv; charset=utf-8", r.header.Get("Content-Type"))
			require.Regexp(t, `^attachment; filename="request-logs-\d{4}-\d\d-\d\d\.csv"$`, r.header.Get("Content-Disposition"))
			rows, err := csv.NewReader(strings.NewReader(r.raw)).ReadAll()
			require.NoError(t, err)
			require.Len(t, rows, 4)
			require.Equal(t, []string{"POST", "/v1/wallet/deposits", "403", "'=idem-1"}, []string{rows[2][3], rows[2][4], rows[2][5], rows[2][7]})

			// Bad filters: a clear refusal, in each API's words.
			for _, q := range []string{"?status=9xx", "?status=ok", "?since=yesterday", "?key=-1",
				"?since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z", "?cursor=zz"} {
				r = alice.do("GET", "/api/registrar/logs"+q, nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", q, r.raw)
				require.Equal(t, false, r.body["success"], r.raw)
				r = alice.do("GET", "/api/registrar/logs.csv"+q, nil)
				if q != "?cursor=zz" { // an export has no pages
					require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", q, r.raw)
				}
				r = v1(t, ts, aliceDefault, "GET", "/v1/logs"+q, nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", q, r.raw)
				require.Equal(t, "application/problem+json", r.header.Get("Content-Type"))
			}

			// The log is a registrar's: an end user is refused.
			user := signedUp(t, ts, "loguser", "user")
			require.Equal(t, http.StatusForbidden, user.do("GET", "/api/registrar/logs", nil).status)
			require.Equal(t, http.StatusForbidden, user.do("GET", "/api/registrar/logs.csv", nil).status)
		})
	}
}

// countLogged stops ts (which writes what is queued) and counts the
// request log's rows.
func countLogged(t *testing.T, ts *testServer) int {
	t.Helper()
	require.NoError(t, ts.stop())
	d := dbtest.Connect(t, ts.dbURL)
	n, err := d.Bun.NewSelect().TableExpr("request_logs").Count(context.Background())
	require.NoError(t, err)
	return int(n)
}

// Entries still queued when the server stops are written before it exits;
// with --v1-request-log=false nothing is recorded.
func TestRequestLogIsWrittenAtShutdownAndCanBeOff(t *testing.T) {
	t.Parallel()
	for _, off := range []bool{false, true} {
		t.Run(map[bool]string{false: "on", true: "off"}[off], func(t *testing.T) {
			t.Parallel()
			ts := startWith(t, db.SQLite, func(c *config.Config) { c.NoV1RequestLog = off })
			_, key := registrar(t, ts, "shutdownlog")
			for range 3 {
				require.Equal(t, http.StatusOK, v1(t, ts, key, "GET", "/v1/wallet", nil).status)
			}
			want := 3
			if off {
				want = 0
			}
			require.Equal(t, want, countLogged(t, ts))
		})
	}
}
