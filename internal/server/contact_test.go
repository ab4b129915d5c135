package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/servertest"
)

// Issue 26: the landing page's contact form is stored for admins, mailed
// to the site's contact address, and answered from the Inbox tab by mail.
func TestContactFormReachesTheInboxAndIsAnswered(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			smtp := mailtest.Start(t, false)
			srv := servertest.Start(t, engine, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			ts := &testServer{url: srv.URL, dbURL: srv.DatabaseURL, dnsAddr: srv.DNSAddr, stop: srv.Stop}
			admin := loginAdmin(t, ts)
			visitor := newBrowser(t, ts)

			// The spec's rules, with the field they are about; nothing stored.
			r := visitor.do("POST", "/api/contact", map[string]any{"company": " ", "email": "ann@acme.test", "interest": "api"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Company is required", r.body["error"], r.raw)
			require.Equal(t, "company", r.body["field"], r.raw)
			r = visitor.do("POST", "/api/contact", map[string]any{"company": "Acme", "email": "ann@", "interest": "resale"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Invalid email address", r.body["error"], r.raw)
			list := admin.do("GET", "/api/admin/contact-messages", nil)
			require.Equal(t, http.StatusOK, list.status, list.raw)
			require.Equal(t, float64(0), data(t, list)["total"], list.raw)

			// A request: the answer says it arrived and nothing more; the
			// mail goes to the first admin while no contact address is set.
			r = visitor.do("POST", "/api/contact", map[string]any{"company": "Acme Ltd", "email": "ann@acme.test",
				"interest": "registrar"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.JSONEq(t, `{"success":true}`, r.raw)
			body := waitForMail(t, smtp, "root@example.com", "Acme Ltd")
			require.Contains(t, body, "Becoming a registrar partner")

			r = admin.do("POST", "/api/site-settings", map[string]any{"key": "contact_email", "value": "hello@nameport.test",
				"category": "contact", "isPublic": false})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = visitor.do("POST", "/api/contact", map[string]any{"kind": "message", "name": "Bo", "email": "bo@acme.test",
				"subject": "Transfers", "message": "How do I move my name here?"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			waitForMail(t, smtp, "hello@nameport.test", "How do I move my name here?")

			// The inbox, newest first, with the unread count.
			list = admin.do("GET", "/api/admin/contact-messages", nil)
			page := data(t, list)
			require.Equal(t, float64(2), page["total"], list.raw)
			require.Equal(t, float64(2), page["unread"], list.raw)
			msgs := page["messages"].([]any)
			newest, oldest := msgs[0].(map[string]any), msgs[1].(map[string]any)
			require.Equal(t, "Bo", newest["name"])
			require.Equal(t, "Transfers", newest["subject"])
			require.Equal(t, "Acme Ltd", oldest["name"])
			require.Equal(t, "registrar", oldest["interest"])
			require.Equal(t, "new", oldest["status"])
			id := idOf(t, oldest["id"])

			// Only admins read and answer.
			user := newBrowser(t, ts) // signed up; its address need not be verified
			r = user.do("POST", "/api/auth/register", signUp("carol", "user"))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			for _, call := range []struct{ method, path string }{
				{"GET", "/api/admin/contact-messages"}, {"GET", "/api/admin/contact-messages/" + id},
				{"POST", "/api/admin/contact-messages/" + id + "/reply"}, {"DELETE", "/api/admin/contact-messages/" + id},
			} {
				var body any
				if call.method == "POST" {
					body = map[string]any{"message": "Not yours to answer."}
				}
				r = newBrowser(t, ts).do(call.method, call.path, body)
				require.Equal(t, http.StatusUnauthorized, r.status, "%v: %s", call, r.raw)
				r = user.do(call.method, call.path, body)
				require.Equal(t, http.StatusForbidden, r.status, "%v: %s", call, r.raw)
			}

			// Opening marks it read; replying mails the sender and answers it.
			r = admin.do("GET", "/api/admin/contact-messages/"+id, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "read", data(t, r)["status"])
			list = admin.do("GET", "/api/admin/contact-messages?status=new", nil)
			require.Equal(t, float64(1), data(t, list)["unread"], list.raw)
			require.Equal(t, float64(1), data(t, list)["total"], list.raw)
			r = admin.do("POST", "/api/admin/contact-messages/"+id+"/reply", map[string]any{"message": " "})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Equal(t, "Reply is required", r.body["error"], r.raw)
			r = admin.do("POST", "/api/admin/contact-messages/"+id+"/reply",
				map[string]any{"message": "Welcome aboard!\nApply from your registrar dashboard."})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			answered := data(t, r)
			require.Equal(t, "answered", answered["status"])
			require.Equal(t, "root", answered["answeredBy"])
			require.NotNil(t, answered["answeredAt"])
			mail := waitForMail(t, smtp, "ann@acme.test", "Welcome aboard!")
			require.Contains(t, mail, "Apply from your registrar dashboard.")
			r = admin.do("POST", "/api/admin/contact-messages/"+id+"/reply", map[string]any{"message": "Twice?"})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			r = admin.do("GET", "/api/admin/audit-log", nil)
			require.Contains(t, r.raw, "contact_message.reply", r.raw)

			r = admin.do("DELETE", "/api/admin/contact-messages/"+id, nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = admin.do("GET", "/api/admin/contact-messages/"+id, nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, "Contact message not found", r.body["error"], r.raw)
		})
	}
}

// The contact form is limited per client network, malformed requests
// included: a script cannot fill the inbox or the admins' mailbox.
func TestContactFormIsRateLimited(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	visitor := newBrowser(t, ts)
	valid := map[string]any{"company": "Acme Ltd", "email": "ann@acme.test"}
	for i := range 4 {
		r := visitor.do("POST", "/api/contact", valid)
		require.Equal(t, http.StatusCreated, r.status, "request %d: %s", i, r.raw)
	}
	r := visitor.do("POST", "/api/contact", map[string]any{"email": "nobody"})
	require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
	r = newBrowser(t, ts).do("POST", "/api/contact", valid) // another tab of the same network
	require.Equal(t, http.StatusTooManyRequests, r.status, r.raw)
	apiLimited(t)(r)
	require.Equal(t, 4, dbtest.Count(t, dbtest.Connect(t, ts.dbURL), "SELECT count(*) FROM contact_messages"))

	// A signed-in account counts against its own limit.
	alice := signedUp(t, ts, "alice", "user")
	r = alice.do("POST", "/api/contact", valid)
	require.Equal(t, http.StatusCreated, r.status, r.raw)
}
