package contact_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/contact"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/notify"
)

var fixedNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// mailbox records the mail a service queues (a fake at the notify edge).
type mailbox struct {
	mu   sync.Mutex
	sent []notify.Message
}

func (b *mailbox) enqueue(_ context.Context, _ *db.Tx, m notify.Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = append(b.sent, m)
	return nil
}

func (b *mailbox) all() []notify.Message {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]notify.Message(nil), b.sent...)
}

type bundle struct {
	db   *db.DB
	svc  *contact.Service
	mail *mailbox
	log  *bytes.Buffer
}

func setup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	b := bundle{db: d, mail: &mailbox{}, log: &bytes.Buffer{}}
	b.svc = contact.NewService(d, contact.Options{Now: func() time.Time { return fixedNow }, Notify: b.mail.enqueue,
		Logger: slog.New(slog.NewTextHandler(b.log, nil))})
	return b
}

func request(company, email, interest string) contact.Input {
	return contact.Input{Kind: contact.KindRequest, Name: company, Email: email, Interest: interest}
}

func TestSubmitValidatesBySpecRules(t *testing.T) {
	t.Parallel()
	b := setup(t, dbtest.Open(t, db.SQLite))
	ctx := context.Background()
	long := strings.Repeat("x", contact.MaxMessage+1)
	for _, tc := range []struct {
		in           contact.Input
		field, error string
	}{
		{request("", "a@acme.test", "api"), "company", "Company is required"},
		{request("   ", "a@acme.test", "api"), "company", "Company is required"},
		{request("Acme", "", "api"), "email", "Email is required"},
		{request("Acme", "not-an-address", "api"), "email", "Invalid email address"},
		{request("Acme", "Ann <a@acme.test>", "api"), "email", "Invalid email address"},
		{request("Acme", "a@acme", "api"), "email", "Invalid email address"},
		{request("Acme", "a@acme.test\r\nBcc: x@y.z", "api"), "email", "Invalid email address"},
		{request("Acme", "a@acme.test", "reseller"), "interest", "Interest must be one of end-user, registrar, api or other"},
		{request("Acme\nLtd", "a@acme.test", "api"), "company", "Company must be a single line of text"},
		{request(strings.Repeat("a", contact.MaxName+1), "a@acme.test", "api"), "company", "Company must be at most 100 characters"},
		{contact.Input{Kind: contact.KindRequest, Name: "Acme", Email: "a@acme.test", Message: "short"}, "message",
			"Message must be at least 10 characters"},
		{contact.Input{Kind: contact.KindMessage, Email: "a@acme.test", Message: "Hello there, friends"}, "name", "Name is required"},
		{contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "a@acme.test", Message: "Too short"}, "message",
			"Message must be at least 10 characters"},
		{contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "a@acme.test", Message: long}, "message",
			"Message must be at most 5000 characters"},
		{contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "a@acme.test", Subject: "a\tb", Message: "Hello there, friends"},
			"subject", "Subject must be a single line of text"},
		{contact.Input{Kind: "spam", Name: "Ann", Email: "a@acme.test"}, "kind", "Kind must be request or message"},
	} {
		_, err := b.svc.Submit(ctx, tc.in)
		var e *apperr.Error
		require.ErrorAs(t, err, &e, "%+v", tc.in)
		require.Equal(t, apperr.Invalid, e.Code, "%+v", tc.in)
		require.Equal(t, tc.field, e.Field, "%+v", tc.in)
		require.Equal(t, tc.error, e.Message, "%+v", tc.in)
	}
	require.Zero(t, dbtest.Count(t, b.db, "SELECT count(*) FROM contact_messages"))
	require.Empty(t, b.mail.all())

	// The form's default interest, and a message with line breaks.
	m, err := b.svc.Submit(ctx, contact.Input{Kind: contact.KindRequest, Name: " Acme Ltd ", Email: "a@acme.test"})
	require.NoError(t, err)
	require.Equal(t, "end-user", m.Topic)
	require.Equal(t, "Acme Ltd", m.Name)
	m, err = b.svc.Submit(ctx, contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "a@acme.test",
		Message: "Line one\r\nline two"})
	require.NoError(t, err)
	require.Equal(t, "Line one\nline two", m.Body)
}

func TestSubmitMailsTheSiteContactAddress(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()

		// No contact address and no admin: stored, logged, no mail.
		m, err := b.svc.Submit(ctx, request("First Ltd", "first@acme.test", "registrar"))
		require.NoError(t, err)
		require.Equal(t, contact.StatusNew, m.Status)
		require.Empty(t, b.mail.all())
		require.Contains(t, b.log.String(), "only in the inbox")

		// The first admin's address.
		dbtest.User(t, d, "carol", "user")
		admin := dbtest.User(t, d, "root", "admin")
		dbtest.User(t, d, "second", "admin")
		_, err = b.svc.Submit(ctx, request("Second Ltd", "second@acme.test", "api"))
		require.NoError(t, err)
		sent := b.mail.all()
		require.Len(t, sent, 1)
		require.Equal(t, notify.Message{UserID: admin, Kind: notify.KindContactReceived, To: "root@example.com",
			Data: map[string]string{"id": "2", "form": "request", "name": "Second Ltd", "email": "second@acme.test",
				"topic": "API integration", "message": ""}}, sent[0])

		// The contact_email setting, public or not, comes first.
		dbtest.MustExec(t, d, `INSERT INTO site_settings (key, value, category, is_public, created_at, updated_at)
			VALUES ('contact_email', 'hello@nameport.test', 'contact', FALSE, ?, ?)`, fixedNow, fixedNow)
		_, err = b.svc.Submit(ctx, contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "ann@acme.test",
			Subject: "Transfers", Message: "How do I move a name here?"})
		require.NoError(t, err)
		sent = b.mail.all()
		require.Len(t, sent, 2)
		require.Equal(t, "hello@nameport.test", sent[1].To)
		require.Zero(t, sent[1].UserID)
		require.Equal(t, "Transfers", sent[1].Data["topic"])
		require.Equal(t, "How do I move a name here?", sent[1].Data["message"])
	})
}

func TestInboxListOpenReplyDelete(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		admin := dbtest.User(t, d, "root", "admin")
		var ids []int64
		for _, name := range []string{"One", "Two", "Three"} {
			m, err := b.svc.Submit(ctx, request(name+" Ltd", strings.ToLower(name)+"@acme.test", "other"))
			require.NoError(t, err)
			ids = append(ids, m.ID)
		}

		page, err := b.svc.List(ctx, contact.Query{PageSize: 2})
		require.NoError(t, err)
		require.Equal(t, 3, page.Total)
		require.Equal(t, 3, page.Unread)
		require.Len(t, page.Messages, 2)
		require.Equal(t, "Three Ltd", page.Messages[0].Name, "newest first")
		page, err = b.svc.List(ctx, contact.Query{Page: 2, PageSize: 2})
		require.NoError(t, err)
		require.Len(t, page.Messages, 1)
		require.Equal(t, "One Ltd", page.Messages[0].Name)
		_, err = b.svc.List(ctx, contact.Query{Status: "archived"})
		require.Equal(t, apperr.Invalid, apperr.Code(err))

		// Opening marks read, once.
		opened, err := b.svc.Open(ctx, ids[0])
		require.NoError(t, err)
		require.Equal(t, contact.StatusRead, opened.Status)
		page, err = b.svc.List(ctx, contact.Query{Status: contact.StatusNew})
		require.NoError(t, err)
		require.Equal(t, 2, page.Total)
		require.Equal(t, 2, page.Unread)
		_, err = b.svc.Open(ctx, 9999)
		require.Equal(t, apperr.NotFound, apperr.Code(err))

		// Replying: mailed to the sender, stored, answered, audited.
		_, err = b.svc.Reply(ctx, admin, ids[0], "   ")
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		_, err = b.svc.Reply(ctx, admin, 9999, "Hello")
		require.Equal(t, apperr.NotFound, apperr.Code(err))
		before := len(b.mail.all())
		answered, err := b.svc.Reply(ctx, admin, ids[0], "Thanks for asking.\nWe will call you.")
		require.NoError(t, err)
		require.Equal(t, contact.StatusAnswered, answered.Status)
		require.Equal(t, "Thanks for asking.\nWe will call you.", answered.Reply)
		require.Equal(t, "root", answered.AnsweredByName)
		require.Equal(t, fixedNow, answered.AnsweredAt.UTC())
		sent := b.mail.all()
		require.Len(t, sent, before+1)
		require.Equal(t, notify.Message{Kind: notify.KindContactReply, To: "one@acme.test",
			Data: map[string]string{"reply": "Thanks for asking.\nWe will call you.", "topic": "", "message": ""}}, sent[before])
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = 'contact_message.reply' AND target_id = ?",
			strconv.FormatInt(ids[0], 10)))
		_, err = b.svc.Reply(ctx, admin, ids[0], "Again")
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Len(t, b.mail.all(), before+1, "no second mail")

		// Deleting.
		require.NoError(t, b.svc.Delete(ctx, admin, ids[1]))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.Delete(ctx, admin, ids[1])))
		require.Equal(t, 2, dbtest.Count(t, d, "SELECT count(*) FROM contact_messages"))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM audit_log WHERE action = 'contact_message.delete'"))
	})
}

// A mail server that refuses the mail loses nothing: the message is in the
// inbox, the job fails (River retries it) and later goes out.
func TestMailFailureKeepsTheMessage(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: the test works the job itself
		svc := contact.NewService(d, contact.Options{})
		dbtest.MustExec(t, d, `INSERT INTO site_settings (key, value, category, is_public, created_at, updated_at)
			VALUES ('contact_email', 'hello@nameport.test', 'contact', TRUE, ?, ?)`, fixedNow, fixedNow)
		smtp := mailtest.Start(t, false)
		smtp.RejectRecipients("451 4.3.0 try again later")
		mail, err := notify.NewService(d, notify.Options{SMTPURL: "smtp://" + smtp.Addr, PublicURL: "https://nameport.example"})
		require.NoError(t, err)

		m, err := svc.Submit(ctx, contact.Input{Kind: contact.KindMessage, Name: "Ann", Email: "ann@acme.test",
			Subject: "Transfers", Message: "How do I move a name here?"})
		require.NoError(t, err)

		var jobs []struct {
			ID   int64  `bun:"id"`
			Args []byte `bun:"args"`
		}
		args := "args::text"
		if d.Engine == db.SQLite {
			args = "json(args)"
		}
		require.NoError(t, d.Bun.NewSelect().Table("river_job").Column("id").ColumnExpr(args+" AS args").
			Where("kind = ?", notify.SendArgs{}.Kind()).Scan(ctx, &jobs))
		require.Len(t, jobs, 1)
		var send notify.SendArgs
		require.NoError(t, json.Unmarshal(jobs[0].Args, &send))
		w := &notify.SendWorker{Mail: mail}
		job := &river.Job[notify.SendArgs]{JobRow: &rivertype.JobRow{ID: jobs[0].ID, Attempt: 1}, Args: send}
		require.Error(t, w.Work(ctx, job), "the refusal fails the attempt")
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM contact_messages WHERE id = ?", m.ID))
		require.Equal(t, 1, dbtest.Count(t, d, "SELECT count(*) FROM mail_outbox WHERE status = 'failed' AND user_id IS NULL"))

		smtp.RejectRecipients("")
		require.NoError(t, w.Work(ctx, job))
		got := smtp.Received()
		require.Len(t, got, 1)
		require.Equal(t, "TO:<hello@nameport.test>", got[0].To)
		require.Equal(t, "New contact message from Ann: Transfers", got[0].Header(t, "Subject"))
		require.Equal(t, "<ann@acme.test>", got[0].Header(t, "Reply-To"))
		body := got[0].Body(t)
		require.Contains(t, body, "> How do I move a name here?")
		require.Contains(t, body, "https://nameport.example/admin-dashboard")
		require.NotContains(t, body, "Hello Ann", "the sender is no account: no greeting by name")
	})
}
