// Package contact keeps what visitors send through the site's contact
// forms (the landing page's contact request, and the spec's contact
// message) for admins to read and answer in the Inbox tab. Storing a
// message and queueing its mail to the site's contact address commit in one
// transaction, so a mail server that is down loses nothing: the message is
// in the inbox and the mail job retries. An admin's reply is mailed to the
// sender the same way, and audited.
package contact

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Kinds of message.
const (
	KindRequest = "request" // the landing page's form: company, email, interest
	KindMessage = "message" // a contact message: name, email, subject, message
)

// Statuses of a message in the inbox.
const (
	StatusNew      = "new"      // no admin has opened it
	StatusRead     = "read"     // an admin opened it
	StatusAnswered = "answered" // an admin replied
)

// Interests are the landing form's choices, by value.
var Interests = []string{"end-user", "registrar", "api", "other"}

// InterestLabels are the choices as the form shows them (spec).
var InterestLabels = map[string]string{
	"end-user":  "Registering domains as an end user",
	"registrar": "Becoming a registrar partner",
	"api":       "API integration",
	"other":     "Other",
}

// Limits of what a sender may write.
const (
	MaxName       = 100
	MaxEmail      = 254
	MaxSubject    = 150
	MinMessage    = 10
	MaxMessage    = 5000
	MaxReply      = 10000
	contactSetKey = "contact_email" // settings.KeyContactEmail
)

// Message is one contact request or message.
type Message struct {
	bun.BaseModel `bun:"table:contact_messages"`

	ID         int64     `bun:"id,pk,autoincrement"`
	Kind       string    `bun:"kind"`
	Name       string    `bun:"name"`    // the company of a request
	Email      string    `bun:"email"`   // the sender's
	Topic      string    `bun:"topic"`   // a request's interest, a message's subject
	Body       string    `bun:"message"` // what the sender wrote
	Status     string    `bun:"status"`
	Reply      string    `bun:"reply"`
	AnsweredBy int64     `bun:"answered_by,nullzero"`
	AnsweredAt time.Time `bun:"answered_at,nullzero"`
	CreatedAt  time.Time `bun:"created_at"`
}

// Listing is a message as admins see it: with the answering admin's name.
type Listing struct {
	Message `bun:",extend"`

	AnsweredByName string `bun:"answered_by_name"`
}

// Input is what a sender sends. A request needs Name (the company), Email
// and Interest; Message is optional. A message needs Name, Email and
// Message; Subject is optional.
type Input struct {
	Kind     string
	Name     string
	Email    string
	Interest string
	Subject  string
	Message  string
}

// Options configure a Service.
type Options struct {
	// Now is the clock; tests inject their own.
	Now func() time.Time
	// Logger tells when a message has no address to be mailed to.
	Logger *slog.Logger
	// Notify queues mail inside a transaction; nil is notify.Enqueue.
	Notify notify.Func
}

// Service stores contact messages and answers them.
type Service struct {
	db     *db.DB
	now    func() time.Time
	logger *slog.Logger
	notify notify.Func
}

// NewService returns the contact inbox over d.
func NewService(d *db.DB, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Notify == nil {
		opts.Notify = notify.Enqueue
	}
	return &Service{db: d, now: opts.Now, logger: opts.Logger, notify: opts.Notify}
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func invalid(field, format string, args ...any) error {
	return apperr.OnField(apperr.New(apperr.Invalid, format, args...), field)
}

// cleanLine trims s and refuses control characters: names, addresses and
// subjects go into mail headers and one-line fields.
func cleanLine(field, label, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "", invalid(field, "%s must be a single line of text", label)
	}
	if utf8.RuneCountInString(s) > max {
		return "", invalid(field, "%s must be at most %d characters", label, max)
	}
	return s, nil
}

// cleanText trims s and keeps line breaks and tabs, refusing other control
// characters.
func cleanText(field, label, s string, max int) (string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
		return "", invalid(field, "%s contains characters that are not text", label)
	}
	if utf8.RuneCountInString(s) > max {
		return "", invalid(field, "%s must be at most %d characters", label, max)
	}
	return s, nil
}

// validEmail tells whether email is one bare address with a dotted domain.
func validEmail(email string) bool {
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email {
		return false
	}
	_, domain, _ := strings.Cut(email, "@")
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// validate checks in against the spec's rules (a request: company and
// email required, email of a valid format, a known interest; a message:
// name required, email valid, message at least 10 characters) and returns
// the message to store.
func validate(in Input) (*Message, error) {
	m := &Message{Kind: in.Kind}
	nameLabel, nameField := "Name", "name"
	switch in.Kind {
	case KindRequest:
		nameLabel, nameField = "Company", "company"
	case KindMessage:
	default:
		return nil, invalid("kind", "Kind must be request or message")
	}
	var err error
	if m.Name, err = cleanLine(nameField, nameLabel, in.Name, MaxName); err != nil {
		return nil, err
	}
	if m.Name == "" {
		return nil, invalid(nameField, "%s is required", nameLabel)
	}
	email := strings.TrimSpace(in.Email)
	switch {
	case email == "":
		return nil, invalid("email", "Email is required")
	case len(email) > MaxEmail || strings.ContainsFunc(email, unicode.IsControl) || !validEmail(email):
		return nil, invalid("email", "Invalid email address")
	}
	m.Email = email
	if in.Kind == KindRequest {
		interest := strings.TrimSpace(in.Interest)
		if interest == "" {
			interest = Interests[0] // the form's default
		}
		if _, ok := InterestLabels[interest]; !ok {
			return nil, invalid("interest", "Interest must be one of end-user, registrar, api or other")
		}
		m.Topic = interest
	} else if m.Topic, err = cleanLine("subject", "Subject", in.Subject, MaxSubject); err != nil {
		return nil, err
	}
	if m.Body, err = cleanText("message", "Message", in.Message, MaxMessage); err != nil {
		return nil, err
	}
	// A request's message is optional, but when given it says something.
	if (in.Kind == KindMessage || m.Body != "") && utf8.RuneCountInString(m.Body) < MinMessage {
		return nil, invalid("message", "Message must be at least %d characters", MinMessage)
	}
	return m, nil
}

// Submit stores a visitor's contact request or message and, in the same
// transaction, queues its mail to the site's contact address: the
// contact_email site setting, else the first admin's address; with neither
// it is only stored (and logged). Returns invalid (with the field) for
// input the spec's rules refuse.
func (s *Service) Submit(ctx context.Context, in Input) (*Message, error) {
	m, err := validate(in)
	if err != nil {
		return nil, err
	}
	m.Status, m.CreatedAt = StatusNew, s.clock()
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return err
		}
		userID, to, err := contactAddress(ctx, tx)
		if err != nil {
			return err
		}
		if to == "" {
			s.logger.WarnContext(ctx, "contact: no contact_email setting and no admin: the message is only in the inbox",
				"id", m.ID)
			return nil
		}
		data := map[string]string{"id": audit.ID(m.ID), "form": m.Kind, "name": m.Name, "email": m.Email,
			"topic": m.Topic, "message": m.Body}
		if m.Kind == KindRequest {
			data["topic"] = InterestLabels[m.Topic]
		}
		return s.notify(ctx, tx, notify.Message{UserID: userID, Kind: notify.KindContactReceived, To: to, Data: data})
	})
	if err != nil {
		return nil, fmt.Errorf("contact: submit: %w", err)
	}
	return m, nil
}

// contactAddress is where contact mail goes: the contact_email setting
// (whether or not it is public), else the oldest enabled admin's address
// (with that admin's id), else "".
func contactAddress(ctx context.Context, tx *db.Tx) (userID int64, to string, err error) {
	var values []string
	if err := tx.NewSelect().Table("site_settings").Column("value").Where("key = ?", contactSetKey).
		Scan(ctx, &values); err != nil {
		return 0, "", fmt.Errorf("contact address: %w", err)
	}
	if len(values) > 0 {
		if v := strings.TrimSpace(values[0]); validEmail(v) {
			return 0, v, nil
		}
	}
	var admins []struct {
		ID    int64  `bun:"id"`
		Email string `bun:"email"`
	}
	if err := tx.NewSelect().Table("users").Column("id", "email").Where("user_type = ?", "admin").
		Where("disabled_at IS NULL").OrderExpr("id").Limit(1).Scan(ctx, &admins); err != nil {
		return 0, "", fmt.Errorf("contact address: first admin: %w", err)
	}
	if len(admins) == 0 || !validEmail(admins[0].Email) {
		return 0, "", nil
	}
	return admins[0].ID, admins[0].Email, nil
}

// Query selects messages for the inbox.
type Query struct {
	Status   string // "" for every status
	Page     int    // from 1
	PageSize int    // default 25, at most 100
}

// Page is one page of the inbox.
type Page struct {
	Messages []Listing
	Total    int // messages matching the query, on every page
	Unread   int // messages with status new, whatever the query
	Page     int
	PageSize int
}

// List returns a page of messages, newest first. Returns invalid for an
// unknown status.
func (s *Service) List(ctx context.Context, q Query) (*Page, error) {
	switch q.Status {
	case "", StatusNew, StatusRead, StatusAnswered:
	default:
		return nil, invalid("status", "Status must be new, read or answered")
	}
	if q.Page < 1 {
		q.Page = 1
	}
	if q.PageSize < 1 {
		q.PageSize = 25
	}
	q.PageSize = min(q.PageSize, 100)
	out := &Page{Messages: []Listing{}, Page: q.Page, PageSize: q.PageSize}
	sel := s.listing().OrderExpr("cm.id DESC").Limit(int64(q.PageSize)).Offset(int64((q.Page - 1) * q.PageSize))
	count := s.db.Bun.NewSelect().TableExpr("contact_messages AS cm")
	if q.Status != "" {
		sel = sel.Where("cm.status = ?", q.Status)
		count = count.Where("cm.status = ?", q.Status)
	}
	if err := sel.Scan(ctx, &out.Messages); err != nil {
		return nil, fmt.Errorf("contact: list: %w", err)
	}
	total, err := count.Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("contact: count: %w", err)
	}
	unread, err := s.db.Bun.NewSelect().TableExpr("contact_messages").Where("status = ?", StatusNew).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("contact: count unread: %w", err)
	}
	out.Total, out.Unread = int(total), int(unread)
	return out, nil
}

func (s *Service) listing() *bun.SelectQuery {
	return s.db.Bun.NewSelect().TableExpr("contact_messages AS cm").
		ColumnExpr("cm.id, cm.kind, cm.name, cm.email, cm.topic, cm.message, cm.status, cm.reply").
		ColumnExpr("cm.answered_by, cm.answered_at, cm.created_at").
		ColumnExpr("COALESCE(a.username, '') AS answered_by_name").
		Join("LEFT JOIN users AS a ON a.id = cm.answered_by")
}

var errNotFound = apperr.New(apperr.NotFound, "Contact message not found")

func (s *Service) get(ctx context.Context, id int64) (*Listing, error) {
	var l Listing
	if err := s.listing().Where("cm.id = ?", id).Scan(ctx, &l); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errNotFound
		}
		return nil, fmt.Errorf("contact: get %d: %w", id, err)
	}
	return &l, nil
}

// Open returns message id for an admin to read, marking a new one read.
// Returns not_found for an unknown id.
func (s *Service) Open(ctx context.Context, id int64) (*Listing, error) {
	if _, err := s.db.Bun.NewUpdate().Table("contact_messages").Set("status = ?", StatusRead).
		Where("id = ?", id).Where("status = ?", StatusNew).Exec(ctx); err != nil {
		return nil, fmt.Errorf("contact: open %d: %w", id, err)
	}
	return s.get(ctx, id)
}

// Reply mails admin's answer to the sender of message id, stores it and
// marks the message answered, with its audit entry, in one transaction.
// Returns not_found for an unknown id, conflict for a message already
// answered, and invalid for an empty or overlong reply.
func (s *Service) Reply(ctx context.Context, adminID int64, id int64, text string) (*Listing, error) {
	text, err := cleanText("message", "Reply", text, MaxReply)
	if err != nil {
		return nil, err
	}
	if text == "" {
		return nil, invalid("message", "Reply is required")
	}
	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		m := new(Message)
		if err := tx.NewSelect().Model(m).Where("id = ?", id).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		before := view(m)
		now := s.clock()
		// One conditional update answers: two admins racing cannot both.
		res, err := tx.NewUpdate().Model((*Message)(nil)).Set("status = ?", StatusAnswered).Set("reply = ?", text).
			Set("answered_by = ?", adminID).Set("answered_at = ?", now).
			Where("id = ?", id).Where("status <> ?", StatusAnswered).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return apperr.New(apperr.Conflict, "This message has already been answered")
		}
		m.Status, m.Reply, m.AnsweredBy, m.AnsweredAt = StatusAnswered, text, adminID, now
		if err := audit.Record(ctx, tx, audit.Entry{ActorID: adminID, Action: audit.ActionContactReply,
			TargetType: "contact_message", TargetID: audit.ID(id), Before: before, After: view(m)}); err != nil {
			return err
		}
		topic := m.Topic
		if m.Kind == KindRequest {
			topic = ""
		}
		return s.notify(ctx, tx, notify.Message{Kind: notify.KindContactReply, To: m.Email,
			Data: map[string]string{"reply": text, "topic": topic, "message": m.Body}})
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, err
		}
		return nil, fmt.Errorf("contact: reply to %d: %w", id, err)
	}
	return s.get(ctx, id)
}

// Delete removes message id, with its audit entry. Returns not_found for
// an unknown id.
func (s *Service) Delete(ctx context.Context, adminID int64, id int64) error {
	err := s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		m := new(Message)
		if err := tx.NewSelect().Model(m).Where("id = ?", id).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errNotFound
			}
			return err
		}
		if _, err := tx.NewDelete().Model((*Message)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{ActorID: adminID, Action: audit.ActionContactDelete,
			TargetType: "contact_message", TargetID: audit.ID(id), Before: view(m)})
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return err
		}
		return fmt.Errorf("contact: delete %d: %w", id, err)
	}
	return nil
}

// view is what the audit log keeps of a message: who wrote, about what,
// and the answer; not the message itself.
func view(m *Message) map[string]any {
	v := map[string]any{"kind": m.Kind, "name": m.Name, "email": m.Email, "status": m.Status}
	if m.Topic != "" {
		v["topic"] = m.Topic
	}
	if m.Reply != "" {
		v["reply"] = m.Reply
	}
	return v
}
