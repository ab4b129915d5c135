package account

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// PurgeSessionsArgs asks for expired sessions and stale throttle windows to
// be deleted.
type PurgeSessionsArgs struct{}

// Kind identifies the job.
func (PurgeSessionsArgs) Kind() string { return "account.purge_sessions" }

// PurgeSessionsWorker runs PurgeSessionsArgs jobs.
type PurgeSessionsWorker struct {
	river.WorkerDefaults[PurgeSessionsArgs]
	Accounts *Service
}

// Work deletes what has expired.
func (w *PurgeSessionsWorker) Work(ctx context.Context, _ *river.Job[PurgeSessionsArgs]) error {
	_, err := w.Accounts.PurgeExpired(ctx)
	return err
}

// AddWorkers registers the account jobs and returns their schedules.
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &PurgeSessionsWorker{Accounts: s})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) { return PurgeSessionsArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
