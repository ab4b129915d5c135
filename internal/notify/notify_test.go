package notify_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/mailtest"
	"github.com/nameport/nameport/internal/notify"
)

var fixedNow = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// addUser inserts an account and returns its id.
func addUser(t *testing.T, d *db.DB, username, fullName string) int64 {
	t.Helper()
	var id int64
	err := d.Bun.QueryRowContext(context.Background(), `INSERT INTO users
		(username, email, full_name, password_hash, user_type, created_at, updated_at)
		VALUES (?, ?, ?, 'x', 'user', ?, ?) RETURNING id`,
		username, username+"@example.com", fullName, fixedNow, fixedNow).Scan(&id)
	require.NoError(t, err)
	return id
}

func newService(t *testing.T, d *db.DB, opts notify.Options) *notify.Service {
	t.Helper()
	opts.PublicURL = "https://nameport.example"
	opts.Now = func() time.Time { return fixedNow }
	s, err := notify.NewService(d, opts)
	require.NoError(t, err)
	return s
}

// work runs one attempt of the job with id jobID, as River would.
func work(ctx context.Context, s *notify.Service, jobID int64, args notify.SendArgs) error {
	w := &notify.SendWorker{Mail: s}
	return w.Work(ctx, &river.Job[notify.SendArgs]{JobRow: &rivertype.JobRow{ID: jobID, Attempt: 1}, Args: args})
}

func outbox(t *testing.T, s *notify.Service) []notify.OutboxMessage {
	t.Helper()
	list, err := s.Outbox(context.Background(), 0, 100)
	require.NoError(t, err)
	return list
}

type queuedJob struct {
	ID   int64  `bun:"id"`
	Args []byte `bun:"args"`
}

func queuedMail(t *testing.T, d *db.DB) []queuedJob {
	t.Helper()
	var jobs []queuedJob
	args := "args::text" // riversqlite keeps args as binary JSON (jsonb)
	if d.Engine == db.SQLite {
		args = "json(args)"
	}
	require.NoError(t, d.Bun.NewSelect().Table("river_job").Column("id").ColumnExpr(args+" AS args").
		Where("kind = ?", notify.SendArgs{}.Kind()).Order("id").Scan(context.Background(), &jobs))
	return jobs
}

func TestEnqueueExistsExactlyWhenTheTransactionCommits(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: nothing works the jobs
		s := newService(t, d, notify.Options{})
		ann := addUser(t, d, "ann", "Ann Example")
		msg := notify.Message{UserID: ann, Kind: notify.KindDepositReceipt,
			Data: map[string]string{"amount": notify.Cents(5000), "balance": notify.Cents(12550), "method": "card"}}

		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return notify.Enqueue(ctx, tx, msg) }))
		rolledBack := errors.New("the business change failed")
		err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			require.NoError(t, notify.Enqueue(ctx, tx, msg))
			return rolledBack
		})
		require.ErrorIs(t, err, rolledBack)

		jobs := queuedMail(t, d)
		require.Len(t, jobs, 1, "the rolled-back message is gone with its transaction")
		var args notify.SendArgs
		require.NoError(t, json.Unmarshal(jobs[0].Args, &args))
		require.Equal(t, notify.SendArgs{UserID: ann, Template: notify.KindDepositReceipt, Data: msg.Data}, args)

		// The queued job, worked: recorded as logged (no SMTP server).
		require.NoError(t, work(ctx, s, jobs[0].ID, args))
		list := outbox(t, s)
		require.Len(t, list, 1)
		m := list[0]
		require.Equal(t, jobs[0].ID, m.JobID)
		require.Equal(t, ann, m.UserID)
		require.Equal(t, "ann@example.com", m.ToAddress)
		require.Equal(t, notify.StatusLogged, m.Status)
		require.Equal(t, "Receipt: $50.00 added to your Nameport wallet", m.Subject)
		require.Contains(t, m.Body, "Hello Ann Example,")
		require.Contains(t, m.Body, "New balance:     $125.50")
		require.Contains(t, m.Body, "Payment method:  card")
		require.Equal(t, fixedNow, m.CreatedAt.UTC())
		require.True(t, m.SentAt.IsZero())

		// A second attempt (River lost the first one's completion) adds nothing.
		require.NoError(t, work(ctx, s, jobs[0].ID, args))
		require.Len(t, outbox(t, s), 1)
	})
}

func TestEnqueueRefusesMalformedMessages(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	require.NoError(t, d.SetupJobs(db.JobsConfig{}))
	ctx := context.Background()
	for _, m := range []notify.Message{
		{UserID: 1, Kind: "newsletter"},
		{UserID: 0, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}},
		{UserID: 1, Kind: notify.KindExpiryWarning, Data: map[string]string{"domain": "a.inf.nz", "expiresAt": notify.Time(fixedNow)}},
		// To is one bare address: no header injection, no display name.
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "a@b\r\nBcc: x@y"},
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "Name <a@b.c>"},
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "<a@b.c>"},
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "a@b.c, x@y.z"},
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "not an address"},
		// A forwarding confirmation goes to the address it confirms, never to the account.
		{UserID: 1, Kind: notify.KindVerifyForwarding, Data: forwardingData},
		{UserID: 1, Kind: notify.KindVerifyForwarding, Data: forwardingData, To: "ann@example.com"},
	} {
		err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return notify.Enqueue(ctx, tx, m) })
		require.Error(t, err, "%+v", m)
	}
	require.Empty(t, queuedMail(t, d))

	// The same messages, well formed, are accepted: the refusals above are
	// about To alone.
	for _, m := range []notify.Message{
		{UserID: 1, Kind: notify.KindDomainReleased, Data: map[string]string{"domain": "a.inf.nz"}, To: "a@b.c"},
		{UserID: 1, Kind: notify.KindVerifyForwarding, Data: forwardingData, To: forwardingData["address"]},
	} {
		require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return notify.Enqueue(ctx, tx, m) }), "%+v", m)
	}
	require.Len(t, queuedMail(t, d), 2)
}

// forwardingData is the Data of a forwarding confirmation.
var forwardingData = map[string]string{"destinationId": "5", "address": "bob@elsewhere.example", "domain": "acme.inf.nz"}

// resetLinks stands in for the account service's secrets: the link of
// reset id X has token tok_X.
var resetLinks = map[string]notify.SecretFunc{
	notify.KindPasswordReset: func(_ context.Context, _ int64, data map[string]string) (map[string]string, error) {
		if data["resetId"] == "gone" {
			return nil, notify.ErrObsolete
		}
		return map[string]string{"link": "https://nameport.example/reset-password?token=tok_" + data["resetId"]}, nil
	},
	notify.KindVerifyEmail: func(_ context.Context, _ int64, data map[string]string) (map[string]string, error) {
		return map[string]string{"link": "https://nameport.example/verify-email?token=tok_" + data["verificationId"]}, nil
	},
	notify.KindVerifyForwarding: func(_ context.Context, _ int64, data map[string]string) (map[string]string, error) {
		return map[string]string{"link": "https://nameport.example/email-forwarding/confirm?token=tok_" + data["destinationId"]}, nil
	},
}

func TestSecretsNeverEnterJobArguments(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		require.NoError(t, d.SetupJobs(db.JobsConfig{}))
		user := addUser(t, d, "sam", "Sam")
		err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return notify.Enqueue(ctx, tx, notify.Message{UserID: user, Kind: notify.KindPasswordReset,
				Data: map[string]string{"resetId": "1", "link": "https://nameport.example/reset-password?token=tok_1"}})
		})
		require.ErrorContains(t, err, "secrets never go into job arguments")
		require.Empty(t, queuedMail(t, d))

		// A secret kind is sent only with its secrets made at send time; an
		// obsolete one, or one nothing makes secrets for, is cancelled.
		var cancel *river.JobCancelError
		s := newService(t, d, notify.Options{Secrets: resetLinks})
		err = work(ctx, s, 7, notify.SendArgs{UserID: user, Template: notify.KindPasswordReset, Data: map[string]string{"resetId": "gone"}})
		require.ErrorAs(t, err, &cancel)
		require.ErrorIs(t, err, notify.ErrObsolete)
		bare := newService(t, d, notify.Options{})
		err = work(ctx, bare, 8, notify.SendArgs{UserID: user, Template: notify.KindPasswordReset, Data: map[string]string{"resetId": "1"}})
		require.ErrorAs(t, err, &cancel)
		require.Empty(t, outbox(t, s))

		require.NoError(t, work(ctx, s, 9, notify.SendArgs{UserID: user, Template: notify.KindPasswordReset, Data: map[string]string{"resetId": "1"}}))
		require.Contains(t, outbox(t, s)[0].Body, "https://nameport.example/reset-password?token=tok_1",
			"without SMTP the outbox is the mailbox")
	})
}

func TestEveryKindReadsWell(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	s := newService(t, d, notify.Options{Secrets: resetLinks})
	user := addUser(t, d, "bo", "Bo Tester")
	expires := notify.Time(time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC))
	grace := notify.Time(time.Date(2027, 5, 31, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		kind    string
		data    map[string]string
		subject string
		body    []string
	}{
		{notify.KindRegistrationReceipt,
			map[string]string{"domain": "acme.inf.nz", "years": "2", "amount": "1600", "balance": "123456", "expiresAt": expires},
			"Registration confirmed: acme.inf.nz",
			[]string{"Thank you for registering acme.inf.nz", "Period:          2 years", "Amount paid:     $16.00",
				"Expires on:      May 1, 2027", "Wallet balance:  $1,234.56", "https://nameport.example/dashboard"}},
		{notify.KindDepositReceipt, map[string]string{"amount": "800", "balance": "800"},
			"Receipt: $8.00 added to your Nameport wallet", []string{"Amount:       $8.00", "New balance:  $8.00"}},
		{notify.KindRenewalSucceeded, map[string]string{"domain": "acme.inf.nz", "amount": "800", "expiresAt": expires},
			"acme.inf.nz has been renewed", []string{"renewed automatically", "Amount charged:   $8.00", "New expiry date:  May 1, 2027"}},
		{notify.KindRenewalFailed,
			map[string]string{"domain": "acme.inf.nz", "amount": "800", "balance": "250", "expiresAt": expires, "graceEndsAt": grace},
			"Action needed: we could not renew acme.inf.nz",
			[]string{"Your wallet balance does not cover the renewal price.", "Renewal price:      $8.00", "Wallet balance:     $2.50",
				"Grace period ends:  May 31, 2027", "https://nameport.example/wallet"}},
		{notify.KindExpiryWarning, map[string]string{"domain": "acme.inf.nz", "days": "30", "expiresAt": expires, "amount": "800"},
			"acme.inf.nz expires in 30 days", []string{"expires on May 1, 2027, in 30 days", "costs $8.00"}},
		{notify.KindExpiryWarning, map[string]string{"domain": "acme.inf.nz", "days": "1", "expiresAt": expires},
			"acme.inf.nz expires in 1 day", []string{"in 1 day."}},
		{notify.KindDomainExpired, map[string]string{"domain": "acme.inf.nz", "expiresAt": expires, "graceEndsAt": grace},
			"acme.inf.nz has expired", []string{"expired on May 1, 2027", "grace period until May 31, 2027"}},
		{notify.KindDomainReleased, map[string]string{"domain": "acme.inf.nz"},
			"acme.inf.nz has been released", []string{"anyone may register it"}},
		{notify.KindPasswordReset, map[string]string{"resetId": "abc"},
			"Reset your Nameport password",
			[]string{"(username: bo)", "https://nameport.example/reset-password?token=tok_abc", "expires in one hour", "ignore this email"}},
		{notify.KindVerifyEmail, map[string]string{"verificationId": "v1"},
			"Verify your email address for Nameport",
			[]string{"(username: bo)", "https://nameport.example/verify-email?token=tok_v1", "expires in 48 hours"}},
		{notify.KindTierApproved, map[string]string{"tier": "enterprise"},
			"Your Enterprise tier application is approved",
			[]string{"application for the Enterprise registrar tier has been", "https://nameport.example/registrar-dashboard"}},
		{notify.KindTierDeclined, map[string]string{"tier": "premium", "currentTier": "basic", "reason": "Tell us\r\nmore\nabout volumes."},
			"Your Premium tier application",
			[]string{"the Premium registrar tier", "stays on the Basic tier", "Our note: Tell us more about volumes.\n"}},
		{notify.KindVerifyForwarding, forwardingData,
			"Confirm forwarding to bob@elsewhere.example",
			[]string{"The owner of acme.inf.nz on Nameport asked to forward mail to this address\n(bob@elsewhere.example).",
				"Nothing is forwarded until you confirm it", "https://nameport.example/email-forwarding/confirm?token=tok_5",
				"If you did not expect this, ignore this email: nothing will be\nforwarded to you."}},
	}
	ctx := context.Background()
	for i, c := range cases {
		args := notify.SendArgs{UserID: user, Template: c.kind, Data: c.data}
		greeting := "Hello Bo Tester,\n\n"
		if c.kind == notify.KindVerifyForwarding { // to someone who may not be Bo
			args.To, greeting = c.data["address"], "Hello,\n\n"
		}
		require.NoError(t, work(ctx, s, int64(100+i), args))
		got := outbox(t, s)[0]
		require.Equal(t, c.kind, got.Kind)
		require.Equal(t, c.subject, got.Subject)
		require.True(t, strings.HasPrefix(got.Body, greeting), got.Body)
		require.Contains(t, got.Body, "The Nameport team")
		for _, want := range c.body {
			require.Contains(t, got.Body, want, "%s:\n%s", c.kind, got.Body)
		}
	}
}

func TestAJobForAMissingUserIsCancelled(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newService(t, d, notify.Options{})
		err := work(context.Background(), s, 1, notify.SendArgs{UserID: 404, Template: notify.KindDomainReleased,
			Data: map[string]string{"domain": "x.inf.nz"}})
		var cancel *river.JobCancelError
		require.ErrorAs(t, err, &cancel)
		require.Empty(t, outbox(t, s))
	})
}

func TestMailGoesOutBySMTP(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		server := mailtest.Start(t, true)
		s := newService(t, d, notify.Options{SMTPURL: "smtp://mailer:s3cret@" + server.Addr,
			From: "Nameport Billing <billing@nameport.example>", Secrets: resetLinks})
		user := addUser(t, d, "cleo", "Cléo Martin")
		link := "https://nameport.example/reset-password?token=tok_123"
		args := notify.SendArgs{UserID: user, Template: notify.KindPasswordReset, Data: map[string]string{"resetId": "123"}}
		require.NoError(t, work(ctx, s, 42, args))

		require.Equal(t, []string{"PLAIN \x00mailer\x00s3cret"}, server.Auth())
		mails := server.Received()
		require.Len(t, mails, 1)
		require.True(t, strings.HasPrefix(mails[0].From, "FROM:<billing@nameport.example>"), mails[0].From)
		require.Equal(t, "TO:<cleo@example.com>", mails[0].To)
		msg, err := mail.ReadMessage(bufio.NewReader(strings.NewReader(string(mails[0].Data))))
		require.NoError(t, err)
		subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		require.NoError(t, err)
		require.Equal(t, "Reset your Nameport password", subject)
		to, err := mail.ParseAddress(msg.Header.Get("To"))
		require.NoError(t, err)
		require.Equal(t, "Cléo Martin", to.Name)
		require.Equal(t, `"Nameport Billing" <billing@nameport.example>`, msg.Header.Get("From"))
		require.Equal(t, `text/plain; charset="utf-8"`, msg.Header.Get("Content-Type"))
		require.NotEmpty(t, msg.Header.Get("Message-Id"))
		body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
		require.NoError(t, err)
		require.Contains(t, string(body), "Hello Cléo Martin,\n") // the dot reader reads CRLF as LF
		require.Contains(t, string(body), link)

		// Recorded as sent, without the link: the outbox must not open accounts.
		list := outbox(t, s)
		require.Len(t, list, 1)
		require.Equal(t, notify.StatusSent, list[0].Status)
		require.Equal(t, fixedNow, list[0].SentAt.UTC())
		require.NotContains(t, list[0].Body, "tok_123")
		require.Contains(t, list[0].Body, "removed from the outbox")
	})
}

func TestAFailedSendIsRetriedOnTheSameOutboxRow(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		server := mailtest.Start(t, false)
		server.RejectRecipients("451 4.3.0 Mailbox temporarily unavailable")
		s := newService(t, d, notify.Options{SMTPURL: "smtp://" + server.Addr})
		user := addUser(t, d, "dee", "Dee")
		args := notify.SendArgs{UserID: user, Template: notify.KindDomainReleased, Data: map[string]string{"domain": "old.inf.nz"}}

		err := work(ctx, s, 9, args)
		require.ErrorContains(t, err, "Mailbox temporarily unavailable", "returned, so River retries")
		list := outbox(t, s)
		require.Len(t, list, 1)
		require.Equal(t, notify.StatusFailed, list[0].Status)
		require.Contains(t, list[0].Error, "Mailbox temporarily unavailable")

		server.RejectRecipients("")
		require.NoError(t, work(ctx, s, 9, args))
		list = outbox(t, s)
		require.Len(t, list, 1, "one row per message, however many attempts")
		require.Equal(t, notify.StatusSent, list[0].Status)
		require.Empty(t, list[0].Error)
		require.Len(t, server.Received(), 1)
		require.Equal(t, `"Nameport" <no-reply@nameport.localhost>`, server.Received()[0].Header(t, "From"))

		// A job run again after it delivered (its completion was lost) sends nothing.
		require.NoError(t, work(ctx, s, 9, args))
		require.Len(t, server.Received(), 1, "a delivered message is not sent twice")
		require.Len(t, outbox(t, s), 1)
	})
}

func TestOutboxPagesNewestFirst(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	s := newService(t, d, notify.Options{})
	user := addUser(t, d, "eve", "Eve")
	ctx := context.Background()
	for i := range 5 {
		require.NoError(t, work(ctx, s, int64(i+1), notify.SendArgs{UserID: user, Template: notify.KindDomainReleased,
			Data: map[string]string{"domain": string(rune('a'+i)) + ".inf.nz"}}))
	}
	first, err := s.Outbox(ctx, 0, 2)
	require.NoError(t, err)
	require.Equal(t, []string{"e.inf.nz has been released", "d.inf.nz has been released"}, subjects(first))
	next, err := s.Outbox(ctx, first[1].ID, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"c.inf.nz has been released", "b.inf.nz has been released", "a.inf.nz has been released"}, subjects(next))
}

func subjects(list []notify.OutboxMessage) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = m.Subject
	}
	return out
}

func TestBadSMTPSettingsAreRefusedAtStart(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	for _, opts := range []notify.Options{{SMTPURL: "http://mail.example"}, {SMTPURL: "smtp://"}, {From: "not an address"}} {
		_, err := notify.NewService(d, opts)
		require.Error(t, err, "%+v", opts)
	}
}

// enqueueAndWork sends m as business code does (Enqueue in a transaction)
// and works its job, as River would; it returns the job's arguments.
func enqueueAndWork(t *testing.T, d *db.DB, s *notify.Service, m notify.Message) notify.SendArgs {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return notify.Enqueue(ctx, tx, m) }))
	jobs := queuedMail(t, d)
	require.Len(t, jobs, 1)
	var args notify.SendArgs
	require.NoError(t, json.Unmarshal(jobs[0].Args, &args))
	require.NoError(t, work(ctx, s, jobs[0].ID, args))
	return args
}

func TestMailWithToGoesToThatAddressForTheAccount(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		require.NoError(t, d.SetupJobs(db.JobsConfig{})) // insert-only: the test works the job
		server := mailtest.Start(t, false)
		s := newService(t, d, notify.Options{SMTPURL: "smtp://" + server.Addr})
		ann := addUser(t, d, "ann", "Ann Example")
		args := enqueueAndWork(t, d, s, notify.Message{UserID: ann, Kind: notify.KindDomainReleased,
			Data: map[string]string{"domain": "old.inf.nz"}, To: "ann.work@elsewhere.example"})
		require.Equal(t, "ann.work@elsewhere.example", args.To, "To rides in the job")

		mails := server.Received()
		require.Len(t, mails, 1)
		require.Equal(t, "TO:<ann.work@elsewhere.example>", mails[0].To)
		to, err := mail.ParseAddress(mails[0].Header(t, "To"))
		require.NoError(t, err)
		require.Equal(t, mail.Address{Name: "Ann Example", Address: "ann.work@elsewhere.example"}, *to)
		require.True(t, strings.HasPrefix(mails[0].Body(t), "Hello Ann Example,\n"), "still the account's mail")

		list := outbox(t, s)
		require.Len(t, list, 1)
		require.Equal(t, "ann.work@elsewhere.example", list[0].ToAddress)
		require.Equal(t, ann, list[0].UserID)
		require.Equal(t, notify.StatusSent, list[0].Status)
	})
}

func TestForwardingConfirmationReachesOnlyTheDestination(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		require.NoError(t, d.SetupJobs(db.JobsConfig{}))
		server := mailtest.Start(t, false)
		s := newService(t, d, notify.Options{SMTPURL: "smtp://" + server.Addr, Secrets: resetLinks})
		bo := addUser(t, d, "bo", "Bo Tester")
		link := "https://nameport.example/email-forwarding/confirm?token=tok_5"
		enqueueAndWork(t, d, s, notify.Message{UserID: bo, Kind: notify.KindVerifyForwarding,
			Data: forwardingData, To: forwardingData["address"]})

		mails := server.Received()
		require.Len(t, mails, 1)
		require.Equal(t, "TO:<bob@elsewhere.example>", mails[0].To)
		subject, err := new(mime.WordDecoder).DecodeHeader(mails[0].Header(t, "Subject"))
		require.NoError(t, err)
		require.Equal(t, "Confirm forwarding to bob@elsewhere.example", subject)
		to, err := mail.ParseAddress(mails[0].Header(t, "To"))
		require.NoError(t, err)
		require.Equal(t, mail.Address{Address: "bob@elsewhere.example"}, *to, "no account name beside a stranger's address")
		body := mails[0].Body(t)
		require.True(t, strings.HasPrefix(body, "Hello,\n\nThe owner of acme.inf.nz on Nameport"), body)
		require.Contains(t, body, link)
		require.NotContains(t, body, "you have a Nameport account", "the destination may have none")
		for _, account := range []string{"Tester", "bo@example.com", "username"} {
			require.NotContains(t, string(mails[0].Data), account, "the mail names nothing of the account")
		}

		// The outbox keeps it for the account, without the link.
		list := outbox(t, s)
		require.Len(t, list, 1)
		require.Equal(t, bo, list[0].UserID)
		require.Equal(t, "bob@elsewhere.example", list[0].ToAddress)
		require.Equal(t, notify.StatusSent, list[0].Status)
		require.Equal(t, subject, list[0].Subject)
		require.NotContains(t, list[0].Body, "tok_5")
		require.Contains(t, list[0].Body, "removed from the outbox")
	})
}

// forwarded is a message as the forwarder receives it: CRLF line ends,
// headers notify never writes, a signature over the bytes, 8-bit text that
// is not even UTF-8, a line that SMTP must dot-stuff and one that is a lone
// dot.
var forwarded = []byte("Received: from mx.sender.example by mx.nameport.example; Sat, 14 Mar 2026 09:30:00 +0000\r\n" +
	"DKIM-Signature: v=1; a=rsa-sha256; d=sender.example; s=s1; bh=abc=; b=def=\r\n" +
	"From: Alice <alice@sender.example>\r\n" +
	"To: info@acme.inf.nz\r\n" +
	"Subject: =?utf-8?q?Caf=C3=A9?=\r\n" +
	"Content-Type: text/plain; charset=iso-8859-1\r\n" +
	"Content-Transfer-Encoding: 8bit\r\n" +
	"\r\n" +
	"Caf\xe9 at noon?\r\n" +
	".leading dot\r\n" +
	".\r\n" +
	"  trailing spaces  \r\n")

func TestRelaySendsTheBytesGivenWithTheEnvelopeSender(t *testing.T) {
	t.Parallel()
	d := dbtest.Open(t, db.SQLite)
	server := mailtest.Start(t, true)
	s := newService(t, d, notify.Options{SMTPURL: "smtp://mailer:s3cret@" + server.Addr})
	require.True(t, s.HasRelay())
	ctx := context.Background()

	require.NoError(t, s.Relay(ctx, "srs0=ab12@fwd.nameport.example", "bob@elsewhere.example", forwarded))
	require.NoError(t, s.Relay(ctx, "", "bob@elsewhere.example", forwarded), "the null sender, for bounces")

	require.Equal(t, []string{"PLAIN \x00mailer\x00s3cret", "PLAIN \x00mailer\x00s3cret"}, server.Auth())
	mails := server.Received()
	require.Len(t, mails, 2)
	require.Equal(t, "FROM:<srs0=ab12@fwd.nameport.example>", strings.Fields(mails[0].From)[0])
	require.Equal(t, "FROM:<>", strings.Fields(mails[1].From)[0])
	// mailtest reads DATA with textproto's dot reader, which undoes the dot
	// stuffing and gives line ends as LF: apart from that, the bytes are ours.
	want := strings.ReplaceAll(string(forwarded), "\r\n", "\n")
	for _, m := range mails {
		require.Equal(t, "TO:<bob@elsewhere.example>", m.To)
		require.Equal(t, want, string(m.Data), "not a header added, not a byte changed")
	}
}

func TestRelayReusesItsSessionAndOpensANewOneWhenTheRelayDroppedIt(t *testing.T) {
	t.Parallel()
	server := mailtest.Start(t, true)
	s := newService(t, dbtest.Open(t, db.SQLite), notify.Options{SMTPURL: "smtp://mailer:s3cret@" + server.Addr})
	ctx := context.Background()
	for range 3 {
		require.NoError(t, s.Relay(ctx, "srs0=ab12@fwd.nameport.example", "bob@elsewhere.example", forwarded))
	}
	require.Equal(t, 1, server.Sessions(), "one session carried the three messages")
	require.Len(t, server.Auth(), 1)

	server.DropSessions()
	require.NoError(t, s.Relay(ctx, "srs0=ab12@fwd.nameport.example", "carol@elsewhere.example", forwarded))
	require.Equal(t, 2, server.Sessions())
	mails := server.Received()
	require.Len(t, mails, 4, "nothing lost or sent twice")
	require.Equal(t, "TO:<carol@elsewhere.example>", mails[3].To)

	// A refused message closes its session; the next one opens another.
	server.RejectRecipients("550 5.1.1 No such user")
	require.Error(t, s.Relay(ctx, "srs0=ab12@fwd.nameport.example", "bob@elsewhere.example", forwarded))
	server.RejectRecipients("")
	require.NoError(t, s.Relay(ctx, "srs0=ab12@fwd.nameport.example", "bob@elsewhere.example", forwarded))
	require.Equal(t, 3, server.Sessions())
}

func TestRelayWithoutSMTPURLCannotSend(t *testing.T) {
	t.Parallel()
	s := newService(t, dbtest.Open(t, db.SQLite), notify.Options{})
	require.False(t, s.HasRelay())
	require.ErrorIs(t, s.Relay(context.Background(), "", "bob@elsewhere.example", forwarded), notify.ErrNoRelay)
}

func TestRelayErrorsKeepTheSMTPReplyCode(t *testing.T) {
	t.Parallel()
	server := mailtest.Start(t, false)
	s := newService(t, dbtest.Open(t, db.SQLite), notify.Options{SMTPURL: "smtp://" + server.Addr})
	for _, reply := range []struct {
		line string
		code int
	}{
		{"451 4.3.0 Mailbox temporarily unavailable", 451},
		{"550 5.1.1 No such user", 550},
	} {
		server.RejectRecipients(reply.line)
		err := s.Relay(context.Background(), "srs0=ab12@fwd.nameport.example", "bob@elsewhere.example", forwarded)
		var smtpErr *textproto.Error
		require.ErrorAs(t, err, &smtpErr, "%v", err)
		require.Equal(t, reply.code, smtpErr.Code)
		require.NotErrorIs(t, err, notify.ErrNoRelay)
	}
	require.Empty(t, server.Received())
}
