package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// The web app's session check answers a visitor 200 (a 401 is a console
// error on every guest page), and an account with itself.
func TestSessionState(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			visitor := newBrowser(t, ts)
			r := visitor.do("GET", "/api/auth/session", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, map[string]any{"signedIn": false}, data(t, r))

			alice := signedUp(t, ts, "alice", "user")
			r = alice.do("GET", "/api/auth/session", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			got := data(t, r)
			require.Equal(t, true, got["signedIn"])
			require.Equal(t, "alice", got["user"].(map[string]any)["username"])
			require.Equal(t, data(t, alice.do("GET", "/api/auth/me", nil)), got["user"])

			require.Equal(t, http.StatusOK, alice.do("POST", "/api/auth/logout", nil).status)
			require.Equal(t, map[string]any{"signedIn": false}, data(t, alice.do("GET", "/api/auth/session", nil)))
		})
	}
}
