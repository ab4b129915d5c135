package server_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/servertest"
)

// everyJobArgs returns the arguments of every job in the database, as text.
func everyJobArgs(t *testing.T, d *db.DB) []string {
	t.Helper()
	args := "args::text"
	if d.Engine == db.SQLite {
		args = "json(args)" // riversqlite keeps args as binary JSON
	}
	var all []string
	require.NoError(t, d.Bun.NewSelect().Table("river_job").ColumnExpr(args).Scan(context.Background(), &all))
	return all
}

// waitForMail waits until the SMTP server has received a mail to `to`
// whose body contains want, and returns that body.
func waitForMail(t *testing.T, smtp *mailtest.Server, to, want string) string {
	t.Helper()
	var body string
	require.Eventually(t, func() bool {
		for _, m := range smtp.Received() {
			if m.To == "TO:<"+to+">" && strings.Contains(m.Body(t), want) {
				body = m.Body(t)
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond)
	return body
}

// Finding 5: the reset link (and any other secret: the verification link,
// the API key, sessions) is in no job's arguments, no log line and no
// outbox row; only the mail carries the links.
func TestResetLinkIsOnlyInTheMail(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			smtp := mailtest.Start(t, false)
			srv := servertest.Start(t, engine, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			ts := &testServer{url: srv.URL, dbURL: srv.DatabaseURL, dnsAddr: srv.DNSAddr, stop: srv.Stop}
			admin := loginAdmin(t, ts)

			alice := newBrowser(t, ts)
			r := alice.do("POST", "/api/auth/register", signUp("alice", "registrar"))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			secrets := []string{sessionCookie(t, r).Value, data(t, r)["apiKey"].(string)}
			verifyMail := waitForMail(t, smtp, "alice@example.com", "/verify-email?token=")
			verifyToken := regexp.MustCompile(`/verify-email\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(verifyMail)[1]
			secrets = append(secrets, verifyToken)

			r = newBrowser(t, ts).do("POST", "/api/auth/forgot-password", map[string]any{"email": "alice@example.com"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			body := waitForMail(t, smtp, "alice@example.com", "/reset-password?token=")
			match := resetTokenInLink.FindStringSubmatch(body)
			require.NotNil(t, match, body)
			token := match[1]
			secrets = append(secrets, token)
			var outbox []map[string]any
			require.Eventually(t, func() bool {
				outbox, _ = outboxMails(t, admin, "?limit=100")
				sent := 0
				for _, m := range outbox {
					if (m["kind"] == "password_reset" || m["kind"] == "verify_email") && m["status"] == "sent" {
						sent++
					}
				}
				return sent == 2
			}, 10*time.Second, 20*time.Millisecond)

			// What a reader of the database, River UI, the outbox or the
			// log can see: none of the secrets.
			d, err := db.Open(context.Background(), ts.dbURL)
			require.NoError(t, err)
			defer d.Close()
			places := everyJobArgs(t, d)
			require.NotEmpty(t, places)
			// The outbox row is marked sent inside the job; River records the
			// job as completed afterwards, in its next completion batch.
			var jobs reply
			require.Eventually(t, func() bool {
				jobs = admin.do("GET", "/admin/river/api/jobs?state=completed&limit=100", nil)
				return jobs.status == http.StatusOK && strings.Contains(jobs.raw, "notify.send")
			}, 10*time.Second, 20*time.Millisecond, "River UI shows the mail jobs")
			places = append(places, jobs.raw, srv.Logs())
			for _, m := range outbox {
				places = append(places, m["body"].(string))
			}
			var rows []string
			require.NoError(t, d.Bun.NewSelect().Table("mail_outbox").Column("body").Scan(context.Background(), &rows))
			places = append(places, rows...)
			for _, place := range places {
				for _, s := range secrets {
					require.NotContains(t, place, s)
				}
			}

			// Yet the mailed link works.
			r = newBrowser(t, ts).do("POST", "/api/auth/reset-password", map[string]any{"token": token,
				"newPassword": "n3w-secret", "confirmPassword": "n3w-secret"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = newBrowser(t, ts).do("POST", "/api/auth/login", map[string]any{"username": "alice", "password": "n3w-secret"})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = newBrowser(t, ts).do("POST", "/api/auth/verify-email", map[string]any{"token": verifyToken})
			require.Equal(t, http.StatusOK, r.status, r.raw)
		})
	}
}
