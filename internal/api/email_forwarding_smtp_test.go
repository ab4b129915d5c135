package api_test

import (
	"bytes"
	"io"
	"net/http"
	"net/netip"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/servertest"
)

// Email forwarding through every part of one real server (API, DNS, worker
// and mail roles) on each engine: a user turns it on and adds a rule, the
// destination confirms it, the DNS role answers the MX and the mail host's
// address, a message sent over SMTP to the mail role is forwarded by the
// worker through the relay (a real SMTP server), and the domain's log and
// the metrics count it.
func TestEmailForwardingEndToEnd(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			relay := mailtest.Start(t, false)
			srv := servertest.Start(t, engine, func(c *config.Config) {
				c.Demo = true
				c.SMTPURL = "smtp://" + relay.Addr
				c.Roles = append(c.Roles, config.RoleMail)
				c.MailMaxSize = 1 << 20
				c.MailAddrs = []netip.Addr{netip.MustParseAddr("192.0.2.25")}
			})
			b := &forwardingBundle{t: t, srv: srv, smtp: relay}
			alice, _ := b.account("alicesmtp", "user")
			id := b.domain(alice, "alice-smtp")
			base := "/api/domains/" + id + "/email-forwarding"
			r := alice.sendJSON(http.MethodPut, base, map[string]any{"enabled": true})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			r = alice.sendJSON(http.MethodPost, base+"/rules", map[string]any{"alias": "hello", "destinations": []string{"inbox@dest.example"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			token := b.linkToken("inbox@dest.example", "/email-forwarding/confirm")
			r = newOpenAPIClient(t, srv.URL).sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{"token": token})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// The DNS role sends mail for the domain here.
			ask := func(name string, qtype uint16) []string {
				m := new(dns.Msg).SetQuestion(name, qtype)
				var out []string
				require.Eventually(t, func() bool {
					res, err := dns.Exchange(m, srv.DNSAddr)
					out = nil
					if err == nil {
						for _, rr := range res.Answer {
							out = append(out, strings.Join(strings.Fields(rr.String())[3:], " "))
						}
					}
					return len(out) > 0
				}, 10*time.Second, 10*time.Millisecond, "no answer for %s", name)
				return out
			}
			require.Equal(t, []string{"MX 10 mx.inf.nz."}, ask("alice-smtp.inf.nz.", dns.TypeMX))
			require.Equal(t, []string{"A 192.0.2.25"}, ask("mx.inf.nz.", dns.TypeA))

			before := len(relay.Received())
			msg := "From: Bob <bob@origin.example>\r\nTo: hello@alice-smtp.inf.nz\r\nSubject: over the wire\r\n\r\nHi Alice.\r\n"
			require.NoError(t, smtp.SendMail(srv.MailAddr, nil, "bob@origin.example", []string{"hello@alice-smtp.inf.nz"}, []byte(msg)))
			var forwarded mailtest.Mail
			require.Eventually(t, func() bool {
				for _, m := range relay.Received()[before:] {
					if strings.EqualFold(m.To, "TO:<inbox@dest.example>") {
						forwarded = m
						return true
					}
				}
				return false
			}, 15*time.Second, 10*time.Millisecond, "the worker did not forward the message")
			require.Contains(t, forwarded.From, "SRS0=")
			require.Contains(t, forwarded.From, "@mx.inf.nz>")
			require.True(t, bytes.HasSuffix(forwarded.Data, []byte(strings.ReplaceAll(msg, "\r\n", "\n"))), string(forwarded.Data))

			// Refused at RCPT: nobody@ and a domain not ours.
			err := smtp.SendMail(srv.MailAddr, nil, "bob@origin.example", []string{"nobody@alice-smtp.inf.nz"}, []byte(msg))
			require.ErrorContains(t, err, "550")
			err = smtp.SendMail(srv.MailAddr, nil, "bob@origin.example", []string{"x@gmail.com"}, []byte(msg))
			require.ErrorContains(t, err, "5.7.1")

			// The forwarded entry is written once its delivery is recorded,
			// which may come after the refusal: both are there, in any order.
			var outcomes []string
			require.Eventually(t, func() bool {
				r = alice.send(http.MethodGet, base+"/log", "", nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				outcomes = outcomes[:0]
				for _, e := range r.body["data"].([]any) {
					outcomes = append(outcomes, e.(map[string]any)["outcome"].(string))
				}
				return len(outcomes) == 2
			}, 10*time.Second, 10*time.Millisecond)
			require.ElementsMatch(t, []string{"refused", "forwarded"}, outcomes, r.raw)

			res, err := http.Get(srv.URL + "/metrics")
			require.NoError(t, err)
			page, _ := io.ReadAll(res.Body)
			res.Body.Close()
			require.Regexp(t, `nameport_mail_messages_total\{outcome="forwarded"\} [1-9]`, string(page))
			require.Regexp(t, `nameport_mail_refused_total\{reason="relay"\} [1-9]`, string(page))
		})
	}
}
