package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"riverqueue.com/riverui"
	"riverqueue.com/riverui/uiendpoints"
)

// JobClient is the part of River's client that does not depend on the
// engine's transaction type: listing jobs and acting on one by id. Both
// drivers implement it alike.
type JobClient interface {
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobRetry(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobCancel(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// jobClient hands out the typed River client behind the engine-neutral
// interface.
func (q riverQueue[TTx]) jobClient() JobClient { return q.client }

// Jobs returns the River client of this process for reading and managing
// jobs. It exists once SetupJobs has run (an insert-only client works too).
func (d *DB) Jobs() (JobClient, error) {
	q, ok := d.jobs.(interface{ jobClient() JobClient })
	if !ok {
		return nil, errors.New("db: jobs not set up")
	}
	return q.jobClient(), nil
}

// RiverUI returns River's own web UI over this process's River client,
// serving under prefix (which the caller guards). It runs until ctx ends.
// The UI ships built inside its Go module: nothing is fetched at run time.
func (d *DB) RiverUI(ctx context.Context, logger *slog.Logger, prefix string) (http.Handler, error) {
	q, ok := d.jobs.(interface{ uiEndpoints() uiendpoints.Bundle })
	if !ok {
		return nil, errors.New("db: jobs not set up")
	}
	h, err := riverui.NewHandler(&riverui.HandlerOpts{Endpoints: q.uiEndpoints(), Logger: logger, Prefix: prefix})
	if err != nil {
		return nil, fmt.Errorf("db: river ui: %w", err)
	}
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("db: start river ui: %w", err)
	}
	return h, nil
}

func (q riverQueue[TTx]) uiEndpoints() uiendpoints.Bundle { return riverui.NewEndpoints(q.client, nil) }
