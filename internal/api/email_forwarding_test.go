package api_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
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

// forwardingBundle is a running server (demo catalog) that sends its mail
// to a real SMTP server, where the tests read the links as their readers
// would.
type forwardingBundle struct {
	t    *testing.T
	srv  *servertest.Server
	smtp *mailtest.Server
}

func forwardingSetup(t *testing.T, engine db.Engine) *forwardingBundle {
	t.Helper()
	smtp := mailtest.Start(t, false)
	srv := servertest.Start(t, engine, func(c *config.Config) {
		c.Demo = true
		c.SMTPURL = "smtp://" + smtp.Addr
	})
	return &forwardingBundle{t: t, srv: srv, smtp: smtp}
}

// linkToken waits for the newest mail to `to` carrying a link to path and
// returns the link's token.
func (b *forwardingBundle) linkToken(to, path string) string {
	b.t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(path) + `\?token=([A-Za-z0-9_-]+)`)
	var token string
	require.Eventually(b.t, func() bool {
		mails := b.smtp.Received()
		for i := len(mails) - 1; i >= 0; i-- {
			if !strings.EqualFold(mails[i].To, "TO:<"+to+">") {
				continue
			}
			if m := re.FindStringSubmatch(mails[i].Body(b.t)); m != nil {
				token = m[1]
				return true
			}
		}
		return false
	}, 15*time.Second, 10*time.Millisecond, "no mail to %s with a link to %s", to, path)
	return token
}

// storedDestinations are every address any rule ever named, as stored.
// A destination's confirmation mail is queued in the transaction that
// stores it: an address not stored was not mailed either.
func (b *forwardingBundle) storedDestinations() []string {
	b.t.Helper()
	d := dbtest.Connect(b.t, b.srv.DatabaseURL)
	var out []string
	require.NoError(b.t, d.Bun.NewSelect().Table("mail_destinations").Column("address").Scan(context.Background(), &out))
	return out
}

// sendJSONOrNothing sends body as JSON, or no body when it is nil.
func sendJSONOrNothing(c *openAPIClient, method, path string, body any) openAPIReply {
	c.t.Helper()
	if body == nil {
		return c.send(method, path, "", nil)
	}
	return c.sendJSON(method, path, body)
}

// account signs up username (user or registrar) with a verified address
// and money, and returns its session and, for a registrar, its API key.
func (b *forwardingBundle) account(username, userType string) (*openAPIClient, string) {
	t := b.t
	t.Helper()
	c := newOpenAPIClient(t, b.srv.URL)
	r := c.sendJSON(http.MethodPost, "/api/auth/register", map[string]any{"username": username,
		"email": username + "@example.com", "password": "secret1", "confirmPassword": "secret1",
		"fullName": "Test " + username, "userType": userType})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	key, _ := r.body["data"].(map[string]any)["apiKey"].(string)
	token := b.linkToken(username+"@example.com", "/verify-email")
	r = c.sendJSON(http.MethodPost, "/api/auth/verify-email", map[string]any{"token": token})
	require.Equal(t, http.StatusOK, r.status, r.raw)
	r = c.sendJSON(http.MethodPost, "/api/wallet/deposit", map[string]any{"amount": 100})
	require.Equal(t, http.StatusCreated, r.status, r.raw)
	return c, key
}

// domain registers label.inf.nz for c and returns its id.
func (b *forwardingBundle) domain(c *openAPIClient, label string) string {
	b.t.Helper()
	r := c.sendJSON(http.MethodPost, "/api/domains", map[string]any{"name": label, "extension": ".inf.nz"})
	require.Equal(b.t, http.StatusCreated, r.status, r.raw)
	return strconv.FormatInt(int64(r.body["data"].(map[string]any)["domain"].(map[string]any)["id"].(float64)), 10)
}

func dataOf(t *testing.T, r openAPIReply) map[string]any {
	t.Helper()
	d, ok := r.body["data"].(map[string]any)
	require.True(t, ok, r.raw)
	return d
}

// forwardingRules returns the rules of a forwarding status as alias →
// address → verified.
func forwardingRules(t *testing.T, status map[string]any) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, r := range status["rules"].([]any) {
		rule := r.(map[string]any)
		dests := map[string]bool{}
		for _, d := range rule["destinations"].([]any) {
			dest := d.(map[string]any)
			dests[dest["address"].(string)] = dest["verified"].(bool)
		}
		out[rule["alias"].(string)] = dests
	}
	return out
}

// mailRecords returns the domain's MX and TXT records as "TYPE [PRIORITY ]CONTENT".
func mailRecords(t *testing.T, c *openAPIClient, domainID string) []string {
	t.Helper()
	r := c.send(http.MethodGet, "/api/domains/"+domainID+"/dns", "", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	var out []string
	for _, x := range r.body["data"].([]any) {
		rec := x.(map[string]any)
		switch rec["type"] {
		case "MX":
			out = append(out, "MX "+strconv.Itoa(int(rec["priority"].(float64)))+" "+rec["content"].(string))
		case "TXT":
			out = append(out, "TXT "+rec["content"].(string))
		}
	}
	return out
}

// The web app's email forwarding, through a real server on each engine: a
// user turns it on (its MX and SPF records appear, another service's are
// replaced only when asked), adds a rule whose address is unverified until
// the link mailed to it is followed (by someone with no session), deletes
// it, and turns forwarding off again. Bad input gets the service's own
// words and stores nothing; other accounts see no such domain; visitors
// are refused.
func TestEmailForwardingThroughTheWebAPI(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := forwardingSetup(t, engine)
			alice, _ := b.account("alicefwd", "user")
			id := b.domain(alice, "alice-mail")
			base := "/api/domains/" + id + "/email-forwarding"

			// Another mail service's MX: turning forwarding on names it,
			// and replaces it only when told to.
			r := alice.sendJSON(http.MethodPost, "/api/domains/"+id+"/dns",
				map[string]any{"type": "MX", "name": "@", "content": "mail.example.net", "priority": 20})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = alice.send(http.MethodGet, base, "", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			status := dataOf(t, r)
			require.Equal(t, false, status["enabled"])
			require.Equal(t, "mx.inf.nz", status["mailHost"])
			require.Equal(t, float64(20), status["maxRules"], "an end user's limit")
			require.Len(t, status["replaces"], 1, r.raw)
			require.Contains(t, status["replaces"].([]any)[0], "mail.example.net")
			require.Empty(t, status["rules"])

			r = alice.sendJSON(http.MethodPut, base, map[string]any{"enabled": true})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Contains(t, r.body["error"], "Turning forwarding on replaces this domain's mail records")
			require.Contains(t, r.body["error"], "mail.example.net")
			require.Equal(t, []string{"MX 20 mail.example.net"}, mailRecords(t, alice, id), "refused: nothing changed")

			r = alice.sendJSON(http.MethodPut, base, map[string]any{"enabled": true, "replaceMailRecords": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			status = dataOf(t, r)
			require.Equal(t, true, status["enabled"])
			require.Empty(t, status["replaces"])
			records := mailRecords(t, alice, id)
			require.ElementsMatch(t, []string{"MX 10 mx.inf.nz", "TXT v=spf1 mx ~all"}, records)
			// On again: the same two records, not two more.
			r = alice.sendJSON(http.MethodPut, base, map[string]any{"enabled": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.ElementsMatch(t, records, mailRecords(t, alice, id))

			// A rule: its address is unverified until the link is followed.
			r = alice.sendJSON(http.MethodPost, base+"/rules", map[string]any{"alias": "Info", "destinations": []string{"Alice.Inbox@Example.COM"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			rule := dataOf(t, r)
			require.Equal(t, "info", rule["alias"])
			ruleID := strconv.FormatInt(int64(rule["id"].(float64)), 10)
			const inbox = "Alice.Inbox@example.com"
			require.Equal(t, map[string]map[string]bool{"info": {inbox: false}}, forwardingRules(t, rule2status(rule)))
			r = alice.send(http.MethodGet, base, "", nil)
			require.Equal(t, map[string]map[string]bool{"info": {inbox: false}}, forwardingRules(t, dataOf(t, r)))

			// The reader of the mail confirms without any session.
			token := b.linkToken(inbox, "/email-forwarding/confirm")
			reader := newOpenAPIClient(t, b.srv.URL)
			r = reader.sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{"token": token})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, inbox, dataOf(t, r)["address"])
			r = reader.sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{"token": token})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, "the link works once: %s", r.raw)
			require.Equal(t, "This confirmation link is invalid or has already been used", r.body["error"])
			r = reader.sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)

			r = alice.send(http.MethodGet, base, "", nil)
			require.Equal(t, map[string]map[string]bool{"info": {inbox: true}}, forwardingRules(t, dataOf(t, r)))

			// Bad input: the service's own words, and nothing stored or mailed.
			for _, tc := range []struct {
				body   map[string]any
				status int
				msg    string
			}{
				{map[string]any{"alias": "in\u0007fo", "destinations": []string{"a@example.com"}}, http.StatusUnprocessableEntity,
					"Use letters, digits, dots, hyphens, underscores or plus signs for the alias (at most 64 characters), or * for every address"},
				{map[string]any{"alias": strings.Repeat("a", 65), "destinations": []string{"a@example.com"}}, http.StatusUnprocessableEntity,
					"Use letters, digits, dots, hyphens, underscores or plus signs for the alias (at most 64 characters), or * for every address"},
				{map[string]any{"alias": "sales", "destinations": []string{"bob\u0001@example.com"}}, http.StatusUnprocessableEntity,
					"is not an address mail can be forwarded to: it holds a space or a control character"},
				{map[string]any{"alias": "sales", "destinations": elevenAddresses()}, http.StatusUnprocessableEntity,
					"A rule forwards to at most 10 addresses"},
				{map[string]any{"alias": "sales", "destinations": []string{"a@example.com", "postmaster@Alice-Mail.inf.nz"}}, http.StatusUnprocessableEntity,
					"it is at the domain being forwarded, which would send mail round in a loop"},
				{map[string]any{"alias": "sales"}, http.StatusUnprocessableEntity, "Name at least one address to forward to"},
				{map[string]any{"alias": "info", "destinations": []string{"a@example.com"}}, http.StatusConflict, "This alias already has a rule"},
			} {
				r = alice.sendJSON(http.MethodPost, base+"/rules", tc.body)
				require.Equal(t, tc.status, r.status, "%v: %s", tc.body, r.raw)
				require.Contains(t, r.body["error"], tc.msg, tc.body)
			}
			r = alice.send(http.MethodGet, base, "", nil)
			require.Equal(t, map[string]map[string]bool{"info": {inbox: true}}, forwardingRules(t, dataOf(t, r)), "nothing stored")
			require.Equal(t, []string{inbox}, b.storedDestinations(), "no address stored, so none mailed")

			// Another account's domain is no domain at all; a visitor is
			// refused before anything.
			bob, _ := b.account("bobfwd", "user")
			visitor := newOpenAPIClient(t, b.srv.URL)
			for _, call := range []struct {
				method, path string
				body         any
			}{
				{http.MethodGet, base, nil},
				{http.MethodPut, base, map[string]any{"enabled": false}},
				{http.MethodPost, base + "/rules", map[string]any{"alias": "bob", "destinations": []string{"bob@example.com"}}},
				{http.MethodDelete, base + "/rules/" + ruleID, nil},
				{http.MethodPost, base + "/destinations/resend", map[string]any{"address": inbox}},
				{http.MethodGet, base + "/log", nil},
			} {
				r = sendJSONOrNothing(bob, call.method, call.path, call.body)
				require.Equal(t, http.StatusNotFound, r.status, "%s %s: %s", call.method, call.path, r.raw)
				require.Equal(t, "Domain not found", r.body["error"])
				r = sendJSONOrNothing(visitor, call.method, call.path, call.body)
				require.Equal(t, http.StatusUnauthorized, r.status, "%s %s: %s", call.method, call.path, r.raw)
			}
			r = alice.send(http.MethodGet, base, "", nil)
			require.Equal(t, true, dataOf(t, r)["enabled"], "bob turned nothing off")
			require.Len(t, dataOf(t, r)["rules"], 1)

			// Nothing was forwarded yet (the mail role does not run here).
			r = alice.send(http.MethodGet, base+"/log", "", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, []any{}, r.body["data"])

			// Delete the rule; off removes forwarding's records only.
			r = alice.send(http.MethodDelete, base+"/rules/"+ruleID, "", nil)
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = alice.send(http.MethodDelete, base+"/rules/"+ruleID, "", nil)
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, "Forwarding rule not found", r.body["error"])
			r = alice.send(http.MethodGet, base, "", nil)
			require.Empty(t, dataOf(t, r)["rules"])

			r = alice.sendJSON(http.MethodPost, "/api/domains/"+id+"/dns", map[string]any{"type": "TXT", "name": "@", "content": "hello"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = alice.sendJSON(http.MethodPut, base, map[string]any{"enabled": false})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, false, dataOf(t, r)["enabled"])
			require.Equal(t, []string{"TXT hello"}, mailRecords(t, alice, id))

			// enabled is required: an empty body must not turn anything off.
			r = alice.sendJSON(http.MethodPut, base, map[string]any{})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
		})
	}
}

// Sending a confirmation link again: not sooner than a minute after the
// last, only to an address of one of the domain's rules, and not to one
// already confirmed.
func TestEmailForwardingResendThroughTheWebAPI(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := forwardingSetup(t, engine)
			carol, _ := b.account("carolfwd", "user")
			base := "/api/domains/" + b.domain(carol, "carol-mail") + "/email-forwarding"
			const inbox = "carol@example.org"
			r := carol.sendJSON(http.MethodPost, base+"/rules", map[string]any{"alias": "*", "destinations": []string{inbox}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			r = carol.sendJSON(http.MethodPost, base+"/destinations/resend", map[string]any{"address": inbox})
			require.Equal(t, http.StatusTooManyRequests, r.status, r.raw)
			require.Equal(t, "A confirmation link was sent to this address less than a minute ago", r.body["error"])
			r = carol.sendJSON(http.MethodPost, base+"/destinations/resend", map[string]any{"address": "stranger@example.com"})
			require.Equal(t, http.StatusNotFound, r.status, r.raw)
			require.Equal(t, "No rule forwards to this address", r.body["error"])

			token := b.linkToken(inbox, "/email-forwarding/confirm")
			r = newOpenAPIClient(t, b.srv.URL).sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{"token": token})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = carol.sendJSON(http.MethodPost, base+"/destinations/resend", map[string]any{"address": inbox})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "This address is already confirmed", r.body["error"])
		})
	}
}

// rule2status wraps one rule as a status, for forwardingRules.
func rule2status(rule map[string]any) map[string]any {
	return map[string]any{"rules": []any{rule}}
}

func elevenAddresses() []string {
	out := make([]string, 11)
	for i := range out {
		out[i] = "reader" + strconv.Itoa(i) + "@example.com"
	}
	return out
}
