package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
)

// databases maps the URL of each running server to its database URL.
var databases sync.Map

var verifyTokenInLink = regexp.MustCompile(`/verify-email\?token=([A-Za-z0-9_-]+)`)

// VerifyEmail does what the owner of email does after signing up: it reads
// the newest verification mail to email (from the outbox, the server's
// mailbox when no SMTP server is configured, once the worker has sent it)
// and follows its link, posting the token to /api/auth/verify-email.
// Accounts that register names or add funds need it. baseURL is a server
// Start runs.
func VerifyEmail(t testing.TB, baseURL, email string) {
	t.Helper()
	databaseURL, ok := databases.Load(baseURL)
	require.True(t, ok, "%s is not a server of servertest.Start", baseURL)
	d, err := db.Open(context.Background(), databaseURL.(string))
	require.NoError(t, err)
	defer d.Close()
	var token string
	require.Eventually(t, func() bool {
		var bodies []string
		err := d.Bun.NewSelect().Table("mail_outbox").Column("body").
			Where("kind = ?", "verify_email").Where("lower(to_address) = lower(?)", email).
			OrderExpr("id DESC").Limit(1).Scan(context.Background(), &bodies)
		if err != nil || len(bodies) == 0 {
			return false
		}
		m := verifyTokenInLink.FindStringSubmatch(bodies[0])
		if m == nil {
			return false
		}
		token = m[1]
		return true
	}, 15*time.Second, 10*time.Millisecond, "no verification mail to %s", email)
	body, err := json.Marshal(map[string]string{"token": token})
	require.NoError(t, err)
	resp, err := http.Post(baseURL+"/api/auth/verify-email", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "verifying %s", email)
}
