package mailfwd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/notify"
	"github.com/nameport/nameport/internal/zone"
)

// pipeline is everything between a sender and the destination's server:
// the rules, the inbound SMTP server, the forwarder and a real SMTP server
// standing for the outbound relay.
type pipeline struct {
	d      *db.DB
	rules  *Service
	fwd    *Forwarder
	srs    *SRS
	server *Server
	relay  *mailtest.Server
	domain Domain
}

func newPipeline(t *testing.T, d *db.DB) *pipeline {
	t.Helper()
	require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: the test works the jobs
	relay := mailtest.Start(t, false)
	mail, err := notify.NewService(d, notify.Options{SMTPURL: "smtp://" + relay.Addr})
	require.NoError(t, err)
	srs, err := NewSRS([]byte("a test secret of sixteen bytes or more"), 0, nil)
	require.NoError(t, err)
	fwd := NewForwarder(d, ForwarderOptions{Relay: mail, SRS: srs})
	server := NewServer(fwd, ServerOptions{Addr: "127.0.0.1:0", MaxSize: 64 << 10})
	require.NoError(t, server.Start())
	t.Cleanup(func() { _ = server.Shutdown(context.Background()) })

	now := time.Now().UTC()
	dbtest.MustExec(t, d, `INSERT INTO extensions (extension, base_price_cents, description, active, min_name_length,
		max_name_length, allowed_characters, renewal_period_days, grace_period_days, dns_nameservers, dns_provider,
		dns_api_key_sealed, dns_api_secret_sealed, dns_zone_id, requires_verification, verification_documents,
		verification_instructions, admin_email, technical_email, billing_email, whois_privacy_enabled,
		allows_subdomains, allows_dns_management, allows_email_forwarding, created_at, updated_at)
		VALUES ('.inf.nz', 800, 'test', TRUE, 1, 63, 'a-z0-9-', 365, 30, '', 'custom', '', '', '', FALSE, '[]', '', '', '', '',
		TRUE, TRUE, TRUE, TRUE, ?, ?)`, now, now)
	id := dbtest.Domain(t, d, "acme", ".inf.nz", time.Now().AddDate(1, 0, 0))
	var owner int64
	require.NoError(t, d.Bun.NewSelect().Table("domains").Column("user_id").Where("id = ?", id).Scan(context.Background(), &owner))
	return &pipeline{d: d, rules: NewService(d, Options{Notify: notify.Enqueue, Records: zone.NewService(d, zone.Options{})}),
		fwd: fwd, srs: srs, server: server, relay: relay, domain: Domain{ID: id, UserID: owner, Label: "acme", Extension: ".inf.nz"}}
}

// forward turns forwarding on and sends alias to me@dest.example, confirmed.
func (p *pipeline) forward(t *testing.T, alias string) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, p.rules.Enable(ctx, p.domain, false))
	_, err := p.rules.AddRule(ctx, p.domain, alias, []string{"me@dest.example"})
	require.NoError(t, err)
	p.confirm(t, "me@dest.example")
}

// confirm follows the confirmation link of address, as its reader would.
func (p *pipeline) confirm(t *testing.T, address string) {
	t.Helper()
	ctx := context.Background()
	var id int64
	require.NoError(t, p.d.Bun.NewSelect().Table("mail_destinations").Column("id").
		Where("user_id = ? AND address = ?", p.domain.UserID, address).Scan(ctx, &id))
	secrets, err := p.rules.VerificationLink("https://nameport.test")(ctx, p.domain.UserID, map[string]string{"destinationId": strconv.FormatInt(id, 10)})
	require.NoError(t, err)
	link, err := url.Parse(secrets["link"])
	require.NoError(t, err)
	require.Equal(t, ConfirmPath, link.Path)
	got, err := p.rules.Confirm(ctx, link.Query().Get("token"))
	require.NoError(t, err)
	require.Equal(t, address, got)
	_, err = p.rules.Confirm(ctx, link.Query().Get("token"))
	require.ErrorIs(t, err, errTokenInvalid, "a link works once")
}

// deliverAll works the queued forwarding jobs once each, as River would,
// and returns their errors.
func (p *pipeline) deliverAll(t *testing.T, last bool) []error {
	t.Helper()
	var rows []struct {
		ID   int64  `bun:"id"`
		Args []byte `bun:"args"`
	}
	require.NoError(t, p.d.Bun.NewSelect().Table("river_job").Column("id").ColumnExpr(jobArgs(p.d)+" AS args").
		Where("kind = ? AND state = 'available'", DeliverArgs{}.Kind()).Order("id").Scan(context.Background(), &rows))
	var errs []error
	for _, row := range rows {
		var args DeliverArgs
		require.NoError(t, json.Unmarshal(row.Args, &args))
		err := p.fwd.deliver(context.Background(), args, last)
		errs = append(errs, err)
		if err == nil || isCancel(err) {
			dbtest.MustExec(t, p.d, "UPDATE river_job SET state = 'completed', finalized_at = ? WHERE id = ?", time.Now().UTC(), row.ID)
		}
	}
	return errs
}

// jobArgs reads River's job arguments as JSON text on either engine:
// riversqlite keeps them as binary JSON (jsonb).
func jobArgs(d *db.DB) string {
	if d.Engine == db.SQLite {
		return "json(args)"
	}
	return "args::text"
}

// path is the address in a MAIL or RCPT argument as the relay got it
// ("FROM:<a@b.c>").
func path(arg string) string {
	_, rest, _ := strings.Cut(arg, "<")
	address, _, _ := strings.Cut(rest, ">")
	return address
}

func isCancel(err error) bool { return err != nil && strings.Contains(err.Error(), "JobCancelError") }

// send speaks SMTP to the server with net/smtp and returns the reply to the
// first command that failed.
func send(t *testing.T, addr, from string, to []string, msg []byte) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Hello("sender.example"))
	if err := c.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func replyCode(t *testing.T, err error) (int, string) {
	t.Helper()
	var tp *textproto.Error
	require.True(t, errors.As(err, &tp), "want an SMTP reply, got %v", err)
	return tp.Code, tp.Msg
}

const message = "From: Alice <alice@origin.example>\r\nTo: hello@acme.inf.nz\r\nSubject: hi\r\n" +
	"DKIM-Signature: v=1; a=rsa-sha256; d=origin.example; s=s1; bh=abc=; b=def=\r\n\r\n" +
	"Hello there.\r\n.leading dot stays\r\n\r\nBye\r\n"

func TestForwardingOverSMTP(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		addr := p.server.Addr()

		// Forwarding off: the domain is not ours to take mail for.
		code, msg := replyCode(t, send(t, addr, "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 550, code)
		require.Contains(t, msg, "5.7.1")

		require.NoError(t, p.rules.Enable(ctx, p.domain, false))
		rule, err := p.rules.AddRule(ctx, p.domain, "Hello", []string{"me@Dest.example"})
		require.NoError(t, err)
		require.Equal(t, "hello", rule.Alias)
		require.Equal(t, []Destination{{Address: "me@dest.example", Verified: false}}, rule.Destinations)
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM river_job WHERE kind = 'notify.send' AND "+jobArgs(d)+" LIKE ?",
			"%me@dest.example%"), "the new destination is sent its confirmation link")

		// Unconfirmed: the address receives nothing; the alias is refused at RCPT.
		code, msg = replyCode(t, send(t, addr, "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 550, code)
		require.Contains(t, msg, "5.1.1")

		p.confirm(t, "me@dest.example")
		// Foreign domains and unknown aliases are refused at RCPT, never relayed.
		for rcpt, want := range map[string]string{
			"someone@gmail.com": "5.7.1", "nobody@acme.inf.nz": "5.1.1", "hello@other.inf.nz": "5.7.1", "no-at-sign": "5.",
		} {
			code, msg := replyCode(t, send(t, addr, "alice@origin.example", []string{rcpt}, []byte(message)))
			require.GreaterOrEqual(t, code, 500, rcpt)
			require.Contains(t, msg, want, rcpt)
		}

		require.NoError(t, send(t, addr, "alice@origin.example", []string{"hello+news@ACME.inf.nz"}, []byte(message)))
		require.Empty(t, p.relay.Received(), "nothing leaves before the job runs")
		require.Equal(t, []error{nil}, p.deliverAll(t, false))

		got := p.relay.Received()
		require.Len(t, got, 1)
		require.Equal(t, "me@dest.example", path(got[0].To))
		sender := path(got[0].From)
		require.True(t, strings.HasPrefix(sender, "SRS0="), sender)
		require.True(t, strings.HasSuffix(sender, "@mx.inf.nz"), sender)
		original, err := p.srs.Reverse(sender)
		require.NoError(t, err)
		require.Equal(t, "alice@origin.example", original)
		// Byte for byte below our own Received header (DKIM stays valid);
		// mailtest reads DATA with textproto, which ends lines with LF.
		lf := bytes.ReplaceAll([]byte(message), []byte("\r\n"), []byte("\n"))
		require.True(t, bytes.HasPrefix(got[0].Data, []byte("Received: from sender.example (127.0.0.1")), string(got[0].Data))
		require.True(t, bytes.HasSuffix(got[0].Data, lf), string(got[0].Data))
		require.Contains(t, string(got[0].Data), "for <hello+news@ACME.inf.nz>")
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"), "a forwarded message is not kept")

		log, err := p.rules.Log(ctx, p.domain)
		require.NoError(t, err)
		require.Equal(t, OutcomeForwarded, log[0].Outcome)
		require.Equal(t, "me@dest.example", log[0].ForwardTo)
		require.Equal(t, int64(len(got[0].Data)+bytes.Count(got[0].Data, []byte("\n"))), log[0].Size, "the size in CRLF form")
		require.Equal(t, OutcomeRefused, log[1].Outcome, "the refused unknown alias is in the log too")
		require.Equal(t, "alice@origin.example", log[1].From)

		// A client trying address after address writes one log line a
		// transaction, however many it tries.
		c, err := smtp.Dial(addr)
		require.NoError(t, err)
		require.NoError(t, c.Hello("sender.example"))
		for range 2 {
			require.NoError(t, c.Mail("dictionary@origin.example"))
			for i := range 30 {
				code, _ := replyCode(t, c.Rcpt(fmt.Sprintf("guess%d@acme.inf.nz", i)))
				require.Equal(t, 550, code)
			}
			require.NoError(t, c.Reset())
		}
		require.NoError(t, c.Quit())
		after, err := p.rules.Log(ctx, p.domain)
		require.NoError(t, err)
		require.Len(t, after, len(log)+2)
		require.Equal(t, "guess0@acme.inf.nz", after[0].To)
		require.Equal(t, OutcomeRefused, after[1].Outcome)
		log = after[2:]

		// The null sender (a bounce) is forwarded with the null sender.
		require.NoError(t, send(t, addr, "", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, []error{nil}, p.deliverAll(t, false))
		require.Equal(t, "", path(p.relay.Received()[1].From))

		// A bounce from the destination comes back to the rewritten sender
		// and goes on to the original one; addresses we did not make, or
		// at another host, are refused.
		require.NoError(t, send(t, addr, "", []string{sender}, []byte(message)))
		require.Equal(t, []error{nil}, p.deliverAll(t, false))
		back := p.relay.Received()[2]
		require.Equal(t, "alice@origin.example", path(back.To))
		require.Equal(t, "", path(back.From))
		forged := "SRS0=abcd=AA=origin.example=alice@mx.inf.nz"
		code, msg = replyCode(t, send(t, addr, "", []string{forged}, []byte(message)))
		require.Equal(t, 550, code)
		require.Contains(t, msg, "5.1.1")
		code, msg = replyCode(t, send(t, addr, "", []string{strings.Replace(sender, "@mx.inf.nz", "@mx.other.example", 1)}, []byte(message)))
		require.Equal(t, 550, code)
		require.Contains(t, msg, "5.7.1")

		// Turned off: refused again, rules kept.
		require.NoError(t, p.rules.Disable(ctx, p.domain))
		code, _ = replyCode(t, send(t, addr, "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 550, code)
		rules, err := p.rules.Rules(ctx, p.domain)
		require.NoError(t, err)
		require.Len(t, rules, 1)
	})
}

func TestForwardingRetriesTheRelay(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, CatchAll)

		// A relay that answers 4xx: the job fails, to be retried, and the
		// message waits.
		require.NoError(t, send(t, p.server.Addr(), "alice@origin.example", []string{"anything@acme.inf.nz"}, []byte(message)))
		p.relay.RejectRecipients("451 4.7.1 Try again later")
		errs := p.deliverAll(t, false)
		require.Len(t, errs, 1)
		require.Error(t, errs[0])
		require.False(t, isCancel(errs[0]))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"))
		// The relay recovers: the retry forwards it.
		p.relay.RejectRecipients("")
		require.Equal(t, []error{nil}, p.deliverAll(t, false))
		require.Len(t, p.relay.Received(), 1)

		// A permanent refusal (5xx) ends the job at once, as failed, and the
		// real sender gets a delivery status notification from the null
		// sender.
		require.NoError(t, send(t, p.server.Addr(), "alice@origin.example", []string{"x@acme.inf.nz"}, []byte(message)))
		p.relay.RejectRecipient("me@dest.example", "550 5.1.1 No such user")
		errs = p.deliverAll(t, false)
		require.True(t, isCancel(errs[0]), "%v", errs[0])
		got := p.relay.Received()
		require.Len(t, got, 2)
		dsn := got[1]
		require.Equal(t, "", path(dsn.From), "a bounce goes from the null sender")
		require.Equal(t, "alice@origin.example", path(dsn.To))
		parsed, err := mail.ReadMessage(bytes.NewReader(dsn.Data))
		require.NoError(t, err)
		mediaType, params, err := mime.ParseMediaType(parsed.Header.Get("Content-Type"))
		require.NoError(t, err)
		require.Equal(t, "multipart/report", mediaType)
		require.Equal(t, "delivery-status", params["report-type"])
		parts := multipart.NewReader(parsed.Body, params["boundary"])
		var kinds []string
		for {
			part, err := parts.NextPart()
			if err != nil {
				break
			}
			body, _ := io.ReadAll(part)
			kinds = append(kinds, part.Header.Get("Content-Type"))
			if part.Header.Get("Content-Type") == "message/delivery-status" {
				require.Contains(t, string(body), "Final-Recipient: rfc822; x@acme.inf.nz")
				require.Contains(t, string(body), "Action: failed")
				require.Contains(t, string(body), "Status: 5.1.1")
			}
			if part.Header.Get("Content-Type") == "text/rfc822-headers" {
				require.Contains(t, string(body), "Subject: hi")
				require.NotContains(t, string(body), "Hello there", "headers only")
			}
		}
		require.Equal(t, []string{`text/plain; charset="utf-8"`, "message/delivery-status", "text/rfc822-headers"}, kinds)

		// No bounce to the null sender or to a mailer daemon.
		for _, sender := range []string{"", "MAILER-DAEMON@origin.example"} {
			require.NoError(t, send(t, p.server.Addr(), sender, []string{"x@acme.inf.nz"}, []byte(message)))
			errs = p.deliverAll(t, false)
			require.True(t, isCancel(errs[0]), "%v", errs[0])
			require.Len(t, p.relay.Received(), 2, "no bounce for %q", sender)
		}
		log, err := p.rules.Log(ctx, p.domain)
		require.NoError(t, err)
		require.Equal(t, OutcomeFailed, log[0].Outcome)
		require.Equal(t, OutcomeFailed, log[2].Outcome)
		require.Contains(t, log[0].Detail, "550")
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"))
	})
}

func TestSMTPRefusesAbuse(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		p := newPipeline(t, d)
		p.forward(t, "hello")

		// Oversize: refused, nothing stored.
		big := []byte(message + strings.Repeat(strings.Repeat("x", 98)+"\r\n", 700))
		code, _ := replyCode(t, send(t, p.server.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, big))
		require.Equal(t, 552, code)
		// A sender address that is not one.
		code, _ = replyCode(t, send(t, p.server.Addr(), "not an address", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.GreaterOrEqual(t, code, 500)
		// 1,000 recipients: the server takes 100 and refuses the rest.
		var many []string
		for i := 0; i < 1000; i++ {
			many = append(many, "hello@acme.inf.nz")
		}
		code, _ = replyCode(t, send(t, p.server.Addr(), "alice@origin.example", many, []byte(message)))
		require.Equal(t, 452, code)
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"))
	})
}

func TestRulesRefuseBadInput(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		tooMany := make([]string, MaxDestinations+1)
		for i := range tooMany {
			tooMany[i] = "a" + strconv.Itoa(i) + "@dest.example"
		}
		for name, tc := range map[string]struct {
			alias string
			to    []string
			want  string
		}{
			"control characters": {"hello", []string{"me@dest.example\r\nBcc: x@y.z"}, "control character"},
			"an IDN address":     {"hello", []string{"me@bücher.example"}, "xn--"},
			"a display name":     {"hello", []string{"Me<me@dest.example>"}, "name@example.com"},
			"a loop":             {"hello", []string{"other@ACME.inf.nz"}, "loop"},
			"no address":         {"hello", nil, "at least one"},
			"too many addresses": {"hello", tooMany, "at most 10"},
			"a bad alias":        {"he llo", []string{"me@dest.example"}, "letters, digits"},
			"an alias with @":    {"a@b", []string{"me@dest.example"}, "letters, digits"},
			"a long alias":       {strings.Repeat("a", 65), []string{"me@dest.example"}, "at most 64"},
			"an address literal": {"hello", []string{"me@[127.0.0.1]"}, "domain name"},
		} {
			_, err := p.rules.AddRule(ctx, p.domain, tc.alias, tc.to)
			var appErr *apperr.Error
			require.True(t, errors.As(err, &appErr), "%s: %v", name, err)
			require.Equal(t, apperr.Invalid, appErr.Code, name)
			require.Contains(t, appErr.Error(), tc.want, name)
		}
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_rules"), "nothing stored")
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_destinations"), "nothing stored")

		// The limit per domain counts, and an alias has one rule.
		limited := NewService(d, Options{MaxRules: 2, Records: zone.NewService(d, zone.Options{})})
		_, err := limited.AddRule(ctx, p.domain, "a", []string{"me@dest.example"})
		require.NoError(t, err)
		_, err = limited.AddRule(ctx, p.domain, "A", []string{"me@dest.example"})
		require.ErrorIs(t, err, errRuleExists)
		_, err = limited.AddRule(ctx, p.domain, "b", []string{"me@dest.example"})
		require.NoError(t, err)
		_, err = limited.AddRule(ctx, p.domain, "c", []string{"me@dest.example"})
		require.ErrorContains(t, err, "at most 2 forwarding rules")
		// Registrars get their own limit.
		reg := p.domain
		reg.Registrar = true
		_, err = NewService(d, Options{MaxRules: 2, MaxRulesRegistrar: 3, Records: zone.NewService(d, zone.Options{})}).AddRule(ctx, reg, "c", []string{"me@dest.example"})
		require.NoError(t, err)

		// Deleting another domain's rule, or one that is gone: not found.
		rules, err := p.rules.Rules(ctx, p.domain)
		require.NoError(t, err)
		other := Domain{ID: p.domain.ID + 1000, UserID: p.domain.UserID, Label: "other", Extension: ".inf.nz"}
		require.ErrorIs(t, p.rules.DeleteRule(ctx, other, rules[0].ID), errRuleNotFound)
		require.NoError(t, p.rules.DeleteRule(ctx, p.domain, rules[0].ID))
		require.ErrorIs(t, p.rules.DeleteRule(ctx, p.domain, rules[0].ID), errRuleNotFound)

		_, err = p.rules.Confirm(ctx, "not-a-token")
		require.ErrorIs(t, err, errTokenInvalid)
	})
}

// mailRecords lists d's MX and TXT records as "TYPE [priority] content".
func mailRecords(t *testing.T, d *db.DB, domain Domain) []string {
	t.Helper()
	records, err := zone.NewService(d, zone.Options{}).List(context.Background(), domain.zone())
	require.NoError(t, err)
	var out []string
	for _, r := range records {
		switch {
		case r.Type == "MX":
			out = append(out, fmt.Sprintf("MX %d %s", *r.Priority, r.Content))
		case r.Type == "TXT":
			out = append(out, "TXT "+r.Content)
		}
	}
	slices.Sort(out)
	return out
}

func TestForwardingManagesMailRecords(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		records := zone.NewService(d, zone.Options{})
		prio := 5
		_, err := records.Create(ctx, p.domain.zone(), zone.Input{Type: "MX", Name: "@", Content: "mail.other.example.", Priority: &prio})
		require.NoError(t, err)
		_, err = records.Create(ctx, p.domain.zone(), zone.Input{Type: "TXT", Name: "@", Content: "google-site-verification=abc"})
		require.NoError(t, err)
		before := mailRecords(t, d, p.domain)

		// Another service's MX is never replaced without saying so.
		st, err := p.rules.Status(ctx, p.domain)
		require.NoError(t, err)
		require.False(t, st.Enabled)
		require.Equal(t, "mx.inf.nz", st.MailHost)
		require.Equal(t, []string{"MX 5 mail.other.example"}, st.Replaces)
		err = p.rules.Enable(ctx, p.domain, false)
		var appErr *apperr.Error
		require.True(t, errors.As(err, &appErr), "%v", err)
		require.Equal(t, apperr.Conflict, appErr.Code)
		require.Contains(t, appErr.Error(), "MX 5 mail.other.example")
		require.Equal(t, before, mailRecords(t, d, p.domain), "nothing changed")
		st, err = p.rules.Status(ctx, p.domain)
		require.NoError(t, err)
		require.False(t, st.Enabled)

		require.NoError(t, p.rules.Enable(ctx, p.domain, true))
		after := mailRecords(t, d, p.domain)
		require.Contains(t, after, "MX 10 mx.inf.nz")
		require.NotContains(t, after, "MX 5 mail.other.example")
		require.Len(t, after, 3, "MX, SPF and the verification TXT: %v", after)
		// Turning it on again changes nothing.
		require.NoError(t, p.rules.Enable(ctx, p.domain, false))
		require.Equal(t, after, mailRecords(t, d, p.domain))
		st, err = p.rules.Status(ctx, p.domain)
		require.NoError(t, err)
		require.True(t, st.Enabled)
		require.Empty(t, st.Replaces)

		require.NoError(t, p.rules.Disable(ctx, p.domain))
		require.Equal(t, []string{"TXT google-site-verification=abc"}, mailRecords(t, d, p.domain), "only the user's own TXT stays")
	})
}

func TestSMTPRateLimits(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, "hello")
		var offset atomic.Int64 // the servers read the clock on their own goroutines
		start := time.Now()
		clock := func() time.Time { return start.Add(time.Duration(offset.Load())) }

		perClient := NewServer(p.fwd, ServerOptions{Addr: "127.0.0.1:0", ClientRate: 2, Now: clock})
		require.NoError(t, perClient.Start())
		t.Cleanup(func() { _ = perClient.Shutdown(ctx) })
		for range 2 {
			require.NoError(t, send(t, perClient.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		}
		code, msg := replyCode(t, send(t, perClient.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 451, code)
		require.Contains(t, msg, "4.7.1")
		offset.Store(int64(time.Minute))
		require.NoError(t, send(t, perClient.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)), "a minute later")

		perDomain := NewServer(p.fwd, ServerOptions{Addr: "127.0.0.1:0", DomainRate: 1, Now: clock})
		require.NoError(t, perDomain.Start())
		t.Cleanup(func() { _ = perDomain.Shutdown(ctx) })
		require.NoError(t, send(t, perDomain.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		code, msg = replyCode(t, send(t, perDomain.Addr(), "bob@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 451, code)
		require.Contains(t, msg, "4.7.1")
		require.Equal(t, 4, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"), "only the messages taken are stored")
	})
}

func TestForwardingFollowsTheExtension(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, "hello")

		forbidden := func(ext string) error {
			return apperr.New(apperr.Forbidden, "Email forwarding is not available for %s domains", ext)
		}
		rules := NewService(d, Options{Records: zone.NewService(d, zone.Options{}), Allowed: forbidden})
		require.ErrorContains(t, rules.Enable(ctx, p.domain, false), "not available for .inf.nz")
		_, err := rules.AddRule(ctx, p.domain, "other", []string{"me@dest.example"})
		require.ErrorContains(t, err, "not available for .inf.nz")

		// An admin who turns it off for the extension stops the mail too.
		fwd := NewForwarder(d, ForwarderOptions{Relay: p.fwd.relay, SRS: p.srs, Allowed: forbidden})
		server := NewServer(fwd, ServerOptions{Addr: "127.0.0.1:0"})
		require.NoError(t, server.Start())
		t.Cleanup(func() { _ = server.Shutdown(ctx) })
		code, msg := replyCode(t, send(t, server.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		require.Equal(t, 550, code)
		require.Contains(t, msg, "5.7.1")
	})
}

func TestResendConfirmationLink(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		var offset atomic.Int64
		start := time.Now()
		rules := NewService(d, Options{Notify: notify.Enqueue, Records: zone.NewService(d, zone.Options{}),
			Now: func() time.Time { return start.Add(time.Duration(offset.Load())) }})
		_, err := rules.AddRule(ctx, p.domain, "hello", []string{"me@dest.example"})
		require.NoError(t, err)
		links := func() int {
			return dbtest.Count(t, d, "SELECT COUNT(*) FROM river_job WHERE kind = 'notify.send' AND "+jobArgs(d)+" LIKE ?", "%me@dest.example%")
		}
		require.Equal(t, 1, links())
		require.ErrorIs(t, rules.Resend(ctx, p.domain, "me@dest.example"), errResendTooSoon)
		offset.Store(int64(2 * time.Minute))
		require.NoError(t, rules.Resend(ctx, p.domain, "me@DEST.example"))
		require.Equal(t, 2, links())
		require.ErrorIs(t, rules.Resend(ctx, p.domain, "other@dest.example"), errDestNotFound)
		p.confirm(t, "me@dest.example")
		offset.Store(int64(10 * time.Minute))
		require.ErrorContains(t, rules.Resend(ctx, p.domain, "me@dest.example"), "already confirmed")
	})
}

func TestUpdateRule(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, "hello")
		other, err := p.rules.AddRule(ctx, p.domain, "sales", []string{"me@dest.example"})
		require.NoError(t, err)
		rules, err := p.rules.Rules(ctx, p.domain)
		require.NoError(t, err)
		hello := rules[0]
		require.Equal(t, "hello", hello.Alias)

		// A new alias and one more address: the confirmed one stays
		// confirmed, the new one waits for its link.
		got, err := p.rules.UpdateRule(ctx, p.domain, hello.ID, "Hi", []string{"me@dest.example", "new@dest.example"})
		require.NoError(t, err)
		require.Equal(t, hello.ID, got.ID)
		require.Equal(t, "hi", got.Alias)
		require.Equal(t, []Destination{{Address: "me@dest.example", Verified: true}, {Address: "new@dest.example", Verified: false}}, got.Destinations)
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT COUNT(*) FROM river_job WHERE kind = 'notify.send' AND "+jobArgs(d)+" LIKE ?", "%new@dest.example%"))
		_, err = p.fwd.Resolve(ctx, "hello@acme.inf.nz")
		require.ErrorIs(t, err, refuseUnknown, "the old alias is gone")
		target, err := p.fwd.Resolve(ctx, "hi@acme.inf.nz")
		require.NoError(t, err)
		require.Equal(t, []string{"me@dest.example"}, target.Destinations, "only the confirmed address receives")

		// Refused: another rule's alias, bad input, a rule of another domain.
		_, err = p.rules.UpdateRule(ctx, p.domain, hello.ID, "sales", []string{"me@dest.example"})
		require.ErrorIs(t, err, errRuleExists)
		_, err = p.rules.UpdateRule(ctx, p.domain, hello.ID, "hi", []string{"loop@acme.inf.nz"})
		require.ErrorContains(t, err, "loop")
		elsewhere := Domain{ID: p.domain.ID + 1000, UserID: p.domain.UserID, Label: "other", Extension: ".inf.nz"}
		_, err = p.rules.UpdateRule(ctx, elsewhere, other.ID, "x", []string{"me@dest.example"})
		require.ErrorIs(t, err, errRuleNotFound)
		_, err = p.rules.UpdateRule(ctx, p.domain, 0, "x", []string{"me@dest.example"})
		require.ErrorIs(t, err, errRuleNotFound)
		after, err := p.rules.Rules(ctx, p.domain)
		require.NoError(t, err)
		require.Len(t, after, 2)
		require.Equal(t, "hi", after[0].Alias, "refused changes changed nothing")
		require.Len(t, after[0].Destinations, 2)
	})
}

// Without an outbound relay (no --smtp-url, as make run) nothing can
// leave: the log says so at once, not after hours of retries.
func TestForwardingWithoutARelay(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, "hello")
		noRelay, err := notify.NewService(d, notify.Options{})
		require.NoError(t, err)
		p.fwd.relay = noRelay
		require.NoError(t, send(t, p.server.Addr(), "alice@origin.example", []string{"hello@acme.inf.nz"}, []byte(message)))
		errs := p.deliverAll(t, false)
		require.Len(t, errs, 1)
		require.True(t, isCancel(errs[0]), "%v", errs[0])
		log, err := p.rules.Log(ctx, p.domain)
		require.NoError(t, err)
		require.Equal(t, OutcomeFailed, log[0].Outcome)
		require.Contains(t, log[0].Detail, "--smtp-url")
		require.Equal(t, 0, dbtest.Count(t, d, "SELECT COUNT(*) FROM mail_messages"))
	})
}
