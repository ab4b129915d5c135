package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
)

// River's own UI is mounted for admins only.
func TestRiverUIIsForAdmins(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	admin := loginAdmin(t, ts)
	r := admin.do("GET", "/admin/river/", nil)
	require.Equal(t, http.StatusOK, r.status)
	require.True(t, strings.Contains(r.raw, "/admin/river/"), "its assets live under the prefix")
	require.Eventually(t, func() bool {
		r = admin.do("GET", "/admin/river/api/jobs?state=completed&limit=20", nil)
		return r.status == http.StatusOK && strings.Contains(r.raw, "account.purge_sessions")
	}, 10*time.Second, 100*time.Millisecond, "the periodic jobs run at start")

	// Its own endpoints read at most 1 MiB of a body, like ours.
	small := map[string]any{"ids": []string{"987654"}, "note": "x"}
	r = admin.do("POST", "/admin/river/api/jobs/cancel", small)
	require.Equal(t, http.StatusNotFound, r.status, r.raw) // read, and no such job
	big := map[string]any{"ids": []string{"987654"}, "note": strings.Repeat("x", 2<<20)}
	r = admin.do("POST", "/admin/river/api/jobs/cancel", big)
	require.Contains(t, []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge}, r.status, r.raw)

	user := signedUp(t, ts, "someone", "user")
	require.Equal(t, http.StatusForbidden, user.do("GET", "/admin/river/", nil).status)
	require.Equal(t, http.StatusForbidden, user.do("GET", "/admin/river/api/jobs?state=completed", nil).status)
	require.Equal(t, http.StatusUnauthorized, newBrowser(t, ts).do("GET", "/admin/river/api/jobs?state=completed", nil).status)
}
