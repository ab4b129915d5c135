package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
)

// DefaultFrom is the sender when none is configured.
const DefaultFrom = "Nameport <no-reply@nameport.localhost>"

// Outbox statuses.
const (
	StatusLogged = "logged" // no SMTP server configured: kept here only
	StatusSent   = "sent"
	StatusFailed = "failed" // the last attempt failed; River retries
)

// Options configure a Service.
type Options struct {
	// SMTPURL is smtp://user:pass@host:port (STARTTLS when the server offers
	// it) or smtps://… (TLS from the start). Empty: messages are only
	// recorded in the outbox.
	SMTPURL string
	// From is the sender address; DefaultFrom when empty.
	From string
	// PublicURL is where users reach the web app, for links in messages.
	PublicURL string
	// TLSConfig, when set, is used for TLS to the SMTP server (tests trust
	// their own certificate with it).
	TLSConfig *tls.Config
	// Now is the clock; tests inject their own.
	Now func() time.Time
	// Secrets make the secret Data of the secret kinds (the password reset
	// link…) at send time; a secret kind without one is not sent.
	Secrets map[string]SecretFunc
}

// Service renders, sends and records mail.
type Service struct {
	db        *db.DB
	smtp      *smtpServer // nil: log only
	from      *mail.Address
	publicURL string
	now       func() time.Time
	secrets   map[string]SecretFunc
}

// NewService returns a mail service over d. It fails for a malformed SMTP
// URL or sender address.
func NewService(d *db.DB, opts Options) (*Service, error) {
	if opts.From == "" {
		opts.From = DefaultFrom
	}
	from, err := mail.ParseAddress(opts.From)
	if err != nil {
		return nil, fmt.Errorf("notify: sender %q: %w", opts.From, err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Service{db: d, from: from, publicURL: strings.TrimRight(opts.PublicURL, "/"), now: opts.Now, secrets: opts.Secrets}
	if opts.SMTPURL != "" {
		if s.smtp, err = parseSMTPURL(opts.SMTPURL); err != nil {
			return nil, err
		}
		s.smtp.tlsConfig = opts.TLSConfig
	}
	return s, nil
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// OutboxMessage is one rendered message and what became of it.
type OutboxMessage struct {
	bun.BaseModel `bun:"table:mail_outbox"`

	ID        int64     `bun:"id,pk,autoincrement"`
	JobID     int64     `bun:"job_id"`
	UserID    int64     `bun:"user_id,nullzero"`
	ToAddress string    `bun:"to_address"`
	Kind      string    `bun:"kind"`
	Subject   string    `bun:"subject"`
	Body      string    `bun:"body"`
	Status    string    `bun:"status"`
	Error     string    `bun:"error"`
	CreatedAt time.Time `bun:"created_at"`
	SentAt    time.Time `bun:"sent_at,nullzero"`
}

// Outbox returns up to limit messages, newest first, with ids below before
// (0: from the newest).
func (s *Service) Outbox(ctx context.Context, before int64, limit int) ([]OutboxMessage, error) {
	var list []OutboxMessage
	q := s.db.Bun.NewSelect().Model(&list).Order("id DESC").Limit(int64(limit))
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("notify: read outbox: %w", err)
	}
	return list, nil
}

// SendWorker works SendArgs jobs.
type SendWorker struct {
	river.WorkerDefaults[SendArgs]
	Mail *Service
}

// Work renders the message, sends it when SMTP is configured and records
// it. A failed send is returned so River retries it.
func (w *SendWorker) Work(ctx context.Context, job *river.Job[SendArgs]) error {
	return w.Mail.deliver(ctx, job.ID, job.Args)
}

// Timeout bounds one attempt: a mail server that hangs must not hold a
// worker.
func (w *SendWorker) Timeout(*river.Job[SendArgs]) time.Duration { return 2 * time.Minute }

// AddWorkers registers the mail jobs; they have no schedule.
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &SendWorker{Mail: s})
	return nil
}

// deliver is one attempt at message jobID. The outbox holds one row per
// job, updated by each attempt.
func (s *Service) deliver(ctx context.Context, jobID int64, args SendArgs) error {
	// One read tells whether an earlier attempt already delivered the
	// message and who it goes to: mail rides on most effects (every
	// registration sends a receipt), so its statements count.
	var st struct {
		recipient
		Delivered bool `bun:"delivered"`
		Found     bool `bun:"found"`
	}
	err := s.db.Bun.NewSelect().TableExpr("(SELECT 1) AS one").
		Join("LEFT JOIN users ON users.id = ?", args.UserID).
		ColumnExpr("COALESCE(users.email, '') AS email, COALESCE(users.full_name, '') AS full_name").
		ColumnExpr("COALESCE(users.username, '') AS username, users.id IS NOT NULL AS found").
		ColumnExpr("EXISTS (SELECT 1 FROM mail_outbox WHERE job_id = ? AND status IN (?)) AS delivered",
			jobID, bun.In([]string{StatusSent, StatusLogged})).
		Scan(ctx, &st)
	if err != nil {
		return fmt.Errorf("notify: job %d: %w", jobID, err)
	}
	if st.Delivered {
		return nil // an earlier attempt delivered it; only its completion was lost
	}
	if !st.Found && !(addressKinds[args.Template] && args.UserID == 0) {
		return river.JobCancel(fmt.Errorf("notify: %s for user %d: no such user", args.Template, args.UserID))
	}
	to := st.recipient
	if args.To != "" {
		to.Email = args.To
	}
	if strangerKinds[args.Template] {
		to = recipient{Email: to.Email}
	}

	data, err := s.withSecrets(ctx, args)
	if err != nil {
		return err
	}
	msg, err := render(args.Template, data, to, s.publicURL)
	if err != nil {
		return river.JobCancel(err)
	}

	row := &OutboxMessage{JobID: jobID, UserID: args.UserID, ToAddress: to.Email, Kind: args.Template,
		Subject: msg.Subject, Body: msg.Body, Status: StatusLogged, CreatedAt: s.clock()}
	if s.smtp == nil {
		return s.record(ctx, row)
	}

	// What really goes out carries the link; what stays in the outbox does not.
	redacted := make(map[string]string, len(data))
	for k, v := range data {
		redacted[k] = v
	}
	for _, k := range secretData {
		if _, ok := redacted[k]; ok {
			redacted[k] = "[removed from the outbox: only the recipient has it]"
		}
	}
	if kept, err := render(args.Template, redacted, to, s.publicURL); err == nil {
		row.Body = kept.Body
	}
	sendErr := s.smtp.send(ctx, heloName(s.from.Address), s.from.Address, to.Email, buildMessage(s.from, to, msg, jobID, s.clock()))
	if sendErr != nil {
		row.Status, row.Error = StatusFailed, sendErr.Error()
	} else {
		row.Status, row.SentAt = StatusSent, s.clock()
	}
	if err := s.record(ctx, row); err != nil {
		return errors.Join(sendErr, err)
	}
	if sendErr != nil {
		return fmt.Errorf("notify: send %s to user %d: %w", args.Template, args.UserID, sendErr)
	}
	return nil
}

// ErrNoRelay: no --smtp-url is configured, so mail cannot leave.
var ErrNoRelay = errors.New("notify: no outbound SMTP relay is configured (--smtp-url)")

// HasRelay tells whether mail can leave.
func (s *Service) HasRelay() bool { return s.smtp != nil }

// Relay sends msg as is (bytes unchanged; SMTP carries its line ends as
// CRLF) through the outbound relay, with envelope sender envelopeFrom (""
// is the null sender, MAIL FROM:<>) to one recipient. It neither renders
// nor records anything: the caller owns the message and its retries.
// ErrNoRelay when none is configured. Errors from the relay keep the SMTP
// reply: errors.As(err, *textproto.Error) gives its code, so the caller
// tells 4xx (retry) from 5xx (permanent).
func (s *Service) Relay(ctx context.Context, envelopeFrom, to string, msg []byte) error {
	if s.smtp == nil {
		return ErrNoRelay
	}
	if err := s.smtp.send(ctx, heloName(envelopeFrom), envelopeFrom, to, msg); err != nil {
		return fmt.Errorf("notify: relay to %s: %w", to, err)
	}
	return nil
}

// withSecrets returns the Data of args with the secrets of its kind added
// (a copy; args stay as stored). Errors are the job's: obsolete or
// unprovided secrets cancel it, others are retried.
func (s *Service) withSecrets(ctx context.Context, args SendArgs) (map[string]string, error) {
	if !secretKinds[args.Template] {
		return args.Data, nil
	}
	f := s.secrets[args.Template]
	if f == nil {
		return nil, river.JobCancel(fmt.Errorf("notify: %s for user %d: nothing makes its secrets", args.Template, args.UserID))
	}
	secrets, err := f(ctx, args.UserID, args.Data)
	if errors.Is(err, ErrObsolete) {
		return nil, river.JobCancel(fmt.Errorf("notify: %s for user %d: %w", args.Template, args.UserID, err))
	}
	if err != nil {
		return nil, fmt.Errorf("notify: %s for user %d: secrets: %w", args.Template, args.UserID, err)
	}
	data := make(map[string]string, len(args.Data)+len(secrets))
	for k, v := range args.Data {
		data[k] = v
	}
	for k, v := range secrets {
		data[k] = v
	}
	return data, nil
}

// record writes the outbox row of a job, or updates it on a retry.
func (s *Service) record(ctx context.Context, row *OutboxMessage) error {
	_, err := s.db.Bun.NewInsert().Model(row).
		On("CONFLICT (job_id) DO UPDATE").
		Set("to_address = EXCLUDED.to_address").
		Set("subject = EXCLUDED.subject").
		Set("body = EXCLUDED.body").
		Set("status = EXCLUDED.status").
		Set("error = EXCLUDED.error").
		Set("sent_at = EXCLUDED.sent_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("notify: record job %d in the outbox: %w", row.JobID, err)
	}
	return nil
}
