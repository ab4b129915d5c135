package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/jobs"
)

type JobListInput struct {
	State  string `query:"state" enum:"available,scheduled,running,retryable,completed,cancelled,discarded" doc:"Only jobs in this state"`
	Kind   string `query:"kind" doc:"Only jobs of this kind, e.g. account.purge_sessions"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50" doc:"Jobs per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type jobCountsBody struct {
	Available int `json:"available"`
	Scheduled int `json:"scheduled"`
	Running   int `json:"running"`
	Retryable int `json:"retryable"`
	Completed int `json:"completed"`
	Cancelled int `json:"cancelled"`
	Discarded int `json:"discarded"`
}

type jobErrorBody struct {
	Attempt int       `json:"attempt"`
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

type jobBody struct {
	ID          int64           `json:"id"`
	Kind        string          `json:"kind"`
	State       string          `json:"state" enum:"available,scheduled,running,retryable,completed,cancelled,discarded,pending"`
	Queue       string          `json:"queue"`
	Attempt     int             `json:"attempt" doc:"Attempts made so far"`
	MaxAttempts int             `json:"maxAttempts"`
	Args        json.RawMessage `json:"args" doc:"The job's arguments (JSON)"`
	Errors      []jobErrorBody  `json:"errors" doc:"Errors of past attempts, oldest first; the last is the latest"`
	CreatedAt   time.Time       `json:"createdAt"`
	ScheduledAt time.Time       `json:"scheduledAt" doc:"When the job runs, or ran, next"`
	AttemptedAt *time.Time      `json:"attemptedAt" doc:"Start of the latest attempt"`
	FinalizedAt *time.Time      `json:"finalizedAt" doc:"When the job completed, was cancelled or was discarded"`
}

type jobPageBody struct {
	Counts     jobCountsBody `json:"counts" doc:"Jobs per state (of the kind filter, if any)"`
	Jobs       []jobBody     `json:"jobs"`
	NextCursor string        `json:"nextCursor,omitempty" doc:"Pass as cursor for the next page; absent on the last page"`
}

type JobListOutput struct {
	Body envelope[jobPageBody]
}

type JobOutput struct {
	Body envelope[jobBody]
}

func toJobBody(j *jobs.Job) jobBody {
	b := jobBody{ID: j.ID, Kind: j.Kind, State: j.State, Queue: j.Queue, Attempt: j.Attempt, MaxAttempts: j.MaxAttempts,
		Args: j.Args, Errors: make([]jobErrorBody, 0, len(j.Errors)), CreatedAt: j.CreatedAt, ScheduledAt: j.ScheduledAt,
		AttemptedAt: j.AttemptedAt, FinalizedAt: j.FinalizedAt}
	for _, e := range j.Errors {
		b.Errors = append(b.Errors, jobErrorBody{Attempt: e.Attempt, At: e.At, Message: e.Message})
	}
	return b
}

func addJobRoutes(a huma.API, js *jobs.Service) {
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-jobs-list", Method: http.MethodGet, Path: "/api/admin/jobs", Tags: []string{"Admin"},
		Summary:     "List background jobs",
		Description: "Background jobs (renewals, notifications, clean-ups), newest first, with the number of jobs in each state. Admins only.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, func(ctx context.Context, in *JobListInput) (*JobListOutput, error) {
		page, err := js.List(ctx, jobs.Filter{State: in.State, Kind: in.Kind, Limit: in.Limit, Cursor: in.Cursor})
		if err != nil {
			return nil, fail(ctx, err)
		}
		c := page.Counts
		body := jobPageBody{
			Counts: jobCountsBody{Available: c["available"], Scheduled: c["scheduled"], Running: c["running"],
				Retryable: c["retryable"], Completed: c["completed"], Cancelled: c["cancelled"], Discarded: c["discarded"]},
			Jobs:       make([]jobBody, 0, len(page.Jobs)),
			NextCursor: page.NextCursor,
		}
		for i := range page.Jobs {
			body.Jobs = append(body.Jobs, toJobBody(&page.Jobs[i]))
		}
		return &JobListOutput{Body: ok(body)}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-job-retry", Method: http.MethodPost, Path: "/api/admin/jobs/{id}/retry", Tags: []string{"Admin"},
		Summary:     "Retry a job",
		Description: "Makes the job available to run at once. A failed (discarded) or cancelled job runs again, with one more attempt if it had used them all. A running job cannot be retried. Admins only.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *IDInput) (*JobOutput, error) {
		j, err := js.Retry(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &JobOutput{Body: ok(toJobBody(j))}, nil
	})

	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-job-cancel", Method: http.MethodPost, Path: "/api/admin/jobs/{id}/cancel", Tags: []string{"Admin"},
		Summary:     "Cancel a job",
		Description: "Cancels a job that is waiting or retrying; a running job is asked to stop. A completed or discarded job cannot be cancelled. Admins only.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *IDInput) (*JobOutput, error) {
		j, err := js.Cancel(ctx, in.ID)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &JobOutput{Body: ok(toJobBody(j))}, nil
	})
}
