package bulk

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/zone"
	"github.com/nameport/nameport/pkg/money"
)

// JobArgs asks for a bulk job's pending rows to be worked.
type JobArgs struct {
	JobID int64 `json:"job_id"`
}

// Kind identifies the job.
func (JobArgs) Kind() string { return "bulk.run" }

// InsertOpts: one River job per bulk job; an error (the database gone) is
// retried, and a retry resumes at the first pending row.
func (JobArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: river.QueueDefault, MaxAttempts: 25, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Worker works bulk jobs.
type Worker struct {
	river.WorkerDefaults[JobArgs]
	Bulk *Service
}

// runBudget is how long one run of a job works rows before it hands over
// to a fresh run (River's job timeout is a minute; a thousand
// registrations may take longer than that on a busy database).
const runBudget = 40 * time.Second

// Work works the job's pending rows in order for up to runBudget, then
// snoozes briefly to go on where it stopped.
func (w *Worker) Work(ctx context.Context, job *river.Job[JobArgs]) error {
	more, err := w.Bulk.run(ctx, job.Args.JobID, runBudget)
	if err != nil {
		return err
	}
	if more {
		return river.JobSnooze(time.Millisecond)
	}
	return nil
}

// AddWorkers registers the bulk worker.
func (s *Service) AddWorkers(workers *river.Workers) {
	river.AddWorker(workers, &Worker{Bulk: s})
}

// run works job id's pending rows in position order until none is left
// (more false) or budget has passed (more true). A row's effect and its
// result are written one after the other; if the process stops between
// them, the next run does the row again with the same idempotency key, and
// the registration or renewal is replayed, not repeated. A row refused for
// a reason of its own (the wallet, the name taken, the allowance) fails
// with that reason and the job goes on; an error of the platform (the
// database) stops the run with the row still pending, for River to retry.
func (s *Service) run(ctx context.Context, id int64, budget time.Duration) (more bool, err error) {
	j := new(Job)
	if err := s.db.Bun.NewSelect().Model(j).Where("id = ?", id).Scan(ctx); err != nil {
		if isNoRows(err) {
			return false, river.JobCancel(fmt.Errorf("bulk job %d is gone", id))
		}
		return false, err
	}
	if j.State == JobDone {
		return false, nil
	}
	start := s.clock()
	if j.State == JobQueued {
		if _, err := s.db.Bun.NewUpdate().Model((*Job)(nil)).Set("state = ?", JobRunning).Set("started_at = ?", start).
			Where("id = ?", id).Where("state = ?", JobQueued).Exec(ctx); err != nil {
			return false, fmt.Errorf("bulk: start job %d: %w", id, err)
		}
	}
	buyer, err := s.buyerOf(ctx, j.UserID)
	if err != nil {
		return false, err
	}
	var sets []zone.Set
	if j.Kind == KindDNSTemplate {
		t, err := s.Template(ctx, j.UserID, derefID(j.TemplateID))
		if err != nil && apperr.Code(err) != apperr.NotFound {
			return false, err
		}
		if t != nil {
			sets = t.Sets
		}
	}
	for {
		var rows []Row
		if err := s.db.Bun.NewSelect().Model(&rows).Where("job_id = ?", id).Where("state = ?", RowPending).
			Order("position").Limit(50).Scan(ctx); err != nil {
			return false, fmt.Errorf("bulk: rows of job %d: %w", id, err)
		}
		if len(rows) == 0 {
			break
		}
		for _, r := range rows {
			if s.now().Sub(start) > budget {
				return true, nil
			}
			charged, msg, err := s.work(ctx, j, buyer, sets, r)
			state := RowSucceeded
			if err != nil {
				if c := apperr.Code(err); c == apperr.Internal || c == apperr.Unavailable {
					return false, err
				}
				state, msg = RowFailed, apperr.Message(err)
			}
			if err := s.finishRow(ctx, j.ID, r.ID, state, msg, charged); err != nil {
				return false, err
			}
		}
	}
	if _, err := s.db.Bun.NewUpdate().Model((*Job)(nil)).Set("state = ?", JobDone).Set("finished_at = ?", s.clock()).
		Where("id = ?", id).Where("state <> ?", JobDone).Exec(ctx); err != nil {
		return false, fmt.Errorf("bulk: finish job %d: %w", id, err)
	}
	return false, nil
}

func derefID(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// finishRow records row rowID's result and adds it to the job's counts,
// once: a row already finished (by a run that raced this one) is left.
func (s *Service) finishRow(ctx context.Context, jobID, rowID int64, state, msg string, charged int64) error {
	return s.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.NewUpdate().Model((*Row)(nil)).Set("state = ?", state).Set("message = ?", clip(msg)).
			Set("charged_cents = ?", charged).Set("finished_at = ?", s.clock()).
			Where("id = ?", rowID).Where("state = ?", RowPending).Exec(ctx)
		if err != nil {
			return fmt.Errorf("bulk: finish row %d: %w", rowID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		ok, failed := 1, 0
		if state == RowFailed {
			ok, failed = 0, 1
		}
		_, err = tx.NewUpdate().Model((*Job)(nil)).Set("succeeded = succeeded + ?", ok).Set("failed = failed + ?", failed).
			Set("charged_cents = charged_cents + ?", charged).Where("id = ?", jobID).Exec(ctx)
		return err
	})
}

// clip bounds a row's message.
func clip(s string) string {
	if len(s) > 500 {
		return s[:497] + "..."
	}
	return s
}

// rowKey is the idempotency key of a row's registration or renewal.
func rowKey(j *Job, r Row) string { return fmt.Sprintf("bulk:%s:%d", j.Token, r.Position) }

// work does one row: what it charged and a message for a success, or the
// error that refused it.
func (s *Service) work(ctx context.Context, j *Job, buyer catalog.Buyer, sets []zone.Set, r Row) (int64, string, error) {
	switch j.Kind {
	case KindRegister:
		label, ext, ok := registration.SplitName(r.Name)
		if !ok {
			return 0, "", errFullName()
		}
		// Never more than the registrar confirmed: a price raised since
		// refuses the row (a replay of a row registered already finds the
		// name no longer on offer and goes on to replay it).
		if a, err := s.catalog.Offer(label, ext, buyer); err == nil && a.Available {
			if now := a.Quote.PriceCents * int64(j.Years); now > r.PriceCents {
				return 0, "", apperr.New(apperr.Conflict, "The price of %s is now %s, more than the %s you confirmed",
					r.Name, money.Format(now), money.Format(r.PriceCents))
			}
		}
		years := j.Years
		reg, err := s.domains.Register(ctx, j.UserID, buyer, registration.Request{Name: label, Extension: ext,
			Years: &years, AutoRenew: j.AutoRenew, IdempotencyKey: rowKey(j, r)})
		if err != nil {
			return 0, "", err
		}
		return -reg.Transaction.AmountCents, "Registered until " + reg.Domain.ExpiresAt.Format("January 2, 2006"), nil
	case KindRenew:
		d, err := s.domains.GetByName(ctx, j.UserID, r.Name)
		if err != nil {
			return 0, "", err
		}
		if now := s.domains.TermsOf(d, buyer).Renewal.PriceCents; now > r.PriceCents {
			return 0, "", apperr.New(apperr.Conflict, "The renewal price of %s is now %s, more than the %s you confirmed",
				r.Name, money.Format(now), money.Format(r.PriceCents))
		}
		rn, err := s.domains.Renew(ctx, j.UserID, d.ID, buyer, rowKey(j, r))
		if err != nil {
			return 0, "", err
		}
		return -rn.Transaction.AmountCents, "Renewed until " + rn.Domain.ExpiresAt.Format("January 2, 2006"), nil
	case KindAutoRenew:
		d, err := s.domains.GetByName(ctx, j.UserID, r.Name)
		if err != nil {
			return 0, "", err
		}
		on := j.AutoRenew != nil && *j.AutoRenew
		if _, err := s.domains.SetAutoRenew(ctx, j.UserID, d.ID, on); err != nil {
			return 0, "", err
		}
		if on {
			return 0, "Auto-renewal on", nil
		}
		return 0, "Auto-renewal off", nil
	case KindDNSTemplate:
		if sets == nil {
			return 0, "", apperr.New(apperr.NotFound, "The DNS template was deleted")
		}
		d, err := s.domains.GetByName(ctx, j.UserID, r.Name)
		if err != nil {
			return 0, "", err
		}
		if err := s.catalog.CheckDNSManagement(d.Extension); err != nil {
			return 0, "", err
		}
		zd := zone.Domain{ID: d.ID, Name: d.Name, Extension: d.Extension}
		// One transaction for every set: a set the domain cannot take
		// (a CNAME beside its records, the record limit) changes nothing.
		if err := s.records.ReplaceSets(ctx, zd, sets); err != nil {
			return 0, "", err
		}
		return 0, fmt.Sprintf("%d record sets applied", len(sets)), nil
	}
	return 0, "", apperr.New(apperr.Invalid, "unknown kind %q", j.Kind)
}

// Run works job id to its end in this goroutine, as its River job would
// across runs: for tests, and for callers that want the job done now.
func (s *Service) Run(ctx context.Context, id int64) error {
	for {
		more, err := s.run(ctx, id, runBudget)
		if err != nil || !more {
			return err
		}
	}
}
