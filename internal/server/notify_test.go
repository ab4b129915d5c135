package server_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

var resetTokenInLink = regexp.MustCompile(`/reset-password\?token=([A-Za-z0-9_-]+)`)

// outboxMails returns the outbox as the admin reads it, newest first.
func outboxMails(t *testing.T, admin *browser, query string) ([]map[string]any, string) {
	t.Helper()
	r := admin.do("GET", "/api/admin/outbox"+query, nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	page := data(t, r)
	var out []map[string]any
	for _, m := range page["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	next, _ := page["nextCursor"].(string)
	return out, next
}

// waitForResetMail waits for the worker to record the nth password reset
// mail to `to` and returns its token.
func waitForResetMail(t *testing.T, admin *browser, to string, n int) string {
	t.Helper()
	var token string
	require.Eventually(t, func() bool {
		mails, _ := outboxMails(t, admin, "?limit=100")
		var found []map[string]any
		for _, m := range mails {
			if m["kind"] == "password_reset" && m["to"] == to {
				found = append(found, m)
			}
		}
		if len(found) < n {
			return false
		}
		newest := found[0]
		require.Equal(t, "Reset your Nameport password", newest["subject"])
		require.Equal(t, "logged", newest["status"], "no SMTP server in tests")
		match := resetTokenInLink.FindStringSubmatch(newest["body"].(string))
		require.NotNil(t, match, newest["body"])
		token = match[1]
		return true
	}, 10*time.Second, 20*time.Millisecond)
	return token
}

func TestPasswordResetOverHTTP(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			admin := loginAdmin(t, ts)
			alice := signedUp(t, ts, "alice", "user")
			aliceElsewhere := newBrowser(t, ts)
			r := aliceElsewhere.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// The same answer whether or not the address has an account.
			visitor := newBrowser(t, ts)
			known := visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "alice@example.com"})
			unknown := visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "ghost@example.com"})
			require.Equal(t, http.StatusOK, known.status, known.raw)
			require.Equal(t, known.status, unknown.status)
			require.Equal(t, `{"success":true}`, known.raw[:len(`{"success":true}`)])
			require.Equal(t, known.raw, unknown.raw)
			r = visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "nope"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "Invalid email address", r.body["error"])

			// The link arrives (in the outbox: no SMTP server here); nothing
			// goes to the unknown address.
			token := waitForResetMail(t, admin, "alice@example.com", 1)
			mails, _ := outboxMails(t, admin, "")
			for _, m := range mails {
				require.NotEqual(t, "ghost@example.com", m["to"])
			}

			// A bad new password keeps the link usable.
			r = visitor.do("POST", "/api/auth/reset-password", map[string]any{"token": token, "newPassword": "n3w-secret", "confirmPassword": "typo"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, "Passwords do not match", r.body["error"])

			r = visitor.do("POST", "/api/auth/reset-password", map[string]any{"token": token, "newPassword": "n3w-secret", "confirmPassword": "n3w-secret"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, true, r.body["success"])

			// Every session of the account ended; the new password works, the old does not.
			require.Equal(t, http.StatusUnauthorized, alice.do("GET", "/api/auth/me", nil).status)
			require.Equal(t, http.StatusUnauthorized, aliceElsewhere.do("GET", "/api/auth/me", nil).status)
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "secret1"})
			require.Equal(t, http.StatusUnauthorized, r.status)
			r = alice.do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "n3w-secret"})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// The link works once.
			const invalidLink = "This reset link is invalid or has expired. Ask for a new one."
			r = visitor.do("POST", "/api/auth/reset-password", map[string]any{"token": token, "newPassword": "again-secret", "confirmPassword": "again-secret"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, invalidLink, r.body["error"])

			// And for an hour: age a new link past its expiry.
			r = visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "alice@example.com"})
			require.Equal(t, http.StatusOK, r.status)
			token = waitForResetMail(t, admin, "alice@example.com", 2)
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			dbtest.MustExec(t, d, "UPDATE password_resets SET expires_at = ? WHERE used_at IS NULL", time.Now().Add(-time.Second))
			r = visitor.do("POST", "/api/auth/reset-password", map[string]any{"token": token, "newPassword": "again-secret", "confirmPassword": "again-secret"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status)
			require.Equal(t, invalidLink, r.body["error"])
		})
	}
}

func TestOutboxIsForAdminsOnly(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	r := newBrowser(t, ts).do("GET", "/api/admin/outbox", nil)
	require.Equal(t, http.StatusUnauthorized, r.status)
	require.Equal(t, false, r.body["success"])
	r = signedUp(t, ts, "mallory", "user").do("GET", "/api/admin/outbox", nil)
	require.Equal(t, http.StatusForbidden, r.status)
	require.Equal(t, "Admin access required", r.body["error"])

	// Pages, newest first.
	admin := loginAdmin(t, ts)
	visitor := newBrowser(t, ts)
	for range 3 {
		require.Equal(t, http.StatusOK, visitor.do("POST", "/api/auth/forgot-password", map[string]any{"email": "mallory@example.com"}).status)
	}
	waitForResetMail(t, admin, "mallory@example.com", 3)
	// Three reset mails and, first, the verification mail of sign-up.
	first, next := outboxMails(t, admin, "?limit=3")
	require.Len(t, first, 3)
	require.NotEmpty(t, next)
	rest, last := outboxMails(t, admin, "?limit=3&cursor="+next)
	require.Len(t, rest, 1)
	require.Empty(t, last)
	require.Greater(t, first[0]["id"], first[1]["id"])
	require.Greater(t, first[2]["id"], rest[0]["id"])
	require.Equal(t, "verify_email", rest[0]["kind"])
	r = admin.do("GET", "/api/admin/outbox?cursor=bogus", nil)
	require.Equal(t, http.StatusUnprocessableEntity, r.status)
}
