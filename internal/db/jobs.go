package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
)

// JobsConfig configures the River client of a process.
type JobsConfig struct {
	// Workers runs jobs in this process; nil makes an insert-only client
	// (processes without the worker role still enqueue).
	Workers      *river.Workers
	PeriodicJobs []*river.PeriodicJob
	MaxWorkers   int
	// Queues are queues besides the default one, with how many of their
	// jobs run at once: work that comes in bursts (forwarded mail) gets
	// its own, so it neither waits behind nor holds up the rest.
	Queues map[string]int
	Logger *slog.Logger
}

// jobQueue hides River's transaction type parameter, which differs by engine.
type jobQueue interface {
	insertTx(ctx context.Context, tx any, args river.JobArgs, opts *river.InsertOpts) error
	insertManyTx(ctx context.Context, tx any, jobs []river.InsertManyParams) error
	start(ctx context.Context) error
	stop(ctx context.Context) error
}

type riverQueue[TTx any] struct{ client *river.Client[TTx] }

func (q riverQueue[TTx]) insertTx(ctx context.Context, tx any, args river.JobArgs, opts *river.InsertOpts) error {
	typed, ok := tx.(TTx)
	if !ok {
		return fmt.Errorf("db: transaction %T does not belong to this engine", tx)
	}
	_, err := q.client.InsertTx(ctx, typed, args, opts)
	return err
}
func (q riverQueue[TTx]) insertManyTx(ctx context.Context, tx any, jobs []river.InsertManyParams) error {
	typed, ok := tx.(TTx)
	if !ok {
		return fmt.Errorf("db: transaction %T does not belong to this engine", tx)
	}
	_, err := q.client.InsertManyFastTx(ctx, typed, jobs)
	return err
}
func (q riverQueue[TTx]) start(ctx context.Context) error { return q.client.Start(ctx) }
func (q riverQueue[TTx]) stop(ctx context.Context) error  { return q.client.Stop(ctx) }

// SetupJobs creates the River client. Call it once, before Enqueue or
// StartJobs.
func (d *DB) SetupJobs(cfg JobsConfig) error {
	if d.jobs != nil {
		return errors.New("db: jobs already set up")
	}
	// Jobs left running by a crashed process are retried after five minutes
	// rather than River's default hour: every job here finishes well within
	// River's one-minute job timeout, and each tolerates running twice.
	rc := &river.Config{Logger: cfg.Logger, PeriodicJobs: cfg.PeriodicJobs, RescueStuckJobsAfter: 5 * time.Minute}
	if cfg.Workers != nil {
		maxWorkers := cfg.MaxWorkers
		if maxWorkers <= 0 {
			maxWorkers = 10
		}
		rc.Workers = cfg.Workers
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: maxWorkers}}
		for name, n := range cfg.Queues {
			rc.Queues[name] = river.QueueConfig{MaxWorkers: n}
		}
	}
	var err error
	switch d.Engine {
	case SQLite:
		var c *river.Client[*sql.Tx]
		if c, err = river.NewClient(riversqlite.New(d.sqlDB), rc); err == nil {
			d.jobs = riverQueue[*sql.Tx]{c}
		}
	case Postgres:
		var c *river.Client[pgx.Tx]
		if c, err = river.NewClient(riverpgxv5.New(d.pgPool), rc); err == nil {
			d.jobs = riverQueue[pgx.Tx]{c}
		}
	}
	if err != nil {
		return fmt.Errorf("db: create job client: %w", err)
	}
	return nil
}

// StartJobs starts working jobs (a client with workers only).
func (d *DB) StartJobs(ctx context.Context) error {
	if d.jobs == nil {
		return errors.New("db: jobs not set up")
	}
	return d.jobs.start(ctx)
}

// StopJobs waits for running jobs to finish, or for ctx to end.
func (d *DB) StopJobs(ctx context.Context) error {
	if d.jobs == nil {
		return nil
	}
	return d.jobs.stop(ctx)
}
