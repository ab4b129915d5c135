package idempotency

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// PurgeArgs asks for keys and answers older than KeepFor to be deleted.
type PurgeArgs struct{}

// Kind identifies the job.
func (PurgeArgs) Kind() string { return "idempotency.purge" }

// PurgeWorker runs PurgeArgs jobs.
type PurgeWorker struct {
	river.WorkerDefaults[PurgeArgs]
	Store *Store
}

// Work deletes what is older than KeepFor.
func (w *PurgeWorker) Work(ctx context.Context, _ *river.Job[PurgeArgs]) error {
	_, err := w.Store.Purge(ctx)
	return err
}

// AddWorkers registers the purge job and returns its schedule.
func (s *Store) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &PurgeWorker{Store: s})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) { return PurgeArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
