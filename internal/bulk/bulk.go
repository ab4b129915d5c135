// Package bulk owns registrars' bulk operations: checking up to MaxNames
// names at once, and jobs that register, renew, turn auto-renewal on or off
// for, or apply a DNS template to many names, one row a name, in the
// background. It decides no rule of its own: availability, prices, name
// validation, the monthly allowance and charging come from the catalog and
// the registration service, called row by row exactly as /v1 calls them for
// one name; record changes go through the zone service.
package bulk

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/pkg/money"
)

// MaxNames bounds the names of one check or job.
const MaxNames = 1000

// Kinds of job.
const (
	KindRegister    = "register"
	KindRenew       = "renew"
	KindAutoRenew   = "auto_renew"
	KindDNSTemplate = "dns_template"
)

// Kinds lists every kind of job.
var Kinds = []string{KindRegister, KindRenew, KindAutoRenew, KindDNSTemplate}

// States of a job: queued until its worker starts, running, then done once
// every row has its result.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
)

// States of a row.
const (
	RowPending   = "pending"
	RowSucceeded = "succeeded"
	RowFailed    = "failed"
)

// Job is one bulk operation of an account.
type Job struct {
	bun.BaseModel `bun:"table:bulk_jobs"`

	ID     int64  `bun:"id,pk,autoincrement"`
	UserID int64  `bun:"user_id"`
	Kind   string `bun:"kind"`
	State  string `bun:"state"`
	// Token is random, so that the idempotency keys of the job's rows
	// cannot collide with keys the account chose itself.
	Token string `bun:"token"`
	// Years of a registration.
	Years int `bun:"years"`
	// AutoRenew is the auto-renewal of new registrations (nil: on), or what
	// an auto_renew job sets.
	AutoRenew  *bool  `bun:"auto_renew"`
	TemplateID *int64 `bun:"template_id"`
	Total      int    `bun:"total"`
	Succeeded  int    `bun:"succeeded"`
	Failed     int    `bun:"failed"`
	// TotalCents is the total the client confirmed (register and renew);
	// ChargedCents what the succeeded rows cost.
	TotalCents   int64      `bun:"total_cents"`
	ChargedCents int64      `bun:"charged_cents"`
	RequestKey   *string    `bun:"request_key"`
	RequestHash  string     `bun:"request_hash"`
	CreatedAt    time.Time  `bun:"created_at"`
	StartedAt    *time.Time `bun:"started_at"`
	FinishedAt   *time.Time `bun:"finished_at"`

	// Replayed is true when Submit found the job of an earlier request
	// with the same key.
	Replayed bool `bun:"-"`
}

// Done is the rows that have their result.
func (j *Job) Done() int { return j.Succeeded + j.Failed }

// Row is one name of a job and its result.
type Row struct {
	bun.BaseModel `bun:"table:bulk_job_rows"`

	ID       int64  `bun:"id,pk,autoincrement"`
	JobID    int64  `bun:"job_id"`
	Position int    `bun:"position"`
	Name     string `bun:"name"` // the full name, normalised
	// PriceCents is what the client confirmed for this row (years × the
	// yearly price); the row never charges more.
	PriceCents   int64      `bun:"price_cents"`
	State        string     `bun:"state"`
	Message      string     `bun:"message"` // why it failed, or what it did
	ChargedCents int64      `bun:"charged_cents"`
	FinishedAt   *time.Time `bun:"finished_at"`
}

// Service runs bulk operations.
type Service struct {
	db      *db.DB
	domains *registration.Service
	catalog *catalog.Service
	records *zone.Service
	now     func() time.Time
}

// NewService returns the bulk service; now may be nil (the real clock).
func NewService(d *db.DB, domains *registration.Service, cat *catalog.Service, records *zone.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: d, domains: domains, catalog: cat, records: records, now: now}
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// buyerOf is how userID buys, as the registration service prices renewals
// the owner does not start (its Buyers lookup, set by the server).
func (s *Service) buyerOf(ctx context.Context, userID int64) (catalog.Buyer, error) {
	if s.domains.Buyers == nil {
		return catalog.Buyer{}, nil
	}
	return s.domains.Buyers(ctx, userID)
}

// NormalizeNames returns the names of a batch as they will be checked: each
// trimmed, lower case, without a final dot, blanks dropped and repeats
// kept once (the first). Returns invalid when none is left or more than
// MaxNames.
func NormalizeNames(names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(n), "."))
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
		if len(out) > MaxNames {
			return nil, apperr.New(apperr.Invalid, "At most %d names at a time; split the list", MaxNames)
		}
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.Invalid, "Enter at least one domain name")
	}
	return out, nil
}

// errFullName is the error of a name without an extension.
func errFullName() error {
	return apperr.New(apperr.Invalid, "Enter the full domain name, such as example.inf.nz")
}

// Checked is the answer of Check for one name.
type Checked struct {
	Domain     string // normalised
	Available  bool
	Reason     string // catalog.Reason…, when not available
	IsPremium  bool
	PriceCents int64 // a year, for the buyer
	// Err is why the name cannot be checked at all (invalid, with the
	// catalog's messages); the other fields are empty then.
	Err error
}

// Check tells, for each of up to MaxNames names, whether it can be
// registered and its yearly price for buyer: the catalog's CheckMany, so the
// same answers as one check a name, in one batch. A name that is not valid
// gets its own error, not the batch's. Returns invalid for an empty or too
// long list.
func (s *Service) Check(ctx context.Context, buyer catalog.Buyer, names []string) ([]Checked, error) {
	names, err := NormalizeNames(names)
	if err != nil {
		return nil, err
	}
	out := make([]Checked, len(names))
	queries := make([]catalog.NameQuery, 0, len(names))
	at := make([]int, 0, len(names))
	for i, n := range names {
		out[i].Domain = n
		label, ext, ok := registration.SplitName(n)
		if !ok {
			out[i].Err = errFullName()
			continue
		}
		queries = append(queries, catalog.NameQuery{Name: label, Extension: ext})
		at = append(at, i)
	}
	avs, errs, err := s.catalog.CheckMany(ctx, queries, buyer)
	if err != nil {
		return nil, fmt.Errorf("bulk: check: %w", err)
	}
	for j, i := range at {
		if errs[j] != nil {
			out[i].Err = errs[j]
			continue
		}
		a := avs[j]
		out[i] = Checked{Domain: a.Name + a.Extension, Available: a.Available, Reason: a.Reason,
			IsPremium: a.Quote.IsPremium, PriceCents: a.Quote.PriceCents}
	}
	return out, nil
}

// Submission asks for a job.
type Submission struct {
	Kind  string
	Names []string
	// Years of each registration, registration.MinYears to MaxYears; nil
	// means 1. Renewals are one renewal period each.
	Years *int
	// AutoRenew: for register, the auto-renewal of the new domains (nil:
	// on); for auto_renew, what to set (required).
	AutoRenew *bool
	// TemplateID is the DNS template a dns_template job applies.
	TemplateID int64
	// TotalCents is the total the client showed and the registrar
	// confirmed (register and renew): the job is refused unless it is
	// still the total.
	TotalCents *int64
	// RequestKey, when set, makes a retried submission return the job of
	// the first instead of making a second.
	RequestKey string
}

// maxListedProblems bounds the names an error lists.
const maxListedProblems = 5

// problems collects the names a submission cannot take.
type problems []string

func (p *problems) add(name string, err error) {
	if r := []rune(name); len(r) > 64 {
		name = string(r[:64]) + "…"
	}
	*p = append(*p, name+": "+apperr.Message(err))
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	list := p
	more := ""
	if len(list) > maxListedProblems {
		list, more = list[:maxListedProblems], fmt.Sprintf(" (and %d more)", len(p)-maxListedProblems)
	}
	return apperr.New(apperr.Invalid, "%s%s", strings.Join(list, "; "), more)
}

// Submit makes a job of sub for userID, priced for buyer, and queues it:
// the job, its rows and its queue entry commit together. Each name must be
// one the job can take (a valid, offered name to register; one of the
// account's domains otherwise); whether a name is still free, the wallet
// and the allowance are decided row by row when the job runs. Returns
// invalid naming the names it cannot take, not_found for a template that is
// not the account's, and conflict when the total is no longer the one
// confirmed (prices changed since the check).
func (s *Service) Submit(ctx context.Context, userID int64, buyer catalog.Buyer, sub Submission) (*Job, error) {
	if !slices.Contains(Kinds, sub.Kind) {
		return nil, apperr.New(apperr.Invalid, "kind must be one of %s", strings.Join(Kinds, ", "))
	}
	names, err := NormalizeNames(sub.Names)
	if err != nil {
		return nil, err
	}
	key := strings.TrimSpace(sub.RequestKey)
	if len(key) > 255 {
		return nil, apperr.New(apperr.Invalid, "Idempotency-Key must be at most 255 characters")
	}
	hash := submissionHash(sub, names)
	if key != "" {
		if j, err := s.byRequestKey(ctx, userID, key, hash); j != nil || err != nil {
			return j, err
		}
	}
	now := s.clock()
	token := make([]byte, 12)
	_, _ = rand.Read(token)
	job := &Job{UserID: userID, Kind: sub.Kind, State: JobQueued, Token: hex.EncodeToString(token), Years: 1,
		Total: len(names), RequestHash: hash, CreatedAt: now}
	if key != "" {
		job.RequestKey = &key
	}
	rows := make([]Row, len(names))
	for i, n := range names {
		rows[i] = Row{Position: i + 1, Name: n, State: RowPending}
	}
	var bad problems
	switch sub.Kind {
	case KindRegister:
		if sub.Years != nil {
			if y := *sub.Years; y < registration.MinYears || y > registration.MaxYears {
				return nil, apperr.New(apperr.Invalid, "Years must be between %d and %d", registration.MinYears, registration.MaxYears)
			}
			job.Years = *sub.Years
		}
		job.AutoRenew = sub.AutoRenew
		for i := range rows {
			label, ext, ok := registration.SplitName(rows[i].Name)
			if !ok {
				bad.add(rows[i].Name, errFullName())
				continue
			}
			a, err := s.catalog.Offer(label, ext, buyer)
			switch {
			case err != nil:
				bad.add(rows[i].Name, err)
			case !a.Available:
				bad.add(rows[i].Name, apperr.New(apperr.Invalid, "not available (%s)", a.Reason))
			default:
				rows[i].Name = a.Name + a.Extension
				rows[i].PriceCents = a.Quote.PriceCents * int64(job.Years)
			}
		}
	case KindRenew, KindAutoRenew, KindDNSTemplate:
		if sub.Kind == KindAutoRenew {
			if sub.AutoRenew == nil {
				return nil, apperr.New(apperr.Invalid, "autoRenew is required: true to turn auto-renewal on, false to turn it off")
			}
			job.AutoRenew = sub.AutoRenew
		}
		if sub.Kind == KindDNSTemplate {
			if _, err := s.Template(ctx, userID, sub.TemplateID); err != nil {
				return nil, err
			}
			job.TemplateID = &sub.TemplateID
		}
		for i := range rows {
			d, err := s.domains.GetByName(ctx, userID, rows[i].Name)
			if err != nil {
				if apperr.Code(err) != apperr.NotFound {
					return nil, err
				}
				bad.add(rows[i].Name, apperr.New(apperr.Invalid, "not one of your domains"))
				continue
			}
			if sub.Kind == KindRenew {
				rows[i].PriceCents = s.domains.TermsOf(d, buyer).Renewal.PriceCents
			}
		}
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	for _, r := range rows {
		job.TotalCents += r.PriceCents
	}
	if sub.Kind == KindRegister || sub.Kind == KindRenew {
		if sub.TotalCents == nil {
			return nil, apperr.New(apperr.Invalid, "Confirm the total: send the total (%s) you agreed to pay", money.Format(job.TotalCents))
		}
		if *sub.TotalCents != job.TotalCents {
			return nil, apperr.New(apperr.Conflict, "The total is now %s, not the %s you confirmed: prices changed since you checked. Check again and confirm the new total.",
				money.Format(job.TotalCents), money.Format(*sub.TotalCents))
		}
	}

	err = s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.NewInsert().Model(job).Exec(ctx); err != nil {
			return err
		}
		for i := range rows {
			rows[i].JobID = job.ID
		}
		// A few hundred rows a statement, well under either engine's
		// limit of bound parameters.
		for start := 0; start < len(rows); start += 200 {
			chunk := rows[start:min(start+200, len(rows))]
			if _, err := tx.NewInsert().Model(&chunk).Exec(ctx); err != nil {
				return err
			}
		}
		return tx.Enqueue(ctx, JobArgs{JobID: job.ID}, nil)
	})
	if err != nil {
		if _, dup := db.UniqueViolation(err); dup && key != "" {
			// The same request, a moment ago: its job.
			if j, rerr := s.byRequestKey(ctx, userID, key, hash); j != nil || rerr != nil {
				return j, rerr
			}
		}
		return nil, fmt.Errorf("bulk: submit %s of %d names: %w", sub.Kind, len(names), err)
	}
	return job, nil
}

// submissionHash identifies what a submission asks for, in normal form.
func submissionHash(sub Submission, names []string) string {
	years, auto, total := 1, "", int64(-1)
	if sub.Years != nil {
		years = *sub.Years
	}
	if sub.AutoRenew != nil {
		auto = fmt.Sprint(*sub.AutoRenew)
	}
	if sub.TotalCents != nil {
		total = *sub.TotalCents
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s|%d|%s|%d|%d|%s", sub.Kind, years, auto, sub.TemplateID, total, strings.Join(names, ",")))
	return hex.EncodeToString(sum[:])
}

// byRequestKey returns userID's job submitted with key, nil when there is
// none; invalid when key was used for another request.
func (s *Service) byRequestKey(ctx context.Context, userID int64, key, hash string) (*Job, error) {
	j := new(Job)
	err := s.db.Bun.NewSelect().Model(j).Where("user_id = ?", userID).Where("request_key = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bulk: find job of key: %w", err)
	}
	if j.RequestHash != hash {
		return nil, apperr.New(apperr.Invalid, "This Idempotency-Key was used for a different request; use a new key for a new request")
	}
	j.Replayed = true
	return j, nil
}

// Get returns job id of userID with its rows in order. Returns not_found
// otherwise, also when it is another account's.
func (s *Service) Get(ctx context.Context, userID, id int64) (*Job, []Row, error) {
	j := new(Job)
	err := s.db.Bun.NewSelect().Model(j).Where("id = ?", id).Where("user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, apperr.New(apperr.NotFound, "Bulk job not found")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("bulk: get job %d: %w", id, err)
	}
	rows := []Row{}
	if err := s.db.Bun.NewSelect().Model(&rows).Where("job_id = ?", id).Order("position").Scan(ctx); err != nil {
		return nil, nil, fmt.Errorf("bulk: rows of job %d: %w", id, err)
	}
	return j, rows, nil
}

// MaxListed bounds List.
const MaxListed = 50

// List returns userID's latest jobs, newest first, without their rows.
func (s *Service) List(ctx context.Context, userID int64) ([]Job, error) {
	jobs := []Job{}
	if err := s.db.Bun.NewSelect().Model(&jobs).Where("user_id = ?", userID).Order("id DESC").
		Limit(MaxListed).Scan(ctx); err != nil {
		return nil, fmt.Errorf("bulk: list jobs of %d: %w", userID, err)
	}
	return jobs, nil
}
