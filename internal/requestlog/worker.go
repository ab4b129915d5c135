package requestlog

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// PruneArgs asks for entries older than KeepFor to be deleted.
type PruneArgs struct{}

// Kind identifies the job.
func (PruneArgs) Kind() string { return "requestlog.prune" }

// PruneWorker runs PruneArgs jobs.
type PruneWorker struct {
	river.WorkerDefaults[PruneArgs]
	Logs *Service
}

// Work deletes what is older than KeepFor.
func (w *PruneWorker) Work(ctx context.Context, _ *river.Job[PruneArgs]) error {
	_, err := w.Logs.Prune(ctx)
	return err
}

// AddWorkers registers the prune job and returns its schedule: hourly, so
// that an entry outlives KeepFor by an hour at most.
func (s *Service) AddWorkers(workers *river.Workers) []*river.PeriodicJob {
	river.AddWorker(workers, &PruneWorker{Logs: s})
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) { return PruneArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
}
