package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// Jobs of kinds no worker knows: the server's workers fail them.
type unknownKindArgs struct{}

func (unknownKindArgs) Kind() string { return "test.unknown_kind" }

type laterArgs struct {
	Note string `json:"note"`
}

func (laterArgs) Kind() string { return "test.later" }

// enqueue inserts a job into the server's database from outside, as another
// process of the deployment would.
func enqueue(t *testing.T, ts *testServer, args river.JobArgs, opts *river.InsertOpts) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, ts.dbURL)
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
	require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.Enqueue(ctx, args, opts) }))
}

func jobList(t *testing.T, b *browser, query url.Values) (counts map[string]any, list []map[string]any, next string) {
	t.Helper()
	d := data(t, b.do("GET", "/api/admin/jobs?"+query.Encode(), nil))
	for _, j := range d["jobs"].([]any) {
		list = append(list, j.(map[string]any))
	}
	next, _ = d["nextCursor"].(string)
	return d["counts"].(map[string]any), list, next
}

func TestAdminJobsOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)

			// The periodic clean-ups run at start and complete.
			var completed []map[string]any
			// River inserts the run-on-start jobs in one batch, so once two are
			// done and nothing is left to run, every one of them has finished.
			require.Eventually(t, func() bool {
				var counts map[string]any
				counts, completed, _ = jobList(t, admin, url.Values{"state": {"completed"}})
				return len(completed) >= 2 && counts["available"] == float64(0) &&
					counts["running"] == float64(0) && counts["retryable"] == float64(0)
			}, 20*time.Second, 100*time.Millisecond)
			kinds := map[string]bool{}
			for _, j := range completed {
				kinds[j["kind"].(string)] = true
				require.Equal(t, "completed", j["state"])
				require.NotNil(t, j["finalizedAt"])
				require.NotNil(t, j["attemptedAt"])
				require.Equal(t, float64(1), j["attempt"])
			}
			require.True(t, kinds["account.purge_sessions"], kinds)
			require.True(t, kinds["idempotency.purge"], kinds)

			// A job that fails for good, and one that waits an hour.
			enqueue(t, ts, unknownKindArgs{}, &river.InsertOpts{MaxAttempts: 1})
			enqueue(t, ts, laterArgs{Note: "hello"}, &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)})
			var failed map[string]any
			var kindCounts map[string]any
			require.Eventually(t, func() bool {
				counts, list, _ := jobList(t, admin, url.Values{"kind": {"test.unknown_kind"}})
				if len(list) != 1 || list[0]["state"] != "discarded" {
					return false
				}
				failed, kindCounts = list[0], counts
				return true
			}, 20*time.Second, 100*time.Millisecond)
			// Counts follow the kind filter.
			require.Equal(t, float64(1), kindCounts["discarded"])
			require.Equal(t, float64(0), kindCounts["completed"])
			errs := failed["errors"].([]any)
			require.Len(t, errs, 1)
			last := errs[0].(map[string]any)
			require.Contains(t, last["message"], "test.unknown_kind")
			require.NotEmpty(t, last["at"])
			require.Equal(t, float64(1), failed["maxAttempts"])

			counts, all, _ := jobList(t, admin, url.Values{})
			require.GreaterOrEqual(t, counts["completed"], float64(2))
			require.Equal(t, float64(1), counts["scheduled"])
			require.Equal(t, float64(1), counts["discarded"])
			for _, st := range []string{"available", "running", "retryable", "cancelled"} {
				require.Contains(t, counts, st)
			}
			require.Len(t, all, len(completed)+2)
			for i := 1; i < len(all); i++ {
				require.Greater(t, all[i-1]["id"], all[i]["id"], "newest first")
			}
			later := all[0]
			require.Equal(t, "test.later", later["kind"])
			require.Equal(t, "scheduled", later["state"])
			require.Equal(t, map[string]any{"note": "hello"}, later["args"])
			require.Equal(t, "default", later["queue"])
			require.Equal(t, []any{}, later["errors"])
			require.Nil(t, later["finalizedAt"])

			// Pages of one.
			_, page1, next := jobList(t, admin, url.Values{"limit": {"1"}})
			require.Len(t, page1, 1)
			require.NotEmpty(t, next)
			_, page2, _ := jobList(t, admin, url.Values{"limit": {"1"}, "cursor": {next}})
			require.Len(t, page2, 1)
			require.Equal(t, all[1]["id"], page2[0]["id"])
			_, lastPage, none := jobList(t, admin, url.Values{"state": {"scheduled"}, "limit": {"1"}})
			require.Len(t, lastPage, 1)
			require.Empty(t, none, "a page with nothing after it has no nextCursor")
			for _, q := range []string{"state=stuck", "limit=0", "limit=201", "cursor=nonsense"} {
				r := admin.do("GET", "/api/admin/jobs?"+q, nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", q, r.raw)
				require.Equal(t, false, r.body["success"])
			}

			// Retry the failed job: it may run once more.
			failedPath := fmt.Sprintf("/api/admin/jobs/%d", int64(failed["id"].(float64)))
			retried := data(t, admin.do("POST", failedPath+"/retry", nil))
			require.Equal(t, "available", retried["state"])
			require.Equal(t, float64(2), retried["maxAttempts"])
			require.Eventually(t, func() bool {
				_, list, _ := jobList(t, admin, url.Values{"kind": {"test.unknown_kind"}})
				return list[0]["state"] == "discarded" && len(list[0]["errors"].([]any)) == 2
			}, 20*time.Second, 100*time.Millisecond)

			// Cancel the waiting job; cancelling it again changes nothing.
			laterPath := fmt.Sprintf("/api/admin/jobs/%d", int64(later["id"].(float64)))
			cancelled := data(t, admin.do("POST", laterPath+"/cancel", nil))
			require.Equal(t, "cancelled", cancelled["state"])
			require.NotNil(t, cancelled["finalizedAt"])
			require.Equal(t, "cancelled", data(t, admin.do("POST", laterPath+"/cancel", nil))["state"])
			counts, _, _ = jobList(t, admin, url.Values{})
			require.Equal(t, float64(0), counts["scheduled"])
			require.Equal(t, float64(1), counts["cancelled"])

			// A completed job cannot be cancelled.
			donePath := fmt.Sprintf("/api/admin/jobs/%d", int64(completed[0]["id"].(float64)))
			r := admin.do("POST", donePath+"/cancel", nil)
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "The job has already finished (completed)", r.body["error"])

			// Unknown jobs.
			for _, action := range []string{"retry", "cancel"} {
				r := admin.do("POST", "/api/admin/jobs/987654321/"+action, nil)
				require.Equal(t, http.StatusNotFound, r.status, r.raw)
				require.Equal(t, "Job not found", r.body["error"])
			}

			// Admins only.
			visitor := newBrowser(t, ts)
			user := signedUp(t, ts, "enduser", "user")
			registrar := signedUp(t, ts, "reseller", "registrar")
			ops := []struct{ method, path string }{
				{"GET", "/api/admin/jobs"},
				{"POST", laterPath + "/retry"},
				{"POST", laterPath + "/cancel"},
			}
			for _, op := range ops {
				r := visitor.do(op.method, op.path, nil)
				require.Equal(t, http.StatusUnauthorized, r.status, "visitor %s %s", op.method, op.path)
				for _, who := range []*browser{user, registrar} {
					r := who.do(op.method, op.path, nil)
					require.Equal(t, http.StatusForbidden, r.status, "%s %s", op.method, op.path)
					require.Equal(t, "Admin access required", r.body["error"])
				}
			}
			// Their attempts changed nothing.
			_, list, _ := jobList(t, admin, url.Values{"kind": {"test.later"}})
			require.Equal(t, "cancelled", list[0]["state"])
		})
	}
}
