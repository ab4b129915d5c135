package requestlog

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nameport/nameport/internal/db"
)

// Recorder takes entries from requests and writes them in batches: a
// request only puts its entry on a bounded queue, never waiting; when the
// queue is full the entry is dropped and counted (Stats), since a slow
// database must not slow /v1. Run writes what is queued.
type Recorder struct {
	db    *db.DB
	off   bool
	queue chan Entry
	// batched is signalled when the queue holds a batch: Run sleeps until
	// then or until its ticker, never woken for each entry (a goroutine
	// wake for every /v1 request cost more than its row's insert).
	batched    chan struct{}
	flushes    chan chan error
	batchSize  int
	flushEvery time.Duration

	written, dropped, failed atomic.Uint64

	// full and one are the prepared inserts of a full batch and of one
	// entry; only Run's goroutine uses them.
	full, one *sql.Stmt
}

func newRecorder(d *db.DB, o Options) *Recorder {
	if o.Buffer <= 0 {
		o.Buffer = 16384
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 1024
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = 500 * time.Millisecond
	}
	r := &Recorder{db: d, off: o.Off, batchSize: o.BatchSize, flushEvery: o.FlushEvery,
		flushes: make(chan chan error), batched: make(chan struct{}, 1)}
	if !o.Off {
		r.queue = make(chan Entry, o.Buffer)
	}
	return r
}

// Recording reports whether Record keeps entries (--v1-request-log).
func (r *Recorder) Recording() bool { return !r.off }

// Record queues e to be written; it never blocks. e.CreatedAt is when the
// request began.
func (r *Recorder) Record(e Entry) {
	if r.off {
		return
	}
	select {
	case r.queue <- e:
		if len(r.queue) >= r.batchSize {
			select {
			case r.batched <- struct{}{}:
			default:
			}
		}
	default:
		r.dropped.Add(1)
	}
}

// Stats are the recorder's counts since the process started.
type Stats struct {
	// Written entries are in the database; Dropped ones found the queue
	// full; Failed ones were in a batch the database refused.
	Written, Dropped, Failed uint64
}

// Stats returns the recorder's counts.
func (r *Recorder) Stats() Stats {
	return Stats{Written: r.written.Load(), Dropped: r.dropped.Load(), Failed: r.failed.Load()}
}

// Flush writes every entry recorded before it was called and returns once
// they are in the database (or their batch failed). It needs Run running;
// otherwise it waits for ctx. With recording off it returns at once.
func (r *Recorder) Flush(ctx context.Context) error {
	if r.off {
		return nil
	}
	reply := make(chan error, 1)
	select {
	case r.flushes <- reply:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run writes queued entries until ctx ends, then writes what is still
// queued and returns: the server stops it after the HTTP server has
// finished its requests, so that their entries are kept. It writes when
// the queue holds a full batch and every FlushEvery, whichever comes
// first, so an entry waits at most FlushEvery. logger nil means
// slog.Default.
func (r *Recorder) Run(ctx context.Context, logger *slog.Logger) {
	if r.off {
		return
	}
	if logger == nil {
		logger = slog.Default()
	}
	batch := make([]Entry, 0, r.batchSize)
	write := func() error {
		if len(batch) == 0 {
			return nil
		}
		// A write runs to its end even when ctx ends meanwhile: what it
		// took from the queue would be lost otherwise.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		err := r.insert(wctx, batch)
		if err != nil {
			logger.Warn("request log: write batch", "entries", len(batch), "err", err)
		}
		batch = batch[:0]
		return err
	}
	// drain writes what is queued now, in full batches and then the rest;
	// entries queued meanwhile wait for the next drain.
	drain := func() error {
		var errs error
		for n := len(r.queue); n > 0; n-- {
			batch = append(batch, <-r.queue)
			if len(batch) == r.batchSize {
				if err := write(); err != nil {
					errs = err
				}
			}
		}
		if err := write(); err != nil {
			errs = err
		}
		return errs
	}
	tick := time.NewTicker(r.flushEvery)
	defer tick.Stop()
	for {
		select {
		case <-r.batched:
			_ = drain()
		case <-tick.C:
			_ = drain()
		case reply := <-r.flushes:
			reply <- drain()
		case <-ctx.Done():
			_ = drain()
			return
		}
	}
}

// insertColumns are the columns insert writes, in its order.
const insertColumns = "created_us, user_id, key_id, method, path, status, latency_us, idempotency_key, request_id"

// insert writes batch in one transaction: full batches with one
// statement of BatchSize rows, the rest a row at a time, each statement
// prepared once. This runs for every /v1 request, on SQLite in the API
// process itself, so its cost is the requests' cost: a multi-row insert
// written afresh for each batch spent a third of its time having SQLite
// parse it.
func (r *Recorder) insert(ctx context.Context, batch []Entry) (err error) {
	defer func() {
		if err != nil {
			r.failed.Add(uint64(len(batch)))
			err = fmt.Errorf("requestlog: insert %d entries: %w", len(batch), err)
		} else {
			r.written.Add(uint64(len(batch)))
		}
	}()
	if r.full == nil {
		if r.full, err = r.db.Bun.DB.PrepareContext(ctx, r.insertSQL(r.batchSize)); err != nil {
			return err
		}
		if r.one, err = r.db.Bun.DB.PrepareContext(ctx, r.insertSQL(1)); err != nil {
			r.full.Close()
			r.full = nil
			return err
		}
	}
	tx, err := r.db.Bun.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	args := make([]any, 0, 9*r.batchSize)
	for rest := batch; len(rest) > 0; {
		stmt, n := r.one, 1
		if len(rest) >= r.batchSize {
			stmt, n = r.full, r.batchSize
		}
		args = args[:0]
		for i := range rest[:n] {
			args = r.appendArgs(args, &rest[i])
		}
		if _, err = tx.StmtContext(ctx, stmt).ExecContext(ctx, args...); err != nil {
			return err
		}
		rest = rest[n:]
	}
	return tx.Commit()
}

// insertSQL is the insert of n rows, with the engine's placeholders.
func (r *Recorder) insertSQL(n int) string {
	var q strings.Builder
	q.WriteString("INSERT INTO request_logs (" + insertColumns + ") VALUES ")
	for i := range n {
		if i > 0 {
			q.WriteByte(',')
		}
		if r.db.Engine == db.Postgres {
			k := 9 * i
			fmt.Fprintf(&q, "($%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d,$%d)", k+1, k+2, k+3, k+4, k+5, k+6, k+7, k+8, k+9)
		} else {
			q.WriteString("(?,?,?,?,?,?,?,?,?)")
		}
	}
	return q.String()
}

// appendArgs appends e's values, in insertColumns' order.
func (r *Recorder) appendArgs(args []any, e *Entry) []any {
	e.clean()
	return append(args, e.CreatedAt.UnixMicro(), e.UserID, e.KeyID, e.Method, e.Path, e.Status, e.LatencyMicros, e.IdempotencyKey, e.RequestID)
}
