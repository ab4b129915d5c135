// Package jobs lets admins look into the background job queue (River's
// river_job table) and act on single jobs: list them by state and kind with
// counts per state, retry one, cancel one. It works through River's own
// client, so the same code serves SQLite and PostgreSQL.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/db"
)

// States an admin can filter by, in the order a queue moves through them.
// (River's "pending" belongs to workflows we do not use.)
var States = []string{
	string(rivertype.JobStateAvailable),
	string(rivertype.JobStateScheduled),
	string(rivertype.JobStateRunning),
	string(rivertype.JobStateRetryable),
	string(rivertype.JobStateCompleted),
	string(rivertype.JobStateCancelled),
	string(rivertype.JobStateDiscarded),
}

const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Job is one job as an admin sees it.
type Job struct {
	ID          int64
	Kind        string
	State       string
	Queue       string
	Attempt     int
	MaxAttempts int
	Args        json.RawMessage
	// Errors of past attempts, oldest first, without stack traces.
	Errors      []AttemptError
	CreatedAt   time.Time
	ScheduledAt time.Time
	AttemptedAt *time.Time
	FinalizedAt *time.Time
}

// AttemptError is the error one attempt of a job ended with.
type AttemptError struct {
	Attempt int
	At      time.Time
	Message string
}

// Filter selects jobs: empty fields select everything.
type Filter struct {
	State  string
	Kind   string
	Limit  int    // DefaultLimit when zero
	Cursor string // NextCursor of the previous page
}

// Page is one page of jobs, newest first, with the number of jobs in each
// state (of the filter's kind, across every state).
type Page struct {
	Counts     map[string]int
	Jobs       []Job
	NextCursor string // empty on the last page
}

// Service reads and manages jobs.
type Service struct{ db *db.DB }

// NewService returns the job service over d. d's job client may be set up
// later (SetupJobs); it is looked up on each call.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// List returns a page of jobs, newest first. Returns invalid for an unknown
// state, a limit out of range or a malformed cursor.
func (s *Service) List(ctx context.Context, f Filter) (*Page, error) {
	client, err := s.db.Jobs()
	if err != nil {
		return nil, err
	}
	if f.Limit == 0 {
		f.Limit = DefaultLimit
	}
	if f.Limit < 1 || f.Limit > MaxLimit {
		return nil, apperr.New(apperr.Invalid, "Limit must be between 1 and %d", MaxLimit)
	}
	params := river.NewJobListParams().OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(f.Limit)
	if f.State != "" {
		if !slices.Contains(States, f.State) {
			return nil, apperr.New(apperr.Invalid, "Unknown job state %q", f.State)
		}
		params = params.States(rivertype.JobState(f.State))
	}
	if f.Kind != "" {
		params = params.Kinds(f.Kind)
	}
	if f.Cursor != "" {
		var cursor river.JobListCursor
		if err := cursor.UnmarshalText([]byte(f.Cursor)); err != nil {
			return nil, apperr.New(apperr.Invalid, "Invalid cursor")
		}
		params = params.After(&cursor)
	}
	res, err := client.JobList(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("jobs: list: %w", err)
	}
	page := &Page{Jobs: make([]Job, 0, len(res.Jobs))}
	for _, row := range res.Jobs {
		page.Jobs = append(page.Jobs, toJob(row))
	}
	// A full page may be the last one: look one job further so that the
	// client is never sent to an empty page.
	if len(res.Jobs) == f.Limit && res.LastCursor != nil {
		more, err := client.JobList(ctx, params.After(res.LastCursor).First(1))
		if err != nil {
			return nil, fmt.Errorf("jobs: list: %w", err)
		}
		if len(more.Jobs) > 0 {
			text, err := res.LastCursor.MarshalText()
			if err != nil {
				return nil, fmt.Errorf("jobs: list: cursor: %w", err)
			}
			page.NextCursor = string(text)
		}
	}
	if page.Counts, err = s.counts(ctx, f.Kind); err != nil {
		return nil, err
	}
	return page, nil
}

// counts returns the number of jobs in each state. River's client has no
// count call, but its table is the same on both engines, and the query is
// answered from River's (state, queue, …) index.
func (s *Service) counts(ctx context.Context, kind string) (map[string]int, error) {
	var rows []struct {
		State string `bun:"state"`
		N     int    `bun:"n"`
	}
	q := s.db.Bun.NewSelect().TableExpr("river_job").ColumnExpr("state, COUNT(*) AS n").GroupExpr("state")
	if kind != "" {
		q = q.Where("kind = ?", kind)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("jobs: count by state: %w", err)
	}
	counts := make(map[string]int, len(States))
	for _, st := range States {
		counts[st] = 0
	}
	for _, r := range rows {
		if _, ok := counts[r.State]; ok {
			counts[r.State] = r.N
		}
	}
	return counts, nil
}

// Retry makes a job available to run at once (River's JobRetry): a failed,
// cancelled or completed job runs again, with one more attempt allowed if it
// had used them all; a waiting job moves to the front. Returns not_found if
// the job does not exist and conflict if it is running.
func (s *Service) Retry(ctx context.Context, id int64) (*Job, error) {
	client, err := s.db.Jobs()
	if err != nil {
		return nil, err
	}
	row, err := client.JobRetry(ctx, id)
	if err != nil {
		return nil, notFoundOr(err, "jobs: retry %d", id)
	}
	if row.State == rivertype.JobStateRunning {
		return nil, apperr.New(apperr.Conflict, "The job is running; retry it after it ends")
	}
	job := toJob(row)
	return &job, nil
}

// Cancel stops a job that has not finished (River's JobCancel): a waiting
// job is cancelled at once, a running one is asked to stop. Cancelling a
// cancelled job changes nothing. Returns not_found if the job does not exist
// and conflict if it already completed or was discarded.
func (s *Service) Cancel(ctx context.Context, id int64) (*Job, error) {
	client, err := s.db.Jobs()
	if err != nil {
		return nil, err
	}
	row, err := client.JobCancel(ctx, id)
	if err != nil {
		return nil, notFoundOr(err, "jobs: cancel %d", id)
	}
	if row.State == rivertype.JobStateCompleted || row.State == rivertype.JobStateDiscarded {
		return nil, apperr.New(apperr.Conflict, "The job has already finished (%s)", row.State)
	}
	job := toJob(row)
	return &job, nil
}

func notFoundOr(err error, format string, args ...any) error {
	if errors.Is(err, rivertype.ErrNotFound) {
		return apperr.New(apperr.NotFound, "Job not found")
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

func toJob(row *rivertype.JobRow) Job {
	j := Job{
		ID: row.ID, Kind: row.Kind, State: string(row.State), Queue: row.Queue,
		Attempt: row.Attempt, MaxAttempts: row.MaxAttempts, Args: json.RawMessage(row.EncodedArgs),
		Errors: make([]AttemptError, 0, len(row.Errors)), CreatedAt: row.CreatedAt, ScheduledAt: row.ScheduledAt,
		AttemptedAt: row.AttemptedAt, FinalizedAt: row.FinalizedAt,
	}
	if !json.Valid(j.Args) {
		j.Args = json.RawMessage("null")
	}
	for _, e := range row.Errors {
		j.Errors = append(j.Errors, AttemptError{Attempt: e.Attempt, At: e.At, Message: e.Error})
	}
	return j
}
